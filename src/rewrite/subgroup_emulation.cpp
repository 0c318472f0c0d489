#include "rewrite/subgroup_emulation.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "shader/spirv_builder.h"
#include "shader/spirv_module.h"

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

constexpr uint32_t kAllBits = 0xFFFFFFFFu;
// GLSL.std.450 instructions.
constexpr uint32_t kFindILsb = 73, kFindUMsb = 75;
constexpr uint32_t kFMin = 37, kUMin = 38, kSMin = 39, kFMax = 40, kUMax = 41, kSMax = 42;
// AcquireRelease | WorkgroupMemory.
constexpr uint32_t kWorkgroupSemantics = 0x108;
// The words of the workgroup's barrier bookkeeping: threads that reached a barrier of the kernel
// (ever), threads that ended (ever), and the step of the latest of either.
enum SyncWord : uint32_t { kArrivals = 0, kExits = 1, kLast = 2, kSyncWords = 3 };

bool endsBlock(Op op) {
    return op == Op::OpBranch || op == Op::OpBranchConditional || op == Op::OpSwitch ||
           op == Op::OpReturn || op == Op::OpReturnValue || op == Op::OpKill ||
           op == Op::OpUnreachable || op == Op::OpTerminateInvocation;
}

bool isGroupNonUniform(Op op) {
    return (op >= Op::OpGroupNonUniformElect && op <= Op::OpGroupNonUniformQuadSwap) ||
           op == Op::OpGroupNonUniformRotateKHR || op == Op::OpGroupNonUniformPartitionNV;
}

bool isArithmetic(Op op) {
    return op >= Op::OpGroupNonUniformIAdd && op <= Op::OpGroupNonUniformLogicalXor;
}

// Operations that read another lane's value straight from its slot.
bool readsALane(Op op) {
    return op == Op::OpGroupNonUniformBroadcast || op == Op::OpGroupNonUniformShuffle ||
           op == Op::OpGroupNonUniformShuffleXor || op == Op::OpGroupNonUniformShuffleUp ||
           op == Op::OpGroupNonUniformShuffleDown;
}

// Operations computed on the lane from a ballot it holds.
bool readsABallot(Op op) {
    return op == Op::OpGroupNonUniformInverseBallot ||
           op == Op::OpGroupNonUniformBallotBitExtract ||
           op == Op::OpGroupNonUniformBallotBitCount || op == Op::OpGroupNonUniformBallotFindLSB ||
           op == Op::OpGroupNonUniformBallotFindMSB;
}

const char* opName(Op op) {
    switch (op) {
    case Op::OpGroupNonUniformRotateKHR:
        return "subgroupRotate";
    case Op::OpGroupNonUniformPartitionNV:
        return "subgroupPartitionNV";
    default:
        return "a subgroup operation";
    }
}

class SubgroupEmulator {
  public:
    SubgroupEmulator(SpirvModule& module, uint32_t lanes, uint32_t realLanes)
        : m(module), V(lanes), R(realLanes) {}

    Status run() {
        m_uint = m.typeUint();
        m_bool = m.typeBool();
        m_uvec4 = m.typeVector(m_uint, 4);
        if (auto s = survey(); !s) return s;
        if (auto s = workgroupSize(); !s) return s;
        declare();
        std::vector<SpirvInstruction> out;
        size_t start = 0;
        for (size_t i = 0; i < m.functions.size(); ++i) {
            if (m.functions[i].opcode() != Op::OpFunctionEnd) continue;
            auto function = std::span(m.functions).subspan(start, i + 1 - start);
            if (auto s = rewriteFunction(function, out); !s) return s;
            start = i + 1;
        }
        if (m_entry) wrapEntry(out);
        m.functions = std::move(out);
        return okStatus();
    }

  private:
    enum class Kind { Uint, Int, Float, Bool };
    struct ValueType {
        uint32_t type = 0, scalar = 0, count = 1;
        Kind kind = Kind::Uint;
    };
    // Where the running thread is, at an operation: its index in the workgroup, its lane and the
    // first index of its virtual subgroup, its real subgroup (in the workgroup and within the
    // virtual one), and the operation's tag.
    struct Here {
        uint32_t index = 0, lane = 0, base = 0, group = 0, groupBase = 0, within = 0, tag = 0;
    };

    // --- The module as found --------------------------------------------------------------

    std::optional<uint32_t> constant(uint32_t id) const {
        const SpirvInstruction* d = m.definition(id);
        if (!d || d->opcode() != Op::OpConstant) return std::nullopt;
        return d->operand(0);
    }

