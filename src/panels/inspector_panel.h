// The inspector under the thread grid: the selected thread's global reads and writes against the
// puzzle's limits, its debugPrintfEXT lines (the first kPrintfShown) and its accesses in order
// (order number, line, cell, value; click one: the timeline goes there and the editor to its line),
// and the selected cell's history: every thread that touched it, in order.
#pragma once

#include <imgui.h>

#include "views/view_state.h"
#include "workbench/shown_case.h"

namespace vkp::ui {

class InspectorView {
  public:
    void draw(views::ViewState& view, const ShownCase& sc);

  private:
    static constexpr size_t kPrintfShown = 8;
    void drawThread(views::ViewState& view, const ShownCase& sc, const views::Uvec3& thread);
    void drawPrintf(const Trace& trace, uint64_t invocation);
    void drawCell(views::ViewState& view, const ShownCase& sc, const views::CellRef& cell);
};

// Sends the editor (the learner's run) or the solution viewer (a walkthrough) to a line.
void showLine(views::ViewState& view, const ShownCase& sc, uint32_t line);
// Keeps the request of a thread's access (invocation, event index) coloured in the buffers views.
void pickAccessRequest(views::ViewState& view, const ShownCase& sc, uint64_t invocation,
                       size_t event);

} // namespace vkp::ui
