#include "rewrite/rolled_loops.h"

#include "shader/spirv_module.h"

namespace vkp {
namespace {

// The bits that take literal operands, in the order their literals follow the mask.
constexpr uint32_t kWithLiteral[] = {uint32_t(spv::LoopControlMask::DependencyLength),
                                     uint32_t(spv::LoopControlMask::MinIterations),
                                     uint32_t(spv::LoopControlMask::MaxIterations),
                                     uint32_t(spv::LoopControlMask::IterationMultiple),
                                     uint32_t(spv::LoopControlMask::PeelCount),
                                     uint32_t(spv::LoopControlMask::PartialCount)};
constexpr uint32_t kDropped = uint32_t(spv::LoopControlMask::Unroll) |
                              uint32_t(spv::LoopControlMask::PeelCount) |
                              uint32_t(spv::LoopControlMask::PartialCount);

// An OpLoopMerge (merge, continue target, loop control, its literals) given DontUnroll: the
// control and the literals of the dropped bits change in place. A vendor's loop control, whose
// literals are not known here, stays as it is.
Status keepRolled(SpirvInstruction& merge) {
    uint32_t mask = merge.operand(2);
    if (merge.operandCount() < 3 || (mask & ~0x1ffu)) return okStatus();
    std::vector<uint32_t> literals;
    size_t next = 3;
    for (uint32_t bit : kWithLiteral) {
        if (!(mask & bit)) continue;
        if (next >= merge.operandCount())
            return Error{ErrorKind::Internal, "an OpLoopMerge lacks a literal"};
        uint32_t literal = merge.operand(next++);
        if (!(bit & kDropped)) literals.push_back(literal);
    }
    merge.setOperand(2, (mask & ~kDropped) | uint32_t(spv::LoopControlMask::DontUnroll));
    merge.keepOperands(3);
    for (uint32_t literal : literals)
        merge.appendOperand(literal);
    return okStatus();
}

} // namespace

Result<std::vector<uint32_t>> keepLoopsRolled(std::span<const uint32_t> spirv) {
    auto module = SpirvModule::parse(spirv);
    if (!module) return module.error();
    for (SpirvInstruction& inst : module->functions)
        if (inst.opcode() == spv::Op::OpLoopMerge)
            if (Status s = keepRolled(inst); !s) return s.error();
    return module->assemble();
}

} // namespace vkp
