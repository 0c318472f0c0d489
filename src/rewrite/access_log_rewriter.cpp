#include "rewrite/access_log_rewriter.h"

#include "rewrite/trace_objects.h"

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

} // namespace

void AccessLogRewriter::findVariables() {
    const SpirvModule& module = m_state.module;
    TraceLayout& layout = m_state.layout;
    for (const SpirvInstruction& var : module.globals) {
        if (var.opcode() != Op::OpVariable || var.operandCount() < 1) continue;
        auto storage = static_cast<StorageClass>(var.operand(0));
        const SpirvInstruction* pointer = module.definition(var.resultType());
        if (!pointer) continue;
        uint32_t pointee = pointer->operand(1); // after the storage class
        bool buffer = storage == StorageClass::StorageBuffer ||
                      (storage == StorageClass::Uniform &&
                       module.decoration(pointee, spv::Decoration::BufferBlock));
        bool shared = storage == StorageClass::Workgroup;
        if ((!buffer && !shared) || layout.variables.size() >= kTraceVariableNone) continue;
        TracedVariable v;
        v.shared = shared;
        if (buffer)
            describeBuffer(var.resultId(), pointee, v);
        else
            describeShared(var.resultId(), v);
        m_layoutIndex[var.resultId()] = static_cast<uint32_t>(layout.variables.size());
        m_pointees.push_back(pointee);
        bool isVolatile = false;
        for (const KernelBinding& k : m_reflected.bindings)
            isVolatile |= buffer && k.set == v.set && k.binding == v.binding && k.isVolatile;
        m_state.volatileVariables.push_back(isVolatile);
        layout.variables.push_back(v);
    }
}

void AccessLogRewriter::describeBuffer(uint32_t var, uint32_t block, TracedVariable& v) const {
    const SpirvModule& module = m_state.module;
    v.set = module.decoration(var, spv::Decoration::DescriptorSet).value_or(0);
    v.binding = module.decoration(var, spv::Decoration::Binding).value_or(0);
    v.name = module.memberName(block, 0);
    if (v.name.empty()) v.name = module.name(var);
    const SpirvInstruction* members = module.definition(block);
    if (members && members->opcode() == Op::OpTypeStruct && members->operandCount() >= 1)
        if (const SpirvInstruction* array = module.definition(members->operand(0));
            array && array->opcode() == Op::OpTypeRuntimeArray)
            if (auto element = bufferElement(module, array->operand(0))) {
                // A vector view (`vec4 a4[]`): its indices, as a shared vec4 array's, count
                // scalars (flatIndex), so two views of one binding name the same cells.
                v.elementType = element->type;
                v.elementWidth = element->width;
            }
}

void AccessLogRewriter::describeShared(uint32_t var, TracedVariable& v) const {
    for (const KernelSharedArray& a : m_reflected.shared) {
        if (a.variableId != var) continue;
        v.name = a.name;
        v.dims = a.dims;
        v.elementType = a.elementType;
        v.elementWidth = a.elementWidth;
    }
}

std::optional<AccessLogRewriter::Chain> AccessLogRewriter::chainOf(uint32_t pointer) const {
    if (auto it = m_layoutIndex.find(pointer); it != m_layoutIndex.end())
        return Chain{it->second, {}};
    if (auto it = m_chains.find(pointer); it != m_chains.end()) return it->second;
    return std::nullopt;
}

// Element count of one value of `type`, as factors to multiply (ids).
std::vector<uint32_t> AccessLogRewriter::flatFactors(uint32_t type) {
    SpirvModule& module = m_state.module;
    const SpirvInstruction* t = module.definition(type);
    if (!t) return {};
    switch (t->opcode()) {
    case Op::OpTypeVector:
        return {module.constUint(t->operand(1))}; // component type, count
    case Op::OpTypeMatrix: {                      // column type, count
        auto f = flatFactors(t->operand(0));
        f.push_back(module.constUint(t->operand(1)));
        return f;
    }
    case Op::OpTypeArray: { // element type, length (an id)
        auto f = flatFactors(t->operand(0));
        f.push_back(t->operand(1));
        return f;
    }
    case Op::OpTypeRuntimeArray:
        return flatFactors(t->operand(0));
    default:
        return {};
    }
}

uint32_t AccessLogRewriter::flatIndex(SpirvBuilder& b, const Chain& chain, uint32_t pointee) {
    SpirvModule& module = m_state.module;
    uint32_t acc = 0, type = pointee;
    for (uint32_t idx : chain.indices) {
        const SpirvInstruction* t = module.definition(type);
        if (!t) break;
        if (t->opcode() == Op::OpTypeStruct) {
            const SpirvInstruction* k = module.definition(idx);
            uint32_t member = k && k->opcode() == Op::OpConstant ? k->operand(0) : 0;
            if (member >= t->operandCount()) break;
            type = t->operand(member);
            continue;
        }
        uint32_t term = b.asUint(idx);
        uint32_t elem = t->operand(0); // the element, column or component type
        if (t->opcode() == Op::OpTypeArray || t->opcode() == Op::OpTypeRuntimeArray ||
            t->opcode() == Op::OpTypeMatrix)
            for (uint32_t f : flatFactors(elem))
                term = b.mul(term, b.asUint(f));
        acc = acc ? b.add(acc, term) : term;
        type = elem;
    }
    return acc ? acc : b.uint(0);
}

