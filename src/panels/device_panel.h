// The device picker (a GPU or lavapipe) and what the chosen device offers: subgroup size and the
// limits puzzles run into.
#pragma once

#include <string>

#include <imgui.h>

#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class DevicePanel {
  public:
    // `uiDevice` names the separate device that draws the window.
    void draw(Workbench& wb, views::ViewState& view, ImVec2 size, const std::string& uiDevice);
};

} // namespace vkp::ui
