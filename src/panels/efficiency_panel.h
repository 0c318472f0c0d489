// The Efficiency tab (side panel): the memory model the figures are for, then the shown case's
// lines most costly first (line, badge, sentence); a click sends the editor to the line and shows
// its worst request in the buffers view. Without figures it says why (not run, not traced,
// nothing to improve).
#pragma once

#include <imgui.h>

#include "views/view_state.h"
#include "workbench/shown_case.h"

namespace vkp::ui {

class EfficiencyPanel {
  public:
    void draw(views::ViewState& view, const ShownCase& sc, ImVec2 size);

  private:
    void drawLines(views::ViewState& view, const ShownCase& sc, const EfficiencyReport& report);
};

// This frame's request cells (view.requestCells): the hovered access's request, else the one
// picked for the trace on show. Once per frame, after shownCase().
void resolveRequest(views::ViewState& view, const ShownCase& sc);

// Shows `line`'s worst request in the buffers view (the Efficiency panel's click).
void pickLineRequest(views::ViewState& view, const EfficiencyReport& report,
                     const LineEfficiency& line);

} // namespace vkp::ui
