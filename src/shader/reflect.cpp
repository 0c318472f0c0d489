#include "shader/reflect.h"

#include <algorithm>
#include <map>

#include "device/device_info.h"
#include "shader/line_recovery.h"
#include "shader/spirv_module.h"

namespace vkp {
namespace {

using Op = spv::Op;

// Types and constants can refer to each other in cycles in malformed SPIR-V: recursion is bounded.
constexpr int kMaxDepth = 16;

std::string describeType(const SpirvModule& m, uint32_t typeId, int depth = 0) {
    const SpirvInstruction* t = m.definition(typeId);
    if (!t || depth > kMaxDepth) return "?";
    switch (t->opcode()) {
    case Op::OpTypeFloat: {
        uint32_t width = t->operand(0);
        return width == 32 ? "float" : width == 64 ? "double" : "float" + std::to_string(width);
    }
    case Op::OpTypeInt:
        return (t->operand(1) ? "int" : "uint") +
               (t->operand(0) == 32 ? std::string() : std::to_string(t->operand(0)));
    case Op::OpTypeBool:
        return "bool";
    case Op::OpTypeVector: {
        std::string scalar = describeType(m, t->operand(0), depth + 1);
        std::string prefix = scalar == "float"    ? ""
                             : scalar == "double" ? "d"
                             : scalar == "int"    ? "i"
                             : scalar == "uint"   ? "u"
                             : scalar == "bool"   ? "b"
                                                  : scalar + " ";
        return prefix + "vec" + std::to_string(t->operand(1));
    }
    case Op::OpTypeStruct:
        return "struct " + m.name(t->resultId());
    case Op::OpTypeArray:
        return describeType(m, t->operand(0), depth + 1) + "[N]";
    case Op::OpTypeRuntimeArray:
        return describeType(m, t->operand(0), depth + 1) + "[]";
    default:
        return "?";
    }
}

// The pointee type of a pointer type id, 0 when `pointerType` is not one.
uint32_t pointeeOf(const SpirvModule& m, uint32_t pointerType) {
    const SpirvInstruction* ptr = m.definition(pointerType);
    return ptr && ptr->opcode() == Op::OpTypePointer ? ptr->operand(1) : 0;
}

// Fills the block description of a buffer variable whose pointee is `structId`.
void describeBlock(const SpirvModule& m, uint32_t structId, KernelBinding& b) {
    const SpirvInstruction* s = m.definition(structId);
    b.blockName = m.name(structId);
    if (!s || s->opcode() != Op::OpTypeStruct) {
        b.elementTypeText = describeType(m, structId);
        return;
    }
    size_t members = s->operandCount();
    if (members == 0) return;
    b.arrayName = m.memberName(structId, 0);
    uint32_t memberType = s->operand(0);
    const SpirvInstruction* arr = m.definition(memberType);
    bool runtime = arr && arr->opcode() == Op::OpTypeRuntimeArray;
    b.elementTypeText = runtime ? describeType(m, arr->operand(0)) : describeType(m, memberType);
    if (runtime) {
        if (auto element = bufferElement(m, arr->operand(0))) {
            b.elementType = element->type;
            b.elementWidth = element->width;
        }
        b.arrayStride = m.decoration(memberType, spv::Decoration::ArrayStride).value_or(0);
    }
    b.singleRuntimeArray = runtime && members == 1 && b.elementType.has_value();
}

// What a UniformConstant descriptor is, in words ("an image"), through arrays of it.
std::string resourceKind(const SpirvModule& m, uint32_t type, int depth = 0) {
    const SpirvInstruction* t = m.definition(type);
    if (!t || depth > kMaxDepth) return "a resource";
    switch (t->opcode()) {
    case Op::OpTypeArray:
    case Op::OpTypeRuntimeArray:
        return resourceKind(m, t->operand(0), depth + 1);
    case Op::OpTypeImage:
        return t->operand(1) == uint32_t(spv::Dim::Buffer) ? "a texel buffer" : "an image";
    case Op::OpTypeSampler:
        return "a sampler";
    case Op::OpTypeSampledImage: {
        const SpirvInstruction* image = m.definition(t->operand(0));
        bool texels = image && image->operand(1) == uint32_t(spv::Dim::Buffer);
        return texels ? "a texel buffer" : "a texture";
    }
    case Op::OpTypeAccelerationStructureKHR:
        return "an acceleration structure";
    default:
        return "a resource";
    }
}

void readVariable(const SpirvModule& m, const SpirvInstruction& var, KernelInterface& out) {
    auto sc = static_cast<spv::StorageClass>(var.operand(0));
    if (sc == spv::StorageClass::UniformConstant) {
        auto binding = m.decoration(var.resultId(), spv::Decoration::Binding);
        if (!binding) return;
        out.otherResources.push_back(
            {m.decoration(var.resultId(), spv::Decoration::DescriptorSet).value_or(0), *binding,
             m.name(var.resultId()), resourceKind(m, pointeeOf(m, var.resultType()))});
        return;
    }
    if (sc != spv::StorageClass::StorageBuffer && sc != spv::StorageClass::Uniform) return;
    uint32_t pointee = pointeeOf(m, var.resultType());
    if (!pointee) return;
    KernelBinding b;
    b.set = m.decoration(var.resultId(), spv::Decoration::DescriptorSet).value_or(0);
    b.binding = m.decoration(var.resultId(), spv::Decoration::Binding).value_or(0);
    // Vulkan-1.0-style storage blocks are Uniform + BufferBlock; plain Uniform is a UBO.
    b.storageBuffer = sc == spv::StorageClass::StorageBuffer ||
                      m.decoration(pointee, spv::Decoration::BufferBlock).has_value();
    describeBlock(m, pointee, b);
    auto declared = [&](spv::Decoration d) {
        return m.decoration(var.resultId(), d).has_value() ||
               m.memberDecoration(pointee, 0, d).has_value();
    };
    b.coherent = declared(spv::Decoration::Coherent);
    b.isVolatile = declared(spv::Decoration::Volatile);
    out.bindings.push_back(std::move(b));
}

SizeExpr sizeExpr(const SpirvModule& m, uint32_t id, int depth = 0) {
    SizeExpr e;
    const SpirvInstruction* d = m.definition(id);
    if (!d || depth > kMaxDepth) return e;
    auto op = d->opcode();
    if (op == Op::OpConstant && d->operandCount() >= 1) e.value = d->operand(0);
    if (op == Op::OpSpecConstant && d->operandCount() >= 1) {
        e.kind = SizeExpr::Kind::Spec;
        e.value = d->operand(0);
        e.specId = m.decoration(id, spv::Decoration::SpecId).value_or(0);
    }
    // OpSpecConstantOp's operands: the operation's opcode, then its operands.
    auto operation = static_cast<Op>(d->operand(0));
    // gl_WorkGroupSize.x and friends: a component of the workgroup-size composite (ids 0..2).
    if (op == Op::OpSpecConstantOp && d->operandCount() >= 3 &&
        operation == Op::OpCompositeExtract) {
        const SpirvInstruction* composite = m.definition(d->operand(1));
        uint32_t component = d->operand(2);
        if (composite && composite->opcode() == Op::OpSpecConstantComposite &&
            component < composite->operandCount())
            return sizeExpr(m, composite->operand(component), depth + 1);
        return e;
    }
    if (op == Op::OpSpecConstantOp && d->operandCount() >= 3) {
        static const std::map<Op, SizeExpr::Kind> kinds = {
            {Op::OpIAdd, SizeExpr::Kind::Add},
            {Op::OpISub, SizeExpr::Kind::Sub},
            {Op::OpIMul, SizeExpr::Kind::Mul},
            {Op::OpUDiv, SizeExpr::Kind::Div},
            {Op::OpSDiv, SizeExpr::Kind::Div},
            {Op::OpUMod, SizeExpr::Kind::Mod},
            {Op::OpSRem, SizeExpr::Kind::Mod},
            {Op::OpSMod, SizeExpr::Kind::Mod},
            {Op::OpShiftLeftLogical, SizeExpr::Kind::ShiftLeft},
            {Op::OpShiftRightLogical, SizeExpr::Kind::ShiftRight},
            {Op::OpShiftRightArithmetic, SizeExpr::Kind::ShiftRight},
            {Op::OpBitwiseAnd, SizeExpr::Kind::And},
            {Op::OpBitwiseOr, SizeExpr::Kind::Or},
            {Op::OpBitwiseXor, SizeExpr::Kind::Xor}};
        auto it = kinds.find(operation);
        if (it == kinds.end()) {
            e.kind = SizeExpr::Kind::Unknown;
            return e;
        }
        e.kind = it->second;
        e.operands = {sizeExpr(m, d->operand(1), depth + 1), sizeExpr(m, d->operand(2), depth + 1)};
    }
    return e;
}

// Bytes and scalars of one value of a non-array type (scalars, vectors, matrices; structs
// roughly, by their members).
void elementSize(const SpirvModule& m, uint32_t type, uint32_t& bytes, uint32_t& width,
                 int depth = 0) {
    const SpirvInstruction* t = m.definition(type);
    bytes = 4;
    width = 1;
    if (!t || depth > kMaxDepth) return;
    switch (t->opcode()) {
    case Op::OpTypeFloat:
    case Op::OpTypeInt:
        bytes = t->operand(0) / 8;
        return;
    case Op::OpTypeBool:
        return;
    case Op::OpTypeVector:
    case Op::OpTypeMatrix: { // component (column) type, count
        elementSize(m, t->operand(0), bytes, width, depth + 1);
        bytes *= t->operand(1);
        width *= t->operand(1);
        return;
    }
    case Op::OpTypeStruct: {
        if (depth > 2) return; // wide nested structs would cost exponential time; rough is enough
        uint32_t total = 0, scalars = 0;
        for (uint32_t member : t->operands()) {
            uint32_t b, w;
            elementSize(m, member, b, w, depth + 1);
            total += b;
            scalars += w;
        }
        bytes = total;
        width = scalars;
        return;
    }
    default:
        return;
    }
}

void readPush(const SpirvModule& m, const SpirvInstruction& var, KernelInterface& out) {
    if (static_cast<spv::StorageClass>(var.operand(0)) != spv::StorageClass::PushConstant) return;
    uint32_t block = pointeeOf(m, var.resultType());
    if (!block) return;
    const SpirvInstruction* s = m.definition(block);
    if (!s || s->opcode() != Op::OpTypeStruct) return;
    for (uint32_t k = 0; k < s->operandCount() && k < 64; ++k) {
        uint32_t memberType = s->operand(k);
        KernelPushMember p;
        p.name = m.memberName(block, k);
        p.offset = m.memberDecoration(block, k, spv::Decoration::Offset).value_or(0);
        p.type = scalarKind(m, memberType);
        p.typeText = describeType(m, memberType);
        uint32_t bytes = 4, width = 1;
        elementSize(m, memberType, bytes, width);
        out.pushBytes = std::max(out.pushBytes, p.offset + bytes);
        out.push.push_back(std::move(p));
    }
}

void readShared(const SpirvModule& m, const SpirvInstruction& var, KernelInterface& out) {
    if (static_cast<spv::StorageClass>(var.operand(0)) != spv::StorageClass::Workgroup) return;
    const SpirvInstruction* ptr = m.definition(var.resultType());
    if (!ptr || ptr->opcode() != Op::OpTypePointer) return;
    KernelSharedArray s;
    s.variableId = var.resultId();
    s.name = m.name(var.resultId());
    uint32_t type = ptr->operand(1);
    for (const SpirvInstruction* t = m.definition(type);
         t && t->opcode() == Op::OpTypeArray && s.dims.size() < 8; t = m.definition(type)) {
        s.dims.push_back(sizeExpr(m, t->operand(1))); // element type, length
        type = t->operand(0);
    }
    elementSize(m, type, s.elementBytes, s.elementWidth);
    s.elementType = scalarKind(m, type);
    if (!s.elementType) {
        const SpirvInstruction* t = m.definition(type);
        if (t && t->opcode() == Op::OpTypeVector) s.elementType = scalarKind(m, t->operand(0));
    }
    out.shared.push_back(std::move(s));
}

// A workgroup-size component (a constant id): the spec id it is set by, or its literal size.
void readLocalSizeComponent(const SpirvModule& m, uint32_t component, int d, KernelInterface& out) {
    out.localSizeIds[d] = component;
    if (auto spec = m.decoration(component, spv::Decoration::SpecId)) {
        out.localSizeConstantIds.push_back(component);
        out.localSizeFromSpec[d] = true;
        out.localSizeSpecIds[d] = *spec;
        out.fixedLocalSize[d].reset();
    } else if (const SpirvInstruction* c = m.definition(component); c && c->operandCount() > 0) {
        out.fixedLocalSize[d] = c->operand(0);
    }
}

void readSpecConstant(const SpirvModule& m, const SpirvInstruction& inst, KernelInterface& out) {
    uint32_t id = inst.resultId();
    auto builtin = m.decoration(id, spv::Decoration::BuiltIn);
    if (inst.opcode() == Op::OpSpecConstantComposite) {
        if (builtin != uint32_t(spv::BuiltIn::WorkgroupSize)) return;
        // gl_WorkGroupSize built from spec constants: each component tells how its size is set.
        for (size_t d = 0; d < 3 && d < inst.operandCount(); ++d)
            readLocalSizeComponent(m, inst.operand(d), int(d), out);
        return;
    }
    auto spec = m.decoration(id, spv::Decoration::SpecId);
    if (!spec) return;
    out.specConstants.push_back({*spec, m.name(id), id});
}

void readExecutionMode(const SpirvModule& m, const SpirvInstruction& inst, KernelInterface& out) {
    // Operands: entry point, mode, then the mode's literals (LocalSize) or ids (LocalSizeId).
    auto mode = static_cast<spv::ExecutionMode>(inst.operand(1));
    if (mode == spv::ExecutionMode::LocalSize && inst.operandCount() >= 5) {
        for (int d = 0; d < 3; ++d)
            if (!out.localSizeFromSpec[d]) out.fixedLocalSize[d] = inst.operand(2 + d);
    } else if (mode == spv::ExecutionMode::LocalSizeId && inst.operandCount() >= 5) {
        for (int d = 0; d < 3; ++d)
            readLocalSizeComponent(m, inst.operand(2 + d), d, out);
    }
}

} // namespace

std::optional<ElementKind> scalarKind(const SpirvModule& m, uint32_t typeId) {
    const SpirvInstruction* t = m.definition(typeId);
    if (!t) return std::nullopt;
    if (t->opcode() == Op::OpTypeFloat && t->operand(0) == 32) return ElementKind::Float;
    if (t->opcode() == Op::OpTypeInt && t->operand(0) == 32)
        return t->operand(1) ? ElementKind::Int : ElementKind::Uint;
    return std::nullopt;
}

std::optional<BufferElement> bufferElement(const SpirvModule& m, uint32_t typeId) {
    if (auto scalar = scalarKind(m, typeId)) return BufferElement{*scalar, 1};
    const SpirvInstruction* t = m.definition(typeId);
    if (!t || t->opcode() != Op::OpTypeVector || t->operandCount() < 2) return std::nullopt;
    uint32_t width = t->operand(1); // component type, count
    auto scalar = scalarKind(m, t->operand(0));
    if (!scalar || (width != 2 && width != 4)) return std::nullopt;
    return BufferElement{*scalar, width};
}

uint64_t KernelSharedArray::bytes(const std::map<uint32_t, uint32_t>& constants) const {
    uint64_t n = elementBytes;
    for (const SizeExpr& d : dims)
        n *= d.evaluate(constants);
    return n;
}

uint64_t KernelInterface::sharedBytes(const std::map<uint32_t, uint32_t>& constants) const {
    uint64_t n = 0;
    for (const KernelSharedArray& s : shared)
        n += s.bytes(constants);
    return n;
}

namespace {

// The family of subgroup operations an instruction belongs to; 0 for any other instruction.
uint32_t subgroupFeatureOf(const SpirvInstruction& inst) {
    switch (inst.opcode()) {
    case Op::OpGroupNonUniformElect:
        return kSubgroupBasic;
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
    case Op::OpGroupNonUniformAllEqual:
        return kSubgroupVote;
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformBallot:
    case Op::OpGroupNonUniformInverseBallot:
    case Op::OpGroupNonUniformBallotBitExtract:
    case Op::OpGroupNonUniformBallotBitCount:
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB:
        return kSubgroupBallot;
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
        return kSubgroupShuffle;
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
        return kSubgroupShuffleRelative;
    case Op::OpGroupNonUniformQuadBroadcast:
    case Op::OpGroupNonUniformQuadSwap:
        return kSubgroupQuad;
    default:
        break;
    }
    auto op = static_cast<uint32_t>(inst.opcode());
    if (op >= static_cast<uint32_t>(Op::OpGroupNonUniformIAdd) &&
        op <= static_cast<uint32_t>(Op::OpGroupNonUniformLogicalXor))
        // Operands: the scope, then the group operation.
        return inst.operand(1) == static_cast<uint32_t>(spv::GroupOperation::ClusteredReduce)
                   ? kSubgroupClustered
                   : kSubgroupArithmetic;
    return 0;
}

// SPV_KHR_cooperative_matrix's capability and type, by their numbers in the SPIR-V registry:
// Debian 12's SPIR-V headers predate them.
constexpr auto kCapabilityCooperativeMatrixKHR = static_cast<spv::Capability>(6022);
constexpr auto kOpTypeCooperativeMatrixKHR = static_cast<Op>(4456);

// Capabilities that declare an optional kind of number or of storage (device/device_info.h).
constexpr std::pair<spv::Capability, uint32_t> kFeatureCapabilities[] = {
    {spv::Capability::Float64, kShaderFloat64},
    {spv::Capability::Int64, kShaderInt64},
    {spv::Capability::Int16, kShaderInt16},
    {spv::Capability::Float16, kShaderFloat16},
    {spv::Capability::Int8, kShaderInt8},
    {spv::Capability::StorageBuffer16BitAccess, kStorage16Bit},
    {spv::Capability::UniformAndStorageBuffer16BitAccess, kStorage16Bit},
    {spv::Capability::StorageBuffer8BitAccess, kStorage8Bit},
    {spv::Capability::UniformAndStorageBuffer8BitAccess, kStorage8Bit},
    {spv::Capability::Int64Atomics, kInt64Atomics},
    {kCapabilityCooperativeMatrixKHR, kCooperativeMatrix},
};

// The optional kind of number a declared type is made of (a scalar, or a vector or matrix of
// them); 0 for any other.
uint32_t numberFeatureOf(const SpirvInstruction& inst, const std::map<uint32_t, uint32_t>& known) {
    uint32_t width = inst.operand(0);
    if (inst.opcode() == Op::OpTypeFloat && width == 64) return kShaderFloat64;
    if (inst.opcode() == Op::OpTypeInt && width == 64) return kShaderInt64;
    if (inst.opcode() == Op::OpTypeInt && width == 16) return kShaderInt16;
    if (inst.opcode() == Op::OpTypeFloat && width == 16) return kShaderFloat16;
    if (inst.opcode() == Op::OpTypeInt && width == 8) return kShaderInt8;
    if (inst.opcode() == kOpTypeCooperativeMatrixKHR) return kCooperativeMatrix;
    if (inst.opcode() == Op::OpTypeVector || inst.opcode() == Op::OpTypeMatrix) {
        auto it = known.find(inst.operand(0));
        return it == known.end() ? 0 : it->second;
    }
    return 0;
}

// What the kernel uses that a device may lack, each with the line of its first use (LineRecovery,
// as the trace's lines): the families of subgroup operations by their instructions, and the
// optional kinds of numbers by the first instruction that makes a value of one. Declared but
// never used on a line (gl_SubgroupSize alone needs the GroupNonUniform capability; a buffer of
// doubles never read): listed without a line.
void readFeatureUses(const std::vector<SpirvInstruction>& all, KernelInterface& out) {
    std::map<uint32_t, uint32_t> numberTypes; // type id -> its ShaderFeature bit
    uint32_t declaredSubgroup = 0, declaredNumbers = 0;
    LineRecovery lines;
    auto note = [](std::vector<KernelFeatureUse>& uses, uint32_t feature, uint32_t line) {
        if (std::none_of(uses.begin(), uses.end(),
                         [&](const KernelFeatureUse& u) { return u.feature == feature; }))
            uses.push_back({feature, line});
    };
    for (const SpirvInstruction& inst : all) {
        if (inst.opcode() == Op::OpDecorate &&
            inst.operand(1) == uint32_t(spv::Decoration::BuiltIn)) {
            auto builtin = static_cast<spv::BuiltIn>(inst.operand(2));
            out.readsSubgroupSize =
                out.readsSubgroupSize || builtin == spv::BuiltIn::SubgroupSize ||
                builtin == spv::BuiltIn::SubgroupGeMask || builtin == spv::BuiltIn::SubgroupGtMask;
        }
        if (inst.opcode() == Op::OpCapability) {
            auto capability = static_cast<spv::Capability>(inst.operand(0));
            if (capability == spv::Capability::GroupNonUniform) declaredSubgroup |= kSubgroupBasic;
            for (auto [c, feature] : kFeatureCapabilities)
                if (c == capability) declaredNumbers |= feature;
        }
        if (uint32_t f = numberFeatureOf(inst, numberTypes)) numberTypes[inst.resultId()] = f;
        out.usesAtomics = out.usesAtomics || isAtomicOp(inst.opcode());
        if (inst.opcode() == Op::OpFunction) lines.beginFunction();
        lines.observe(inst);
        if (lines.line() == 0) continue;
        if (uint32_t f = subgroupFeatureOf(inst)) note(out.subgroupUses, f, lines.line());
        auto number = numberTypes.find(inst.resultType());
        if (inst.resultType() && number != numberTypes.end())
            note(out.numberUses, number->second, lines.line());
    }
    for (uint32_t bit = 1; bit != 0 && bit <= declaredSubgroup; bit <<= 1)
        if (declaredSubgroup & bit) note(out.subgroupUses, bit, 0);
    for (uint32_t bit = 1; bit != 0 && bit <= declaredNumbers; bit <<= 1)
        if (declaredNumbers & bit) note(out.numberUses, bit, 0);
}

} // namespace

Result<KernelInterface> reflectKernel(std::span<const uint32_t> spirv) {
    auto module = SpirvModule::parse(spirv);
    if (!module) return module.error();
    const SpirvModule& m = *module;
    KernelInterface out;
    std::vector<SpirvInstruction> all = m.instructions();
    // Execution modes come before constants in a module; a WorkgroupSize composite overrides.
    for (const SpirvInstruction& inst : all) {
        auto op = inst.opcode();
        if ((op == Op::OpExecutionMode || op == Op::OpExecutionModeId) && inst.operandCount() >= 2)
            readExecutionMode(m, inst, out);
    }
    for (const SpirvInstruction& inst : all) {
        auto op = inst.opcode();
        if (op == Op::OpVariable && inst.operandCount() >= 1) { // a storage class after type and id
            readVariable(m, inst, out);
            readShared(m, inst, out);
            readPush(m, inst, out);
        } else if ((op == Op::OpSpecConstant || op == Op::OpSpecConstantTrue ||
                    op == Op::OpSpecConstantFalse || op == Op::OpSpecConstantComposite) &&
                   inst.resultId() != 0) {
            readSpecConstant(m, inst, out);
        }
    }
    readFeatureUses(all, out);
    // The workgroup-size constants are the composite's components (by result id): a user
    // constant that merely shares id 0 stays listed, so the interface check can report it.
    std::erase_if(out.specConstants, [&](const KernelSpecConstant& c) {
        return std::find(out.localSizeConstantIds.begin(), out.localSizeConstantIds.end(),
                         c.resultId) != out.localSizeConstantIds.end();
    });
    return out;
}

} // namespace vkp
