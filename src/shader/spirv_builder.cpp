#include "shader/spirv_builder.h"

namespace vkp {

using Op = spv::Op;

uint32_t SpirvBuilder::value(Op opcode, uint32_t type, std::vector<uint32_t> operands) {
    return m_module.emit(m_out, opcode, type, std::move(operands));
}

void SpirvBuilder::instruction(Op opcode, std::vector<uint32_t> operands) {
    m_out.emplace_back(opcode, std::move(operands));
}

void SpirvBuilder::define(uint32_t id, Op opcode, uint32_t type, std::vector<uint32_t> operands) {
    operands.insert(operands.begin(), {type, id});
    SpirvInstruction inst(opcode, std::move(operands));
    m_module.noteDefinition(inst);
    m_out.push_back(std::move(inst));
}

uint32_t SpirvBuilder::variable(uint32_t pointerType) {
    return value(Op::OpVariable, pointerType, {uint32_t(spv::StorageClass::Function)});
}

uint32_t SpirvBuilder::load(uint32_t type, uint32_t pointer) {
    return value(Op::OpLoad, type, {pointer});
}

void SpirvBuilder::store(uint32_t pointer, uint32_t v) {
    instruction(Op::OpStore, {pointer, v});
}

uint32_t SpirvBuilder::asUint(uint32_t id) {
    uint32_t u = uintType();
    if (!id) return uint(0);
    uint32_t type = m_module.typeOf(id);
    if (type == u) return id;
    const SpirvInstruction* t = m_module.definition(type);
    if (!t || t->opcode() != Op::OpTypeInt) return uint(0);
    bool isSigned = t->operand(1);
    if (t->operand(0) != 32) return value(isSigned ? Op::OpSConvert : Op::OpUConvert, u, {id});
    return isSigned ? bitcast(u, id) : id;
}

uint32_t SpirvBuilder::accessChain(uint32_t pointerType, uint32_t base,
                                   std::vector<uint32_t> indices) {
    indices.insert(indices.begin(), base);
    return value(Op::OpAccessChain, pointerType, std::move(indices));
}

uint32_t SpirvBuilder::atomic(Op opcode, uint32_t pointer, spv::Scope scope, uint32_t semantics,
                              std::vector<uint32_t> values) {
    uint32_t scopeId = uint(uint32_t(scope));
    uint32_t semanticsId = uint(semantics);
    std::vector<uint32_t> operands{pointer, scopeId, semanticsId};
    operands.insert(operands.end(), values.begin(), values.end());
    return value(opcode, uintType(), std::move(operands));
}

uint32_t SpirvBuilder::call(uint32_t resultType, uint32_t function,
                            std::vector<uint32_t> arguments) {
    arguments.insert(arguments.begin(), function);
    return value(Op::OpFunctionCall, resultType, std::move(arguments));
}

std::vector<uint32_t> SpirvBuilder::beginFunction(uint32_t resultType, uint32_t function,
                                                  uint32_t functionType,
                                                  const std::vector<uint32_t>& parameterTypes) {
    instruction(Op::OpFunction, {resultType, function, 0, functionType});
    std::vector<uint32_t> parameters;
    for (uint32_t type : parameterTypes)
        parameters.push_back(value(Op::OpFunctionParameter, type, {}));
    label();
    return parameters;
}

uint32_t SpirvBuilder::label() {
    uint32_t id = m_module.newId();
    label(id);
    return id;
}

void SpirvBuilder::label(uint32_t id) {
    instruction(Op::OpLabel, {id});
}

bool SpirvBuilder::blockEnded() const {
    if (m_out.empty()) return false;
    switch (m_out.back().opcode()) {
    case Op::OpBranch:
    case Op::OpBranchConditional:
    case Op::OpSwitch:
    case Op::OpReturn:
    case Op::OpReturnValue:
    case Op::OpKill:
    case Op::OpTerminateInvocation:
    case Op::OpUnreachable:
        return true;
    default:
        return false;
    }
}

uint32_t SpirvBuilder::currentBlock() const {
    for (auto it = m_out.rbegin(); it != m_out.rend(); ++it)
        if (it->opcode() == Op::OpLabel) return it->resultId();
    return 0;
}

// The header of a selection: its merge, then the branch on the condition.
void SpirvBuilder::selection(uint32_t condition, uint32_t onTrue, uint32_t onFalse,
                             uint32_t merge) {
    instruction(Op::OpSelectionMerge, {merge, uint32_t(spv::SelectionControlMask::MaskNone)});
    instruction(Op::OpBranchConditional, {condition, onTrue, onFalse});
}

// One branch that runs `then` when the condition is `when`, the other goes to the merge.
void SpirvBuilder::oneSided(uint32_t condition, bool when, const Body& then) {
    uint32_t thenL = m_module.newId(), mergeL = m_module.newId();
    selection(condition, when ? thenL : mergeL, when ? mergeL : thenL, mergeL);
    label(thenL);
    then();
    if (!blockEnded()) branch(mergeL);
    label(mergeL);
}

void SpirvBuilder::ifElse(uint32_t condition, const Body& then, const Body& otherwise) {
    uint32_t thenL = m_module.newId(), elseL = m_module.newId(), mergeL = m_module.newId();
    selection(condition, thenL, elseL, mergeL);
    label(thenL);
    then();
    if (!blockEnded()) branch(mergeL);
    label(elseL);
    otherwise();
    if (!blockEnded()) branch(mergeL);
    label(mergeL);
}

SpirvBuilder::Loop SpirvBuilder::newLoop() {
    Loop l;
    l.header = m_module.newId();
    l.body = m_module.newId();
    l.continueTarget = m_module.newId();
    l.merge = m_module.newId();
    return l;
}

void SpirvBuilder::loop(const Loop& blocks, const std::function<uint32_t()>& header,
                        const std::function<uint32_t()>& body, const Body& next) {
    branch(blocks.header);
    label(blocks.header);
    uint32_t go = header ? header() : 0;
    instruction(Op::OpLoopMerge,
                {blocks.merge, blocks.continueTarget, uint32_t(spv::LoopControlMask::MaskNone)});
    if (go)
        instruction(Op::OpBranchConditional, {go, blocks.body, blocks.merge});
    else
        branch(blocks.body);
    label(blocks.body);
    uint32_t leave = body ? body() : 0;
    if (leave)
        instruction(Op::OpBranchConditional, {leave, blocks.merge, blocks.continueTarget});
    else if (!blockEnded())
        branch(blocks.continueTarget);
    label(blocks.continueTarget);
    if (next) next();
    branch(blocks.header);
    label(blocks.merge);
}

void reparentPhis(std::span<SpirvInstruction> function, const std::map<uint32_t, uint32_t>& endsIn,
                  const std::set<uint32_t>& own) {
    for (SpirvInstruction& inst : function) {
        if (inst.opcode() != Op::OpPhi || own.count(inst.resultId())) continue;
        for (size_t p = 1; p < inst.operandCount(); p += 2) // (value, parent) pairs
            if (auto it = endsIn.find(inst.operand(p)); it != endsIn.end())
                inst.setOperand(p, it->second);
    }
}

} // namespace vkp
