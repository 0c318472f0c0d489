#include "rewrite/undefined_values_rewriter.h"

#include <algorithm>

#include "rewrite/access_log_rewriter.h"

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

bool isGroupOp(Op op) {
    return op >= Op::OpGroupNonUniformElect && op <= Op::OpGroupNonUniformQuadSwap;
}

bool isChain(Op op) {
    return op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain ||
           op == Op::OpPtrAccessChain || op == Op::OpInBoundsPtrAccessChain;
}

} // namespace

// noteUndefined(flag, w0): a record(w0, 0, 0, 0) where flag holds. A call, not a selection in
// place, so a use in any block (a loop's header too) costs no change to its control flow.
void UndefinedValuesRewriter::build() {
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    m_bool = module.typeBool();
    m_function = module.newId();
    m_functionType = module.typeFunction(ids.voidType, {m_bool, ids.uintType});
    SpirvBuilder b(module, module.newFunctions);
    std::vector<uint32_t> p =
        b.beginFunction(ids.voidType, m_function, m_functionType, {m_bool, ids.uintType});
    b.ifThen(p[0], [&] {
        uint32_t zero = b.uint(0);
        b.call(ids.voidType, ids.recordFunction, {p[1], zero, zero, zero});
    });
    b.returnVoid();
    b.endFunction();
}

uint32_t UndefinedValuesRewriter::rootVariable(uint32_t pointer) const {
    for (int depth = 0; depth < 64; ++depth) {
        const SpirvInstruction* def = m_state.module.definition(pointer);
        if (!def) return 0;
        if (def->opcode() == Op::OpVariable)
            return m_functionVariables.count(pointer) ? pointer : 0;
        if (!isChain(def->opcode()) && def->opcode() != Op::OpCopyObject) return 0;
        pointer = def->operand(0);
    }
    return 0;
}

void UndefinedValuesRewriter::beginFunction(std::span<const SpirvInstruction> function) {
    m_shadow.clear();
    m_variables.clear();
    m_functionVariables.clear();
    m_mergeSeen = false;
    if (!m_function) return; // nothing built: no trace
    for (const SpirvInstruction& inst : function)
        if (inst.opcode() == Op::OpVariable && inst.operand(0) == uint32_t(StorageClass::Function))
            m_functionVariables.insert(inst.resultId());
    // The values a shuffle's result reaches, to a fixed point (a loop loads before it stores).
    std::set<uint32_t> values, variables;
    for (bool changed = true; changed;) {
        changed = false;
        for (const SpirvInstruction& inst : function) {
            Op op = inst.opcode();
            uint32_t r = inst.resultId();
            if (shuffleOpFor(op)) {
                changed |= values.insert(r).second;
            } else if (op == Op::OpStore) {
                uint32_t root = rootVariable(inst.operand(0));
                if (root && values.count(inst.operand(1))) changed |= variables.insert(root).second;
            } else if (op == Op::OpLoad) {
                uint32_t root = rootVariable(inst.operand(0));
                if (root && variables.count(root)) changed |= values.insert(r).second;
            } else if (r && inst.resultType() && !isChain(op) && op != Op::OpVariable &&
                       op != Op::OpFunctionCall && !values.count(r)) {
                auto ops = inst.operands();
                if (std::any_of(ops.begin(), ops.end(),
                                [&](uint32_t w) { return values.count(w) > 0; }))
                    changed |= values.insert(r).second;
            }
        }
    }
    for (uint32_t v : values)
        m_shadow[v] = m_state.module.newId();
    for (uint32_t v : variables)
        m_variables[v] = m_state.module.newId();
}

void UndefinedValuesRewriter::afterFirstLabel(std::vector<SpirvInstruction>& out) {
    SpirvModule& module = m_state.module;
    for (auto& [variable, shadow] : m_variables) {
        SpirvInstruction var(Op::OpVariable,
                             {module.typePointer(StorageClass::Function, m_bool), shadow,
                              uint32_t(StorageClass::Function), module.constFalse()});
        module.noteDefinition(var);
        out.push_back(std::move(var));
    }
}

uint32_t UndefinedValuesRewriter::shadowOf(uint32_t id) {
    auto it = m_shadow.find(id);
    return it == m_shadow.end() ? m_state.module.constFalse() : it->second;
}

uint32_t UndefinedValuesRewriter::anyOf(SpirvBuilder& b, const std::vector<uint32_t>& ids) {
    uint32_t any = 0;
    for (uint32_t id : ids)
        if (followed(id)) any = any ? b.logicalOr(any, shadowOf(id)) : shadowOf(id);
    return any ? any : m_state.module.constFalse();
}

void UndefinedValuesRewriter::noteIf(SpirvBuilder& b, uint32_t flag) {
    uint32_t w0 =
        b.uint(packTraceWord0(TraceEventKind::UndefinedUse, kTraceVariableNone, m_state.line));
    b.call(m_state.ids.voidType, m_function, {flag, w0});
}

void UndefinedValuesRewriter::use(SpirvBuilder& b, std::vector<uint32_t> ids) {
    std::erase_if(ids, [&](uint32_t id) { return !followed(id); });
    if (!ids.empty()) noteIf(b, anyOf(b, ids));
}