    Result<ValueType> valueType(uint32_t type) const {
        ValueType v;
        v.type = v.scalar = type;
        const SpirvInstruction* d = m.definition(type);
        if (d && d->opcode() == Op::OpTypeVector && d->operand(1) <= 4) {
            v.scalar = d->operand(0);
            v.count = d->operand(1);
            d = m.definition(v.scalar);
        }
        if (d && d->opcode() == Op::OpTypeBool) {
            v.kind = Kind::Bool;
            return v;
        }
        if (d && d->opcode() == Op::OpTypeInt && d->operand(0) == 32) {
            v.kind = d->operand(1) ? Kind::Int : Kind::Uint;
            return v;
        }
        if (d && d->opcode() == Op::OpTypeFloat && d->operand(0) == 32) {
            v.kind = Kind::Float;
            return v;
        }
        return Error{ErrorKind::Usage, "a subgroup operation on a value that is not a 32-bit "
                                       "number, a vector of up to four, or a bool"};
    }

    bool subgroupScoped(const SpirvInstruction& inst) const {
        return constant(inst.operand(0)) == uint32_t(spv::Scope::Subgroup);
    }

    // The subgroup built-ins' variables, the operations to emulate and how many words their
    // values take; an error for what cannot be emulated.
    Status survey() {
        for (const SpirvInstruction& inst : m.globals)
            if (inst.opcode() == Op::OpVariable)
                if (auto b = m.decoration(inst.resultId(), spv::Decoration::BuiltIn))
                    switch (spv::BuiltIn(*b)) {
                    case spv::BuiltIn::SubgroupSize:
                    case spv::BuiltIn::SubgroupLocalInvocationId:
                    case spv::BuiltIn::SubgroupId:
                    case spv::BuiltIn::NumSubgroups:
                    case spv::BuiltIn::SubgroupEqMask:
                    case spv::BuiltIn::SubgroupGeMask:
                    case spv::BuiltIn::SubgroupGtMask:
                    case spv::BuiltIn::SubgroupLeMask:
                    case spv::BuiltIn::SubgroupLtMask:
                        m_builtins[inst.resultId()] = spv::BuiltIn(*b);
                        break;
                    default:
                        break;
                    }
        uint32_t sites = 0;
        for (const SpirvInstruction& inst : m.functions) {
            Op op = inst.opcode();
            if (!isGroupNonUniform(op) || !subgroupScoped(inst)) continue;
            if (op == Op::OpGroupNonUniformRotateKHR || op == Op::OpGroupNonUniformPartitionNV)
                return Error{ErrorKind::Usage, std::string(opName(op)) + " is not emulated"};
            if (op == Op::OpGroupNonUniformQuadBroadcast || op == Op::OpGroupNonUniformQuadSwap ||
                readsABallot(op) || clusteredWithin(inst))
                continue;
            ++sites;
            if (op == Op::OpGroupNonUniformElect) continue;
            uint32_t value = op == Op::OpGroupNonUniformAll || op == Op::OpGroupNonUniformAny ||
                                     op == Op::OpGroupNonUniformBallot ||
                                     op == Op::OpGroupNonUniformAllEqual ||
                                     op == Op::OpGroupNonUniformBroadcast ||
                                     op == Op::OpGroupNonUniformBroadcastFirst || readsALane(op)
                                 ? inst.operand(1)
                                 : inst.operand(2);
            auto type = valueType(m.typeOf(value));
            if (!type) return type.error();
            uint32_t& words = readsALane(op) ? m_laneWords : m_words;
            words = std::max(words, type->count);
            if (op == Op::OpGroupNonUniformAllEqual) ++sites; // a broadcast, then a vote
        }
        if (sites > 255)
            return Error{ErrorKind::Usage, "more than 255 subgroup operations to emulate"};
        return okStatus();
    }

    // A clustered reduction whose clusters fit in a real subgroup: the device does it as it is.
    bool clusteredWithin(const SpirvInstruction& inst) const {
        if (!isArithmetic(inst.opcode()) ||
            inst.operand(1) != uint32_t(spv::GroupOperation::ClusteredReduce))
            return false;
        auto size = constant(inst.operand(3));
        return size && *size <= R;
    }

    // The threads of a workgroup, as a constant (or a specialization constant's expression).
    Status workgroupSize() {
        std::array<uint32_t, 3> ids{};
        bool found = false;
        for (const SpirvInstruction& inst : m.globals)
            if ((inst.opcode() == Op::OpConstantComposite ||
                 inst.opcode() == Op::OpSpecConstantComposite) &&
                m.decoration(inst.resultId(), spv::Decoration::BuiltIn) ==
                    uint32_t(spv::BuiltIn::WorkgroupSize)) {
                for (size_t k = 0; k < 3; ++k)
                    ids[k] = inst.operand(k);
                found = true;
            }
        for (const SpirvInstruction& inst : m.preamble) {
            if (found) break;
            if (inst.opcode() == Op::OpExecutionMode &&
                inst.operand(1) == uint32_t(spv::ExecutionMode::LocalSize)) {
                for (size_t k = 0; k < 3; ++k)
                    ids[k] = m.constUint(inst.operand(2 + k));
                found = true;
            } else if (inst.opcode() == Op::OpExecutionModeId &&
                       inst.operand(1) == uint32_t(spv::ExecutionMode::LocalSizeId)) {
                for (size_t k = 0; k < 3; ++k)
                    ids[k] = inst.operand(2 + k);
                found = true;
            }
        }
        if (!found) return Error{ErrorKind::Usage, "the kernel declares no workgroup size"};
        m_threads = times(times(ids[0], ids[1]), ids[2]);
        m_groups = divide(plus(m_threads, m.constUint(R - 1)), m.constUint(R));
        m_subgroups = divide(plus(m_threads, m.constUint(V - 1)), m.constUint(V));
        return okStatus();
    }

