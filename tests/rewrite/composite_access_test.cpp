// Whole composites in the access log: a load or store of an array, vector, matrix or struct held
// in a traced variable is handed to a recorder function of its type, which records every scalar
// leaf (looping over arrays sized by specialization constants, and over long ones), also for
// OpCopyMemory; the module still validates. The
// records' indices and values on a real device are checked in tests/check/composite_trace_test.
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "puzzle/puzzle_loader.h"
#include "rewrite/instrument.h"
#include "shader/compiler.h"
#include "shader/spirv_module.h"
#include "shader/spirv_tools.h"
#include "support/engines.h"

namespace vkp {
namespace {

using Op = spv::Op;

const std::string kHeader = "#version 450\nlayout(local_size_x = 4) in;\n";

// The instrumented module, split into functions; only validated modules are returned.
struct Instrumented {
    InstrumentResult result;
    SpirvModule module;
    std::map<uint32_t, std::vector<SpirvInstruction>> functions; // function id -> its body
    uint32_t main = 0;
    uint32_t variable(const std::string& name) const {
        for (uint32_t k = 0; k < result.layout.variables.size(); ++k)
            if (result.layout.variables[k].name == name) return k;
        return kTraceVariableNone;
    }
    size_t paramCount(uint32_t function) const {
        size_t n = 0;
        for (const SpirvInstruction& inst : functions.at(function))
            n += inst.opcode() == Op::OpFunctionParameter;
        return n;
    }
    // A composite's recorder: (value of a composite type, base index, w0), as the rewriter builds.
    bool isRecorder(uint32_t function) const {
        std::vector<uint32_t> types;
        for (const SpirvInstruction& inst : functions.at(function))
            if (inst.opcode() == Op::OpFunctionParameter) types.push_back(inst.resultType());
        if (types.size() != 3) return false;
        const SpirvInstruction* value = module.definition(types[0]);
        const SpirvInstruction* base = module.definition(types[1]);
        Op op = value ? value->opcode() : Op::OpNop;
        return (op == Op::OpTypeVector || op == Op::OpTypeMatrix || op == Op::OpTypeArray ||
                op == Op::OpTypeStruct) &&
               types[1] == types[2] && base && base->opcode() == Op::OpTypeInt;
    }
    size_t count(uint32_t function, Op op) const {
        size_t n = 0;
        for (const SpirvInstruction& inst : functions.at(function))
            n += inst.opcode() == op;
        return n;
    }
};

std::optional<Instrumented> instrumentWords(const std::vector<uint32_t>& spirv) {
    auto r = instrumentKernel(spirv);
    EXPECT_TRUE(r.ok()) << r.error().message;
    if (!r.ok()) return std::nullopt;
    Status valid = validateSpirv(r->spirv);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    if (!valid.ok()) return std::nullopt;
    auto module = SpirvModule::parse(r->spirv);
    EXPECT_TRUE(module.ok());
    if (!module.ok()) return std::nullopt;
    Instrumented in{*r, *module, {}, 0};
    in.main = in.module.entryPoint()->operand(1);
    uint32_t current = 0;
    for (const SpirvInstruction& inst : in.module.functions) {
        if (inst.opcode() == Op::OpFunction) current = inst.resultId();
        in.functions[current].push_back(inst);
    }
    return in;
}

std::optional<Instrumented> instrument(const std::string& body) {
    CompileOptions options;
    options.debugInfo = true;
    CompileResult c = Compiler().compile(kHeader + body, "k.comp", options);
    EXPECT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    if (!c.ok()) return std::nullopt;
    return instrumentWords(c.spirv);
}

// A call of a composite's recorder (value, base index, w0) in the kernel's own code.
struct RecorderCall {
    uint32_t recorder = 0, valueType = 0;
    TraceEventKind kind{};
    uint32_t variable = 0, line = 0;
};

std::vector<RecorderCall> recorderCalls(const Instrumented& in) {
    std::vector<RecorderCall> calls;
    for (const SpirvInstruction& inst : in.functions.at(in.main)) {
        if (inst.opcode() != Op::OpFunctionCall || !in.isRecorder(inst.operand(0))) continue;
        uint32_t w0 = in.module.definition(inst.operand(3))->operand(0);
        calls.push_back({inst.operand(0), in.module.typeOf(inst.operand(1)),
                         TraceEventKind(w0 >> 28), (w0 >> kTraceLineBits) & 0xff,
                         lineOfSite(in.result.layout.siteLines,
                                    w0 & ((1u << kTraceLineBits) - 1))}); // w0 names a site
    }
    return calls;
}

// Calls, in a recorder, of record() (4 parameters) and of other recorders (3).
size_t recordCalls(const Instrumented& in, uint32_t function, size_t params) {
    size_t n = 0;
    for (const SpirvInstruction& inst : in.functions.at(function)) {
        if (inst.opcode() != Op::OpFunctionCall) continue;
        uint32_t callee = inst.operand(0);
        n += params == 3 ? in.isRecorder(callee) : in.paramCount(callee) == params;
    }
    return n;
}

TEST(CompositeAccess, ScalarAccessesNeedNoRecorder) {
    auto in = instrument(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float c[4];
void main() {
    uint i = gl_LocalInvocationID.x;
    c[i] = d[i];
    barrier();
    d[i] = c[3u - i];
}
)");
    ASSERT_TRUE(in);
    EXPECT_TRUE(recorderCalls(*in).empty());
    EXPECT_EQ(in->result.accessSites, 4u);
}

// GLSL cannot copy an array sized by a specialization constant whole, but SPIR-V can: this is
// the copy `float tmp[4] = cache; cache = tmp;` compiles to, with cache's length made
// specialization constant 3 and both copies made OpCopyMemory.
const char* kSpecSizedCopies = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %lid %cache %data
               OpExecutionMode %main LocalSize 4 1 1
               OpName %cache "cache"
               OpName %Data "Data"
               OpMemberName %Data 0 "d"
               OpDecorate %lid BuiltIn LocalInvocationId
               OpDecorate %size SpecId 3
               OpDecorate %rt ArrayStride 4
               OpMemberDecorate %Data 0 Offset 0
               OpDecorate %Data Block
               OpDecorate %data DescriptorSet 0
               OpDecorate %data Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %uvec3 = OpTypeVector %uint 3
   %in_uvec3 = OpTypePointer Input %uvec3
        %lid = OpVariable %in_uvec3 Input
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
   %uint_264 = OpConstant %uint 264
    %in_uint = OpTypePointer Input %uint
      %float = OpTypeFloat 32
       %size = OpSpecConstant %uint 4
        %arr = OpTypeArray %float %size
     %wg_arr = OpTypePointer Workgroup %arr
      %cache = OpVariable %wg_arr Workgroup
         %rt = OpTypeRuntimeArray %float
       %Data = OpTypeStruct %rt
     %u_Data = OpTypePointer StorageBuffer %Data
       %data = OpVariable %u_Data StorageBuffer
   %u_float = OpTypePointer StorageBuffer %float
  %wg_float = OpTypePointer Workgroup %float
   %fn_arr = OpTypePointer Function %arr
 %fn_float = OpTypePointer Function %float
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %tmp = OpVariable %fn_arr Function
      %i_ptr = OpAccessChain %in_uint %lid %uint_0
          %i = OpLoad %uint %i_ptr
      %d_ptr = OpAccessChain %u_float %data %uint_0 %i
         %di = OpLoad %float %d_ptr
      %c_ptr = OpAccessChain %wg_float %cache %i
               OpStore %c_ptr %di
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpCopyMemory %tmp %cache
               OpControlBarrier %uint_2 %uint_2 %uint_264
               OpCopyMemory %cache %tmp
     %t0_ptr = OpAccessChain %fn_float %tmp %uint_0
         %t0 = OpLoad %float %t0_ptr
               OpStore %d_ptr %t0
               OpReturn
               OpFunctionEnd
)";

TEST(CompositeAccess, CopiesOfASpecSizedSharedArrayLoopOverEveryElement) {
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2); // SPIR-V 1.5, as the compiler makes
    std::vector<uint32_t> spirv;
    ASSERT_TRUE(tools.Assemble(kSpecSizedCopies, &spirv));
    auto in = instrumentWords(spirv);
    ASSERT_TRUE(in);
    auto calls = recorderCalls(*in);
    ASSERT_EQ(calls.size(), 2u); // tmp is no traced variable: one side of each copy is recorded
    uint32_t cache = in->variable("cache");
    EXPECT_EQ(calls[0].kind, TraceEventKind::Read);
    EXPECT_EQ(calls[0].variable, cache);
    EXPECT_EQ(calls[1].kind, TraceEventKind::Write);
    EXPECT_EQ(calls[1].variable, cache);
    // One recorder for the array type, shared by both sites: a loop recording each element.
    EXPECT_EQ(calls[0].recorder, calls[1].recorder);
    EXPECT_EQ(in->count(calls[0].recorder, Op::OpLoopMerge), 1u);
    EXPECT_EQ(recordCalls(*in, calls[0].recorder, 4), 1u);
    EXPECT_EQ(in->count(in->main, Op::OpCopyMemory), 2u); // the copies themselves still run
    EXPECT_EQ(in->result.accessSites, 5u); // d twice, cache[i], and the two whole copies
}

