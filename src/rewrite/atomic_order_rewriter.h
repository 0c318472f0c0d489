// A pass over one kernel's SPIR-V that makes the lanes of every subgroup perform each atomic
// operation in reverse order: the atomic goes into a loop over the subgroup's lanes, from the last
// to the first, where only the lane whose turn it is runs it. Vulkan orders no two lanes' atomics,
// and devices differ (lavapipe runs a subgroup's atomics lane 0 first); a kernel whose result
// depends on that order (keys ranked by a shared atomicAdd, which is not stable; elements
// compacted to the slots an atomic counter hands out) is right on one device and wrong on
// another, and comes out different here. Nothing else changes: the same threads, with the same
// ids and lanes, do the same operations.
// An atomic in a loop's header block (where no code may go between its phis and its merge) is
// left in place.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"

namespace vkp {

// The kernel with its atomics in reverse lane order (above).
Result<std::vector<uint32_t>> reverseAtomicOrder(std::span<const uint32_t> spirv);

} // namespace vkp
