// `vkpuzzles check`: a kernel compiled and run against every case of a puzzle, each case printed
// as it is decided, then the other subgroup sizes, fresh inputs, atomics in reverse order and the
// puzzle's case search; `check --all`: every official solution (or starter), one line each
// (check_command.cpp). Here: what `watch` and `export` print of a check, too.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/result.h"
#include "check/check.h"
#include "cli/command_context.h"
#include "puzzle/puzzle.h"
#include "report/check_report.h"

namespace vkp::cli {

// The check of `kernels` as `check` prints it, cases as they are decided (`repeat` runs:
// the timings of the warm ones), then the other subgroup sizes and fresh inputs.
Result<CheckReport> checkPrinted(CommandContext& ctx, const Puzzle& p,
                                 const std::vector<KernelSource>& kernels, uint64_t repeat = 1);

// A check's onCase that prints each case as it is decided (the report's head before the first),
// a hidden case as students see it unless --reveal-hidden; `shown` counts the cases printed.
std::function<void(const CheckReport&)> casePrinter(CommandContext& ctx, const Puzzle& p,
                                                    const std::vector<KernelSource>& kernels,
                                                    size_t& shown);

// The report's head: the puzzle, what ran on which device, and the compiler's diagnostics.
void printCheckHead(CommandContext& ctx, const Puzzle& p, const CheckReport& r,
                    const std::vector<KernelSource>& sources);

} // namespace vkp::cli