TEST(CompositeAccess, VectorsInABufferAreRecordedComponentByComponent) {
    auto in = instrument(R"(
layout(set = 0, binding = 0) buffer Data { vec4 d4[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = d4[i];
    d4[i] = v.wzyx;
}
)");
    ASSERT_TRUE(in);
    auto calls = recorderCalls(*in);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0].kind, TraceEventKind::Read);
    EXPECT_EQ(calls[1].kind, TraceEventKind::Write);
    EXPECT_EQ(calls[0].recorder, calls[1].recorder);
    uint32_t vec4 = calls[0].recorder;
    EXPECT_EQ(in->count(vec4, Op::OpLoopMerge), 0u); // literal size: unrolled
    EXPECT_EQ(in->count(vec4, Op::OpCompositeExtract), 4u);
    EXPECT_EQ(recordCalls(*in, vec4, 4), 4u);
}

// A buffer's vector view (issue 53): the layout gives it its scalars' kind and width, beside the
// float view of the same binding, and each scalar of a whole vec4 is recorded as the vector's
// part (packVectorPart), so that the judge counts the load as one request.
TEST(CompositeAccess, AVectorViewOfABufferIsLaidOutByItsScalarsAndWidth) {
    auto in = instrument(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
layout(set = 0, binding = 0) buffer Data4 { vec4 d4[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    d[i] = d4[i].y + d4[i + 1u].w;
    d4[i] = vec4(1.0);
}
)");
    ASSERT_TRUE(in);
    uint32_t d = in->variable("d"), d4 = in->variable("d4");
    ASSERT_NE(d, kTraceVariableNone);
    ASSERT_NE(d4, kTraceVariableNone);
    const TracedVariable& scalar = in->result.layout.variables[d];
    const TracedVariable& vector = in->result.layout.variables[d4];
    EXPECT_EQ(scalar.elementWidth, 1u);
    EXPECT_EQ(vector.elementWidth, 4u);
    EXPECT_EQ(vector.elementType, ElementKind::Float);
    EXPECT_FALSE(vector.shared);
    EXPECT_EQ(vector.binding, scalar.binding);
    // The components read one at a time are plain records; the whole store is one recorder call
    // whose four records say which part of a vec4 each scalar is.
    auto calls = recorderCalls(*in);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].kind, TraceEventKind::Write);
    EXPECT_EQ(calls[0].variable, d4);
    std::set<uint32_t> extras;
    for (const SpirvInstruction& inst : in->functions.at(calls[0].recorder))
        if (inst.opcode() == Op::OpFunctionCall && in->paramCount(inst.operand(0)) == 4)
            extras.insert(in->module.definition(inst.operand(4))->operand(0)); // (w0, i, v, extra)
    EXPECT_EQ(extras, (std::set<uint32_t>{packVectorPart(4, 0), packVectorPart(4, 1),
                                          packVectorPart(4, 2), packVectorPart(4, 3)}));
    EXPECT_EQ(in->result.accessSites, 4u); // two component reads, the store of d, the vec4 store
}

