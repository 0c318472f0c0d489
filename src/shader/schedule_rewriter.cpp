#include "shader/schedule_rewriter.h"

#include <algorithm>

#include "trace/forced_schedule.h"

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

constexpr uint32_t kDevice = 1;  // scope
constexpr uint32_t kRelaxed = 0; // memory semantics
// The view's flag and value are relaxed atomics, not a release/acquire pair: lavapipe (Mesa 22)
// drops the lanes of a spinning look-back that acquire in a loop (they never reach the next
// barrier). A reader that sees the flag before the value reads 0, which for a status word that
// starts at 0 (scan-decoupled's) is its value before any write: a view that can happen too.

bool isWriteAtomic(Op op) {
    switch (op) {
    case Op::OpAtomicExchange:
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
    case Op::OpAtomicFAddEXT:
        return true;
    default:
        return false;
    }
}

// atomicOr(x, 0u), atomicAdd(x, 0u)...: how a kernel reads a word atomically, not a write.
bool isAtomicRead(const SpirvModule& module, const SpirvInstruction& inst) {
    Op op = inst.opcode();
    if (op != Op::OpAtomicOr && op != Op::OpAtomicIAdd && op != Op::OpAtomicISub &&
        op != Op::OpAtomicXor)
        return false;
    const SpirvInstruction* v = module.definition(inst.operand(3));
    return v && v->opcode() == Op::OpConstant && v->operand(0) == 0;
}

} // namespace

void ScheduleRewriter::declare() {
    m_active = true;
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    m_reached = module.addGlobalVariable(module.typePointer(StorageClass::Private, ids.uintType),
                                         StorageClass::Private, module.constUint(0));
    module.addToInterface(m_reached);
    m_voidFunctionType = module.typeFunction(ids.voidType, {});
    m_atFunctionType =
        module.typeFunction(ids.voidType, {ids.uintType, ids.uintType, ids.uintType, ids.uintType});
    m_viewFunctionType =
        module.typeFunction(ids.uintType, {ids.uintType, ids.uintType, ids.uintType});
    m_config = module.emit(module.newGlobals, Op::OpSpecConstant, ids.uintType, {0});
    module.newAnnotations.emplace_back(
        Op::OpDecorate,
        std::vector<uint32_t>{m_config, uint32_t(spv::Decoration::SpecId), kScheduleConfigSpecId});
    m_startFunction = module.newId();
    m_finishFunction = module.newId();
    m_atFunction = module.newId();
    m_viewFunction = module.newId();
}

void ScheduleRewriter::beginFunction(bool entryPoint) {
    m_entry = entryPoint;
    m_startPending = entryPoint && m_active;
    m_inBlock = false;
}

// Pointers into storage buffers (not the trace buffer): their binding and the last index of the
// access chain, which for `buffer B { uint x[]; }` is the element.
void ScheduleRewriter::noteChain(const SpirvInstruction& inst) {
    Op op = inst.opcode();
    if (op != Op::OpAccessChain && op != Op::OpInBoundsAccessChain && op != Op::OpCopyObject)
        return;
    uint32_t base = inst.operand(0);
    if (auto it = m_pointers.find(base); it != m_pointers.end()) {
        Target t = it->second;
        if (op != Op::OpCopyObject && inst.operandCount() > 1)
            t.index = inst.operand(inst.operandCount() - 1);
        m_pointers[inst.resultId()] = t;
        return;
    }
    const SpirvModule& module = m_state.module;
    const SpirvInstruction* var = module.definition(base);
    if (!var || var->opcode() != Op::OpVariable || base == m_state.ids.traceVariable) return;
    auto storage = StorageClass(var->operand(0));
    if (storage != StorageClass::StorageBuffer && storage != StorageClass::Uniform) return;
    auto binding = module.decoration(base, spv::Decoration::Binding);
    auto set = module.decoration(base, spv::Decoration::DescriptorSet);
    if (!binding || (set && *set != 0)) return;
    const std::vector<uint32_t>& held = m_state.options.scheduleBindings;
    if (std::find(held.begin(), held.end(), *binding) == held.end()) return;
    Target t{*binding, 0};
    if (op != Op::OpCopyObject && inst.operandCount() > 1)
        t.index = inst.operand(inst.operandCount() - 1);
    m_pointers[inst.resultId()] = t;
}

