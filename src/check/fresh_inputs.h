// Fresh random inputs: the puzzle's cases with random fills (`fill = "random"`) are run again,
// untraced, with their data drawn from a fresh seed, after the check on the fixed data. A kernel
// that passes the fixed data by luck (a race that happens not to show, a value it never meets)
// fails on other data; the seed is printed, and `check --seed N` draws the same data again.
#pragma once

#include <cstdint>
#include <vector>

#include "check/check.h"
#include "puzzle/puzzle.h"

namespace vkp {

class Compiler;
class DeviceRunner;

// A seed from the system's entropy, a new one every call.
uint64_t freshSeed();

// Whether checkFreshInputs has something to run for this report: a case that draws random inputs
// ran to the end (a case that never finished, or crashed, is not run again: its budget is spent).
bool freshInputsApply(const Puzzle& puzzle, const CheckReport& report);

// The report's cases that draw random inputs, again on `runner` with inputs from `seed`
// (reseedRandomInputs), untraced; report.fresh holds what they did.
void checkFreshInputs(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                      const std::vector<KernelSource>& sources, const CheckOptions& options,
                      uint64_t seed, CheckReport& report);

} // namespace vkp
