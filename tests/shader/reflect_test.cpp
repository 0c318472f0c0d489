// Reflection of real compiled kernels (shaderc), SpirvModule's rejection of bad words, and its
// operand accessors, lookups and find-or-add helpers on a real module.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "device/device_info.h"
#include "shader/compiler.h"
#include "shader/reflect.h"
#include "shader/spirv_module.h"

namespace vkp {
namespace {

KernelInterface reflectSource(const std::string& source) {
    static const Compiler compiler;
    CompileResult r = compiler.compile(source, "k.comp");
    EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    auto k = reflectKernel(r.spirv);
    EXPECT_TRUE(k.ok()) << (k.ok() ? "" : k.error().str());
    return k.ok() ? *k : KernelInterface{};
}

const KernelBinding* findBinding(const KernelInterface& k, uint32_t binding) {
    for (const KernelBinding& b : k.bindings)
        if (b.binding == binding) return &b;
    return nullptr;
}

TEST(Reflect, StorageBuffersWithTheirElementTypes) {
    KernelInterface k = reflectSource(R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Counts { int counts[]; };
layout(set = 0, binding = 3) writeonly buffer Result { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = uint(a[i]) + uint(counts[i]);
}
)");
    ASSERT_EQ(k.bindings.size(), 3u);
    const KernelBinding* a = findBinding(k, 0);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->set, 0u);
    EXPECT_EQ(a->blockName, "A");
    EXPECT_EQ(a->arrayName, "a");
    EXPECT_TRUE(a->storageBuffer);
    EXPECT_TRUE(a->singleRuntimeArray);
    EXPECT_EQ(a->elementType, ElementKind::Float);
    EXPECT_EQ(a->elementTypeText, "float");
    const KernelBinding* c = findBinding(k, 1);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->arrayName, "counts");
    EXPECT_EQ(c->elementType, ElementKind::Int);
    const KernelBinding* r = findBinding(k, 3);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->blockName, "Result");
    EXPECT_EQ(r->arrayName, "result");
    EXPECT_EQ(r->elementType, ElementKind::Uint);
    EXPECT_EQ(findBinding(k, 2), nullptr);
}

TEST(Reflect, UnusedDeclarationsAreKept) {
    // Finding: at -O0 glslang keeps buffer blocks and specialization constants that main() never
    // touches, so a starter kernel that only declares its buffers still shows every binding (an
    // unused binding is not reported as "missing" by the interface check).
    KernelInterface k = reflectSource(R"(#version 450
layout(local_size_x = 1) in;
layout(constant_id = 5) const int UNUSED = 1;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {}
)");
    EXPECT_EQ(k.bindings.size(), 2u);
    EXPECT_NE(findBinding(k, 0), nullptr);
    EXPECT_NE(findBinding(k, 1), nullptr);
    ASSERT_EQ(k.specConstants.size(), 1u);
    EXPECT_EQ(k.specConstants[0].id, 5u);
    EXPECT_EQ(k.specConstants[0].name, "UNUSED");
}

TEST(Reflect, SetUniformAndOddBlocks) {
    KernelInterface k = reflectSource(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 1, binding = 0) buffer S { float s[]; };
layout(set = 0, binding = 1) uniform U { float u[4]; };
layout(set = 0, binding = 2) buffer Two { uint n; float b[]; };
layout(set = 0, binding = 3) buffer D { double d[]; };
layout(set = 0, binding = 4) buffer F { float fixedSize[4]; };
void main() {}
)");
    ASSERT_EQ(k.bindings.size(), 5u);
    EXPECT_EQ(findBinding(k, 0)->set, 1u);
    EXPECT_TRUE(findBinding(k, 0)->singleRuntimeArray);
    const KernelBinding* u = findBinding(k, 1);
    EXPECT_FALSE(u->storageBuffer);
    EXPECT_FALSE(u->singleRuntimeArray);
    EXPECT_EQ(u->elementTypeText, "float[N]");
    const KernelBinding* two = findBinding(k, 2);
    EXPECT_TRUE(two->storageBuffer);
    EXPECT_FALSE(two->singleRuntimeArray);
    EXPECT_EQ(two->arrayName, "n"); // the first member
    EXPECT_EQ(two->elementTypeText, "uint");
    const KernelBinding* d = findBinding(k, 3);
    EXPECT_FALSE(d->singleRuntimeArray);
    EXPECT_FALSE(d->elementType.has_value());
    EXPECT_EQ(d->elementTypeText, "double");
    EXPECT_FALSE(findBinding(k, 4)->singleRuntimeArray);
    EXPECT_EQ(findBinding(k, 4)->elementTypeText, "float[N]");
}

