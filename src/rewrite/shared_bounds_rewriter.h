// The shared-bounds rewriter: every access chain into a shared (Workgroup) array gets each
// index that is not a constant within bounds clamped to the array's last element (and a vector's
// or matrix's last component or column), so that no kernel, traced or not, writes past a shared
// array. A driver that keeps workgroup memory in host memory (lavapipe) would otherwise let such a
// write corrupt the worker process's heap, and every kernel the worker runs afterwards. The clamp
// only ever changes an access that is out of bounds: the trace still records the index the kernel
// asked for (the access log reads the chain's own indices), so the check still reports it.
#pragma once

#include <cstdint>
#include <vector>

#include "shader/spirv_module.h"

namespace vkp {

class SharedBoundsRewriter {
  public:
    explicit SharedBoundsRewriter(SpirvModule& module) : m_module(module) {}

    // The instruction to emit in place of `inst`: an access chain into shared memory with its
    // indices clamped (the clamps appended to `out` first), anything else as it is.
    SpirvInstruction rewrite(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);

    uint32_t clamped() const { return m_clamped; } // indices given a clamp

  private:
    bool knownBelow(uint32_t index, uint32_t length) const;

    SpirvModule& m_module;
    uint32_t m_clamped = 0;
};

} // namespace vkp
