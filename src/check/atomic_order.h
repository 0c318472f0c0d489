// Verdicts that hold in any order of atomics. A kernel with atomics is checked again, untraced,
// with every subgroup's lanes doing each atomic last lane first (rewrite/atomic_order_rewriter.h):
// devices order a subgroup's atomics as they like (lavapipe: lane 0 first), and a kernel whose
// result depends on it (keys ranked by a shared atomicAdd, which is not stable; elements
// compacted to the slots an atomic counter hands out) is right on one device and wrong on another.
// In reverse order its atomics come the other way round, and the case fails.
#pragma once

#include <vector>

#include "check/check.h"
#include "puzzle/puzzle.h"

namespace vkp {

class Compiler;
class DeviceRunner;

// Whether checkReversedOrder has something to run: some kernel performs atomics and a case ran to
// the end (one that never finished has had its budget).
bool reversedOrderApplies(const CheckReport& report);

// The report's cases that ran to the end, again on `runner` with atomics in reverse lane order,
// untraced; report.reversed holds what they did.
void checkReversedOrder(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                        const std::vector<KernelSource>& sources, const CheckOptions& options,
                        CheckReport& report);

} // namespace vkp