uint32_t ScheduleRewriter::writtenPointer(const SpirvInstruction& inst) const {
    Op op = inst.opcode();
    uint32_t pointer = 0;
    if (op == Op::OpStore || op == Op::OpAtomicStore)
        pointer = inst.operand(0);
    else if (isWriteAtomic(op)) {
        pointer = inst.operand(0);
        if (isAtomicRead(m_state.module, inst)) return 0;
    }
    return m_pointers.count(pointer) ? pointer : 0;
}

uint32_t ScheduleRewriter::readPointer(const SpirvInstruction& inst) const {
    Op op = inst.opcode();
    bool read = op == Op::OpLoad || op == Op::OpAtomicLoad || isAtomicRead(m_state.module, inst);
    if (!read || !m_pointers.count(inst.operand(0)) || !isScalar32(inst.resultType())) return 0;
    return inst.operand(0);
}

bool ScheduleRewriter::isScalar32(uint32_t type) const {
    const SpirvInstruction* t = m_state.module.definition(type);
    return t && (t->opcode() == Op::OpTypeInt || t->opcode() == Op::OpTypeFloat) &&
           t->operand(0) == 32;
}

// The word the pointer points at now, as a uint (0 when it is not a 32-bit scalar).
uint32_t ScheduleRewriter::valueAt(uint32_t pointer, std::vector<SpirvInstruction>& out) {
    SpirvModule& module = m_state.module;
    const SpirvInstruction* pointerType = module.definition(module.typeOf(pointer));
    uint32_t type = pointerType ? pointerType->operand(1) : 0;
    if (!isScalar32(type)) return module.constUint(0);
    uint32_t v = module.emit(out, Op::OpLoad, type, {pointer});
    return type == m_state.ids.uintType
               ? v
               : module.emit(out, Op::OpBitcast, m_state.ids.uintType, {v});
}

bool ScheduleRewriter::rewriteRead(const SpirvInstruction& inst,
                                   std::vector<SpirvInstruction>& out) {
    if (!m_active) return false;
    uint32_t pointer = readPointer(inst);
    if (!pointer) return false;
    SpirvModule& module = m_state.module;
    uint32_t u = m_state.ids.uintType, type = inst.resultType(), result = inst.resultId();
    std::vector<uint32_t> words(inst.words().begin(), inst.words().end());
    uint32_t raw = module.newId();
    words[1] = raw; // [0] is the result type
    out.emplace_back(inst.opcode(), std::move(words));
    uint32_t asWord = type == u ? raw : module.emit(out, Op::OpBitcast, u, {raw});
    const Target& t = m_pointers.at(pointer);
    std::vector<uint32_t> call{u,
                               type == u ? result : module.newId(),
                               m_viewFunction,
                               module.constUint(t.binding),
                               asUint(out, t.index),
                               asWord};
    uint32_t seen = call[1];
    out.emplace_back(Op::OpFunctionCall, std::move(call));
    if (type != u) out.emplace_back(Op::OpBitcast, std::vector<uint32_t>{type, result, seen});
    return true;
}

uint32_t ScheduleRewriter::asUint(std::vector<SpirvInstruction>& out, uint32_t id) {
    SpirvModule& module = m_state.module;
    uint32_t u = m_state.ids.uintType;
    if (!id) return module.constUint(0);
    uint32_t type = module.typeOf(id);
    if (type == u) return id;
    const SpirvInstruction* t = module.definition(type);
    if (t && t->opcode() == Op::OpTypeInt && t->operand(0) == 32)
        return module.emit(out, Op::OpBitcast, u, {id});
    return module.constUint(0); // a 64-bit index: element 0 stands for it
}

void ScheduleRewriter::callAt(const SpirvInstruction& inst, bool after,
                              std::vector<SpirvInstruction>& out) {
    uint32_t pointer = writtenPointer(inst);
    if (!pointer) return;
    const Target& t = m_pointers.at(pointer);
    SpirvModule& module = m_state.module;
    uint32_t index = asUint(out, t.index);
    uint32_t value = valueAt(pointer, out); // before or after the write, as the call is
    module.emit(out, Op::OpFunctionCall, m_state.ids.voidType,
                {m_atFunction, module.constUint(t.binding), index, module.constUint(after), value});
}

