// Keeps a kernel's loops as loops on the device: every OpLoopMerge asks the driver not to unroll
// (LoopControl DontUnroll, replacing Unroll, PeelCount and PartialCount). A check runs a kernel
// once on small cases, so an unrolled loop buys nothing there and costs its compile: a loop over a
// specialization constant (ITEMS = 8) unrolled by lavapipe is eight copies of its body, each with
// its trace records, and on Mesa 25 each record is some forty branches per SIMD group. What a
// kernel computes is the same either way. Not for bench, which times the kernel as written.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"

namespace vkp {

Result<std::vector<uint32_t>> keepLoopsRolled(std::span<const uint32_t> spirv);

} // namespace vkp