// A runtime array of vec2 or vec4 (of 32-bit scalars) is a vector view of the puzzle's scalars:
// its scalars' kind and width, its stride as laid out. A vec3 array is no view (a buffer pads
// each vec3 to 16 bytes); every vector is named as in GLSL for the messages.
TEST(Reflect, VectorViewsWithTheirScalarsWidthsAndStrides) {
    KernelInterface k = reflectSource(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer V { vec4 v[]; };
layout(set = 0, binding = 1) buffer I { ivec2 iv[]; };
layout(set = 0, binding = 2) buffer U { uvec4 uv[]; };
layout(set = 0, binding = 3) buffer T { vec3 t[]; };
layout(std140, set = 0, binding = 4) buffer S { float s[]; };
layout(set = 0, binding = 5) buffer F { float f[]; };
void main() {}
)");
    ASSERT_EQ(k.bindings.size(), 6u);
    const KernelBinding* v = findBinding(k, 0);
    EXPECT_TRUE(v->singleRuntimeArray);
    EXPECT_EQ(v->elementType, ElementKind::Float);
    EXPECT_EQ(v->elementWidth, 4u);
    EXPECT_EQ(v->arrayStride, 16u);
    EXPECT_EQ(v->elementTypeText, "vec4");
    const KernelBinding* iv = findBinding(k, 1);
    EXPECT_TRUE(iv->singleRuntimeArray);
    EXPECT_EQ(iv->elementType, ElementKind::Int);
    EXPECT_EQ(iv->elementWidth, 2u);
    EXPECT_EQ(iv->arrayStride, 8u);
    EXPECT_EQ(iv->elementTypeText, "ivec2");
    EXPECT_EQ(findBinding(k, 2)->elementType, ElementKind::Uint);
    EXPECT_EQ(findBinding(k, 2)->elementWidth, 4u);
    const KernelBinding* t = findBinding(k, 3);
    EXPECT_FALSE(t->singleRuntimeArray);
    EXPECT_FALSE(t->elementType.has_value());
    EXPECT_EQ(t->elementTypeText, "vec3");
    EXPECT_EQ(t->arrayStride, 16u);
    const KernelBinding* s = findBinding(k, 4); // a float array laid out as std140 says
    EXPECT_TRUE(s->singleRuntimeArray);
    EXPECT_EQ(s->elementWidth, 1u);
    EXPECT_EQ(s->arrayStride, 16u);
    EXPECT_EQ(findBinding(k, 5)->arrayStride, 4u);
    EXPECT_EQ(findBinding(k, 5)->elementWidth, 1u);
}

// Two declarations of one binding (a float view and a vec4 view of the same memory) are two
// bindings of the interface, each with its own name and width.
TEST(Reflect, TwoViewsOfOneBindingAreBothListed) {
    KernelInterface k = reflectSource(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 0) buffer A4 { vec4 a4[]; };
void main() { a4[0] = vec4(a[4]); }
)");
    ASSERT_EQ(k.bindings.size(), 2u);
    std::map<std::string, uint32_t> widths;
    for (const KernelBinding& b : k.bindings) {
        EXPECT_EQ(b.binding, 0u);
        EXPECT_TRUE(b.singleRuntimeArray);
        widths[b.arrayName] = b.elementWidth;
    }
    EXPECT_EQ(widths, (std::map<std::string, uint32_t>{{"a", 1}, {"a4", 4}}));
}

