// The Watches view of the memory panel: for a watched kernel line, a table with a row per thread
// that ran it and a column per time it ran it (1st, 2nd, ... = loop iterations), each cell the
// cells read or written there and their values (views/watches.h). Lines are watched from the
// editor (right-click a line, or F9 on the cursor's line) and kept per puzzle.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <imgui.h>

#include "views/view_state.h"
#include "views/watches.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws

class WatchView {
  public:
    void draw(Workbench& wb, ViewState& view, const ShownCase& sc);
    // The old puzzle's watched line, variable and row texts go (the display choices stay).
    void forgetPuzzle();

  private:
    void drawLines(Workbench& wb, const std::vector<uint32_t>& lines);
    void drawTable(ViewState& view, const ShownCase& sc, const WatchTable& table);
    uint32_t m_line = 0; // the watched line on show
    WatchTextKind m_text = WatchTextKind::CellsAndValues;
    int m_variable = -1;              // trace variable to show (-1: all)
    bool m_selectedGroupOnly = false; // rows of the selected thread's workgroup only
    int m_addLine = 0;
    // Cell texts of the table on show, per row, made when a row is first drawn (not per frame).
    std::tuple<uint64_t, uint32_t, int, int> m_textsFor{UINT64_MAX, 0, 0,
                                                        0}; // generation, line, kind, variable
    std::vector<std::vector<std::string>> m_texts;
};

} // namespace vkp::ui