    // Arithmetic on constants, folded, or as specialization-constant expressions.
    uint32_t fold(Op op, uint32_t a, uint32_t b, uint32_t (*f)(uint32_t, uint32_t)) {
        auto x = constant(a), y = constant(b);
        if (x && y && m.typeOf(a) == m_uint && m.typeOf(b) == m_uint) return m.constUint(f(*x, *y));
        return m.emit(m.newGlobals, Op::OpSpecConstantOp, m_uint, {uint32_t(op), a, b});
    }
    uint32_t times(uint32_t a, uint32_t b) {
        return fold(Op::OpIMul, a, b, [](uint32_t x, uint32_t y) { return x * y; });
    }
    uint32_t plus(uint32_t a, uint32_t b) {
        return fold(Op::OpIAdd, a, b, [](uint32_t x, uint32_t y) { return x + y; });
    }
    uint32_t divide(uint32_t a, uint32_t b) {
        return fold(Op::OpUDiv, a, b, [](uint32_t x, uint32_t y) { return x / y; });
    }

    // --- What the emulation adds ------------------------------------------------------------

    uint32_t sharedArray(uint32_t length) {
        uint32_t type = m.newId();
        SpirvInstruction array(Op::OpTypeArray, {type, m_uint, length});
        m.noteDefinition(array);
        m.newGlobals.push_back(std::move(array));
        uint32_t var = m.addGlobalVariable(m.typePointer(StorageClass::Workgroup, type),
                                           StorageClass::Workgroup);
        m.addToInterface(var);
        return var;
    }

    void declare() {
        m.requireCapability(spv::Capability::GroupNonUniform);
        if (m_laneWords > 0) m_values = sharedArray(times(m_threads, m.constUint(m_laneWords)));
        if (m_words > 0) m_partials = sharedArray(times(m_groups, m.constUint(m_words)));
        m_tags = sharedArray(m_groups);
        m_steps = sharedArray(m_groups);
        m_waiting = sharedArray(m_groups);
        m_sync = sharedArray(m.constUint(kSyncWords));
        m_base = m.addGlobalVariable(m.typePointer(StorageClass::Private, m_uint),
                                     StorageClass::Private, m.constUint(0));
        m.addToInterface(m_base);
        m_localIndex = m.builtinVariable(spv::BuiltIn::LocalInvocationIndex,
                                         m.typePointer(StorageClass::Input, m_uint));
        m.addToInterface(m_localIndex);
        m_wordPointer = m.typePointer(StorageClass::Workgroup, m_uint);
        for (const SpirvInstruction& inst : m.preamble)
            if (inst.opcode() == Op::OpExtInstImport && inst.literalString(0) == "GLSL.std.450")
                m_glsl = inst.resultId();
        if (!m_glsl) { // "GLSL.std.450", as the words of a literal string
            m_glsl = m.newId();
            SpirvInstruction import(Op::OpExtInstImport,
                                    {m_glsl, 0x4C534C47u, 0x6474732Eu, 0x3035342Eu, 0u});
            auto at = std::find_if(m.preamble.begin(), m.preamble.end(),
                                   [](const auto& i) { return i.opcode() == Op::OpMemoryModel; });
            m.preamble.insert(at, import);
        }
        m_entry = m.entryPoint() ? m.entryPoint()->operand(1) : 0;
    }

    // --- Pieces of code ---------------------------------------------------------------------

    uint32_t word(SpirvBuilder& b, uint32_t array, uint32_t index) {
        return b.accessChain(m_wordPointer, array, {index});
    }
    uint32_t loadWord(SpirvBuilder& b, uint32_t array, uint32_t index) {
        return b.load(m_uint, word(b, array, index));
    }
    void storeWord(SpirvBuilder& b, uint32_t array, uint32_t index, uint32_t v) {
        b.store(word(b, array, index), v);
    }
    uint32_t minimum(SpirvBuilder& b, uint32_t a, uint32_t c) {
        return b.select(m_uint, b.less(a, c), a, c);
    }
    uint32_t workgroupScope() { return m.constUint(uint32_t(spv::Scope::Workgroup)); }

