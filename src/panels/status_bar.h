// The status line at the bottom of the window: what the live loop is doing, the verdict, timings,
// the device and quick toggles (theme, text size).
#pragma once

#include <string>

#include <imgui.h>

#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

struct StatusLook {
    std::string icon; // one glyph
    std::string text; // statusLine() of the snapshot
    ImU32 colour = 0;
};
StatusLook statusLook(const LiveSnapshot& s);

class StatusBar {
  public:
    void draw(Workbench& wb, views::ViewState& view, ImVec2 size, float fontScale);
};

} // namespace vkp::ui
