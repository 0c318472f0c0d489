// Cases that search for the bug ([[search]] in puzzle.toml): after the check, each search
// generates its template case again at sizes and workgroup sizes drawn at random (the puzzle's
// ranges), with fresh random inputs, and runs them untraced; the first failing one is shrunk (a
// smaller size, then a smaller workgroup, while it still fails) and kept with its inputs, so the
// learner sees a small case that breaks the kernel and can run it again. The draws follow a seed:
// `check --seed N` makes the same search.
#pragma once

#include <cstdint>
#include <vector>

#include "check/check.h"
#include "puzzle/puzzle.h"

namespace vkp {

class Compiler;
class DeviceRunner;

// Whether searchCases has something to run: the puzzle declares searches and the check compiled
// and ran its cases to the end.
bool caseSearchApplies(const Puzzle& puzzle, const CheckReport& report);

// The puzzle's searches on `runner` from `seed`; report.search holds what they found.
void searchCases(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                 const std::vector<KernelSource>& sources, const CheckOptions& options,
                 uint64_t seed, CheckReport& report);

// The case a search generates: the template at `n` elements with workgroups of `workgroupSize`
// (x; 0: the template's), its random inputs drawn from `seed`.
Result<TestCase> searchCase(const Puzzle& puzzle, const SearchDecl& search, uint64_t n,
                            uint32_t workgroupSize, uint64_t seed);

// `runCommand` ("vkpuzzles run SLUG FILES") with the found case's template, inputs and
// workgroup size ("--case C --input a=1,2,3 ... --workgroup-size X"), where its inputs are
// printed (FoundCase::inputs); empty otherwise.
std::string foundCaseCommand(const FoundCase& found, const std::string& runCommand);

} // namespace vkp
