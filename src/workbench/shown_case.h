// The case the bottom panels show: the selected case of the learner's latest run or, while a
// walkthrough plays, the official solution's run of the walkthrough's case; and of a multi-pass
// case, one dispatch (the picker's choice, else the first with a failing finding, else the
// first). Every panel draws from this one (Trace, TraceAnalysis) pair and launch.
#pragma once

#include <memory>
#include <string>

#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

struct ShownCase {
    const Puzzle* puzzle = nullptr;
    size_t index = 0; // 0-based case
    // The launch on show: the case itself, or for a multi-pass case a copy with the shown
    // dispatch's workgroup count (the case's own is not a launch).
    const TestCase* testCase = nullptr;
    const CaseOutcome* outcome = nullptr;      // null: not run (yet)
    const CheckReport* report = nullptr;       // the report it came from (null: none yet)
    bool official = false;                     // the official solution's run (walkthrough)
    std::shared_ptr<const std::string> source; // the kernel text that ran (the whole text)
    // Multi-pass puzzles: the dispatch on show and what is known about it.
    size_t dispatch = 0;   // 0-based index into the case's dispatches
    size_t dispatches = 0; // dispatches of the case with a trace (> 1: the picker)
    const views::DispatchEntry* entry =
        nullptr; // its label, kernel, launch, bindings (multi-pass only)
    const views::DispatchMemory* memory =
        nullptr; // buffers before and after it, replayed (multi-pass, run)
    std::shared_ptr<const Trace> shownTrace; // its trace, lines of the whole text
    std::shared_ptr<const TraceAnalysis> shownAnalysis;

    const Trace* trace() const { return shownTrace.get(); }
    const TraceAnalysis* analysis() const { return shownAnalysis.get(); }
    uint64_t workgroups() const;
    bool multiPass() const { return entry != nullptr; }
    // Every buffer's contents when the shown dispatch began (the case's initial data for the
    // first); null when the case did not run.
    const std::vector<BufferData>* startData() const;
};

// Works out the shown case and points view.traces at its trace (once per frame, in MainView).
ShownCase shownCase(Workbench& wb, views::ViewState& view);

} // namespace vkp::ui