void ScheduleRewriter::before(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out) {
    if (!m_active) return;
    Op op = inst.opcode();
    if (m_startPending && m_inBlock && op != Op::OpVariable && op != Op::OpLine &&
        op != Op::OpNoLine) {
        m_state.module.emit(out, Op::OpFunctionCall, m_state.ids.voidType, {m_startFunction});
        m_startPending = false;
    }
    m_inBlock |= op == Op::OpLabel;
    noteChain(inst);
    if (m_entry && op == Op::OpReturn)
        m_state.module.emit(out, Op::OpFunctionCall, m_state.ids.voidType, {m_finishFunction});
    callAt(inst, false, out);
}

void ScheduleRewriter::after(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out) {
    if (m_active) callAt(inst, true, out);
}

// --- The helper functions ---------------------------------------------------------------------

uint32_t ScheduleRewriter::blockWord(std::vector<SpirvInstruction>& f, uint32_t block,
                                     uint32_t word) {
    SpirvModule& module = m_state.module;
    uint32_t at =
        word ? module.emit(f, Op::OpIAdd, m_state.ids.uintType, {block, module.constUint(word)})
             : block;
    return m_state.traceWord(f, at);
}

uint32_t ScheduleRewriter::inactive(std::vector<SpirvInstruction>& f) {
    SpirvModule& module = m_state.module;
    uint32_t active = module.emit(f, Op::OpBitwiseAnd, m_state.ids.uintType,
                                  {m_config, module.constUint(kScheduleActive)});
    return module.emit(f, Op::OpIEqual, m_state.ids.boolType, {active, module.constUint(0)});
}

// Ends the function when `condition` holds.
void ScheduleRewriter::returnIf(std::vector<SpirvInstruction>& f, uint32_t condition) {
    SpirvModule& module = m_state.module;
    uint32_t returnL = module.newId(), goOnL = module.newId();
    m_state.emitVoid(f, Op::OpSelectionMerge, {goOnL, 0});
    m_state.emitVoid(f, Op::OpBranchConditional, {condition, returnL, goOnL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{returnL});
    m_state.emitVoid(f, Op::OpReturn, {});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{goOnL});
}

// The workgroup's flat index, x fastest (as trace/trace.h numbers invocations).
uint32_t ScheduleRewriter::workgroupIndex(std::vector<SpirvInstruction>& f) {
    SpirvModule& module = m_state.module;
    uint32_t u = m_state.ids.uintType;
    uint32_t nx = m_state.loadTraceWord(f, 3), ny = m_state.loadTraceWord(f, 4);
    uint32_t wid = module.emit(f, Op::OpLoad, module.typeVector(u, 3), {m_state.ids.workgroupId});
    uint32_t wx = module.emit(f, Op::OpCompositeExtract, u, {wid, 0});
    uint32_t wy = module.emit(f, Op::OpCompositeExtract, u, {wid, 1});
    uint32_t wz = module.emit(f, Op::OpCompositeExtract, u, {wid, 2});
    uint32_t g = module.emit(f, Op::OpIAdd, u, {wx, module.emit(f, Op::OpIMul, u, {wy, nx})});
    uint32_t plane = module.emit(f, Op::OpIMul, u, {nx, ny});
    return module.emit(f, Op::OpIAdd, u, {g, module.emit(f, Op::OpIMul, u, {wz, plane})});
}

// scheduleStart(): one more invocation started. scheduleFinish(): one more returned, counted only
// outside the held workgroup (whose own threads may be waiting for it at a barrier).
void ScheduleRewriter::buildCounter(uint32_t function, uint32_t word, bool onlyOthers) {
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType;
    auto& f = module.newFunctions;
    f.emplace_back(Op::OpFunction,
                   std::vector<uint32_t>{ids.voidType, function, 0, m_voidFunctionType});
    m_state.label(f);
    returnIf(f, inactive(f));
    uint32_t block = m_state.loadTraceWord(f, 0);
    returnIf(f, module.emit(f, Op::OpIEqual, ids.boolType, {block, module.constUint(0)}));
    if (onlyOthers) {
        uint32_t held = module.emit(f, Op::OpAtomicLoad, u,
                                    {blockWord(f, block, kScheduleHeld), module.constUint(kDevice),
                                     module.constUint(kRelaxed)});
        uint32_t mine = module.emit(f, Op::OpIAdd, u, {workgroupIndex(f), module.constUint(1)});
        returnIf(f, module.emit(f, Op::OpIEqual, ids.boolType, {held, mine}));
    }
    module.emit(f, Op::OpAtomicIAdd, u,
                {blockWord(f, block, word), module.constUint(kDevice), module.constUint(kRelaxed),
                 module.constUint(1)});
    m_state.emitVoid(f, Op::OpReturn, {});
    m_state.emitVoid(f, Op::OpFunctionEnd, {});
}