TEST(Reflect, LocalSizeFromSpecializationConstants) {
    KernelInterface k = reflectSource(R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 3) const uint SIZE = 1;
layout(set = 0, binding = 0) buffer R { uint result[]; };
void main() { result[gl_GlobalInvocationID.x] = SIZE; }
)");
    EXPECT_TRUE(k.localSizeFromSpec[0]);
    EXPECT_TRUE(k.localSizeFromSpec[1]);
    EXPECT_FALSE(k.localSizeFromSpec[2]);
    EXPECT_EQ(k.localSizeSpecIds[0], 0u);
    EXPECT_EQ(k.localSizeSpecIds[1], 1u);
    EXPECT_FALSE(k.fixedLocalSize[0].has_value());
    EXPECT_FALSE(k.fixedLocalSize[1].has_value());
    EXPECT_EQ(k.fixedLocalSize[2], 1u); // z was not given: a literal 1
    // The workgroup-size ids are not listed as puzzle constants; SIZE is.
    ASSERT_EQ(k.specConstants.size(), 1u);
    EXPECT_EQ(k.specConstants[0].id, 3u);
    EXPECT_EQ(k.specConstants[0].name, "SIZE");
}

TEST(Reflect, MixedSpecAndLiteralLocalSize) {
    KernelInterface k = reflectSource(R"(#version 450
layout(local_size_x_id = 0, local_size_y = 2) in;
void main() {}
)");
    EXPECT_TRUE(k.localSizeFromSpec[0]);
    EXPECT_FALSE(k.localSizeFromSpec[1]);
    EXPECT_EQ(k.fixedLocalSize[1], 2u);
    EXPECT_EQ(k.fixedLocalSize[2], 1u);
    EXPECT_TRUE(k.specConstants.empty());
}

TEST(Reflect, OtherSpecIdsForTheLocalSizeAreReported) {
    KernelInterface k =
        reflectSource("#version 450\nlayout(local_size_x_id = 7) in;\nvoid main() {}\n");
    EXPECT_TRUE(k.localSizeFromSpec[0]);
    EXPECT_EQ(k.localSizeSpecIds[0], 7u);
    EXPECT_TRUE(k.specConstants.empty());
}

TEST(Reflect, FixedLocalSize) {
    KernelInterface k = reflectSource(R"(#version 450
layout(local_size_x = 4) in;
layout(constant_id = 3) const uint SIZE = 1;
layout(constant_id = 4) const int OFFSET = -1;
void main() {}
)");
    EXPECT_EQ(k.fixedLocalSize[0], 4u);
    EXPECT_EQ(k.fixedLocalSize[1], 1u);
    EXPECT_EQ(k.fixedLocalSize[2], 1u);
    for (bool spec : k.localSizeFromSpec)
        EXPECT_FALSE(spec);
    ASSERT_EQ(k.specConstants.size(), 2u);
    auto has = [&](uint32_t id, const std::string& name) {
        return std::any_of(
            k.specConstants.begin(), k.specConstants.end(),
            [&](const KernelSpecConstant& c) { return c.id == id && c.name == name; });
    };
    EXPECT_TRUE(has(3, "SIZE"));
    EXPECT_TRUE(has(4, "OFFSET"));
}

// What tells subgroup sizes apart where a workgroup is one subgroup: gl_SubgroupSize and the masks
// with bits up to it; ids, operations and the masks below a lane do not.
TEST(Reflect, ReadingTheSubgroupSizeOrAMaskSizedByItIsNoted) {
    const std::string head = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n"
                             "#extension GL_KHR_shader_subgroup_arithmetic : require\n"
                             "layout(local_size_x = 64) in;\n"
                             "layout(set = 0, binding = 0) buffer R { uint r[]; };\n";
    auto reads = [&](const std::string& value) {
        return reflectSource(head + "void main() { r[gl_LocalInvocationIndex] = " + value + "; }\n")
            .readsSubgroupSize;
    };
    EXPECT_TRUE(reads("gl_SubgroupSize"));
    EXPECT_TRUE(reads("gl_SubgroupGeMask.x"));
    EXPECT_TRUE(reads("gl_SubgroupGtMask.y"));
    EXPECT_FALSE(reads("subgroupAdd(gl_SubgroupInvocationID) + gl_SubgroupID + gl_NumSubgroups"));
    EXPECT_FALSE(reads("gl_SubgroupLtMask.x + gl_SubgroupLeMask.x + gl_SubgroupEqMask.x"));
    EXPECT_FALSE(reads("subgroupBallot(true).x"));
}

