#include "shader/barrier_rounds_rewriter.h"

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
    SpirvModule& module = m_state.module;
    if (scope == uint32_t(spv::Scope::Workgroup))
        m_state.record(out, TraceEventKind::Barrier, kTraceVariableNone, module.constUint(0),
                       module.constUint(0), module.constUint(0));
    else if (scope == uint32_t(spv::Scope::Subgroup))
        m_state.record(out, TraceEventKind::SubgroupBarrier, kTraceVariableNone,
                       module.constUint(0), module.constUint(0), module.constUint(0));
}

} // namespace vkp