// Whether the lane this shuffle took from ran it (the access log's test); a broadcast of the
// first active lane always has one.
uint32_t UndefinedValuesRewriter::shuffleFlag(const SpirvInstruction& inst, SpirvBuilder& b) {
    ShuffleOp op = *shuffleOpFor(inst.opcode());
    SpirvModule& module = m_state.module;
    if (op == ShuffleOp::BroadcastFirst || inst.operandCount() < 3) return module.constFalse();
    module.requireCapability(spv::Capability::GroupNonUniformBallot);
    uint32_t u = module.typeUint(), uvec4 = module.typeVector(u, 4);
    uint32_t ballot =
        b.value(Op::OpGroupNonUniformBallot, uvec4, {inst.operand(0), module.constTrue()});
    uint32_t inactive = shuffleSourceInactive(m_state, b, op, b.asUint(inst.operand(2)), ballot);
    return b.notEqual(inactive, b.uint(0));
}

void UndefinedValuesRewriter::before(const SpirvInstruction& inst, const SpirvInstruction* next,
                                     std::vector<SpirvInstruction>& out) {
    if (!m_function || m_shadow.empty()) return;
    SpirvBuilder b(m_state.module, out);
    Op op = inst.opcode();
    auto operands = inst.operands();
    bool merge = op == Op::OpSelectionMerge || op == Op::OpLoopMerge;
    if (op == Op::OpStore) {
        if (!rootVariable(inst.operand(0))) use(b, {inst.operand(1)}); // to memory
    } else if (isChain(op)) {
        use(b, std::vector<uint32_t>(operands.begin() + 1, operands.end())); // the indices
    } else if (merge && next &&
               (next->opcode() == Op::OpBranchConditional || next->opcode() == Op::OpSwitch)) {
        use(b, {next->operand(0)}); // the branch after the merge: before both
    } else if ((op == Op::OpBranchConditional || op == Op::OpSwitch) && !m_mergeSeen) {
        use(b, {inst.operand(0)});
    } else if (isAtomicOp(op) || op == Op::OpFunctionCall) {
        use(b, std::vector<uint32_t>(operands.begin() + 1, operands.end()));
    } else if (op == Op::OpReturnValue) {
        use(b, {inst.operand(0)});
    }
    m_mergeSeen = merge;
}

void UndefinedValuesRewriter::after(const SpirvInstruction& inst,
                                    std::vector<SpirvInstruction>& out) {
    if (!m_function || m_shadow.empty()) return;
    SpirvModule& module = m_state.module;
    SpirvBuilder b(module, out);
    Op op = inst.opcode();
    if (op == Op::OpStore) { // into a followed variable: its shadow follows
        uint32_t root = rootVariable(inst.operand(0));
        auto it = m_variables.find(root);
        if (!root || it == m_variables.end()) return;
        if (inst.operand(0) == root)
            b.store(it->second, shadowOf(inst.operand(1)));
        else if (followed(inst.operand(1)))
            b.store(it->second, b.logicalOr(b.load(m_bool, it->second), shadowOf(inst.operand(1))));
        return;
    }
    uint32_t r = inst.resultId();
    if (!r || !followed(r)) return;
    uint32_t shadow = m_shadow.at(r);
    auto operands = inst.operands();
    std::vector<uint32_t> ids(operands.begin(), operands.end());
    if (auto shuffle = shuffleOpFor(op)) {
        uint32_t flag = shuffleFlag(inst, b);
        if (inst.operandCount() >= 2 && followed(inst.operand(1))) {
            module.requireCapability(spv::Capability::GroupNonUniformVote);
            uint32_t from = b.value(Op::OpGroupNonUniformAny, m_bool,
                                    {inst.operand(0), shadowOf(inst.operand(1))});
            flag = b.logicalOr(flag, from);
        }
        b.define(shadow, Op::OpCopyObject, m_bool, {flag});
    } else if (op == Op::OpPhi) {
        std::vector<uint32_t> pairs;
        for (size_t k = 0; k + 1 < ids.size(); k += 2)
            pairs.insert(pairs.end(), {shadowOf(ids[k]), ids[k + 1]});
        b.define(shadow, Op::OpPhi, m_bool, pairs);
    } else if (op == Op::OpLoad) {
        auto it = m_variables.find(rootVariable(inst.operand(0)));
        uint32_t loaded =
            it == m_variables.end() ? module.constFalse() : b.load(m_bool, it->second);
        b.define(shadow, Op::OpCopyObject, m_bool, {loaded});
    } else if (op == Op::OpSelect && module.typeOf(ids[0]) == m_bool) {
        uint32_t chosen = b.select(m_bool, ids[0], shadowOf(ids[1]), shadowOf(ids[2]));
        b.define(shadow, Op::OpLogicalOr, m_bool, {chosen, shadowOf(ids[0])});
    } else if (isGroupOp(op)) { // every lane's value may reach every other lane's result
        module.requireCapability(spv::Capability::GroupNonUniformVote);
        b.define(shadow, Op::OpGroupNonUniformAny, m_bool, {ids[0], anyOf(b, ids)});
    } else {
        b.define(shadow, Op::OpCopyObject, m_bool, {anyOf(b, ids)});
    }
}

} // namespace vkp