// scheduleAt(binding, index, after): at this invocation's first pass of the configured point,
// its workgroup takes an arrival ticket (once per workgroup); the chosen one spins until every
// other workgroup has returned or the bound runs out, and leaves the outcome in the block.
void ScheduleRewriter::buildAt() {
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType, b = ids.boolType;
    auto& f = module.newFunctions;
    f.emplace_back(Op::OpFunction,
                   std::vector<uint32_t>{ids.voidType, m_atFunction, 0, m_atFunctionType});
    uint32_t binding = module.newId(), index = module.newId(), after = module.newId(),
             value = module.newId();
    for (uint32_t p : {binding, index, after, value})
        f.emplace_back(Op::OpFunctionParameter, std::vector<uint32_t>{u, p});
    m_state.label(f);
    uint32_t functionUint = module.typePointer(StorageClass::Function, u);
    uint32_t polls = module.newId(), inner = module.newId();
    for (uint32_t v : {polls, inner})
        f.emplace_back(Op::OpVariable,
                       std::vector<uint32_t>{functionUint, v, uint32_t(StorageClass::Function)});
    auto c = [&](uint32_t v) { return module.constUint(v); };
    auto atomic = [&](Op op, uint32_t pointer, std::vector<uint32_t> more) {
        std::vector<uint32_t> operands{pointer, c(kDevice), c(kRelaxed)};
        operands.insert(operands.end(), more.begin(), more.end());
        return module.emit(f, op, u, operands);
    };
    auto word = [&](uint32_t block, uint32_t w) { return blockWord(f, block, w); };
    // The rest runs inside nested ifs, never after an early return: lavapipe runs a loop until
    // every lane has left it, and lanes that returned before it never do.
    std::vector<uint32_t> merges;
    auto skipIf = [&](uint32_t condition) {
        uint32_t thenL = module.newId(), mergeL = module.newId();
        m_state.emitVoid(f, Op::OpSelectionMerge, {mergeL, 0});
        m_state.emitVoid(f, Op::OpBranchConditional, {condition, mergeL, thenL});
        f.emplace_back(Op::OpLabel, std::vector<uint32_t>{thenL});
        merges.push_back(mergeL);
    };

    skipIf(inactive(f));
    uint32_t block = m_state.loadTraceWord(f, 0);
    skipIf(module.emit(f, Op::OpIEqual, b, {block, c(0)}));
    uint32_t config = m_config; // a constant: the tests of the call's binding and point fold away
    uint32_t wantBinding = module.emit(f, Op::OpBitwiseAnd, u, {config, c(kScheduleBindingMask)});
    uint32_t wantAfter =
        module.emit(f, Op::OpINotEqual, b,
                    {module.emit(f, Op::OpBitwiseAnd, u, {config, c(kScheduleAfterWrite)}), c(0)});
    uint32_t isAfter = module.emit(f, Op::OpINotEqual, b, {after, c(0)});
    uint32_t other = module.emit(f, Op::OpLogicalOr, b,
                                 {module.emit(f, Op::OpINotEqual, b, {binding, wantBinding}),
                                  module.emit(f, Op::OpLogicalNotEqual, b, {isAfter, wantAfter})});
    skipIf(other);
    uint32_t byIndex =
        module.emit(f, Op::OpINotEqual, b,
                    {module.emit(f, Op::OpBitwiseAnd, u, {config, c(kScheduleByIndex)}), c(0)});
    uint32_t target = module.emit(f, Op::OpLoad, u, {word(block, kScheduleTarget)});
    {
        // Another workgroup writes the frozen element too: hiding the held one's later writes
        // would no longer be a schedule that could happen, so the view gives up.
        uint32_t frozen = module.emit(f, Op::OpIEqual, b,
                                      {atomic(Op::OpAtomicLoad, word(block, kScheduleView), {}),
                                       c(uint32_t(ScheduleView::Frozen))});
        uint32_t heldNow = atomic(Op::OpAtomicLoad, word(block, kScheduleHeld), {});
        uint32_t someoneElse =
            module.emit(f, Op::OpINotEqual, b,
                        {heldNow, module.emit(f, Op::OpIAdd, u, {workgroupIndex(f), c(1)})});
        uint32_t mine = module.emit(f, Op::OpIEqual, b, {index, target});
        uint32_t giveUp = module.emit(f, Op::OpLogicalAnd, b,
                                      {module.emit(f, Op::OpLogicalAnd, b, {byIndex, mine}),
                                       module.emit(f, Op::OpLogicalAnd, b, {frozen, someoneElse})});
        ifThen(f, giveUp, [&] {
            atomic(Op::OpAtomicExchange, word(block, kScheduleView),
                   {c(uint32_t(ScheduleView::GivenUp))});
        });
    }
    // Only an invocation's first write counts, and only its workgroup's first arrival.
    skipIf(module.emit(f, Op::OpINotEqual, b, {module.emit(f, Op::OpLoad, u, {m_reached}), c(0)}));
    m_state.emitVoid(f, Op::OpStore, {m_reached, c(1)});
    uint32_t group = workgroupIndex(f);
    uint32_t flagAt = module.emit(f, Op::OpIAdd, u, {group, c(kScheduleFixedWords)});
    uint32_t flagWord = m_state.traceWord(f, module.emit(f, Op::OpIAdd, u, {block, flagAt}));
    uint32_t before = atomic(Op::OpAtomicExchange, flagWord, {c(1)});
    skipIf(module.emit(f, Op::OpINotEqual, b, {before, c(0)}));
    uint32_t place = atomic(Op::OpAtomicIAdd, word(block, kScheduleArrivals), {c(1)});
    uint32_t chosen = module.emit(f, Op::OpSelect, b,
                                  {byIndex, module.emit(f, Op::OpIEqual, b, {index, target}),
                                   module.emit(f, Op::OpIEqual, b, {place, target})});
    skipIf(module.emit(f, Op::OpLogicalNot, b, {chosen}));
    uint32_t mine = module.emit(f, Op::OpIAdd, u, {group, c(1)});
    uint32_t previous =
        module.emit(f, Op::OpAtomicCompareExchange, u,
                    {word(block, kScheduleHeld), c(kDevice), c(kRelaxed), c(kRelaxed), mine, c(0)});
    skipIf(module.emit(f, Op::OpINotEqual, b, {previous, c(0)})); // one hold per dispatch
    m_state.emitVoid(f, Op::OpStore, {word(block, kScheduleHeldPlace), place});
    m_state.emitVoid(f, Op::OpStore, {word(block, kScheduleHeldIndex), index});
    // From here on the others read the held element as it is now (by-index schedules).
    ifThen(f, byIndex, [&] {
        atomic(Op::OpAtomicExchange, word(block, kScheduleViewValue), {value});
        module.emit(f, Op::OpAtomicExchange, u,
                    {word(block, kScheduleView), c(kDevice), c(kRelaxed),
                     c(uint32_t(ScheduleView::Frozen))});
    });
    uint32_t others = module.emit(f, Op::OpLoad, u, {word(block, kScheduleOthers)});
    uint32_t bound = module.emit(f, Op::OpLoad, u, {word(block, kScheduleBound)});
    uint32_t finishedAt = word(block, kScheduleFinished);
    uint32_t startedAt = word(block, kScheduleStarted), arrivalsAt = word(block, kScheduleArrivals);
    uint32_t perGroup = m_state.loadTraceWord(f, 2);
    uint32_t firstAfter = module.emit(f, Op::OpIAdd, u, {place, c(1)});
    m_state.emitVoid(f, Op::OpStore, {polls, c(0)});
    m_state.emitVoid(f, Op::OpStore, {inner, module.emit(f, Op::OpBitwiseOr, u, {bound, c(1)})});

    // One loop (lavapipe counts every back-edge of the invocation against 65535): each poll reads
    // the counts, then runs a chain of divisions by a value the compiler cannot know, to spend
    // time without spending back-edges.
    uint32_t header = module.newId(), body = module.newId(), cont = module.newId(),
             merge = module.newId();
    m_state.emitVoid(f, Op::OpBranch, {header});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{header});
    m_state.emitVoid(f, Op::OpLoopMerge, {merge, cont, 0});
    m_state.emitVoid(f, Op::OpBranch, {body});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{body});
    uint32_t finished = atomic(Op::OpAtomicLoad, finishedAt, {});
    uint32_t started = atomic(Op::OpAtomicLoad, startedAt, {});
    uint32_t arrivals = atomic(Op::OpAtomicLoad, arrivalsAt, {});
    uint32_t all = module.emit(f, Op::OpUGreaterThanEqual, b, {finished, others});
    // Nothing else running (every started invocation outside the held workgroup has returned)
    // after a later workgroup got there: the successors that could run have finished.
    uint32_t idle = module.emit(f, Op::OpIEqual, b,
                                {started, module.emit(f, Op::OpIAdd, u, {finished, perGroup})});
    uint32_t later = module.emit(f, Op::OpUGreaterThan, b, {arrivals, firstAfter});
    uint32_t successors = module.emit(f, Op::OpLogicalAnd, b, {idle, later});
    uint32_t x = module.emit(f, Op::OpLoad, u, {inner});
    uint32_t divisor = module.emit(f, Op::OpBitwiseOr, u, {bound, c(1)});
    for (uint32_t k = 0; k < kScheduleDelaySteps; ++k)
        x = module.emit(
            f, Op::OpUMod, u,
            {module.emit(f, Op::OpIAdd, u,
                         {module.emit(f, Op::OpIMul, u, {x, c(1103515245u)}), c(12345)}),
             divisor});
    m_state.emitVoid(f, Op::OpStore, {inner, x});
    uint32_t p = module.emit(f, Op::OpIAdd, u, {module.emit(f, Op::OpLoad, u, {polls}), c(1)});
    m_state.emitVoid(f, Op::OpStore, {polls, p});
    uint32_t stop = module.emit(f, Op::OpLogicalOr, b,
                                {module.emit(f, Op::OpLogicalOr, b, {all, successors}),
                                 module.emit(f, Op::OpUGreaterThanEqual, b, {p, bound})});
    m_state.emitVoid(f, Op::OpBranchConditional, {stop, merge, cont});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{cont});
    m_state.emitVoid(f, Op::OpBranch, {header});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{merge});

    // Why the hold ended: every other workgroup finished; the later ones that could run finished
    // and nothing else was running; or the bound ran out, with others still running (waiting for
    // this one?) or with no later workgroup having got there (nothing else could run).
    finished = atomic(Op::OpAtomicLoad, finishedAt, {});
    started = atomic(Op::OpAtomicLoad, startedAt, {});
    arrivals = atomic(Op::OpAtomicLoad, arrivalsAt, {});
    all = module.emit(f, Op::OpUGreaterThanEqual, b, {finished, others});
    idle = module.emit(f, Op::OpIEqual, b,
                       {started, module.emit(f, Op::OpIAdd, u, {finished, perGroup})});
    later = module.emit(f, Op::OpUGreaterThan, b, {arrivals, firstAfter});
    auto pick = [&](uint32_t cond, ScheduleOutcome yes, uint32_t no) {
        return module.emit(f, Op::OpSelect, u, {cond, c(uint32_t(yes)), no});
    };
    uint32_t outcome =
        pick(all, ScheduleOutcome::OthersFinished,
             pick(module.emit(f, Op::OpLogicalAnd, b, {idle, later}),
                  ScheduleOutcome::SuccessorsFinished,
                  pick(module.emit(f, Op::OpLogicalNot, b, {idle}), ScheduleOutcome::OthersWaiting,
                       c(uint32_t(ScheduleOutcome::NothingElseRan)))));
    m_state.emitVoid(f, Op::OpStore,
                     {word(block, kScheduleSpins), module.emit(f, Op::OpLoad, u, {polls})});
    m_state.emitVoid(f, Op::OpStore,
                     {word(block, kScheduleScratch), module.emit(f, Op::OpLoad, u, {inner})});
    m_state.emitVoid(f, Op::OpStore, {word(block, kScheduleArrivalsAtRelease), arrivals});
    m_state.emitVoid(f, Op::OpStore, {word(block, kScheduleFinishedAtRelease), finished});
    m_state.emitVoid(f, Op::OpStore, {word(block, kScheduleOutcomeWord), outcome});
    for (auto m = merges.rbegin(); m != merges.rend(); ++m) {
        m_state.emitVoid(f, Op::OpBranch, {*m});
        f.emplace_back(Op::OpLabel, std::vector<uint32_t>{*m});
    }
    m_state.emitVoid(f, Op::OpReturn, {});
    m_state.emitVoid(f, Op::OpFunctionEnd, {});
}