    Here here(SpirvBuilder& b, uint32_t site) {
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

    void barrier(SpirvBuilder& b, std::vector<uint32_t> operands = {}) {
        if (operands.empty())
            operands = {workgroupScope(), workgroupScope(), b.uint(kWorkgroupSemantics)};
        b.instruction(Op::OpControlBarrier, operands);
    }

    // After an operation: its real subgroups' tags cleared, once every lane has read them.
    void done(SpirvBuilder& b, const Here& h) {
        barrier(b);
        storeWord(b, m_tags, h.group, b.uint(kAllBits));
    }

    // A value as uint words, and back.
    std::vector<uint32_t> toWords(SpirvBuilder& b, uint32_t v, const ValueType& t) {
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
    uint32_t fromWords(SpirvBuilder& b, const std::vector<uint32_t>& words, const ValueType& t) {
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
    uint32_t choose(SpirvBuilder& b, const ValueType& t, uint32_t condition, uint32_t yes,
                    uint32_t no) {
        if (t.count > 1)
            condition = b.construct(m.typeVector(m_bool, t.count),
                                    std::vector<uint32_t>(t.count, condition));
        return b.select(t.type, condition, yes, no);
    }
    uint32_t realScope() { return m.constUint(uint32_t(spv::Scope::Subgroup)); }

    // The bits of lanes at or past `from` in word w of a ballot, among the subgroup's lanes.
    uint32_t lanesFrom(SpirvBuilder& b, uint32_t from, uint32_t w) {
        uint32_t low = 32 * w;
        uint32_t shifted =
            b.shiftLeft(b.uint(kAllBits), b.bitAnd(b.sub(from, b.uint(low)), b.uint(31)));
        uint32_t part = b.select(m_uint, b.less(from, b.uint(low + 32)), shifted, b.uint(0));
        return b.bitAnd(b.select(m_uint, b.lessEqual(from, b.uint(low)), b.uint(kAllBits), part),
                        b.uint(laneBits(w)));
    }
    uint32_t laneBits(uint32_t w) const {
        if (V >= 32 * (w + 1)) return kAllBits;
        if (V <= 32 * w) return 0;
        return (1u << (V - 32 * w)) - 1;
    }

    // --- The built-ins ----------------------------------------------------------------------

    uint32_t builtinValue(SpirvBuilder& b, spv::BuiltIn builtin) {
        if (builtin == spv::BuiltIn::SubgroupSize) return b.uint(V);
        if (builtin == spv::BuiltIn::NumSubgroups) return m_subgroups;
        uint32_t index = b.load(m_uint, m_localIndex);
        if (builtin == spv::BuiltIn::SubgroupId) return b.div(index, b.uint(V));
        uint32_t lane = b.mod(index, b.uint(V));
        if (builtin == spv::BuiltIn::SubgroupLocalInvocationId) return lane;
        uint32_t next = b.add(lane, b.uint(1));
        std::vector<uint32_t> words;
        for (uint32_t w = 0; w < 4; ++w) {
            uint32_t ge = lanesFrom(b, lane, w), gt = lanesFrom(b, next, w);
            uint32_t all = b.uint(laneBits(w));
            switch (builtin) {
            case spv::BuiltIn::SubgroupEqMask:
                words.push_back(b.bitXor(ge, gt));
                break;
            case spv::BuiltIn::SubgroupGeMask:
                words.push_back(ge);
                break;
            case spv::BuiltIn::SubgroupGtMask:
                words.push_back(gt);
                break;
            case spv::BuiltIn::SubgroupLeMask:
                words.push_back(b.bitXor(all, gt));
                break;
            default:
                words.push_back(b.bitXor(all, ge));
                break; // LtMask
            }
        }
        return b.construct(m_uvec4, words);
    }

    // --- The operations ---------------------------------------------------------------------

    // Shuffles and broadcasts: every lane's value in its slot; across the barrier, the source
    // lane's (a lane the virtual subgroup does not have gives the lane its own value).
    uint32_t readLane(SpirvBuilder& b, const SpirvInstruction& inst, uint32_t site) {
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

    // The real subgroups of a virtual one, met: each stores its partial (`words`) with the
    // operation's tag; across the barrier, every real subgroup of the virtual one that ran the
    // operation in this step is found (`ran`), with its partial.
    struct Met {
        std::vector<uint32_t> ran;                // per real subgroup of the virtual one
        std::vector<std::vector<uint32_t>> words; // its partial
    };
    Met meet(SpirvBuilder& b, const Here& h, const std::vector<uint32_t>& partial) {
        uint32_t slot = b.mul(h.group, b.uint(m_words));
        for (size_t w = 0; w < partial.size(); ++w)
            storeWord(b, m_partials, b.add(slot, b.uint(uint32_t(w))), partial[w]);
        storeWord(b, m_tags, h.group, h.tag);
        barrier(b);
        Met met;
        uint32_t last = b.sub(m_groups, b.uint(1));
        for (uint32_t q = 0; q < V / R; ++q) {
            uint32_t g = b.add(h.groupBase, b.uint(q));
            uint32_t at = minimum(b, g, last);
            uint32_t tag = loadWord(b, m_tags, at);
            met.ran.push_back(b.logicalAnd(b.less(g, m_groups), b.equal(tag, h.tag)));
            uint32_t from = b.mul(at, b.uint(m_words));
            std::vector<uint32_t> words;
            for (size_t w = 0; w < partial.size(); ++w)
                words.push_back(loadWord(b, m_partials, b.add(from, b.uint(uint32_t(w)))));
            met.words.push_back(std::move(words));
        }
        done(b, h);
        return met;
    }

    uint32_t combine(SpirvBuilder& b, Op op, uint32_t type, uint32_t a, uint32_t c) {
        auto glsl = [&](uint32_t inst) {
            return b.value(Op::OpExtInst, type, {m_glsl, inst, a, c});
        };
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
    uint32_t arithmetic(SpirvBuilder& b, const SpirvInstruction& inst, uint32_t site) {
        ValueType t = *valueType(inst.resultType());
        auto group = spv::GroupOperation(inst.operand(1));
        uint32_t cluster = 0;
        if (group == spv::GroupOperation::ClusteredReduce) {
            cluster = *constant(inst.operand(3));
            group = spv::GroupOperation::Reduce;
        }
        m.requireCapability(spv::Capability::GroupNonUniformArithmetic);
        Here h = here(b, site);
        uint32_t own =
            b.value(inst.opcode(), t.type, {realScope(), uint32_t(group), inst.operand(2)});
        uint32_t total =
            group == spv::GroupOperation::Reduce
                ? own
                : b.value(inst.opcode(), t.type,
                          {realScope(), uint32_t(spv::GroupOperation::Reduce), inst.operand(2)});
        Met met = meet(b, h, toWords(b, total, t));
        uint32_t acc = own;
        for (uint32_t q = 0; q < V / R; ++q) {
            uint32_t other = b.notEqual(b.uint(q), h.within);
            uint32_t takes =
                group == spv::GroupOperation::Reduce ? other : b.less(b.uint(q), h.within);
            if (cluster)
                takes = b.logicalAnd(takes,
                                     b.equal(b.uint(q * R / cluster),
                                             b.div(b.mul(h.within, b.uint(R)), b.uint(cluster))));
            takes = b.logicalAnd(takes, met.ran[q]);
            uint32_t with = combine(b, inst.opcode(), t.type, acc, fromWords(b, met.words[q], t));
            acc = choose(b, t, takes, with, acc);
        }
        return acc;
    }

    uint32_t ballot(SpirvBuilder& b, uint32_t predicate, uint32_t site) {
        m.requireCapability(spv::Capability::GroupNonUniformBallot);
        Here h = here(b, site);
        uint32_t real = b.value(Op::OpGroupNonUniformBallot, m_uvec4, {realScope(), predicate});
        Met met = meet(b, h, {b.extract(m_uint, real, 0)});
        std::vector<uint32_t> words(4, b.uint(0));
        for (uint32_t q = 0; q < V / R; ++q) {
            uint32_t bits = b.select(m_uint, met.ran[q], met.words[q][0], b.uint(0));
            uint32_t w = q * R / 32;
            words[w] = b.bitOr(words[w], b.shiftLeft(bits, b.uint(q * R % 32)));
        }
        return b.construct(m_uvec4, words);
    }

    // Any (all = false) or all lanes' predicates.
    uint32_t vote(SpirvBuilder& b, uint32_t predicate, bool all, uint32_t site) {
        m.requireCapability(spv::Capability::GroupNonUniformVote);
        Here h = here(b, site);
        uint32_t real = b.value(all ? Op::OpGroupNonUniformAll : Op::OpGroupNonUniformAny, m_bool,
                                {realScope(), predicate});
        Met met = meet(b, h, {b.select(m_uint, real, b.uint(1), b.uint(0))});
        uint32_t acc = real;
        for (uint32_t q = 0; q < V / R; ++q) {
            uint32_t says = b.notEqual(met.words[q][0], b.uint(0));
            acc = all ? b.logicalAnd(acc, b.logicalOr(b.logicalNot(met.ran[q]), says))
                      : b.logicalOr(acc, b.logicalAnd(met.ran[q], says));
        }
        return acc;
    }

    uint32_t elect(SpirvBuilder& b, uint32_t site) {
        Here h = here(b, site);
        uint32_t real = b.value(Op::OpGroupNonUniformElect, m_bool, {realScope()});
        Met met = meet(b, h, {});
        uint32_t earlier = m.constFalse();
        for (uint32_t q = 0; q < V / R; ++q)
            earlier = b.logicalOr(earlier, b.logicalAnd(met.ran[q], b.less(b.uint(q), h.within)));
        return b.logicalAnd(real, b.logicalNot(earlier));
    }

    uint32_t broadcastFirst(SpirvBuilder& b, uint32_t value, const ValueType& t, uint32_t site) {
        m.requireCapability(spv::Capability::GroupNonUniformBallot);
        Here h = here(b, site);
        uint32_t real = b.value(Op::OpGroupNonUniformBroadcastFirst, t.type, {realScope(), value});
        Met met = meet(b, h, toWords(b, real, t));
        uint32_t first = real;
        for (uint32_t q = V / R; q-- > 0;)
            first = choose(b, t, met.ran[q], fromWords(b, met.words[q], t), first);
        return first;
    }

    // The ballot-reading operations, on the lane.
    uint32_t ballotBit(SpirvBuilder& b, uint32_t ballotValue, uint32_t index) {
        uint32_t w = b.value(Op::OpVectorExtractDynamic, m_uint,
                             {ballotValue, b.bitAnd(b.shiftRight(index, b.uint(5)), b.uint(3))});
        return b.notEqual(b.bitAnd(b.shiftRight(w, b.bitAnd(index, b.uint(31))), b.uint(1)),
                          b.uint(0));
    }
    uint32_t readBallot(SpirvBuilder& b, const SpirvInstruction& inst) {
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
            found = b.select(m_uint, b.notEqual(words[w], b.uint(0)), b.add(bit, b.uint(32 * w)),
                             found);
        }
        return type == m_uint ? found : b.bitcast(type, found);
    }

    // The emulated value of a subgroup operation (it takes `site` and, for AllEqual, site + 1).
    uint32_t emulate(SpirvBuilder& b, const SpirvInstruction& inst, uint32_t site) {
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
            std::vector<uint32_t> mine = toWords(b, inst.operand(1), t),
                                  theirs = toWords(b, first, t);
            uint32_t same = m.constTrue();
            for (size_t w = 0; w < mine.size(); ++w)
                same = b.logicalAnd(same, b.equal(mine[w], theirs[w]));
            return vote(b, same, true, site + 1);
        }
        }
    }

    // --- Barriers and the ends of threads ---------------------------------------------------

    // The step a thread that arrives at a barrier() or ends takes as the workgroup's: the one the
    // real subgroups already waiting at a barrier() are at (lavapipe resumes a workgroup's real
    // subgroups in order, so those after this one have not yet counted the step under way), or,
    // when none waits, its own. Returns whether any waits, and the step (also its own from now).
    std::pair<uint32_t, uint32_t> joinStep(SpirvBuilder& b, uint32_t group) {
        uint32_t entry = b.currentBlock();
        SpirvBuilder::Loop loop = b.newLoop();
        uint32_t k = 0, best = 0, have = 0;
        uint32_t nextK = m.newId(), nextBest = m.newId(), nextHave = m.newId();
        auto step = [&] { b.define(nextK, Op::OpIAdd, m_uint, {k, b.uint(1)}); };
        b.loop(
            loop,
            [&] {
                k = m.newId();
                best = m.newId();
                have = m.newId();
                m_ownPhis.insert({k, best, have});
                b.define(k, Op::OpPhi, m_uint, {b.uint(0), entry, nextK, loop.continueTarget});
                b.define(best, Op::OpPhi, m_uint,
                         {b.uint(0), entry, nextBest, loop.continueTarget});
                b.define(have, Op::OpPhi, m_bool,
                         {m.constFalse(), entry, nextHave, loop.continueTarget});
                return b.less(k, m_groups);
            },
            [&] {
                uint32_t waits = b.notEqual(loadWord(b, m_waiting, k), b.uint(0));
                uint32_t takes = b.logicalAnd(waits, b.notEqual(k, group));
                uint32_t later = b.select(m_uint, b.greater(k, group), b.uint(1), b.uint(0));
                uint32_t step = b.add(loadWord(b, m_steps, k), later);
                uint32_t larger = b.select(m_uint, b.less(best, step), step, best);
                b.define(nextBest, Op::OpSelect, m_uint, {takes, larger, best});
                b.define(nextHave, Op::OpLogicalOr, m_bool, {have, takes});
                return 0u;
            },
            step);
        uint32_t taken = b.select(m_uint, have, best, loadWord(b, m_steps, group));
        storeWord(b, m_steps, group, taken);
        return {have, taken};
    }

    // A barrier() of the kernel: this thread has arrived; its real subgroup takes steps until
    // every thread of the workgroup has arrived at one or ended, in an earlier step than the one
    // it reads (every waiting real subgroup decides alike, in the same step).
    void workgroupBarrier(SpirvBuilder& b, const SpirvInstruction& inst) {
        uint32_t index = b.load(m_uint, m_localIndex);
        uint32_t group = b.div(index, b.uint(R));
        uint32_t step = joinStep(b, group).second;
        storeWord(b, m_waiting, group, b.uint(1));
        b.atomic(Op::OpAtomicIAdd, word(b, m_sync, b.uint(kArrivals)), spv::Scope::Workgroup, 0,
                 {b.uint(1)});
        storeWord(b, m_sync, b.uint(kLast), step);
        std::vector<uint32_t> operands(inst.operands().begin(), inst.operands().end());
        SpirvBuilder::Loop loop = b.newLoop();
        b.loop(loop, {}, [&] {
            barrier(b, operands);
            uint32_t now = b.add(loadWord(b, m_steps, group), b.uint(1));
            storeWord(b, m_steps, group, now);
            uint32_t arrived = b.atomic(Op::OpAtomicLoad, word(b, m_sync, b.uint(kArrivals)),
                                        spv::Scope::Workgroup, 0);
            uint32_t ended = b.atomic(Op::OpAtomicLoad, word(b, m_sync, b.uint(kExits)),
                                      spv::Scope::Workgroup, 0);
            uint32_t last = loadWord(b, m_sync, b.uint(kLast));
            uint32_t base = b.load(m_uint, m_base);
            uint32_t all = b.equal(b.add(b.sub(arrived, base), ended), m_threads);
            uint32_t done = b.logicalAnd(all, b.less(last, now));
            b.store(m_base, b.select(m_uint, done, arrived, base));
            storeWord(b, m_waiting, group, b.select(m_uint, done, b.uint(0), b.uint(1)));
            // lavapipe runs a partial real subgroup's missing lanes (an index past the
            // workgroup) through loops, though nothing they do counts: they leave at once.
            return b.logicalOr(done, b.greaterEqual(index, m_threads));
        });
        // Every waiting real subgroup reads the counts of the step it leaves in before any of
        // them goes on (and ends, or arrives at the next barrier, counting again).
        barrier(b, operands);
    }

    // A thread ends: counted, at the step of those waiting (if any do).
    void threadEnds(SpirvBuilder& b) {
        uint32_t group = b.div(b.load(m_uint, m_localIndex), b.uint(R));
        auto [waits, step] = joinStep(b, group);
        b.atomic(Op::OpAtomicIAdd, word(b, m_sync, b.uint(kExits)), spv::Scope::Workgroup, 0,
                 {b.uint(1)});
        uint32_t last = loadWord(b, m_sync, b.uint(kLast));
        storeWord(b, m_sync, b.uint(kLast), b.select(m_uint, waits, step, last));
    }

    // The kernel's main becomes a function that a new main calls: first the counts, flags and
    // tags start from nothing; after the call, which returns once every lane of the real subgroup
    // has ended, the real subgroup keeps taking the workgroup's steps until every thread has
    // ended. Mesa 25's lavapipe gives a workgroup one more round of resumptions once any of its
    // real subgroups has ended, so one that ended early would cut the others' operations short.
    void wrapEntry(std::vector<SpirvInstruction>& out) {
        uint32_t inner = m.newId(), functionType = 0, resultType = 0;
        for (SpirvInstruction& inst : out)
            if (inst.opcode() == Op::OpFunction && inst.resultId() == m_entry) {
                resultType = inst.resultType();
                functionType = inst.operand(1);
                inst = SpirvInstruction(Op::OpFunction,
                                        {resultType, inner, inst.operand(0), functionType});
            }
        SpirvBuilder b(m, out);
        b.beginFunction(resultType, m_entry, functionType);
        start(b);
        b.call(resultType, inner, {});
        uint32_t index = b.load(m_uint, m_localIndex);
        SpirvBuilder::Loop loop = b.newLoop();
        b.loop(loop, {}, [&] {
            barrier(b);
            uint32_t ended = b.atomic(Op::OpAtomicLoad, word(b, m_sync, b.uint(kExits)),
                                      spv::Scope::Workgroup, 0);
            return b.logicalOr(b.equal(ended, m_threads), b.greaterEqual(index, m_threads));
        });
        b.instruction(Op::OpReturn, {});
        b.endFunction();
    }

    // First thing in the kernel: the counts, flags and tags start from nothing.
    void start(SpirvBuilder& b) {
        uint32_t group = b.div(b.load(m_uint, m_localIndex), b.uint(R));
        storeWord(b, m_steps, group, b.uint(0));
        storeWord(b, m_waiting, group, b.uint(0));
        storeWord(b, m_tags, group, b.uint(kAllBits));
        for (uint32_t w = 0; w < kSyncWords; ++w)
            storeWord(b, m_sync, b.uint(w), b.uint(0));
        barrier(b);
    }

    // --- Functions --------------------------------------------------------------------------

    Status rewriteFunction(std::span<const SpirvInstruction> function,
                           std::vector<SpirvInstruction>& out) {
        size_t begin = out.size();
        bool entry = !function.empty() && function[0].resultId() == m_entry;
        std::map<uint32_t, uint32_t> endsIn; // a block's label -> the label its end is under
        std::map<uint32_t, std::pair<spv::BuiltIn, uint32_t>> chains; // into a mask: its index
        uint32_t block = 0;
        bool loopHeader = false;
        for (size_t k = 0; k < function.size(); ++k) {
            const SpirvInstruction& inst = function[k];
            Op op = inst.opcode();
            SpirvBuilder b(m, out);
            if (op == Op::OpLabel) {
                block = inst.resultId();
                loopHeader = false;
                for (size_t j = k + 1; j < function.size() && !endsBlock(function[j].opcode()); ++j)
                    loopHeader |= function[j].opcode() == Op::OpLoopMerge;
                out.push_back(inst);
                continue;
            }
            if (op == Op::OpAccessChain && m_builtins.count(inst.operand(0)))
                chains[inst.resultId()] = {m_builtins[inst.operand(0)], inst.operand(1)};
            if (op == Op::OpLoad && m_builtins.count(inst.operand(0))) {
                b.define(inst.resultId(), Op::OpCopyObject, inst.resultType(),
                         {builtinValue(b, m_builtins[inst.operand(0)])});
                continue;
            }
            if (op == Op::OpLoad && chains.count(inst.operand(0))) {
                auto [builtin, index] = chains[inst.operand(0)];
                b.define(inst.resultId(), Op::OpVectorExtractDynamic, inst.resultType(),
                         {builtinValue(b, builtin), index});
                continue;
            }
            if (isGroupNonUniform(op) && subgroupScoped(inst) &&
                op != Op::OpGroupNonUniformQuadBroadcast && op != Op::OpGroupNonUniformQuadSwap &&
                !clusteredWithin(inst)) {
                uint32_t site = m_site + 1;
                if (!readsABallot(op)) m_site += op == Op::OpGroupNonUniformAllEqual ? 2 : 1;
                b.define(inst.resultId(), Op::OpCopyObject, inst.resultType(),
                         {emulate(b, inst, site)});
                continue;
            }
            if (op == Op::OpControlBarrier) {
                auto scope = constant(inst.operand(0));
                if (scope == uint32_t(spv::Scope::Subgroup)) {
                    barrier(b);
                    continue;
                }
                if (scope == uint32_t(spv::Scope::Workgroup)) {
                    if (loopHeader)
                        return Error{ErrorKind::Usage,
                                     "a barrier in a loop's header block is not emulated"};
                    workgroupBarrier(b, inst);
                    endsIn[block] = b.currentBlock();
                    continue;
                }
            }
            if (entry && op == Op::OpReturn) {
                threadEnds(b);
                endsIn[block] = b.currentBlock();
            }
            out.push_back(inst);
        }
        reparentPhis(std::span(out).subspan(begin), endsIn, m_ownPhis);
        return okStatus();
    }

    SpirvModule& m;
    const uint32_t V, R;
    uint32_t m_uint = 0, m_bool = 0, m_uvec4 = 0, m_wordPointer = 0, m_glsl = 0, m_entry = 0;
    uint32_t m_threads = 0, m_groups = 0, m_subgroups = 0, m_site = 0;
    uint32_t m_words = 0, m_laneWords = 0; // of a real subgroup's partial, of a lane's value
    uint32_t m_values = 0, m_partials = 0, m_tags = 0, m_steps = 0, m_waiting = 0, m_sync = 0;
    uint32_t m_base = 0;
    uint32_t m_localIndex = 0;
    std::map<uint32_t, spv::BuiltIn> m_builtins;
    std::set<uint32_t> m_ownPhis; // the step scans' (their parents are right)
};

} // namespace

Result<std::vector<uint32_t>> emulateSubgroupSize(std::span<const uint32_t> spirv, uint32_t lanes,
                                                  uint32_t realLanes) {
    if (!std::has_single_bit(lanes) || realLanes == 0 || lanes % realLanes != 0 ||
        32 % realLanes != 0 || lanes > 128)
        return Error{ErrorKind::Usage, std::to_string(lanes) + " lanes cannot be emulated with " +
                                           std::to_string(realLanes)};
    auto module = SpirvModule::parse(spirv);
    if (!module) return module.error();
    if (auto s = SubgroupEmulator(*module, lanes, realLanes).run(); !s) return s.error();
    return module->assemble();
}

} // namespace vkp
