// Subgroup execution barriers on a device whose subgroups run in lock-step (Mesa's lavapipe).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"

namespace vkp {

// lavapipe runs each subgroup as one SIMD vector, so its lanes never drift apart and a
// subgroup-scoped execution barrier has nothing to wait for. Mesa 25 (Debian 13) nevertheless
// executes OpControlBarrier with Subgroup execution scope as a workgroup barrier: a
// subgroupBarrier() that only some subgroups reach (inside `if (gl_SubgroupID == 0)`) pairs with
// the other subgroups' next barrier() and the workgroup runs out of step (measured: the official
// scan-subgroup and scan-decoupled solutions give wrong sums there, right ones on Mesa 22 and an
// H100). For such a device every OpControlBarrier whose execution scope is Subgroup becomes an
// OpMemoryBarrier with the same memory scope and semantics, which is what it means there.
// Other instructions are copied unchanged; an error for words that are not a SPIR-V module.
Result<std::vector<uint32_t>> lockstepSubgroupBarriers(std::span<const uint32_t> words);

} // namespace vkp
