// The Look-back view of the memory panel, for a puzzle with a [lookback] table: the decoupled
// look-back of the shown dispatch's trace (views/lookback.h) as one row per tile, time left to
// right in the order the trace implies. Each row shows its status word's states as coloured
// spans (not ready, AGGREGATE, PREFIX, with the values written), the ticket that gave the tile
// to its workgroup, and that workgroup's polls of its predecessors: a mark per run of polls
// with an arrow to the tile it waited on or stopped at, the fallback marked. Hovering a mark
// explains it and lights up its thread in the other views; clicking selects the thread, shows
// its line and moves the timeline to that access. A tile's problems (a PREFIX that counted a
// tile twice, a word never published, a wait that never ended) are listed above the rows, where
// they begin; the tiles that only carry an earlier tile's wrong PREFIX in one line.
#pragma once

#include <imgui.h>

#include "views/view_state.h"
#include "workbench/shown_case.h"

namespace vkp::ui {

class LookbackView {
  public:
    void draw(views::ViewState& view, const ShownCase& sc);

  private:
    void drawProblems(const views::LookbackModel& m);
    struct Chart;
    void drawChart(views::ViewState& view, const ShownCase& sc, const views::LookbackModel& m);
    void drawTileRow(views::ViewState& view, const ShownCase& sc, const views::LookbackModel& m,
                     const views::LookbackTile& t, Chart& ch,
                     std::optional<uint64_t> selectedGroup);
    void drawPolls(views::ViewState& view, const ShownCase& sc, const views::LookbackModel& m,
                   Chart& ch);
    uint32_t m_slot = 0; // the word of each tile on show (a radix sort's digit)
};

} // namespace vkp::ui
