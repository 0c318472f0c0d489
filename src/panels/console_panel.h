// The Console tab of the memory panel: the debugPrintfEXT output of the shown case's traced run
// (trace/debug_printf.h), one row per line with its thread and kernel line; optionally only the
// selected thread's. Clicking a row selects its thread (the inspector shows it) and sends the
// editor to the line.
#pragma once

#include <memory>
#include <vector>

#include "trace/debug_printf.h"
#include "views/view_state.h"
#include "workbench/shown_case.h"

namespace vkp::ui {

class ConsoleView {
  public:
    void draw(views::ViewState& view, const ShownCase& sc);
    // The label of the tab: "Console", with the number of lines when there are some.
    std::string tabLabel(const ShownCase& sc);

  private:
    const std::vector<PrintfLine>& linesOf(const ShownCase& sc);
    void drawRows(views::ViewState& view, const ShownCase& sc, const std::vector<size_t>& rows);

    std::shared_ptr<const Trace> m_trace; // the trace m_lines were formatted from (kept alive)
    std::vector<PrintfLine> m_lines;
    bool m_onlySelected = false; // filter: the selected thread's lines only
};

} // namespace vkp::ui