TEST(CompositeAccess, ARowOfATwoDimensionalSharedArrayIsUnrolled) {
    auto in = instrument(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float tile[4][8];
void main() {
    uint r = gl_LocalInvocationID.x;
    float row[8];
    for (int k = 0; k < 8; ++k) row[k] = d[r * 8u + uint(k)];
    tile[r] = row;
    barrier();
    float other[8] = tile[3u - r];
    d[r] = other[r];
}
)");
    ASSERT_TRUE(in);
    auto calls = recorderCalls(*in);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[0].kind, TraceEventKind::Write);
    EXPECT_EQ(calls[0].line, 10u); // tile[r] = row;
    EXPECT_EQ(calls[1].kind, TraceEventKind::Read);
    EXPECT_EQ(calls[1].line, 12u); // float other[8] = tile[3u - r];
    EXPECT_EQ(in->count(calls[0].recorder, Op::OpLoopMerge), 0u);
    EXPECT_EQ(recordCalls(*in, calls[0].recorder, 4), 8u);
}

TEST(CompositeAccess, LongLiteralArraysLoopInsteadOfUnrolling) {
    auto in = instrument(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float big[256];
void main() {
    uint i = gl_LocalInvocationID.x;
    big[i] = d[i];
    barrier();
    float copy[256] = big;
    d[i] = copy[255u - i];
}
)");
    ASSERT_TRUE(in);
    auto calls = recorderCalls(*in);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(in->count(calls[0].recorder, Op::OpLoopMerge), 1u);
}

