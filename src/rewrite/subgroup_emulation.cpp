// emulateSubgroupSize (rewrite/subgroup_emulation.h) and its pass's walk over the module: what it
// finds (the built-ins' variables, the operations, the workgroup's size), what it adds (the shared
// arrays), the built-ins' values, and each function rewritten (subgroup_emulator.h lists the rest).
#include "rewrite/subgroup_emulation.h"

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <optional>
#include <string>

#include "rewrite/subgroup_emulator.h"

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

bool endsBlock(Op op) {
    return op == Op::OpBranch || op == Op::OpBranchConditional || op == Op::OpSwitch ||
           op == Op::OpReturn || op == Op::OpReturnValue || op == Op::OpKill ||
           op == Op::OpUnreachable || op == Op::OpTerminateInvocation;
}

bool isGroupNonUniform(Op op) {
    return (op >= Op::OpGroupNonUniformElect && op <= Op::OpGroupNonUniformQuadSwap) ||
           op == Op::OpGroupNonUniformRotateKHR || op == Op::OpGroupNonUniformPartitionNV;
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

} // namespace

bool SubgroupEmulator::isArithmetic(Op op) {
    return op >= Op::OpGroupNonUniformIAdd && op <= Op::OpGroupNonUniformLogicalXor;
}

// Operations that read another lane's value straight from its slot.
bool SubgroupEmulator::readsALane(Op op) {
    return op == Op::OpGroupNonUniformBroadcast || op == Op::OpGroupNonUniformShuffle ||
           op == Op::OpGroupNonUniformShuffleXor || op == Op::OpGroupNonUniformShuffleUp ||
           op == Op::OpGroupNonUniformShuffleDown;
}

// Operations computed on the lane from a ballot it holds.
bool SubgroupEmulator::readsABallot(Op op) {
    return op == Op::OpGroupNonUniformInverseBallot ||
           op == Op::OpGroupNonUniformBallotBitExtract ||
           op == Op::OpGroupNonUniformBallotBitCount || op == Op::OpGroupNonUniformBallotFindLSB ||
           op == Op::OpGroupNonUniformBallotFindMSB;
}

Status SubgroupEmulator::run() {
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

// --- The module as found ----------------------------------------------------------------

std::optional<uint32_t> SubgroupEmulator::constant(uint32_t id) const {
    const SpirvInstruction* d = m.definition(id);
    if (!d || d->opcode() != Op::OpConstant) return std::nullopt;
    return d->operand(0);
}

Result<SubgroupEmulator::ValueType> SubgroupEmulator::valueType(uint32_t type) const {
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

bool SubgroupEmulator::subgroupScoped(const SpirvInstruction& inst) const {
    return constant(inst.operand(0)) == uint32_t(spv::Scope::Subgroup);
}

// The subgroup built-ins' variables, the operations to emulate and how many words their
// values take; an error for what cannot be emulated.
Status SubgroupEmulator::survey() {
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
    if (sites > 255) return Error{ErrorKind::Usage, "more than 255 subgroup operations to emulate"};
    return okStatus();
}

// A clustered reduction whose clusters fit in a real subgroup: the device does it as it is.
bool SubgroupEmulator::clusteredWithin(const SpirvInstruction& inst) const {
    if (!isArithmetic(inst.opcode()) ||
        inst.operand(1) != uint32_t(spv::GroupOperation::ClusteredReduce))
        return false;
    auto size = constant(inst.operand(3));
    return size && *size <= R;
}

// The threads of a workgroup, as a constant (or a specialization constant's expression).
Status SubgroupEmulator::workgroupSize() {
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
uint32_t SubgroupEmulator::fold(Op op, uint32_t a, uint32_t b, uint32_t (*f)(uint32_t, uint32_t)) {
    auto x = constant(a), y = constant(b);
    if (x && y && m.typeOf(a) == m_uint && m.typeOf(b) == m_uint) return m.constUint(f(*x, *y));
    return m.emit(m.newGlobals, Op::OpSpecConstantOp, m_uint, {uint32_t(op), a, b});
}

uint32_t SubgroupEmulator::times(uint32_t a, uint32_t b) {
    return fold(Op::OpIMul, a, b, [](uint32_t x, uint32_t y) { return x * y; });
}

uint32_t SubgroupEmulator::plus(uint32_t a, uint32_t b) {
    return fold(Op::OpIAdd, a, b, [](uint32_t x, uint32_t y) { return x + y; });
}

uint32_t SubgroupEmulator::divide(uint32_t a, uint32_t b) {
    return fold(Op::OpUDiv, a, b, [](uint32_t x, uint32_t y) { return x / y; });
}

// --- What the emulation adds --------------------------------------------------------------

uint32_t SubgroupEmulator::sharedArray(uint32_t length) {
    uint32_t type = m.newId();
    SpirvInstruction array(Op::OpTypeArray, {type, m_uint, length});
    m.noteDefinition(array);
    m.newGlobals.push_back(std::move(array));
    uint32_t var =
        m.addGlobalVariable(m.typePointer(StorageClass::Workgroup, type), StorageClass::Workgroup);
    m.addToInterface(var);
    return var;
}

void SubgroupEmulator::declare() {
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

// --- The built-ins ------------------------------------------------------------------------

uint32_t SubgroupEmulator::builtinValue(SpirvBuilder& b, spv::BuiltIn builtin) {
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

// --- Functions ----------------------------------------------------------------------------

Status SubgroupEmulator::rewriteFunction(std::span<const SpirvInstruction> function,
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
            // A meeting of real subgroups is a loop of its own, which cannot start there.
            if (loopHeader && !readsABallot(op) && !readsALane(op))
                return Error{ErrorKind::Usage,
                             "a subgroup operation in a loop's header block is not emulated"};
            b.define(inst.resultId(), Op::OpCopyObject, inst.resultType(),
                     {emulate(b, inst, site)});
            endsIn[block] = b.currentBlock();
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
