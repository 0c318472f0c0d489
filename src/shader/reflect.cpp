#include "shader/reflect.h"

#include <algorithm>
#include <map>

#include <spirv/unified1/spirv.hpp11>

#include "shader/spirv_module.h"

namespace vkp {
namespace {

using Op = spv::Op;

// Types and constants can refer to each other in cycles in malformed SPIR-V: recursion is bounded.
constexpr int kMaxDepth = 16;

std::string describeType(const SpirvModule& m, uint32_t typeId, int depth = 0) {
    const SpirvInstruction* t = m.definition(typeId);
    if (!t || depth > kMaxDepth) return "?";
    auto o = t->operands;
    switch (static_cast<Op>(t->opcode)) {
    case Op::OpTypeFloat: return o[1] == 32 ? "float" : o[1] == 64 ? "double" : "float" + std::to_string(o[1]);
    case Op::OpTypeInt: return (o[2] ? "int" : "uint") + (o[1] == 32 ? std::string() : std::to_string(o[1]));
    case Op::OpTypeBool: return "bool";
    case Op::OpTypeVector: {
        std::string scalar = describeType(m, o[1], depth + 1);
        std::string prefix = scalar == "float" ? "" : scalar == "double" ? "d" : scalar == "int" ? "i" : scalar == "uint" ? "u" : scalar == "bool" ? "b" : scalar + " ";
        return prefix + "vec" + std::to_string(o[2]);
    }
    case Op::OpTypeStruct: return "struct " + m.name(o[0]);
    case Op::OpTypeArray: return describeType(m, o[1], depth + 1) + "[N]";
    case Op::OpTypeRuntimeArray: return describeType(m, o[1], depth + 1) + "[]";
    default: return "?";
    }
}

std::optional<ElementKind> scalarKind(const SpirvModule& m, uint32_t typeId) {
    const SpirvInstruction* t = m.definition(typeId);
    if (!t) return std::nullopt;
    auto o = t->operands;
    if (static_cast<Op>(t->opcode) == Op::OpTypeFloat && o[1] == 32) return ElementKind::Float;
    if (static_cast<Op>(t->opcode) == Op::OpTypeInt && o[1] == 32) return o[2] ? ElementKind::Int : ElementKind::Uint;
    return std::nullopt;
}

// Fills the block description of a buffer variable whose pointee is `structId`.
void describeBlock(const SpirvModule& m, uint32_t structId, KernelBinding& b) {
    const SpirvInstruction* s = m.definition(structId);
    b.blockName = m.name(structId);
    if (!s || static_cast<Op>(s->opcode) != Op::OpTypeStruct) {
        b.elementTypeText = describeType(m, structId);
        return;
    }
    size_t members = s->operands.size() - 1;
    if (members == 0) return;
    b.arrayName = m.memberName(structId, 0);
    uint32_t memberType = s->operands[1];
    const SpirvInstruction* arr = m.definition(memberType);
    bool runtime = arr && static_cast<Op>(arr->opcode) == Op::OpTypeRuntimeArray;
    b.elementTypeText = runtime ? describeType(m, arr->operands[1]) : describeType(m, memberType);
    if (runtime) b.elementType = scalarKind(m, arr->operands[1]);
    b.singleRuntimeArray = runtime && members == 1 && b.elementType.has_value();
}

void readVariable(const SpirvModule& m, const SpirvInstruction& ins, KernelInterface& out) {
    auto o = ins.operands; // result type, result id, storage class
    auto sc = static_cast<spv::StorageClass>(o[2]);
    if (sc != spv::StorageClass::StorageBuffer && sc != spv::StorageClass::Uniform) return;
    const SpirvInstruction* ptr = m.definition(o[0]);
    if (!ptr || static_cast<Op>(ptr->opcode) != Op::OpTypePointer) return;
    uint32_t pointee = ptr->operands[2];
    KernelBinding b;
    b.set = m.decoration(o[1], uint32_t(spv::Decoration::DescriptorSet)).value_or(0);
    b.binding = m.decoration(o[1], uint32_t(spv::Decoration::Binding)).value_or(0);
    // Vulkan-1.0-style storage blocks are Uniform + BufferBlock; plain Uniform is a UBO.
    b.storageBuffer = sc == spv::StorageClass::StorageBuffer ||
                      m.decoration(pointee, uint32_t(spv::Decoration::BufferBlock)).has_value();
    describeBlock(m, pointee, b);
    out.bindings.push_back(std::move(b));
}

SizeExpr sizeExpr(const SpirvModule& m, uint32_t id, int depth = 0) {
    SizeExpr e;
    const SpirvInstruction* d = m.definition(id);
    if (!d || depth > kMaxDepth) return e;
    auto o = d->operands;
    auto op = static_cast<Op>(d->opcode);
    if (op == Op::OpConstant && o.size() >= 3) e.value = o[2];
    if (op == Op::OpSpecConstant && o.size() >= 3) {
        e.kind = SizeExpr::Kind::Spec;
        e.value = o[2];
        e.specId = m.decoration(id, uint32_t(spv::Decoration::SpecId)).value_or(0);
    }
    // gl_WorkGroupSize.x and friends: a component of the workgroup-size composite (ids 0..2).
    if (op == Op::OpSpecConstantOp && o.size() >= 5 && static_cast<Op>(o[2]) == Op::OpCompositeExtract) {
        const SpirvInstruction* composite = m.definition(o[3]);
        if (composite && static_cast<Op>(composite->opcode) == Op::OpSpecConstantComposite && o[4] + 2 < composite->operands.size())
            return sizeExpr(m, composite->operands[2 + o[4]], depth + 1);
        return e;
    }
    if (op == Op::OpSpecConstantOp && o.size() >= 5) {
        static const std::map<Op, SizeExpr::Kind> kinds = {{Op::OpIAdd, SizeExpr::Kind::Add}, {Op::OpISub, SizeExpr::Kind::Sub},
                                                           {Op::OpIMul, SizeExpr::Kind::Mul}, {Op::OpUDiv, SizeExpr::Kind::Div},
                                                           {Op::OpSDiv, SizeExpr::Kind::Div}};
        auto it = kinds.find(static_cast<Op>(o[2]));
        if (it == kinds.end()) return e;
        e.kind = it->second;
        e.operands = {sizeExpr(m, o[3], depth + 1), sizeExpr(m, o[4], depth + 1)};
    }
    return e;
}

// Bytes and scalars of one value of a non-array type (scalars, vectors, matrices; structs
// roughly, by their members).
void elementSize(const SpirvModule& m, uint32_t type, uint32_t& bytes, uint32_t& width, int depth = 0) {
    const SpirvInstruction* t = m.definition(type);
    bytes = 4;
    width = 1;
    if (!t || depth > kMaxDepth) return;
    auto o = t->operands;
    switch (static_cast<Op>(t->opcode)) {
    case Op::OpTypeFloat:
    case Op::OpTypeInt: bytes = o[1] / 8; return;
    case Op::OpTypeBool: return;
    case Op::OpTypeVector:
    case Op::OpTypeMatrix: {
        elementSize(m, o[1], bytes, width, depth + 1);
        bytes *= o[2];
        width *= o[2];
        return;
    }
    case Op::OpTypeStruct: {
        if (depth > 2) return; // wide nested structs would cost exponential time; rough is enough
        uint32_t total = 0, scalars = 0;
        for (size_t k = 1; k < o.size(); ++k) {
            uint32_t b, w;
            elementSize(m, o[k], b, w, depth + 1);
            total += b;
            scalars += w;
        }
        bytes = total;
        width = scalars;
        return;
    }
    default: return;
    }
}

void readPush(const SpirvModule& m, const SpirvInstruction& ins, KernelInterface& out) {
    auto o = ins.operands;
    if (static_cast<spv::StorageClass>(o[2]) != spv::StorageClass::PushConstant) return;
    const SpirvInstruction* ptr = m.definition(o[0]);
    if (!ptr || static_cast<Op>(ptr->opcode) != Op::OpTypePointer) return;
    uint32_t block = ptr->operands[2];
    const SpirvInstruction* s = m.definition(block);
    if (!s || static_cast<Op>(s->opcode) != Op::OpTypeStruct) return;
    for (uint32_t k = 0; k + 1 < s->operands.size() && k < 64; ++k) {
        KernelPushMember p;
        p.name = m.memberName(block, k);
        p.offset = m.memberDecoration(block, k, uint32_t(spv::Decoration::Offset)).value_or(0);
        p.type = scalarKind(m, s->operands[1 + k]);
        p.typeText = describeType(m, s->operands[1 + k]);
        uint32_t bytes = 4, width = 1;
        elementSize(m, s->operands[1 + k], bytes, width);
        out.pushBytes = std::max(out.pushBytes, p.offset + bytes);
        out.push.push_back(std::move(p));
    }
}

void readShared(const SpirvModule& m, const SpirvInstruction& ins, KernelInterface& out) {
    auto o = ins.operands;
    if (static_cast<spv::StorageClass>(o[2]) != spv::StorageClass::Workgroup) return;
    const SpirvInstruction* ptr = m.definition(o[0]);
    if (!ptr || static_cast<Op>(ptr->opcode) != Op::OpTypePointer) return;
    KernelSharedArray s;
    s.variableId = o[1];
    s.name = m.name(o[1]);
    uint32_t type = ptr->operands[2];
    for (const SpirvInstruction* t = m.definition(type); t && static_cast<Op>(t->opcode) == Op::OpTypeArray && s.dims.size() < 8;
         t = m.definition(type)) {
        s.dims.push_back(sizeExpr(m, t->operands[2]));
        type = t->operands[1];
    }
    elementSize(m, type, s.elementBytes, s.elementWidth);
    s.elementType = scalarKind(m, type);
    if (!s.elementType) {
        const SpirvInstruction* t = m.definition(type);
        if (t && static_cast<Op>(t->opcode) == Op::OpTypeVector) s.elementType = scalarKind(m, t->operands[1]);
    }
    out.shared.push_back(std::move(s));
}

void readSpecConstant(const SpirvModule& m, const SpirvInstruction& ins, KernelInterface& out) {
    uint32_t id = ins.operands[1];
    auto builtin = m.decoration(id, uint32_t(spv::Decoration::BuiltIn));
    if (static_cast<Op>(ins.opcode) == Op::OpSpecConstantComposite) {
        if (builtin != uint32_t(spv::BuiltIn::WorkgroupSize)) return;
        // gl_WorkGroupSize built from spec constants: each component tells how its size is set.
        for (size_t d = 0; d < 3 && d + 2 < ins.operands.size(); ++d) {
            uint32_t comp = ins.operands[2 + d];
            if (auto spec = m.decoration(comp, uint32_t(spv::Decoration::SpecId))) {
                out.localSizeConstantIds.push_back(comp);
                out.localSizeFromSpec[d] = true;
                out.localSizeSpecIds[d] = *spec;
                out.fixedLocalSize[d].reset();
            } else if (const SpirvInstruction* c = m.definition(comp); c && c->operands.size() > 2) {
                out.fixedLocalSize[d] = c->operands[2];
            }
        }
        return;
    }
    auto spec = m.decoration(id, uint32_t(spv::Decoration::SpecId));
    if (!spec) return;
    out.specConstants.push_back({*spec, m.name(id), id});
}

void readExecutionMode(const SpirvModule& m, const SpirvInstruction& ins, KernelInterface& out) {
    auto o = ins.operands; // entry, mode, literals/ids
    auto mode = static_cast<spv::ExecutionMode>(o[1]);
    if (mode == spv::ExecutionMode::LocalSize && o.size() >= 5) {
        for (int d = 0; d < 3; ++d)
            if (!out.localSizeFromSpec[d]) out.fixedLocalSize[d] = o[2 + d];
    } else if (mode == spv::ExecutionMode::LocalSizeId && o.size() >= 5) {
        for (int d = 0; d < 3; ++d) {
            auto spec = m.decoration(o[2 + d], uint32_t(spv::Decoration::SpecId));
            if (spec) {
                out.localSizeConstantIds.push_back(o[2 + d]);
                out.localSizeFromSpec[d] = true;
                out.localSizeSpecIds[d] = *spec;
            } else if (const SpirvInstruction* c = m.definition(o[2 + d]); c && c->operands.size() > 2) {
                out.fixedLocalSize[d] = c->operands[2];
            }
        }
    }
}

} // namespace

uint64_t KernelSharedArray::bytes(const std::map<uint32_t, uint32_t>& constants) const {
    uint64_t n = elementBytes;
    for (const SizeExpr& d : dims) n *= d.evaluate(constants);
    return n;
}

uint64_t KernelInterface::sharedBytes(const std::map<uint32_t, uint32_t>& constants) const {
    uint64_t n = 0;
    for (const KernelSharedArray& s : shared) n += s.bytes(constants);
    return n;
}

Result<KernelInterface> reflectKernel(std::span<const uint32_t> spirv) {
    auto module = SpirvModule::parse(spirv);
    if (!module) return module.error();
    const SpirvModule& m = *module;
    KernelInterface out;
    // Execution modes come before constants in a module; a WorkgroupSize composite overrides.
    for (const SpirvInstruction& ins : m.instructions()) {
        auto op = static_cast<Op>(ins.opcode);
        if ((op == Op::OpExecutionMode || op == Op::OpExecutionModeId) && ins.operands.size() >= 2)
            readExecutionMode(m, ins, out);
    }
    for (const SpirvInstruction& ins : m.instructions()) {
        auto op = static_cast<Op>(ins.opcode);
        if (op == Op::OpVariable && ins.operands.size() >= 3) {
            readVariable(m, ins, out);
            readShared(m, ins, out);
            readPush(m, ins, out);
        }
        else if ((op == Op::OpSpecConstant || op == Op::OpSpecConstantTrue || op == Op::OpSpecConstantFalse ||
                  op == Op::OpSpecConstantComposite) && ins.operands.size() >= 2)
            readSpecConstant(m, ins, out);
    }
    // The workgroup-size constants are the composite's components (by result id): a user
    // constant that merely shares id 0 stays listed, so the interface check can report it.
    std::erase_if(out.specConstants, [&](const KernelSpecConstant& c) {
        return std::find(out.localSizeConstantIds.begin(), out.localSizeConstantIds.end(), c.resultId) !=
               out.localSizeConstantIds.end();
    });
    return out;
}

} // namespace vkp