TEST(CompositeAccess, LongArraysOfABufferAreUnrolledNotCopiedToAFunctionVariable) {
    auto in = instrument(R"(
struct Histogram { uint bins[100]; };
layout(set = 0, binding = 0) buffer Hs { Histogram hs[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Histogram h = hs[i];
    hs[i + 1u] = h;
}
)");
    ASSERT_TRUE(in);
    auto calls = recorderCalls(*in);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(recordCalls(*in, calls[0].recorder, 3), 1u); // the struct's one member, bins
    size_t loops = 0, records = 0;
    for (const auto& [id, body] : in->functions)
        if (in->isRecorder(id)) {
            loops += in->count(id, Op::OpLoopMerge);
            records += recordCalls(*in, id, 4);
        }
    EXPECT_EQ(loops, 0u);
    EXPECT_EQ(records, 100u);
}

TEST(CompositeAccess, StructsMatricesAndNestedArraysGoThroughEachOthersRecorders) {
    auto in = instrument(R"(
struct Particle { vec2 pos; float w; float hist[3]; };
layout(set = 0, binding = 0) buffer Ps { Particle ps[]; };
layout(set = 0, binding = 1) buffer Ms { mat2 ms[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Particle p = ps[i];
    p.w += 1.0;
    ps[i] = p;
    mat2 m = ms[i];
    ms[i] = m * 2.0;
}
)");
    ASSERT_TRUE(in);
    auto calls = recorderCalls(*in);
    ASSERT_EQ(calls.size(), 4u);
    uint32_t particle = calls[0].recorder, mat = calls[2].recorder;
    EXPECT_EQ(recordCalls(*in, particle, 4), 1u); // w
    EXPECT_EQ(recordCalls(*in, particle, 3), 2u); // pos (vec2) and hist (float[3])
    EXPECT_EQ(recordCalls(*in, mat, 3), 2u);      // two columns, each a vec2
    EXPECT_EQ(calls[2].variable, in->variable("ms"));
}

// The official kernels move only scalars of traced memory, so their traces are what they were
// before composites were recorded: no recorder is called anywhere in them. The exceptions are by
// design: Matmul, 32 cells per thread and Attention, register-tiled read and write whole vec4
// elements of their tiles, FFT whole vec2 complex numbers, and their solutions must call one
// (their starters touch no such tile).
TEST(CompositeAccess, OnlyTheVectorTileSolutionsCallARecorder) {
    const std::set<std::string> movesVectors = {"matmul-items", "attention-tiled", "fft"};
    PuzzleSet set = loadPuzzleSet(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles");
    ASSERT_FALSE(set.puzzles.empty());
    size_t kernels = 0, vectorKernels = 0;
    for (const Puzzle& p : set.puzzles)
        for (const KernelDecl& k : p.kernels)
            for (const std::string& path : {k.solutionPath, k.starterPath}) {
                if (!test::forEveryDevice(p)) continue;
                auto src = readTextFile(path);
                ASSERT_TRUE(src.ok()) << path;
                CompileResult c = Compiler().compile(*src, path, {/*debugInfo=*/true});
                ASSERT_TRUE(c.ok()) << path;
                auto in = instrumentWords(c.spirv);
                ASSERT_TRUE(in) << path;
                size_t calls = 0;
                for (const auto& [id, body] : in->functions)
                    for (const SpirvInstruction& inst : body)
                        if (inst.opcode() == Op::OpFunctionCall && in->isRecorder(inst.operand(0)))
                            ++calls;
                bool vectors = movesVectors.count(p.slug) && path == k.solutionPath;
                if (vectors) {
                    EXPECT_GT(calls, 0u) << path;
                    ++vectorKernels;
                } else {
                    EXPECT_EQ(calls, 0u) << path;
                }
                ++kernels;
            }
    EXPECT_GT(kernels, 40u);
    EXPECT_EQ(vectorKernels, movesVectors.size());
}

} // namespace
} // namespace vkp
