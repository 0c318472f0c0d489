#include "rewrite/shared_bounds_rewriter.h"

#include "shader/spirv_builder.h"

namespace vkp {

using Op = spv::Op;

// An index that is a constant below a length that is a constant needs no clamp.
bool SharedBoundsRewriter::knownBelow(uint32_t index, uint32_t length) const {
    const SpirvInstruction* i = m_module.definition(index);
    const SpirvInstruction* n = m_module.definition(length);
    if (!i || !n || i->opcode() != Op::OpConstant || n->opcode() != Op::OpConstant) return false;
    return i->operand(0) < n->operand(0); // a negative int is a large word: clamped
}

SpirvInstruction SharedBoundsRewriter::rewrite(const SpirvInstruction& inst,
                                               std::vector<SpirvInstruction>& out) {
    Op op = inst.opcode();
    if (op != Op::OpAccessChain && op != Op::OpInBoundsAccessChain) return inst;
    const SpirvInstruction* pointer = m_module.definition(m_module.typeOf(inst.operand(0)));
    if (!pointer || pointer->opcode() != Op::OpTypePointer ||
        static_cast<spv::StorageClass>(pointer->operand(0)) != spv::StorageClass::Workgroup)
        return inst;
    SpirvInstruction rewritten = inst;
    SpirvBuilder b(m_module, out);
    uint32_t type = pointer->operand(1); // after the storage class
    for (size_t k = 1; k < inst.operandCount(); ++k) {
        const SpirvInstruction* t = m_module.definition(type);
        if (!t) break;
        uint32_t index = inst.operand(k), length = 0;
        switch (t->opcode()) {
        case Op::OpTypeStruct: { // a member: always a constant
            const SpirvInstruction* member = m_module.definition(index);
            uint32_t m = member ? member->operand(0) : 0;
            if (m >= t->operandCount()) return rewritten;
            type = t->operand(m);
            continue;
        }
        case Op::OpTypeArray: // element type, length (an id: a constant or a specialization)
            length = t->operand(1);
            break;
        case Op::OpTypeVector: // component type, count; a matrix: column type, count
        case Op::OpTypeMatrix:
            length = b.uint(t->operand(1));
            break;
        default:
            return rewritten;
        }
        type = t->operand(0);
        if (knownBelow(index, length)) continue;
        uint32_t i = b.asUint(index), n = b.asUint(length);
        uint32_t last = b.sub(n, b.uint(1));
        rewritten.setOperand(k, b.select(b.uintType(), b.less(i, n), i, last));
        ++m_clamped;
    }
    return rewritten;
}

} // namespace vkp