TEST(Reflect, BoolSpecConstantsAreListed) {
    KernelInterface k = reflectSource("#version 450\nlayout(local_size_x = 1) in;\n"
                                      "layout(constant_id = 6) const bool FLAG = true;\n"
                                      "layout(set = 0, binding = 0) buffer R { uint result[]; };\n"
                                      "void main() { if (FLAG) result[0] = 1; }\n");
    ASSERT_EQ(k.specConstants.size(), 1u);
    EXPECT_EQ(k.specConstants[0].id, 6u);
    EXPECT_EQ(k.specConstants[0].name, "FLAG");
}

// ---- SpirvModule on bad input ----

std::vector<uint32_t> header() {
    return {0x07230203, 0x00010500, 0, 10, 0};
}

TEST(SpirvModule, AcceptsABareHeader) {
    auto h = header();
    auto m = SpirvModule::parse(h);
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE(m->instructions().empty());
}

TEST(SpirvModule, RejectsShortInput) {
    std::vector<uint32_t> words = {0x07230203, 0x00010500, 0};
    auto m = SpirvModule::parse(words);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("shorter than its header"), std::string::npos)
        << m.error().message;
    EXPECT_FALSE(SpirvModule::parse(std::span<const uint32_t>()).ok());
}

TEST(SpirvModule, RejectsWrongMagic) {
    auto words = header();
    words[0] = 0x03022307; // byte-swapped
    auto m = SpirvModule::parse(words);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("wrong magic number"), std::string::npos) << m.error().message;
    std::vector<uint32_t> garbage(64, 0xDEADBEEF);
    EXPECT_FALSE(SpirvModule::parse(garbage).ok());
    EXPECT_FALSE(reflectKernel(garbage).ok());
}

TEST(SpirvModule, RejectsTruncatedInstructions) {
    auto longer = header();
    longer.push_back((4u << 16) | 5u); // OpName claiming 4 words, with 1 present
    longer.push_back(1);
    auto m = SpirvModule::parse(longer);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("truncated instruction at word 5"), std::string::npos)
        << m.error().message;
    auto zero = header();
    zero.push_back(0); // a word count of 0 would never advance
    EXPECT_FALSE(SpirvModule::parse(zero).ok());
}

TEST(SpirvModule, RealModuleCutShortIsRejected) {
    Compiler compiler;
    CompileResult r = compiler.compile("#version 450\nlayout(local_size_x = 1) in;\n"
                                       "layout(set = 0, binding = 0) buffer R { uint result[]; };\n"
                                       "void main() { result[0] = 1; }\n",
                                       "k.comp");
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(SpirvModule::parse(r.spirv).ok());
    // The header's OpCapability is 2 words: cutting after its first word truncates it.
    std::span<const uint32_t> cut(r.spirv.data(), 6);
    EXPECT_EQ(r.spirv[5] >> 16, 2u);
    EXPECT_FALSE(SpirvModule::parse(cut).ok());
}

TEST(SpirvModule, NamesAndStrings) {
    // OpName %7 "abcde": 'a','b','c','d' | 'e',0,0,0
    auto words = header();
    words.insert(words.end(), {(4u << 16) | 5u, 7, 0x64636261, 0x00000065});
    auto m = SpirvModule::parse(words);
    ASSERT_TRUE(m.ok());
    ASSERT_EQ(m->instructions().size(), 1u);
    EXPECT_EQ(m->instructions()[0].opcode(), spv::Op::OpName);
    EXPECT_EQ(m->instructions()[0].words().size(), 3u);
    EXPECT_EQ(m->instructions()[0].operand(0),
              7u); // OpName has no result: the target is its first operand
    EXPECT_EQ(m->instructions()[0].literalString(1), "abcde");
    EXPECT_EQ(m->name(7), "abcde");
    EXPECT_EQ(m->name(8), "");
    EXPECT_EQ(m->definition(7), nullptr);
}

// ---- SpirvModule on a real module ----

std::vector<uint32_t> compiledBuffers() {
    Compiler compiler;
    CompileResult r = compiler.compile("#version 450\nlayout(local_size_x = 1) in;\n"
                                       "layout(set = 0, binding = 3) buffer R { uint result[]; };\n"
                                       "void main() { result[0] = 7u; }\n",
                                       "k.comp", {/*debugInfo=*/true});
    EXPECT_TRUE(r.ok());
    return r.spirv;
}

