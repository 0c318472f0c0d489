// The case the bottom panels show: the selected case of the learner's latest run or, while a
// walkthrough plays, the official solution's run of the walkthrough's case. Every panel draws
// from this one (Trace, TraceAnalysis) pair, so a pass picker can later choose among several.
#pragma once

#include <memory>
#include <string>

#include "ui/view_state.h"
#include "ui/workbench.h"

namespace vkp::ui {

struct ShownCase {
    const Puzzle* puzzle = nullptr;
    size_t index = 0;                       // 0-based case
    const TestCase* testCase = nullptr;
    const CaseOutcome* outcome = nullptr;   // null: not run (yet)
    const CheckReport* report = nullptr;    // the report it came from (null: none yet)
    bool official = false;                  // the official solution's run (walkthrough)
    std::shared_ptr<const std::string> source; // the kernel text that ran

    const Trace* trace() const { return outcome && outcome->trace ? outcome->trace.get() : nullptr; }
    const TraceAnalysis* analysis() const { return outcome && outcome->analysis ? outcome->analysis.get() : nullptr; }
    uint64_t workgroups() const;
};

// Works out the shown case and points view.traces at its trace (once per frame, in MainView).
ShownCase shownCase(Workbench& wb, ViewState& view);

} // namespace vkp::ui
