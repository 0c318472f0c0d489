// Test cases and results: per case pass/fail, the launch shape, and what went wrong; selecting a
// case shows it in the buffers panel and the thread grid.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "panels/bench_view.h"
#include "panels/own_case_form.h"
#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

std::string launchText(const TestCase& c); // "(4, 4) x (3, 3) = 144 threads"
// launchText, or for a multi-pass case its dispatches: "(4) x (3), (1), (3) in 3 dispatches".
std::string caseLaunchText(const Puzzle& p, size_t caseIndex);

class CasesPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, ImVec2 size);
    void forgetPuzzle() { m_scrolledTo = -1; } // the new puzzle's first case scrolls into view

  private:
    void drawActions(Workbench& wb, views::ViewState& view); // Add a case, Benchmark at large N
    void drawOwnCaseRemove(Workbench& wb,
                           views::ViewState& view); // under the list, for a selected own case
    // Under the list: the runs at other subgroup sizes, those still due, and what they say.
    void drawCase(Workbench& wb, views::ViewState& view, const Puzzle& p, const CheckReport* r,
                  size_t i, bool checking);
    static void drawCaseTooltip(const Puzzle& p, const CheckReport* r, size_t i,
                                const std::string& head, const std::string& k,
                                const std::string& verdict, ImU32 colour);
    static void drawSubgroupSizes(const Puzzle& p, const LiveSnapshot& s);
    // Under them: the run with atomics in reverse lane order, due or done.
    static void drawAtomicOrder(const LiveSnapshot& s);
    // Under it: the puzzle's generated cases, due or done, and the one that failed, to keep.
    static void drawCaseSearch(Workbench& wb, views::ViewState& view, const LiveSnapshot& s);
    OwnCaseForm m_form;
    BenchView m_bench;
    int m_scrolledTo = -1;                           // the case last scrolled into view
    std::shared_ptr<const std::string> m_offsetsFor; // the report's text the line offsets are of
    std::vector<uint32_t> m_offsets;                 // its kernels' lines in the whole text
};

} // namespace vkp::ui
