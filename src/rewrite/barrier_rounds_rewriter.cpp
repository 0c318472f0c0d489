#include "rewrite/barrier_rounds_rewriter.h"

namespace vkp {

// The value of a barrier's execution-scope operand (a constant id); Workgroup when it is not a
// plain constant, so an unknown barrier still counts.
uint32_t BarrierRoundsRewriter::executionScope(uint32_t scopeId) const {
    const SpirvInstruction* k = m_state.module.definition(scopeId);
    return k && k->opcode() == spv::Op::OpConstant && k->operandCount() >= 1
               ? k->operand(0)
               : uint32_t(spv::Scope::Workgroup);
}

void BarrierRoundsRewriter::before(const SpirvInstruction& inst,
                                   std::vector<SpirvInstruction>& out) {
    if (inst.opcode() != spv::Op::OpControlBarrier) return;
    // Only a workgroup-wide barrier() ends a barrier round; subgroupBarrier() (execution scope
    // Subgroup) orders the accesses of one subgroup, which the race analysis needs.
    uint32_t scope = executionScope(inst.operand(0)); // execution scope, memory scope, semantics
    SpirvBuilder b(m_state.module, out);
    uint32_t zero = b.uint(0);
    if (scope == uint32_t(spv::Scope::Workgroup))
        m_state.record(b, TraceEventKind::Barrier, kTraceVariableNone, zero, zero, zero);
    else if (scope == uint32_t(spv::Scope::Subgroup))
        m_state.record(b, TraceEventKind::SubgroupBarrier, kTraceVariableNone, zero, zero, zero);
}

} // namespace vkp
