// The subgroup operations of the emulation (rewrite/subgroup_emulation.h): each done by the real
// subgroups, which then meet in shared memory (or, for the ballot-reading ones, on the lane), and
// the pieces of code they are made of.
#include "rewrite/subgroup_emulator.h"

namespace vkp {
namespace {

// GLSL.std.450 instructions.
constexpr uint32_t kFindILsb = 73, kFindUMsb = 75;
constexpr uint32_t kFMin = 37, kUMin = 38, kSMin = 39, kFMax = 40, kUMax = 41, kSMax = 42;
// AcquireRelease | WorkgroupMemory.
constexpr uint32_t kWorkgroupSemantics = 0x108;

} // namespace

// --- Pieces of code -----------------------------------------------------------------------

uint32_t SubgroupEmulator::word(SpirvBuilder& b, uint32_t array, uint32_t index) {
    return b.accessChain(m_wordPointer, array, {index});
}

uint32_t SubgroupEmulator::loadWord(SpirvBuilder& b, uint32_t array, uint32_t index) {
    return b.load(m_uint, word(b, array, index));
}

void SubgroupEmulator::storeWord(SpirvBuilder& b, uint32_t array, uint32_t index, uint32_t v) {
    b.store(word(b, array, index), v);
}

uint32_t SubgroupEmulator::minimum(SpirvBuilder& b, uint32_t a, uint32_t c) {
    return b.select(m_uint, b.less(a, c), a, c);
}

uint32_t SubgroupEmulator::workgroupScope() {
    return m.constUint(uint32_t(spv::Scope::Workgroup));
}

SubgroupEmulator::Here SubgroupEmulator::here(SpirvBuilder& b, uint32_t site) {
    Here h;
    h.index = b.load(m_uint, m_localIndex);
    h.lane = b.mod(h.index, b.uint(V));
    h.base = b.sub(h.index, h.lane);
    h.group = b.div(h.index, b.uint(R));
    h.groupBase = b.div(h.base, b.uint(R));
    h.within = b.div(h.lane, b.uint(R));
    h.tag = b.uint(site);
    return h;
}

void SubgroupEmulator::barrier(SpirvBuilder& b, std::vector<uint32_t> operands) {
    if (operands.empty())
        operands = {workgroupScope(), workgroupScope(), b.uint(kWorkgroupSemantics)};
    b.instruction(Op::OpControlBarrier, operands);
}

// After an operation: its real subgroups' tags cleared, once every lane has read them.
void SubgroupEmulator::done(SpirvBuilder& b, const Here& h) {
    barrier(b);
    storeWord(b, m_tags, h.group, b.uint(kAllBits));
}

// A value as uint words, and back.
std::vector<uint32_t> SubgroupEmulator::toWords(SpirvBuilder& b, uint32_t v, const ValueType& t) {
    std::vector<uint32_t> out;
    for (uint32_t c = 0; c < t.count; ++c) {
        uint32_t x = t.count == 1 ? v : b.extract(t.scalar, v, c);
        if (t.kind == Kind::Bool)
            out.push_back(b.select(m_uint, x, b.uint(1), b.uint(0)));
        else if (t.kind == Kind::Uint)
            out.push_back(x);
        else
            out.push_back(b.bitcast(m_uint, x));
    }
    return out;
}

uint32_t SubgroupEmulator::fromWords(SpirvBuilder& b, const std::vector<uint32_t>& words,
                                     const ValueType& t) {
    std::vector<uint32_t> parts;
    for (uint32_t w : words)
        if (t.kind == Kind::Bool)
            parts.push_back(b.notEqual(w, b.uint(0)));
        else if (t.kind == Kind::Uint)
            parts.push_back(w);
        else
            parts.push_back(b.bitcast(t.scalar, w));
    return t.count == 1 ? parts[0] : b.construct(t.type, parts);
}

// OpSelect on a value of type t by one bool.
uint32_t SubgroupEmulator::choose(SpirvBuilder& b, const ValueType& t, uint32_t condition,
                                  uint32_t yes, uint32_t no) {
    if (t.count > 1)
        condition =
            b.construct(m.typeVector(m_bool, t.count), std::vector<uint32_t>(t.count, condition));
    return b.select(t.type, condition, yes, no);
}

uint32_t SubgroupEmulator::realScope() {
    return m.constUint(uint32_t(spv::Scope::Subgroup));
}

// The bits of lanes at or past `from` in word w of a ballot, among the subgroup's lanes.
uint32_t SubgroupEmulator::lanesFrom(SpirvBuilder& b, uint32_t from, uint32_t w) {
    uint32_t low = 32 * w;
    uint32_t shifted =
        b.shiftLeft(b.uint(kAllBits), b.bitAnd(b.sub(from, b.uint(low)), b.uint(31)));
    uint32_t part = b.select(m_uint, b.less(from, b.uint(low + 32)), shifted, b.uint(0));
    return b.bitAnd(b.select(m_uint, b.lessEqual(from, b.uint(low)), b.uint(kAllBits), part),
                    b.uint(laneBits(w)));
}

uint32_t SubgroupEmulator::laneBits(uint32_t w) const {
    if (V >= 32 * (w + 1)) return kAllBits;
    if (V <= 32 * w) return 0;
    return (1u << (V - 32 * w)) - 1;
}

// --- The operations -----------------------------------------------------------------------

// Shuffles and broadcasts: every lane's value in its slot; across the barrier, the source
// lane's (a lane the virtual subgroup does not have gives the lane its own value).
uint32_t SubgroupEmulator::readLane(SpirvBuilder& b, const SpirvInstruction& inst, uint32_t site) {
    ValueType t = *valueType(inst.resultType());
    Here h = here(b, site);
    std::vector<uint32_t> mine = toWords(b, inst.operand(1), t);
    uint32_t slot = b.mul(h.index, b.uint(m_laneWords));
    for (uint32_t w = 0; w < t.count; ++w)
        storeWord(b, m_values, b.add(slot, b.uint(w)), mine[w]);
    barrier(b);
    uint32_t operand = b.asUint(inst.operand(2)), source = operand;
    switch (inst.opcode()) {
    case Op::OpGroupNonUniformShuffleXor:
        source = b.bitXor(h.lane, operand);
        break;
    case Op::OpGroupNonUniformShuffleUp:
        source = b.sub(h.lane, operand);
        break;
    case Op::OpGroupNonUniformShuffleDown:
        source = b.add(h.lane, operand);
        break;
    default:
        break;
    }
    uint32_t from = b.add(h.base, source);
    uint32_t ok = b.logicalAnd(b.less(source, b.uint(V)), b.less(from, m_threads));
    from = b.select(m_uint, ok, from, h.index);
    uint32_t at = b.mul(from, b.uint(m_laneWords));
    std::vector<uint32_t> words;
    for (uint32_t w = 0; w < t.count; ++w)
        words.push_back(loadWord(b, m_values, b.add(at, b.uint(w))));
    uint32_t result = fromWords(b, words, t);
    barrier(b); // before any lane writes its slot again
    return result;
}

std::vector<uint32_t> SubgroupEmulator::meet(SpirvBuilder& b, const Here& h,
                                             const std::vector<uint32_t>& partial,
                                             const std::vector<Folded>& state, const Fold& fold) {
    uint32_t slot = b.mul(h.group, b.uint(m_words));
    for (size_t w = 0; w < partial.size(); ++w)
        storeWord(b, m_partials, b.add(slot, b.uint(uint32_t(w))), partial[w]);
    storeWord(b, m_tags, h.group, h.tag);
    barrier(b);
    uint32_t last = b.sub(m_groups, b.uint(1));
    uint32_t entry = b.currentBlock();
    SpirvBuilder::Loop loop = b.newLoop();
    uint32_t q = m.newId(), nextQ = m.newId();
    std::vector<uint32_t> now, next;
    for (size_t i = 0; i < state.size(); ++i) {
        now.push_back(m.newId());
        next.push_back(m.newId());
    }
    auto header = [&] {
        b.define(q, Op::OpPhi, m_uint, {b.uint(0), entry, nextQ, loop.continueTarget});
        m_ownPhis.insert(q);
        for (size_t i = 0; i < state.size(); ++i) {
            b.define(now[i], Op::OpPhi, state[i].type,
                     {state[i].start, entry, next[i], loop.continueTarget});
            m_ownPhis.insert(now[i]);
        }
        return b.less(q, b.uint(V / R));
    };
    auto body = [&] {
        uint32_t g = b.add(h.groupBase, q);
        uint32_t at = minimum(b, g, last);
        uint32_t tag = loadWord(b, m_tags, at);
        uint32_t ran = b.logicalAnd(b.less(g, m_groups), b.equal(tag, h.tag));
        uint32_t from = b.mul(at, b.uint(m_words));
        std::vector<uint32_t> words;
        for (size_t w = 0; w < partial.size(); ++w)
            words.push_back(loadWord(b, m_partials, b.add(from, b.uint(uint32_t(w)))));
        std::vector<uint32_t> after = fold(q, ran, words, now);
        for (size_t i = 0; i < state.size(); ++i)
            b.define(next[i], Op::OpCopyObject, state[i].type, {after[i]});
        return 0u;
    };
    auto step = [&] { b.define(nextQ, Op::OpIAdd, m_uint, {q, b.uint(1)}); };
    b.loop(loop, header, body, step);
    done(b, h);
    return now; // the header's values, where the loop left it
}

uint32_t SubgroupEmulator::combine(SpirvBuilder& b, Op op, uint32_t type, uint32_t a, uint32_t c) {
    auto glsl = [&](uint32_t inst) { return b.value(Op::OpExtInst, type, {m_glsl, inst, a, c}); };
    switch (op) {
    case Op::OpGroupNonUniformIAdd:
        return b.value(Op::OpIAdd, type, {a, c});
    case Op::OpGroupNonUniformFAdd:
        return b.value(Op::OpFAdd, type, {a, c});
    case Op::OpGroupNonUniformIMul:
        return b.value(Op::OpIMul, type, {a, c});
    case Op::OpGroupNonUniformFMul:
        return b.value(Op::OpFMul, type, {a, c});
    case Op::OpGroupNonUniformSMin:
        return glsl(kSMin);
    case Op::OpGroupNonUniformUMin:
        return glsl(kUMin);
    case Op::OpGroupNonUniformFMin:
        return glsl(kFMin);
    case Op::OpGroupNonUniformSMax:
        return glsl(kSMax);
    case Op::OpGroupNonUniformUMax:
        return glsl(kUMax);
    case Op::OpGroupNonUniformFMax:
        return glsl(kFMax);
    case Op::OpGroupNonUniformBitwiseAnd:
        return b.value(Op::OpBitwiseAnd, type, {a, c});
    case Op::OpGroupNonUniformBitwiseOr:
        return b.value(Op::OpBitwiseOr, type, {a, c});
    case Op::OpGroupNonUniformBitwiseXor:
        return b.value(Op::OpBitwiseXor, type, {a, c});
    case Op::OpGroupNonUniformLogicalAnd:
        return b.value(Op::OpLogicalAnd, type, {a, c});
    case Op::OpGroupNonUniformLogicalOr:
        return b.value(Op::OpLogicalOr, type, {a, c});
    default:
        return b.value(Op::OpLogicalNotEqual, type, {a, c}); // LogicalXor
    }
}

// Reductions, scans and clustered reductions: the real subgroup's own, then the partials of
// the other real subgroups it takes in (all, the earlier ones, those of its cluster).
uint32_t SubgroupEmulator::arithmetic(SpirvBuilder& b, const SpirvInstruction& inst,
                                      uint32_t site) {
    ValueType t = *valueType(inst.resultType());
    auto group = spv::GroupOperation(inst.operand(1));
    uint32_t cluster = 0;
    if (group == spv::GroupOperation::ClusteredReduce) {
        cluster = *constant(inst.operand(3));
        group = spv::GroupOperation::Reduce;
    }
    m.requireCapability(spv::Capability::GroupNonUniformArithmetic);
    Here h = here(b, site);
    uint32_t own = b.value(inst.opcode(), t.type, {realScope(), uint32_t(group), inst.operand(2)});
    uint32_t total =
        group == spv::GroupOperation::Reduce
            ? own
            : b.value(inst.opcode(), t.type,
                      {realScope(), uint32_t(spv::GroupOperation::Reduce), inst.operand(2)});
    auto fold = [&](uint32_t q, uint32_t ran, const std::vector<uint32_t>& words,
                    const std::vector<uint32_t>& acc) -> std::vector<uint32_t> {
        uint32_t takes =
            group == spv::GroupOperation::Reduce ? b.notEqual(q, h.within) : b.less(q, h.within);
        if (cluster)
            takes =
                b.logicalAnd(takes, b.equal(b.div(b.mul(q, b.uint(R)), b.uint(cluster)),
                                            b.div(b.mul(h.within, b.uint(R)), b.uint(cluster))));
        takes = b.logicalAnd(takes, ran);
        uint32_t with = combine(b, inst.opcode(), t.type, acc[0], fromWords(b, words, t));
        return {choose(b, t, takes, with, acc[0])};
    };
    return meet(b, h, toWords(b, total, t), {{t.type, own}}, fold)[0];
}

uint32_t SubgroupEmulator::ballot(SpirvBuilder& b, uint32_t predicate, uint32_t site) {
    m.requireCapability(spv::Capability::GroupNonUniformBallot);
    Here h = here(b, site);
    uint32_t real = b.value(Op::OpGroupNonUniformBallot, m_uvec4, {realScope(), predicate});
    // A ballot has a bit for each lane: words past the virtual subgroup's stay 0.
    const uint32_t used = (V + 31) / 32;
    auto fold = [&](uint32_t q, uint32_t ran, const std::vector<uint32_t>& words,
                    const std::vector<uint32_t>& ballot) {
        uint32_t bits = b.select(m_uint, ran, words[0], b.uint(0));
        uint32_t first = b.mul(q, b.uint(R)); // its first lane's bit
        uint32_t shifted = b.shiftLeft(bits, b.bitAnd(first, b.uint(31)));
        uint32_t in = b.shiftRight(first, b.uint(5));
        std::vector<uint32_t> out;
        for (uint32_t w = 0; w < used; ++w)
            out.push_back(
                b.bitOr(ballot[w], b.select(m_uint, b.equal(in, b.uint(w)), shifted, b.uint(0))));
        return out;
    };
    std::vector<uint32_t> words = meet(b, h, {b.extract(m_uint, real, 0)},
                                       std::vector<Folded>(used, Folded{m_uint, b.uint(0)}), fold);
    words.resize(4, b.uint(0));
    return b.construct(m_uvec4, words);
}

// Any (all = false) or all lanes' predicates.
uint32_t SubgroupEmulator::vote(SpirvBuilder& b, uint32_t predicate, bool all, uint32_t site) {
    m.requireCapability(spv::Capability::GroupNonUniformVote);
    Here h = here(b, site);
    uint32_t real = b.value(all ? Op::OpGroupNonUniformAll : Op::OpGroupNonUniformAny, m_bool,
                            {realScope(), predicate});
    auto fold = [&](uint32_t, uint32_t ran, const std::vector<uint32_t>& words,
                    const std::vector<uint32_t>& acc) -> std::vector<uint32_t> {
        uint32_t says = b.notEqual(words[0], b.uint(0));
        return {all ? b.logicalAnd(acc[0], b.logicalOr(b.logicalNot(ran), says))
                    : b.logicalOr(acc[0], b.logicalAnd(ran, says))};
    };
    return meet(b, h, {b.select(m_uint, real, b.uint(1), b.uint(0))}, {{m_bool, real}}, fold)[0];
}

uint32_t SubgroupEmulator::elect(SpirvBuilder& b, uint32_t site) {
    Here h = here(b, site);
    uint32_t real = b.value(Op::OpGroupNonUniformElect, m_bool, {realScope()});
    auto fold = [&](uint32_t q, uint32_t ran, const std::vector<uint32_t>&,
                    const std::vector<uint32_t>& earlier) -> std::vector<uint32_t> {
        return {b.logicalOr(earlier[0], b.logicalAnd(ran, b.less(q, h.within)))};
    };
    uint32_t earlier = meet(b, h, {}, {{m_bool, m.constFalse()}}, fold)[0];
    return b.logicalAnd(real, b.logicalNot(earlier));
}

uint32_t SubgroupEmulator::broadcastFirst(SpirvBuilder& b, uint32_t value, const ValueType& t,
                                          uint32_t site) {
    m.requireCapability(spv::Capability::GroupNonUniformBallot);
    Here h = here(b, site);
    uint32_t real = b.value(Op::OpGroupNonUniformBroadcastFirst, t.type, {realScope(), value});
    // The partial of the first real subgroup that ran it (its lanes come first).
    auto fold = [&](uint32_t, uint32_t ran, const std::vector<uint32_t>& words,
                    const std::vector<uint32_t>& first) -> std::vector<uint32_t> {
        uint32_t takes = b.logicalAnd(ran, b.logicalNot(first[1]));
        return {choose(b, t, takes, fromWords(b, words, t), first[0]), b.logicalOr(first[1], ran)};
    };
    return meet(b, h, toWords(b, real, t), {{t.type, real}, {m_bool, m.constFalse()}}, fold)[0];
}

// The ballot-reading operations, on the lane.
uint32_t SubgroupEmulator::ballotBit(SpirvBuilder& b, uint32_t ballotValue, uint32_t index) {
    uint32_t w = b.value(Op::OpVectorExtractDynamic, m_uint,
                         {ballotValue, b.bitAnd(b.shiftRight(index, b.uint(5)), b.uint(3))});
    return b.notEqual(b.bitAnd(b.shiftRight(w, b.bitAnd(index, b.uint(31))), b.uint(1)), b.uint(0));
}

uint32_t SubgroupEmulator::readBallot(SpirvBuilder& b, const SpirvInstruction& inst) {
    uint32_t type = inst.resultType();
    Op op = inst.opcode();
    uint32_t lane = b.mod(b.load(m_uint, m_localIndex), b.uint(V));
    if (op == Op::OpGroupNonUniformInverseBallot) return ballotBit(b, inst.operand(1), lane);
    if (op == Op::OpGroupNonUniformBallotBitExtract)
        return ballotBit(b, inst.operand(1), b.asUint(inst.operand(2)));
    uint32_t value = inst.operand(op == Op::OpGroupNonUniformBallotBitCount ? 2 : 1);
    std::vector<uint32_t> words;
    for (uint32_t w = 0; w < 4; ++w)
        words.push_back(b.bitAnd(b.extract(m_uint, value, w), b.uint(laneBits(w))));
    if (op == Op::OpGroupNonUniformBallotBitCount) {
        auto group = spv::GroupOperation(inst.operand(1));
        uint32_t count = b.uint(0);
        for (uint32_t w = 0; w < 4; ++w) {
            uint32_t bits = words[w];
            if (group == spv::GroupOperation::InclusiveScan)
                bits = b.bitXor(bits, b.bitAnd(bits, lanesFrom(b, b.add(lane, b.uint(1)), w)));
            else if (group == spv::GroupOperation::ExclusiveScan)
                bits = b.bitXor(bits, b.bitAnd(bits, lanesFrom(b, lane, w)));
            count = b.add(count, b.value(Op::OpBitCount, m_uint, {bits}));
        }
        return type == m_uint ? count : b.bitcast(type, count);
    }
    bool lowest = op == Op::OpGroupNonUniformBallotFindLSB;
    uint32_t found = b.uint(kAllBits);
    for (uint32_t k = 0; k < 4; ++k) {
        uint32_t w = lowest ? 3 - k : k; // the last one chosen wins
        uint32_t bit =
            b.value(Op::OpExtInst, m_uint, {m_glsl, lowest ? kFindILsb : kFindUMsb, words[w]});
        found =
            b.select(m_uint, b.notEqual(words[w], b.uint(0)), b.add(bit, b.uint(32 * w)), found);
    }
    return type == m_uint ? found : b.bitcast(type, found);
}

// The emulated value of a subgroup operation (it takes `site` and, for AllEqual, site + 1).
uint32_t SubgroupEmulator::emulate(SpirvBuilder& b, const SpirvInstruction& inst, uint32_t site) {
    Op op = inst.opcode();
    if (readsALane(op)) return readLane(b, inst, site);
    if (isArithmetic(op)) return arithmetic(b, inst, site);
    if (readsABallot(op)) return readBallot(b, inst);
    switch (op) {
    case Op::OpGroupNonUniformElect:
        return elect(b, site);
    case Op::OpGroupNonUniformAll:
        return vote(b, inst.operand(1), true, site);
    case Op::OpGroupNonUniformAny:
        return vote(b, inst.operand(1), false, site);
    case Op::OpGroupNonUniformBallot:
        return ballot(b, inst.operand(1), site);
    case Op::OpGroupNonUniformBroadcastFirst:
        return broadcastFirst(b, inst.operand(1), *valueType(inst.resultType()), site);
    default: { // AllEqual: the first lane's value, then a vote on it
        ValueType t = *valueType(m.typeOf(inst.operand(1)));
        uint32_t first = broadcastFirst(b, inst.operand(1), t, site);
        std::vector<uint32_t> mine = toWords(b, inst.operand(1), t), theirs = toWords(b, first, t);
        uint32_t same = m.constTrue();
        for (size_t w = 0; w < mine.size(); ++w)
            same = b.logicalAnd(same, b.equal(mine[w], theirs[w]));
        return vote(b, same, true, site + 1);
    }
    }
}

} // namespace vkp
