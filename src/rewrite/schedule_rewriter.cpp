#include "rewrite/schedule_rewriter.h"

#include <algorithm>

#include "trace/forced_schedule.h"

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

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
uint32_t ScheduleRewriter::valueAt(uint32_t pointer, SpirvBuilder& b) {
    SpirvModule& module = m_state.module;
    const SpirvInstruction* pointerType = module.definition(module.typeOf(pointer));
    uint32_t type = pointerType ? pointerType->operand(1) : 0;
    if (!isScalar32(type)) return b.uint(0);
    uint32_t v = b.load(type, pointer);
    return type == m_state.ids.uintType ? v : b.bitcast(m_state.ids.uintType, v);
}

bool ScheduleRewriter::rewriteRead(const SpirvInstruction& inst,
                                   std::vector<SpirvInstruction>& out) {
    if (!m_active) return false;
    uint32_t pointer = readPointer(inst);
    if (!pointer) return false;
    SpirvModule& module = m_state.module;
    SpirvBuilder b(module, out);
    uint32_t u = m_state.ids.uintType, type = inst.resultType(), result = inst.resultId();
    uint32_t raw = module.newId();
    auto operands = inst.operands();
    b.define(raw, inst.opcode(), type, {operands.begin(), operands.end()});
    uint32_t asWord = type == u ? raw : b.bitcast(u, raw);
    const Target& t = m_pointers.at(pointer);
    uint32_t seen = type == u ? result : module.newId();
    uint32_t binding = b.uint(t.binding);
    uint32_t index = b.asUint(t.index);
    b.define(seen, Op::OpFunctionCall, u, {m_viewFunction, binding, index, asWord});
    if (type != u) b.define(result, Op::OpBitcast, type, {seen});
    return true;
}

void ScheduleRewriter::callAt(const SpirvInstruction& inst, bool after, SpirvBuilder& b) {
    uint32_t pointer = writtenPointer(inst);
    if (!pointer) return;
    const Target& t = m_pointers.at(pointer);
    uint32_t index = b.asUint(t.index);
    uint32_t value = valueAt(pointer, b); // before or after the write, as the call is
    b.call(m_state.ids.voidType, m_atFunction, {b.uint(t.binding), index, b.uint(after), value});
}

void ScheduleRewriter::before(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out) {
    if (!m_active) return;
    SpirvBuilder b(m_state.module, out);
    Op op = inst.opcode();
    if (m_startPending && m_inBlock && op != Op::OpVariable && op != Op::OpLine &&
        op != Op::OpNoLine) {
        b.call(m_state.ids.voidType, m_startFunction, {});
        m_startPending = false;
    }
    m_inBlock |= op == Op::OpLabel;
    noteChain(inst);
    if (m_entry && op == Op::OpReturn) b.call(m_state.ids.voidType, m_finishFunction, {});
    callAt(inst, false, b);
}

void ScheduleRewriter::after(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out) {
    SpirvBuilder b(m_state.module, out);
    if (m_active) callAt(inst, true, b);
}

} // namespace vkp