uint32_t AccessLogRewriter::valueWord(SpirvBuilder& b, uint32_t value, uint32_t type) {
    uint32_t u = m_state.ids.uintType;
    const SpirvInstruction* t = m_state.module.definition(type);
    if (!t) return b.uint(0);
    if (t->opcode() == Op::OpTypeBool) {
        uint32_t one = b.uint(1), zero = b.uint(0);
        return b.select(u, value, one, zero);
    }
    if ((t->opcode() == Op::OpTypeFloat || t->opcode() == Op::OpTypeInt) && t->operand(0) == 32)
        return type == u ? value : b.bitcast(u, value);
    return b.uint(0);
}

void AccessLogRewriter::access(SpirvBuilder& b, TraceEventKind kind, uint32_t pointer,
                               uint32_t value, uint32_t valueType, uint32_t extra) {
    auto chain = chainOf(pointer);
    if (!chain) return;
    uint32_t index = flatIndex(b, *chain, m_pointees.at(chain->variable));
    if (isComposite(valueType)) {
        uint32_t w0 = b.uint(packTraceWord0(kind, chain->variable, m_state.line));
        recordLeaves(b, w0, value, valueType, index);
        return;
    }
    uint32_t word = valueWord(b, value, valueType);
    if (kind == TraceEventKind::Read)
        m_state.read(b, chain->variable, index, word, extra ? extra : b.uint(0));
    else
        m_state.record(b, kind, chain->variable, index, word, extra ? extra : b.uint(0));
}

// OpCopyMemory(target, source): the source is loaded once here and its value logged as the
// source's reads, then as the target's writes; the copy itself still runs after the records.
void AccessLogRewriter::copyMemory(const SpirvInstruction& inst, SpirvBuilder& b) {
    SpirvModule& module = m_state.module;
    uint32_t target = inst.operand(0), source = inst.operand(1);
    if (!chainOf(target) && !chainOf(source)) return;
    const SpirvInstruction* pointer = module.definition(module.typeOf(source));
    if (!pointer || pointer->opcode() != Op::OpTypePointer) return;
    uint32_t type = pointer->operand(1); // after the storage class
    uint32_t value = b.load(type, source);
    access(b, TraceEventKind::Read, source, value, type);
    access(b, TraceEventKind::Write, target, value, type);
}

void AccessLogRewriter::before(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out) {
    const SpirvModule& module = m_state.module;
    SpirvBuilder b(m_state.module, out);
    switch (inst.opcode()) {
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain: // base, then indices
        if (auto chain = chainOf(inst.operand(0))) {
            auto indices = inst.operands(1);
            chain->indices.insert(chain->indices.end(), indices.begin(), indices.end());
            m_chains[inst.resultId()] = *chain;
        }
        break;
    case Op::OpCopyObject:
        if (auto chain = chainOf(inst.operand(0))) m_chains[inst.resultId()] = *chain;
        break;
    case Op::OpStore: // pointer, value
        access(b, TraceEventKind::Write, inst.operand(0), inst.operand(1),
               module.typeOf(inst.operand(1)));
        break;
    case Op::OpCopyMemory: // target, source, memory operands
        copyMemory(inst, b);
        break;
    case Op::OpAtomicStore: // pointer, scope, semantics, value
        access(b, TraceEventKind::Atomic, inst.operand(0), inst.operand(3),
               module.typeOf(inst.operand(3)));
        break;
    default:
        break;
    }
}

// A value handed over from another lane of the subgroup: what arrived, the lane operand and
// the op (trace/trace.h, TraceEventKind::Shuffle). Scalars of 32 bits and bools only.
// subgroupBroadcastFirst names no lane: the record gets the lowest active lane, the one whose
// value arrived, from a ballot of the lanes that ran it (subgroupBallotFindLSB(subgroupBallot(
// true)), in the same block, so with the same lanes active). The other ops name their source
// lane; the same ballot says whether that lane ran the op too, and the record's extra word
// carries kShuffleSourceInactive when it did not (or when it is past any subgroup): the value
// is then undefined. The ballot needs GroupNonUniformBallot, declared if the kernel does not.
std::optional<ShuffleOp> shuffleOpFor(Op op) {
    switch (op) {
    case Op::OpGroupNonUniformShuffle:
        return ShuffleOp::Shuffle;
    case Op::OpGroupNonUniformShuffleXor:
        return ShuffleOp::Xor;
    case Op::OpGroupNonUniformShuffleUp:
        return ShuffleOp::Up;
    case Op::OpGroupNonUniformShuffleDown:
        return ShuffleOp::Down;
    case Op::OpGroupNonUniformBroadcast:
        return ShuffleOp::Broadcast;
    case Op::OpGroupNonUniformBroadcastFirst:
        return ShuffleOp::BroadcastFirst;
    default:
        return std::nullopt;
    }
}

