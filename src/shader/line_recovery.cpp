#include "shader/line_recovery.h"

namespace vkp {

using Op = spv::Op;

void LineRecovery::beginFunction(uint32_t declared) {
    m_line = 0;
    m_first = declared;
    m_lineOfLabel.clear();
}

// A block's OpLine ends with the block, and glslang starts the block after `c ? x : y` or
// `a && b` (and the branches without code of their own) with none: the store of
// `temp[t] = t < n ? a[t] : 0u;` came out at line 0. Such a block takes the line of the merge or
// branch instruction that first named it.
void LineRecovery::observe(const SpirvInstruction& inst) {
    auto named = [&](uint32_t label) { m_lineOfLabel.emplace(label, m_line); };
    switch (inst.opcode()) {
    case Op::OpLabel: {
        auto it = m_lineOfLabel.find(inst.resultId());
        m_line = it == m_lineOfLabel.end() ? 0 : it->second;
        break;
    }
    case Op::OpLine: // file, line, column
        if (m_first == 0) m_first = inst.operand(1);
        if (inst.operand(1) >= m_first) m_line = inst.operand(1); // else a declaration's line
        break;
    case Op::OpNoLine:
        m_line = 0;
        break;
    case Op::OpLoopMerge: // merge block, continue target
        named(inst.operand(0));
        named(inst.operand(1));
        break;
    case Op::OpSelectionMerge:
        named(inst.operand(0));
        break;
    case Op::OpBranch:
        named(inst.operand(0));
        break;
    case Op::OpBranchConditional: // condition, true label, false label
        named(inst.operand(1));
        named(inst.operand(2));
        break;
    case Op::OpSwitch: // selector, default, then (literal, label) pairs
        for (size_t k = 1; k < inst.operandCount(); k += 2)
            named(inst.operand(k));
        break;
    default:
        break;
    }
}

} // namespace vkp