TEST(SpirvModule, OperandAccessorsCountFromAfterTheResult) {
    auto words = compiledBuffers();
    auto m = SpirvModule::parse(words);
    ASSERT_TRUE(m.ok());
    const SpirvInstruction* var = nullptr;
    for (const SpirvInstruction& inst : m->globals)
        if (inst.opcode() == spv::Op::OpVariable &&
            m->decoration(inst.resultId(), spv::Decoration::Binding) == 3u)
            var = &inst;
    ASSERT_NE(var, nullptr);
    EXPECT_EQ(var->operandCount(), 1u); // the storage class, after result type and id
    EXPECT_EQ(var->operand(0), uint32_t(spv::StorageClass::StorageBuffer));
    EXPECT_EQ(var->operand(1), 0u); // past the end reads 0
    EXPECT_EQ(m->typeOf(var->resultId()), var->resultType());
    const SpirvInstruction* pointer = m->definition(var->resultType());
    ASSERT_NE(pointer, nullptr);
    EXPECT_EQ(pointer->opcode(), spv::Op::OpTypePointer);
    EXPECT_EQ(pointer->resultType(), 0u); // a type has a result id, no result type
    EXPECT_EQ(pointer->operand(0), uint32_t(spv::StorageClass::StorageBuffer));
    uint32_t block = pointer->operand(1);
    EXPECT_EQ(m->name(block), "R");
    EXPECT_EQ(m->memberName(block, 0), "result");
    EXPECT_EQ(m->memberDecoration(block, 0, spv::Decoration::Offset).value_or(99), 0u);
    EXPECT_EQ(m->decoration(var->resultId(), spv::Decoration::DescriptorSet).value_or(99), 0u);
    EXPECT_FALSE(m->decoration(var->resultId(), spv::Decoration::BuiltIn).has_value());
    SpirvInstruction* entry = m->entryPoint();
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->literalString(2), "main"); // execution model, function, name
}

TEST(SpirvModule, AssemblesWhatItParsedAndReusesTypesAndConstants) {
    auto words = compiledBuffers();
    auto m = SpirvModule::parse(words);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m->assemble(), words);
    uint32_t u = m->typeUint();
    EXPECT_EQ(m->typeUint(), u);
    EXPECT_TRUE(m->newGlobals.empty()); // the kernel declares uint already
    uint32_t seven = m->constUint(7);
    EXPECT_EQ(m->constUint(7), seven);
    uint32_t big = m->constUint(123456);
    EXPECT_EQ(m->constUint(123456), big);
    ASSERT_EQ(m->newGlobals.size(), 1u); // only the new constant
    EXPECT_EQ(m->typeOf(big), u);
    SpirvInstruction* entry = m->entryPoint();
    ASSERT_NE(entry, nullptr);
    size_t before = entry->operandCount();
    uint32_t var = m->addGlobalVariable(m->typePointer(spv::StorageClass::Private, u),
                                        spv::StorageClass::Private, big);
    m->addToInterface(var);
    m->addToInterface(var);
    EXPECT_EQ(entry->operandCount(), before + 1);
    auto more = m->assemble();
    EXPECT_EQ(more[3], m->newId()); // the bound covers every new id
}