void AccessLogRewriter::shuffle(const SpirvInstruction& inst, SpirvBuilder& b) {
    auto op = shuffleOpFor(inst.opcode());
    if (!op || inst.operandCount() < 2) return; // scope, value[, lane operand]
    SpirvModule& module = m_state.module;
    const SpirvInstruction* t = module.definition(inst.resultType());
    std::optional<ElementKind> type = scalarKind(module, inst.resultType());
    if (!type && t && t->opcode() == Op::OpTypeBool) type = ElementKind::Uint; // recorded as 0/1
    if (!type) return; // vectors and other widths are not recorded
    uint32_t u = module.typeUint();
    uint32_t scope = inst.operand(0);
    module.requireCapability(spv::Capability::GroupNonUniformBallot);
    uint32_t uvec4 = module.typeVector(u, 4);
    uint32_t ballot = b.value(Op::OpGroupNonUniformBallot, uvec4, {scope, module.constTrue()});
    uint32_t extra = b.uint(packShuffleExtra(*op, *type));
    uint32_t lane = 0;
    if (*op == ShuffleOp::BroadcastFirst) {
        lane = b.value(Op::OpGroupNonUniformBallotFindLSB, u, {scope, ballot});
    } else {
        lane = b.asUint(inst.operand(2));
        uint32_t inactive = shuffleSourceInactive(m_state, b, *op, lane, ballot);
        uint32_t flag = b.shiftLeft(inactive, b.uint(kShuffleSourceInactiveShift));
        extra = b.bitOr(extra, flag);
    }
    uint32_t value = valueWord(b, inst.resultId(), inst.resultType());
    m_state.record(b, TraceEventKind::Shuffle, kTraceVariableNone, lane, value, extra);
}

// 1 when the lane `op` takes from (operand `lane`: the lane, mask or delta) is not in `ballot`
// (the lanes that ran it) or is past 127, else 0. The bit is read from the ballot's words by
// hand (word = lane / 32), which is defined for any lane, where BallotBitExtract is not.
uint32_t shuffleSourceInactive(InstrumentState& state, SpirvBuilder& b, ShuffleOp op, uint32_t lane,
                               uint32_t ballot) {
    SpirvModule& module = state.module;
    uint32_t u = module.typeUint();
    uint32_t source = lane;
    if (op == ShuffleOp::Xor || op == ShuffleOp::Up || op == ShuffleOp::Down) {
        if (!state.ids.subgroupLane)
            state.ids.subgroupLane =
                module.builtinVariable(spv::BuiltIn::SubgroupLocalInvocationId,
                                       module.typePointer(spv::StorageClass::Input, u));
        uint32_t self = b.load(u, state.ids.subgroupLane);
        Op arith = op == ShuffleOp::Xor  ? Op::OpBitwiseXor
                   : op == ShuffleOp::Up ? Op::OpISub
                                         : Op::OpIAdd; // Up below lane 0 wraps past 127
        source = b.value(arith, u, {self, lane});
    }
    uint32_t inRange = b.less(source, b.uint(128));
    uint32_t word = b.shiftRight(source, b.uint(5));
    word = b.select(u, inRange, word, b.uint(0));
    uint32_t bits = b.value(Op::OpVectorExtractDynamic, u, {ballot, word});
    uint32_t bit = b.bitAnd(source, b.uint(31));
    uint32_t shifted = b.shiftRight(bits, bit);
    uint32_t ran = b.bitAnd(shifted, b.uint(1));
    uint32_t one = b.uint(1);
    uint32_t missing = b.bitXor(ran, one);
    return b.select(u, inRange, missing, one);
}

void AccessLogRewriter::after(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out) {
    SpirvBuilder b(m_state.module, out);
    shuffle(inst, b);
    if (inst.opcode() == Op::OpLoad) {
        access(b, TraceEventKind::Read, inst.operand(0), inst.resultId(), inst.resultType());
    } else if (isAtomicOp(inst.opcode()) && inst.opcode() != Op::OpAtomicStore &&
               inst.operandCount() >= 1) {
        // Operands: pointer, scope, semantics, then the operand value of those that take one. A
        // compare-and-swap (pointer, scope, two semantics, value, comparator) is traced with the
        // value it leaves: its value where the old one equalled the comparator, else the old.
        bool swap = inst.opcode() == Op::OpAtomicCompareExchange ||
                    inst.opcode() == Op::OpAtomicCompareExchangeWeak;
        uint32_t operand = 0;
        if (swap && inst.operandCount() >= 6) {
            uint32_t left = b.select(inst.resultType(), b.equal(inst.resultId(), inst.operand(5)),
                                     inst.operand(4), inst.resultId());
            operand = valueWord(b, left, inst.resultType());
        } else if (!swap && inst.operandCount() >= 4) {
            operand = valueWord(b, inst.operand(3), m_state.module.typeOf(inst.operand(3)));
        }
        access(b, TraceEventKind::Atomic, inst.operand(0), inst.resultId(), inst.resultType(),
               operand);
    }
}

} // namespace vkp
