// The barrier-rounds rewriter: every control barrier gets a record before it, from which the host
// derives barrier rounds (a workgroup barrier() ends one) and the subgroup ordering that the
// race analysis needs (subgroupBarrier()).
#pragma once

#include <vector>

#include "rewrite/instrument_state.h"

namespace vkp {

class BarrierRoundsRewriter {
  public:
    explicit BarrierRoundsRewriter(InstrumentState& state) : m_state(state) {}

    void before(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);

  private:
    uint32_t executionScope(uint32_t scopeId) const;

    InstrumentState& m_state;
};

} // namespace vkp