// The families of subgroup operations a kernel uses, each once, with the line of its first use
// (compiled with debug info, as checks compile): what unsupportedUse (check/case_limits.h)
// compares with the device's.
TEST(ReflectSubgroupUses, EachFamilyOnceWithTheLineOfItsFirstUse) {
    static const Compiler compiler;
    const std::string source =
        "#version 450\n"                                                      // 1
        "#extension GL_KHR_shader_subgroup_arithmetic : require\n"            // 2
        "#extension GL_KHR_shader_subgroup_clustered : require\n"             // 3
        "#extension GL_KHR_shader_subgroup_shuffle_relative : require\n"      // 4
        "#extension GL_KHR_shader_subgroup_quad : require\n"                  // 5
        "layout(local_size_x = 8) in;\n"                                      // 6
        "layout(set = 0, binding = 0) buffer R { uint r[]; };\n"              // 7
        "void main() {\n"                                                     // 8
        "  uint x = r[gl_LocalInvocationID.x];\n"                             // 9
        "  uint a = subgroupAdd(x);\n"                                        // 10
        "  uint c = subgroupClusteredAdd(x, 4u);\n"                           // 11
        "  uint u = subgroupShuffleUp(x, 1u);\n"                              // 12
        "  uint b = subgroupInclusiveAdd(x) + subgroupClusteredMax(x, 2u);\n" // 13
        "  uint q = subgroupQuadSwapHorizontal(x);\n"                         // 14
        "  r[gl_LocalInvocationID.x] = a + c + u + b + q;\n"                  // 15
        "}\n";
    CompileResult r = compiler.compile(source, "k.comp", {/*debugInfo=*/true});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    auto k = reflectKernel(r.spirv);
    ASSERT_TRUE(k.ok()) << k.error().str();
    std::vector<std::pair<uint32_t, uint32_t>> uses;
    for (const KernelFeatureUse& u : k->subgroupUses)
        uses.emplace_back(u.feature, u.line);
    EXPECT_EQ(uses, (std::vector<std::pair<uint32_t, uint32_t>>{{kSubgroupArithmetic, 10},
                                                                {kSubgroupClustered, 11},
                                                                {kSubgroupShuffleRelative, 12},
                                                                {kSubgroupQuad, 14},
                                                                {kSubgroupBasic, 0}}));
}

TEST(ReflectSubgroupUses, AKernelWithoutSubgroupsUsesNoneAndOneReadingTheSizeUsesTheBasics) {
    EXPECT_TRUE(reflectSource("#version 450\nlayout(local_size_x = 8) in;\n"
                              "layout(set = 0, binding = 0) buffer R { uint r[]; };\n"
                              "void main() { r[gl_LocalInvocationID.x] = 1u; }\n")
                    .subgroupUses.empty());
    KernelInterface size = reflectSource("#version 450\n"
                                         "#extension GL_KHR_shader_subgroup_basic : require\n"
                                         "layout(local_size_x = 8) in;\n"
                                         "layout(set = 0, binding = 0) buffer R { uint r[]; };\n"
                                         "void main() { r[0] = gl_SubgroupSize; }\n");
    ASSERT_EQ(size.subgroupUses.size(), 1u);
    EXPECT_EQ(size.subgroupUses[0].feature, kSubgroupBasic);
}

// The optional kinds of numbers a kernel uses, each with the line where it first makes one.
TEST(ReflectFeatureUses, DoublesAnd64BitIntegersWithTheLineOfTheirFirstValue) {
    static const Compiler compiler;
    const std::string source =
        "#version 450\n"                                                       // 1
        "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n" // 2
        "layout(local_size_x = 8) in;\n"                                       // 3
        "layout(set = 0, binding = 0) buffer R { uint r[]; };\n"               // 4
        "void main() {\n"                                                      // 5
        "  uint i = gl_LocalInvocationID.x;\n"                                 // 6
        "  uint64_t big = uint64_t(r[i]) << 33;\n"                             // 7
        "  double d = double(r[i]) * 0.5lf;\n"                                 // 8
        "  r[i] = uint(big >> 33) + uint(d);\n"                                // 9
        "}\n";
    CompileResult r = compiler.compile(source, "k.comp", {/*debugInfo=*/true});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    auto k = reflectKernel(r.spirv);
    ASSERT_TRUE(k.ok()) << k.error().str();
    std::map<uint32_t, uint32_t> lines;
    for (const KernelFeatureUse& u : k->numberUses)
        lines[u.feature] = u.line;
    EXPECT_EQ(lines, (std::map<uint32_t, uint32_t>{{kShaderInt64, 7}, {kShaderFloat64, 8}}));
    EXPECT_TRUE(reflectSource("#version 450\nlayout(local_size_x = 8) in;\n"
                              "layout(set = 0, binding = 0) buffer R { uint r[]; };\n"
                              "void main() { r[gl_LocalInvocationID.x] = 1u; }\n")
                    .numberUses.empty());
}

} // namespace
} // namespace vkp
