#include "shader/loop_budget_rewriter.h"

#include <array>
#include <optional>

namespace vkp {

using Op = spv::Op;

// The start both loopOk(line) functions share: the line parameter, the back-edge counted, and
// whether the count is within the budget (the id `budgetOf(f)` gives, emitted in the function's
// body) or has just gone past it.
template <class Budget>
LoopBudgetRewriter::LoopCount LoopBudgetRewriter::beginLoopOk(std::vector<SpirvInstruction>& f,
                                                              Budget budgetOf) {
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    f.emplace_back(Op::OpFunction, std::vector<uint32_t>{ids.boolType, ids.loopOkFunction, 0,
                                                         ids.loopOkFunctionType});
    LoopCount c{};
    c.line = module.newId();
    f.emplace_back(Op::OpFunctionParameter, std::vector<uint32_t>{ids.uintType, c.line});
    m_state.label(f);
    c.iterations = module.emit(
        f, Op::OpIAdd, ids.uintType,
        {module.emit(f, Op::OpLoad, ids.uintType, {ids.backEdgeCount}), module.constUint(1)});
    m_state.emitVoid(f, Op::OpStore, {ids.backEdgeCount, c.iterations});
    uint32_t budget = budgetOf(f);
    c.ok = module.emit(f, Op::OpULessThanEqual, ids.boolType, {c.iterations, budget});
    c.first = module.emit(
        f, Op::OpIEqual, ids.boolType,
        {c.iterations, module.emit(f, Op::OpIAdd, ids.uintType, {budget, module.constUint(1)})});
    return c;
}

void LoopBudgetRewriter::buildLoopOk() {
    if (m_state.logsAccesses())
        buildTracedLoopOk();
    else
        buildGuardLoopOk();
}

// loopOk(line) when tracing: the budget is in the trace header; the first time it is spent the
// status word gets the flag and the line, and a record says where.
void LoopBudgetRewriter::buildTracedLoopOk() {
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType;
    auto& f = module.newFunctions;
    auto [line, iterations, ok, first] = beginLoopOk(
        f, [&](std::vector<SpirvInstruction>& body) { return m_state.loadTraceWord(body, 6); });
    uint32_t recordL = module.newId(), mergeL = module.newId();
    m_state.emitVoid(f, Op::OpSelectionMerge, {mergeL, 0});
    m_state.emitVoid(f, Op::OpBranchConditional, {first, recordL, mergeL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{recordL});
    uint32_t statusAt = module.emit(f, Op::OpLoad, u, {ids.statusWord});
    uint32_t status =
        module.emit(f, Op::OpLoad, u, {m_state.traceWord(f, statusAt)}); // keeps the printf count
    status = module.emit(
        f, Op::OpBitwiseOr, u,
        {status, module.emit(f, Op::OpBitwiseOr, u, {module.constUint(kTraceBudgetFlag), line})});
    m_state.emitVoid(f, Op::OpStore, {m_state.traceWord(f, statusAt), status});
    uint32_t w0 = module.emit(
        f, Op::OpBitwiseOr, u,
        {module.constUint(packTraceWord0(TraceEventKind::LoopBudget, kTraceVariableNone, 0)),
         line});
    module.emit(f, Op::OpFunctionCall, ids.voidType,
                {ids.recordFunction, w0, module.constUint(0), iterations, module.constUint(0)});
    m_state.emitVoid(f, Op::OpBranch, {mergeL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{mergeL});
    m_state.emitVoid(f, Op::OpReturnValue, {ok});
    m_state.emitVoid(f, Op::OpFunctionEnd, {});
}

// loopOk(line) of guardLoops: counts a back-edge against the budget (a constant: no load in the
// loop); the first invocation to run out fills the loop-guard buffer (trace/trace.h).
void LoopBudgetRewriter::buildGuardLoopOk() {
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType;
    auto& f = module.newFunctions;
    auto [line, iterations, ok, first] = beginLoopOk(
        f, [&](std::vector<SpirvInstruction>&) { return module.constUint(m_state.guardBudget); });
    uint32_t countL = module.newId(), writeL = module.newId(), innerL = module.newId(),
             mergeL = module.newId();
    m_state.emitVoid(f, Op::OpSelectionMerge, {mergeL, 0});
    m_state.emitVoid(f, Op::OpBranchConditional, {first, countL, mergeL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{countL});
    uint32_t before =
        module.emit(f, Op::OpAtomicIAdd, u,
                    {m_state.traceWord(f, module.constUint(kLoopGuardStopped)),
                     module.constUint(1) /*Device*/, module.constUint(0), module.constUint(1)});
    uint32_t firstOfAll = module.emit(f, Op::OpIEqual, ids.boolType, {before, module.constUint(0)});
    m_state.emitVoid(f, Op::OpSelectionMerge, {innerL, 0});
    m_state.emitVoid(f, Op::OpBranchConditional, {firstOfAll, writeL, innerL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{writeL});
    uint32_t wid = module.emit(f, Op::OpLoad, module.typeVector(u, 3), {ids.workgroupId});
    std::array<uint32_t, 6> fields{line,
                                   iterations,
                                   module.emit(f, Op::OpLoad, u, {ids.localIndex}),
                                   module.emit(f, Op::OpCompositeExtract, u, {wid, 0}),
                                   module.emit(f, Op::OpCompositeExtract, u, {wid, 1}),
                                   module.emit(f, Op::OpCompositeExtract, u, {wid, 2})};
    for (uint32_t k = 0; k < fields.size(); ++k)
        m_state.emitVoid(f, Op::OpStore,
                         {m_state.traceWord(f, module.constUint(kLoopGuardLine + k)), fields[k]});
    m_state.emitVoid(f, Op::OpBranch, {innerL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{innerL});
    m_state.emitVoid(f, Op::OpBranch, {mergeL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{mergeL});
    m_state.emitVoid(f, Op::OpReturnValue, {ok});
    m_state.emitVoid(f, Op::OpFunctionEnd, {});
}

void LoopBudgetRewriter::beginFunction(std::span<const SpirvInstruction> function) {
    m_blockOrder.clear();
    m_loops.clear();
    m_phiFixes.clear();
    m_block = 0;
    for (const SpirvInstruction& inst : function)
        if (inst.opcode() == Op::OpLabel)
            m_blockOrder.emplace(inst.resultId(), m_blockOrder.size());
}

void LoopBudgetRewriter::observe(const SpirvInstruction& inst) {
    if (inst.opcode() == Op::OpLabel) m_block = inst.resultId();
    if (inst.opcode() == Op::OpLoopMerge)
        m_loops[m_block] = {inst.operand(0), m_state.line}; // merge, continue target
}

bool LoopBudgetRewriter::isBackEdge(uint32_t target) const {
    return m_loops.count(target) && m_blockOrder.count(m_block) &&
           m_blockOrder.at(m_block) >= m_blockOrder.at(target);
}

uint32_t LoopBudgetRewriter::callLoopOk(const Loop& loop, std::vector<SpirvInstruction>& out) {
    ++m_state.loopsGuarded;
    SpirvModule& module = m_state.module;
    return module.emit(out, Op::OpFunctionCall, m_state.ids.boolType,
                       {m_state.ids.loopOkFunction, module.constUint(loop.line)});
}

// A branch back to a loop header gets the budget check: keep looping only while it allows.
bool LoopBudgetRewriter::rewriteBackEdge(const SpirvInstruction& inst,
                                         std::vector<SpirvInstruction>& out) {
    if (!m_state.options.loopBudget ||
        (inst.opcode() != Op::OpBranch && inst.opcode() != Op::OpBranchConditional))
        return false;
    // A loop whose header is its own back-edge block: OpLoopMerge must stay right before the
    // branch, so the budget check goes in front of it.
    std::optional<SpirvInstruction> merge;
    if (!out.empty() && out.back().opcode() == Op::OpLoopMerge) {
        merge = out.back();
        out.pop_back();
    }
    auto restore = [&] {
        if (merge) out.push_back(*merge);
    };
    if (inst.opcode() == Op::OpBranch) {
        uint32_t target = inst.operand(0);
        if (!isBackEdge(target)) {
            restore();
            return false;
        }
        const Loop& loop = m_loops.at(target);
        uint32_t ok = callLoopOk(loop, out);
        restore();
        m_state.emitVoid(out, Op::OpBranchConditional, {ok, target, loop.merge});
        m_phiFixes[loop.merge].insert(m_block);
        return true;
    }
    uint32_t cond = inst.operand(0), onTrue = inst.operand(1), onFalse = inst.operand(2);
    uint32_t header = isBackEdge(onTrue) ? onTrue : isBackEdge(onFalse) ? onFalse : 0;
    const Loop* loop = header ? &m_loops.at(header) : nullptr;
    uint32_t other = header == onTrue ? onFalse : onTrue;
    if (!loop || other != loop->merge) { // not a back-edge, or one that would need a new block
        restore();
        return false;
    }
    SpirvModule& module = m_state.module;
    uint32_t b = m_state.ids.boolType;
    uint32_t ok = callLoopOk(*loop, out);
    if (header == onTrue)
        cond = module.emit(out, Op::OpLogicalAnd, b, {cond, ok});
    else
        cond = module.emit(out, Op::OpLogicalOr, b,
                           {cond, module.emit(out, Op::OpLogicalNot, b, {ok})});
    restore();
    SpirvInstruction branch = inst;
    branch.setOperand(0, cond);
    branch.keepOperands(3); // branch weights no longer describe the new condition
    out.push_back(std::move(branch));
    return true;
}

void LoopBudgetRewriter::endFunction(std::span<SpirvInstruction> rewritten) {
    uint32_t block = 0;
    for (SpirvInstruction& inst : rewritten) {
        if (inst.opcode() == Op::OpLabel) block = inst.resultId();
        if (inst.opcode() != Op::OpPhi || !m_phiFixes.count(block)) continue;
        for (uint32_t pred : m_phiFixes.at(block)) {
            bool present = false;
            for (size_t k = 1; k < inst.operandCount(); k += 2)
                present |= inst.operand(k) == pred; // (value, parent) pairs
            if (present) continue;
            inst.appendOperand(m_state.module.undef(inst.resultType()));
            inst.appendOperand(pred);
        }
    }
}

} // namespace vkp
