// Test cases and results: per case pass/fail, the launch shape, and what went wrong; selecting a
// case shows it in the buffers panel and the thread grid. What it says is views/case_list.h's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "panels/bench_view.h"
#include "panels/own_case_form.h"
#include "views/case_list.h"
#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class CasesPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, ImVec2 size);
    void forgetPuzzle() { m_scrolledTo = -1; } // the new puzzle's first case scrolls into view

  private:
    // What the list is drawn from (views/case_list.h); keeps the line offsets of the report's text.
    views::CaseListFacts facts(Workbench& wb, const views::ViewState& view);
    // Above the list: Add a case and Benchmark at large N, or what a case file is.
    void drawActions(Workbench& wb, const views::CaseList& list);
    void drawCase(views::ViewState& view, const views::CaseRow& row);
    static void drawCaseTooltip(const views::CaseRow& row);
    // Under the list: the remove button of a selected case of the learner's own.
    void drawOwnCaseRemove(Workbench& wb, views::ViewState& view);
    // Under it: a run beside the check (other subgroup sizes, atomics in reverse lane order, the
    // puzzle's generated cases, with the one that failed to keep), due or done.
    static void drawBeside(Workbench& wb, views::ViewState& view, const views::BesideRun& run);
    OwnCaseForm m_form;
    BenchView m_bench;
    int m_scrolledTo = -1;                           // the case last scrolled into view
    std::shared_ptr<const std::string> m_offsetsFor; // the report's text the line offsets are of
    std::vector<uint32_t> m_offsets;                 // its kernels' lines in the whole text
};

} // namespace vkp::ui
