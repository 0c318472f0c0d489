#include "rewrite/loop_budget_rewriter.h"

#include <algorithm>
#include <array>
#include <optional>

namespace vkp {

using Op = spv::Op;

// The budget of back-edges, emitted in the current function: the trace header's (tracing), or a
// constant (guardKernel: no load in the loop).
uint32_t LoopBudgetRewriter::budget(SpirvBuilder& b) {
    return m_state.logsAccesses() ? m_state.loadTraceWord(b, 6) : b.uint(m_state.guardBudget);
}

// The start both loopOk(line) functions share: the line parameter, the back-edge counted, and
// whether the count is within the budget or has just gone past it.
LoopBudgetRewriter::LoopCount LoopBudgetRewriter::beginLoopOk(SpirvBuilder& b) {
    const TraceObjectIds& ids = m_state.ids;
    LoopCount c{};
    c.line = b.beginFunction(ids.boolType, ids.loopOkFunction, ids.loopOkFunctionType,
                             {ids.uintType})[0];
    uint32_t before = b.load(ids.uintType, ids.backEdgeCount);
    if (m_state.options.subgroupLoopCount) {
        m_state.module.requireCapability(spv::Capability::GroupNonUniformArithmetic);
        before = b.value(Op::OpGroupNonUniformUMax, ids.uintType,
                         {b.uint(uint32_t(spv::Scope::Subgroup)),
                          uint32_t(spv::GroupOperation::Reduce), before});
    }
    c.iterations = b.add(before, b.uint(1));
    b.store(ids.backEdgeCount, c.iterations);
    uint32_t limit = budget(b);
    c.ok = b.lessEqual(c.iterations, limit);
    if (m_state.options.subgroupLoopCount)
        if (uint32_t threads = workgroupThreads(b))
            c.ok = b.logicalAnd(c.ok, b.less(b.load(ids.uintType, ids.localIndex), threads));
    // The count crosses the budget at a back-edge, never at a merge block (before() stops there),
    // so the first back-edge past it is this one.
    c.first = b.equal(c.iterations, b.add(limit, b.uint(1)));
    return c;
}

// The workgroup's threads, emitted in the current function from the sizes reflection read (the
// constants behind gl_WorkGroupSize or LocalSizeId, or LocalSize's literals); 0 when unknown.
// lavapipe runs a workgroup smaller than its SIMD vector with the missing lanes in it
// (gl_LocalInvocationIndex past the workgroup): they pass through loops and count against its
// 65535 too, unseen by subgroup operations, so loopOk sends them out of every loop at once.
uint32_t LoopBudgetRewriter::workgroupThreads(SpirvBuilder& b) {
    const KernelInterface* k = m_state.reflected;
    if (!k) return 0;
    uint32_t threads = 0;
    for (int d = 0; d < 3; ++d) {
        uint32_t size = k->localSizeIds[d];
        if (!size && !k->fixedLocalSize[d]) return 0;
        if (!size) size = b.uint(*k->fixedLocalSize[d]);
        threads = threads ? b.mul(threads, size) : size;
    }
    return threads;
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
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType;
    SpirvBuilder b(m_state.module, m_state.module.newFunctions);
    // A struct, not a structured binding: clang before 16 cannot capture bindings in lambdas.
    LoopCount c = beginLoopOk(b);
    b.ifThen(c.first, [&] {
        uint32_t statusAt = b.load(u, ids.statusWord);
        uint32_t status = b.load(u, m_state.traceWord(b, statusAt)); // keeps the printf count
        status = b.bitOr(status, b.bitOr(b.uint(kTraceBudgetFlag), c.line));
        b.store(m_state.traceWord(b, statusAt), status);
        uint32_t w0 = b.bitOr(
            b.uint(packTraceWord0(TraceEventKind::LoopBudget, kTraceVariableNone, 0)), c.line);
        b.call(ids.voidType, ids.recordFunction, {w0, b.uint(0), c.iterations, b.uint(0)});
    });
    b.returnValue(c.ok);
    b.endFunction();
}

// loopOk(line) of guardKernel: counts a back-edge against the budget (a constant: no load in the
// loop); the first invocation to run out fills the loop-guard buffer (trace/trace.h).
void LoopBudgetRewriter::buildGuardLoopOk() {
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType;
    SpirvBuilder b(m_state.module, m_state.module.newFunctions);
    // A struct, not a structured binding: clang before 16 cannot capture bindings in lambdas.
    LoopCount c = beginLoopOk(b);
    b.ifThen(c.first, [&] {
        uint32_t stopped = m_state.traceWord(b, b.uint(kLoopGuardStopped));
        uint32_t before =
            b.atomic(Op::OpAtomicIAdd, stopped, b.module().dispatchScope(), 0, {b.uint(1)});
        b.ifThen(b.equal(before, b.uint(0)), [&] {
            uint32_t wid = b.load(m_state.module.typeVector(u, 3), ids.workgroupId);
            std::array<uint32_t, 6> fields{c.line,
                                           c.iterations,
                                           b.load(u, ids.localIndex),
                                           b.extract(u, wid, 0),
                                           b.extract(u, wid, 1),
                                           b.extract(u, wid, 2)};
            for (uint32_t k = 0; k < fields.size(); ++k)
                b.store(m_state.traceWord(b, b.uint(kLoopGuardLine + k)), fields[k]);
        });
    });
    b.returnValue(c.ok);
    b.endFunction();
}

void LoopBudgetRewriter::beginFunction(std::span<const SpirvInstruction> function) {
    m_exitPending = false;
    m_blockOrder.clear();
    m_loops.clear();
    m_phiFixes.clear();
    m_block = 0;
    for (const SpirvInstruction& inst : function)
        if (inst.opcode() == Op::OpLabel)
            m_blockOrder.emplace(inst.resultId(), m_blockOrder.size());
}

void LoopBudgetRewriter::before(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out) {
    if (!m_exitPending || inst.opcode() == Op::OpPhi || inst.opcode() == Op::OpLine ||
        inst.opcode() == Op::OpNoLine || inst.opcode() == Op::OpLabel)
        return;
    m_exitPending = false;
    SpirvBuilder b(m_state.module, out);
    const TraceObjectIds& ids = m_state.ids;
    // Up to the budget, not past it: a loop exit that took the count past the budget would let
    // the next back-edge stop its loop without the report, which only the back-edge that goes
    // past it makes (the first of a thread's vector to run out).
    uint32_t count = b.load(ids.uintType, ids.backEdgeCount);
    uint32_t counted = b.add(count, b.uint(1));
    b.store(ids.backEdgeCount, b.select(ids.uintType, b.less(count, budget(b)), counted, count));
}

void LoopBudgetRewriter::observe(const SpirvInstruction& inst) {
    if (inst.opcode() == Op::OpLabel) {
        m_block = inst.resultId();
        m_exitPending = m_state.options.subgroupLoopCount && m_state.options.loopBudget &&
                        std::any_of(m_loops.begin(), m_loops.end(),
                                    [&](const auto& l) { return l.second.merge == m_block; });
    }
    if (inst.opcode() == Op::OpLoopMerge)
        m_loops[m_block] = {inst.operand(0), m_state.line}; // merge, continue target
}

bool LoopBudgetRewriter::isBackEdge(uint32_t target) const {
    return m_loops.count(target) && m_blockOrder.count(m_block) &&
           m_blockOrder.at(m_block) >= m_blockOrder.at(target);
}

uint32_t LoopBudgetRewriter::callLoopOk(const Loop& loop, SpirvBuilder& b) {
    ++m_state.loopsGuarded;
    return b.call(m_state.ids.boolType, m_state.ids.loopOkFunction, {b.uint(loop.line)});
}

// The header a branch goes back to, when the branch is a back-edge the budget can guard: a plain
// branch, or a conditional one whose other target is the loop's merge (any other would need a
// new block); 0 otherwise.
uint32_t LoopBudgetRewriter::guardedHeader(const SpirvInstruction& inst) const {
    if (inst.opcode() == Op::OpBranch) return isBackEdge(inst.operand(0)) ? inst.operand(0) : 0;
    if (inst.opcode() != Op::OpBranchConditional) return 0;
    uint32_t onTrue = inst.operand(1), onFalse = inst.operand(2); // after the condition
    uint32_t header = isBackEdge(onTrue) ? onTrue : isBackEdge(onFalse) ? onFalse : 0;
    uint32_t other = header == onTrue ? onFalse : onTrue;
    return header && other == m_loops.at(header).merge ? header : 0;
}

// A branch back to a loop header gets the budget check: keep looping only while it allows.
bool LoopBudgetRewriter::rewriteBackEdge(const SpirvInstruction& inst,
                                         std::vector<SpirvInstruction>& out) {
    uint32_t header = m_state.options.loopBudget ? guardedHeader(inst) : 0;
    if (!header) return false;
    const Loop& loop = m_loops.at(header);
    // A loop whose header is its own back-edge block: OpLoopMerge must stay right before the
    // branch, so the budget check goes in front of it.
    std::optional<SpirvInstruction> merge;
    if (!out.empty() && out.back().opcode() == Op::OpLoopMerge) {
        merge = out.back();
        out.pop_back();
    }
    SpirvBuilder b(m_state.module, out);
    uint32_t ok = callLoopOk(loop, b);
    uint32_t condition = ok, onTrue = header, onFalse = loop.merge;
    if (inst.opcode() == Op::OpBranchConditional) { // its branch weights are dropped: they no
        onTrue = inst.operand(1);                   // longer describe the new condition
        onFalse = inst.operand(2);
        condition = header == onTrue ? b.logicalAnd(inst.operand(0), ok)
                                     : b.logicalOr(inst.operand(0), b.logicalNot(ok));
    } else {
        m_phiFixes[loop.merge].insert(m_block);
    }
    if (merge) out.push_back(*merge);
    b.branchConditional(condition, onTrue, onFalse);
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
