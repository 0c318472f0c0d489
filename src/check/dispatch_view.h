// One dispatch of a checked case, as the walkthrough players and their validation see it: its
// trace and analysis, the kernel it ran and its label.
#pragma once

#include <string>
#include <vector>

#include "check/check.h"
#include "judge/walkthrough_steps.h"

namespace vkp {

struct DispatchView {
    const Trace* trace = nullptr; // null: the dispatch has no trace (or does not exist)
    const TraceAnalysis* analysis = nullptr;
    size_t kernel = 0; // index into Puzzle::kernels
    std::string label; // "scatter (lap 1 of 8)"; "" for a single-pass case
};

// Dispatch d of a case (d = 0 for a single-pass case's one dispatch).
DispatchView dispatchView(const CaseOutcome& c, size_t d);

// What validateWalkthrough checks the steps against: per dispatch of the case, its trace and its
// kernel's official text (`sources` in Puzzle::kernels order).
std::vector<WalkthroughSubject> walkthroughSubjects(const CaseOutcome& c,
                                                    const std::vector<KernelSource>& sources);

} // namespace vkp