void ScheduleRewriter::ifThen(std::vector<SpirvInstruction>& f, uint32_t condition,
                              const std::function<void()>& body) {
    uint32_t thenL = m_state.module.newId(), mergeL = m_state.module.newId();
    m_state.emitVoid(f, Op::OpSelectionMerge, {mergeL, 0});
    m_state.emitVoid(f, Op::OpBranchConditional, {condition, thenL, mergeL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{thenL});
    body();
    m_state.emitVoid(f, Op::OpBranch, {mergeL});
    f.emplace_back(Op::OpLabel, std::vector<uint32_t>{mergeL});
}

// scheduleView(binding, index, value): what a read of binding[index] that found `value` sees. The
// held element, read by another workgroup once the view is frozen, is the value it had at the
// hold point; everything else is as read.
void ScheduleRewriter::buildView() {
    SpirvModule& module = m_state.module;
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType, b = ids.boolType;
    auto& f = module.newFunctions;
    f.emplace_back(Op::OpFunction, std::vector<uint32_t>{u, m_viewFunction, 0, m_viewFunctionType});
    uint32_t binding = module.newId(), index = module.newId(), value = module.newId();
    for (uint32_t p : {binding, index, value})
        f.emplace_back(Op::OpFunctionParameter, std::vector<uint32_t>{u, p});
    m_state.label(f);
    uint32_t seen = module.newId();
    f.emplace_back(Op::OpVariable,
                   std::vector<uint32_t>{module.typePointer(StorageClass::Function, u), seen,
                                         uint32_t(StorageClass::Function)});
    m_state.emitVoid(f, Op::OpStore, {seen, value});
    auto c = [&](uint32_t v) { return module.constUint(v); };
    uint32_t active = module.emit(f, Op::OpLogicalNot, b, {inactive(f)});
    ifThen(f, active, [&] {
        uint32_t block = m_state.loadTraceWord(f, 0);
        ifThen(f, module.emit(f, Op::OpINotEqual, b, {block, c(0)}), [&] {
            uint32_t config = m_config;
            uint32_t target = module.emit(f, Op::OpLoad, u, {blockWord(f, block, kScheduleTarget)});
            uint32_t sameBinding = module.emit(
                f, Op::OpIEqual, b,
                {binding, module.emit(f, Op::OpBitwiseAnd, u, {config, c(kScheduleBindingMask)})});
            uint32_t byIndex = module.emit(
                f, Op::OpINotEqual, b,
                {module.emit(f, Op::OpBitwiseAnd, u, {config, c(kScheduleByIndex)}), c(0)});
            uint32_t element = module.emit(f, Op::OpIEqual, b, {index, target});
            uint32_t match =
                module.emit(f, Op::OpLogicalAnd, b,
                            {sameBinding, module.emit(f, Op::OpLogicalAnd, b, {byIndex, element})});
            ifThen(f, match, [&] {
                uint32_t view =
                    module.emit(f, Op::OpAtomicLoad, u,
                                {blockWord(f, block, kScheduleView), c(kDevice), c(kRelaxed)});
                uint32_t held =
                    module.emit(f, Op::OpAtomicLoad, u,
                                {blockWord(f, block, kScheduleHeld), c(kDevice), c(kRelaxed)});
                uint32_t mine = module.emit(f, Op::OpIAdd, u, {workgroupIndex(f), c(1)});
                uint32_t hide = module.emit(
                    f, Op::OpLogicalAnd, b,
                    {module.emit(f, Op::OpIEqual, b, {view, c(uint32_t(ScheduleView::Frozen))}),
                     module.emit(f, Op::OpINotEqual, b, {held, mine})});
                ifThen(f, hide, [&] {
                    module.emit(
                        f, Op::OpAtomicIAdd, u,
                        {blockWord(f, block, kScheduleViewReads), c(kDevice), c(kRelaxed), c(1)});
                    uint32_t frozen = module.emit(
                        f, Op::OpAtomicLoad, u,
                        {blockWord(f, block, kScheduleViewValue), c(kDevice), c(kRelaxed)});
                    m_state.emitVoid(f, Op::OpStore, {seen, frozen});
                });
            });
        });
    });
    m_state.emitVoid(f, Op::OpReturnValue, {module.emit(f, Op::OpLoad, u, {seen})});
    m_state.emitVoid(f, Op::OpFunctionEnd, {});
}

void ScheduleRewriter::build() {
    buildCounter(m_startFunction, kScheduleStarted, false);
    buildCounter(m_finishFunction, kScheduleFinished, true);
    buildAt();
    buildView();
}

} // namespace vkp
