#include "rewrite/lockstep_barriers.h"

#include "shader/spirv_builder.h"

namespace vkp {
namespace {

using Op = spv::Op;

// The value of a 32-bit OpConstant id; empty for anything else.
std::optional<uint32_t> constantValue(const SpirvModule& module, uint32_t id) {
    const SpirvInstruction* c = module.definition(id);
    if (!c || c->opcode() != Op::OpConstant || c->operandCount() != 1) return std::nullopt;
    return c->operand(0);
}

// OpControlBarrier's operands: execution scope, memory scope, memory semantics (all ids).
bool isSubgroupControlBarrier(const SpirvModule& module, const SpirvInstruction& inst) {
    if (inst.opcode() != Op::OpControlBarrier || inst.operandCount() != 3) return false;
    return constantValue(module, inst.operand(0)) == static_cast<uint32_t>(spv::Scope::Subgroup);
}

} // namespace

Result<std::vector<uint32_t>> lockstepSubgroupBarriers(std::span<const uint32_t> words) {
    auto module = SpirvModule::parse(words);
    if (!module)
        return Error{ErrorKind::Internal, "the SPIR-V module to adapt to lavapipe is malformed"};
    bool changed = false;
    std::vector<SpirvInstruction> functions;
    SpirvBuilder b(*module, functions);
    for (const SpirvInstruction& inst : module->functions) {
        if (!isSubgroupControlBarrier(*module, inst)) {
            functions.push_back(inst);
            continue;
        }
        b.instruction(Op::OpMemoryBarrier, {inst.operand(1), inst.operand(2)}); // scope, semantics
        changed = true;
    }
    if (!changed) return std::vector<uint32_t>(words.begin(), words.end());
    module->functions = std::move(functions);
    return module->assemble();
}

} // namespace vkp
