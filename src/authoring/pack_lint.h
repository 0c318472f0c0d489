// What `pack check` finds in a puzzle without running anything: a statement that does not name a
// buffer, two cases that are the same, and cases too weak to catch common mistakes.
#pragma once

#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "puzzle/puzzle.h"

namespace vkp {

// Each diagnostic is one sentence the author can act on, at puzzle.toml (at the case when about
// one); an error fails the check. Errors: a buffer the statement never names; two cases with the
// same launch (workgroup size, workgroups, constants) and the same data. Warnings
// (docs/puzzle-format.md, "Pack check"): every case square in a 2-D puzzle; one workgroup in every
// case of a kernel that uses the workgroup id or the global id (unless the statement says "one
// workgroup is launched"); every size a multiple of the workgroup size; no case with fewer elements
// than the workgroup size when some case launches more threads than elements; an input whose
// elements are all equal in a case; a rule the statement states that nothing checks.
// `solutionTexts`: the official kernels' sources.
std::vector<Diagnostic> lintPuzzle(const Puzzle& puzzle,
                                   const std::vector<std::string>& solutionTexts);

// The rules the statement states that nothing checks: its sentences that say what a kernel "must"
// do (or "may only" do) which no [[rules]] entry quotes, no [limits] budget counts, no output's
// comparison and none of the checks every kernel gets (other subgroup sizes, loop budgets, races,
// bounds, barriers, inputs left unwritten) covers, and that the statement does not itself call
// unchecked ("not checked", "not enforced"); whitespace folded, in the statement's order. Pack
// check lists them as warnings, for authors.
std::vector<std::string> uncheckedStatedRules(const Puzzle& puzzle);

// Whether the statement says "one workgroup is launched" (in any case of letters): a puzzle
// whose launch is one workgroup on purpose, neither a weak case list nor a fixed benchmark.
bool promisesOneWorkgroup(const Puzzle& puzzle);

} // namespace vkp
