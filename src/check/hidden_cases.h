// What a learner may see of a case the teacher hid (`hidden = true` in puzzle.toml): that it
// exists, whether it passes, and the kind of failure (wrong values, race, out of bounds, endless
// loop, timeout...), never its inputs, sizes, launch shape, constants, expected or actual values,
// threads, cells or timings. Every front end turns a report into the learner's view here, once,
// so that no printer has to remember what to leave out.
#pragma once

#include <string>

#include "check/check.h"
#include "puzzle/puzzle.h"

namespace vkp {

// What stands for a hidden case's launch, name and data wherever a case is listed.
inline constexpr const char* kHiddenCaseText = "hidden by your teacher";

// The learner's view of a hidden case's outcome: pass/fail kept, the data dropped, each finding
// and error reduced to its kind and (for findings) the kernel line; `hidden` set.
CaseOutcome hiddenCaseView(const Puzzle& puzzle, const CaseOutcome& outcome);

// Replaces the outcome of every hidden case of `puzzle` in `report` by its learner's view.
void hideHiddenCases(CheckReport& report, const Puzzle& puzzle);
// The same for one run at another subgroup size: a hidden case's failure keeps no detail.
void hideHiddenCases(SubgroupSizeRun& run, const Puzzle& puzzle);

// A finding of a hidden case as the learner reads it: its kind in words and the kernel line.
std::string hiddenFindingText(FindingKind kind, uint32_t line);

// Whether case `index` (0-based) of `puzzle` is hidden from the learner.
bool caseHidden(const Puzzle& puzzle, size_t index);

} // namespace vkp
