// The Timeline view of the memory panel: one workgroup of the shown case stepped barrier round by
// barrier round, or access by access (round by round; within a round thread by thread in local
// index order, each in program order: see views/timeline.h), with a scrubber, step buttons and
// keyboard shortcuts. Shared arrays and the buffers show their contents at that point, the cells
// the last step changed highlighted and the current access ringed.
#pragma once

#include <imgui.h>

#include "views/view_state.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class TimelineView {
  public:
    void draw(Workbench& wb, views::ViewState& view, const ShownCase& sc);

  private:
    void drawControls(views::ViewState& view, const ShownCase& sc, views::Timeline& tl);
};

} // namespace vkp::ui
