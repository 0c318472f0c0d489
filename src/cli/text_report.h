// Human-readable output of the CLI: puzzles, check reports, buffers.
#pragma once

#include <ostream>
#include <string>

#include "check/check.h"
#include "cli/style.h"
#include "device/device_info.h"
#include "puzzle/puzzle.h"
#include "puzzle/puzzle_loader.h"

namespace vkp::cli {

std::string launchText(const Puzzle& p, const TestCase& c); // "(3, 3) x (1, 1) = 9 threads"

void printPuzzleList(std::ostream& os, const PuzzleSet& set,
                     const Style& st); // the built-in puzzles, then each pack
void printPuzzle(std::ostream& os, const Puzzle& p, const Style& st);
void printDevice(std::ostream& os, const DeviceInfo& d, bool selected, const Style& st);
// `sources`: the kernels' texts, found by each diagnostic's file.
void printDiagnostics(std::ostream& os, const CheckReport& r,
                      const std::vector<KernelSource>& sources, const Style& st);
// One line per case, mismatches summarised; `runHint` names the command that shows a case in full.
// `shown`: the messages and this many cases were printed already, as the check went
// (printCase), and only the rest follows; `shownSizes`: the same for r.otherSizes.
// The runs at other subgroup sizes follow the cases, then what they say and the summary.
void printCheck(std::ostream& os, const Puzzle& p, const CheckReport& r,
                const std::vector<KernelSource>& sources, const std::string& runHint,
                const Style& st, size_t shown = 0, size_t shownSizes = 0);
// The run with fresh random inputs: its seed, and its first failing cases.
// The puzzle's searches: how many generated cases passed, or the smallest failing one, its inputs
// and the command that runs it.
void printCaseSearch(std::ostream& os, const CaseSearchRun& s, const std::string& runHint,
                     const Style& st);
// The run with atomics in reverse lane order: a dim line when it passes, else FAIL, its
// first failures and what an order-dependent result means.
void printReversedOrder(std::ostream& os, const ReversedOrderRun& r, const Style& st);
void printFreshInputs(std::ostream& os, const FreshInputsRun& f, bool fixedPass, const Style& st);
// One run at another subgroup size: its verdict, device and first failing cases.
void printSubgroupSize(std::ostream& os, const SubgroupSizeRun& s, const Style& st);
// One case of printCheck: its line, wrong cells, findings and where to see it in full.
void printCase(std::ostream& os, const Puzzle& p, const CaseOutcome& c, const std::string& runHint,
               const Style& st);
void printTiming(std::ostream& os, const StageTimings& t);
// What the trace found wrong in a case (races, bounds, limits) and the puzzle's notes, each line
// after `indent`.
void printCaseFindings(std::ostream& os, const CaseOutcome& c, const std::string& indent,
                       const Style& st);
// A case's launch shape and all buffers: inputs, expected and actual, mismatches marked; then its
// verdict and what the trace found.
void printCaseBuffers(std::ostream& os, const Puzzle& p, const CaseOutcome& c, const Style& st);
void printBuffer(std::ostream& os, const std::string& label, const BufferDecl& decl,
                 const BufferData& data, const BufferComparison* verdict, const Style& st);

} // namespace vkp::cli
