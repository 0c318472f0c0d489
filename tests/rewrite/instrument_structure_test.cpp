// The instrumentation rewriters on small kernels: the layout it reports (buffers, shared arrays and
// their sizes as SizeExprs), how many access sites and loops it instruments, and that control
// flow of every common shape still validates afterwards.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shader/compiler.h"
#include <spirv/unified1/spirv.hpp11>

#include "rewrite/instrument.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

const std::string kHeader = "#version 450\nlayout(local_size_x = 4) in;\n";

std::vector<uint32_t> compileDebug(const std::string& body) {
    CompileOptions options;
    options.debugInfo = true;
    CompileResult r = Compiler().compile(kHeader + body, "k.comp", options);
    EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    return r.spirv;
}

// Compiles and instruments; the instrumented words must validate.
InstrumentResult instrumentValid(const std::string& body, const InstrumentOptions& options = {}) {
    std::vector<uint32_t> spirv = compileDebug(body);
    if (spirv.empty()) return {};
    auto r = instrumentKernel(spirv, options);
    EXPECT_TRUE(r.ok()) << r.error().message;
    if (!r.ok()) return {};
    Status valid = validateSpirv(r->spirv);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    return *r;
}

const TracedVariable* find(const TraceLayout& layout, const std::string& name) {
    for (const TracedVariable& v : layout.variables)
        if (v.name == name) return &v;
    return nullptr;
}

const std::string kMap = R"(
layout(set = 0, binding = 0) readonly buffer In { float a[]; };
layout(set = 0, binding = 2) writeonly buffer Out { int b[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = int(a[i] * 2.0);
}
)";

TEST(InstrumentStructure, LayoutListsBuffersWithSetBindingNameAndType) {
    InstrumentResult r = instrumentValid(kMap);
    ASSERT_EQ(r.layout.variables.size(), 2u);
    const TracedVariable* a = find(r.layout, "a");
    const TracedVariable* b = find(r.layout, "b");
    ASSERT_TRUE(a && b);
    EXPECT_FALSE(a->shared);
    EXPECT_EQ(a->set, 0u);
    EXPECT_EQ(a->binding, 0u);
    EXPECT_EQ(a->elementType, ElementKind::Float);
    EXPECT_TRUE(a->dims.empty());
    EXPECT_EQ(b->binding, 2u);
    EXPECT_EQ(b->elementType, ElementKind::Int);
    EXPECT_EQ(r.accessSites, 2u); // one load, one store
    EXPECT_EQ(r.loopsGuarded, 0u);
    EXPECT_EQ(r.layout.traceSet, 1u);
    EXPECT_EQ(r.layout.traceBinding, 0u);
}

TEST(InstrumentStructure, TraceBindingComesFromTheOptions) {
    InstrumentOptions o;
    o.traceSet = 2;
    o.traceBinding = 5;
    InstrumentResult r = instrumentValid(kMap, o);
    EXPECT_EQ(r.layout.traceSet, 2u);
    EXPECT_EQ(r.layout.traceBinding, 5u);
}

TEST(InstrumentStructure, UintBufferAndReadWriteSites) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 1) buffer Data { uint d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    d[i] = d[i] + d[i + 1u];
}
)");
    ASSERT_EQ(r.layout.variables.size(), 1u);
    EXPECT_EQ(r.layout.variables[0].name, "d");
    EXPECT_EQ(r.layout.variables[0].binding, 1u);
    EXPECT_EQ(r.layout.variables[0].elementType, ElementKind::Uint);
    EXPECT_EQ(r.accessSites, 3u); // two loads, one store
}

TEST(InstrumentStructure, SpecConstantSizedSharedArray) {
    InstrumentResult r = instrumentValid(R"(
layout(constant_id = 3) const uint SIZE = 16;
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float c[SIZE];
void main() {
    uint i = gl_LocalInvocationID.x;
    c[i] = d[i];
    barrier();
    d[i] = c[(i + 1u) % 4u];
}
)");
    const TracedVariable* c = find(r.layout, "c");
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->shared);
    EXPECT_EQ(c->elementType, ElementKind::Float);
    ASSERT_EQ(c->dims.size(), 1u);
    EXPECT_EQ(c->dims[0].kind, SizeExpr::Kind::Spec);
    EXPECT_EQ(c->dims[0].specId, 3u);
    EXPECT_EQ(c->dims[0].value, 16u);
    EXPECT_EQ(c->dims[0].evaluate({}), 16u);
    EXPECT_EQ(c->dims[0].evaluate({{3, 64}}), 64u);
    EXPECT_EQ(r.accessSites, 4u); // barriers are recorded but are not access sites
}

TEST(InstrumentStructure, SpecConstantArithmeticSizedSharedArray) {
    InstrumentResult r = instrumentValid(R"(
layout(constant_id = 3) const uint SIZE = 16;
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float c[SIZE * 2u + 1u];
void main() {
    c[gl_LocalInvocationID.x] = 1.0;
    barrier();
    d[gl_LocalInvocationID.x] = c[0];
}
)");
    const TracedVariable* c = find(r.layout, "c");
    ASSERT_TRUE(c);
    ASSERT_EQ(c->dims.size(), 1u);
    EXPECT_EQ(c->dims[0].kind, SizeExpr::Kind::Add);
    EXPECT_EQ(c->dims[0].evaluate({}), 33u);
    EXPECT_EQ(c->dims[0].evaluate({{3, 5}}), 11u);
}

// Radix sorts size their arrays by digits: 1u << BITS, LAPS = 32u / BITS, masks, remainders.
TEST(InstrumentStructure, ShiftsMasksAndRemaindersSizeSharedArrays) {
    InstrumentResult r = instrumentValid(R"(
layout(constant_id = 3) const uint BITS = 4;
layout(set = 0, binding = 0) buffer Data { uint d[]; };
const uint DIGITS = 1u << BITS;
shared uint counts[(32u / BITS) * DIGITS];
shared uint top[(DIGITS >> 1u) + (BITS % 3u)];
shared uint masked[(DIGITS | 1u) ^ (BITS & 2u)];
void main() {
    uint t = gl_LocalInvocationID.x;
    counts[t] = 1u;
    top[t] = 2u;
    masked[t] = 3u;
    barrier();
    d[t] = counts[0] + top[0] + masked[0];
}
)");
    const TracedVariable* counts = find(r.layout, "counts");
    const TracedVariable* top = find(r.layout, "top");
    const TracedVariable* masked = find(r.layout, "masked");
    ASSERT_TRUE(counts && top && masked);
    EXPECT_TRUE(counts->dims[0].known());
    EXPECT_EQ(counts->dims[0].evaluate({}), 8u * 16u);
    EXPECT_EQ(counts->dims[0].evaluate({{3, 8}}), 4u * 256u);
    EXPECT_EQ(counts->dims[0].evaluate({{3, 1}}), 32u * 2u);
    EXPECT_EQ(top->dims[0].evaluate({}), 8u + 1u);
    EXPECT_EQ(top->dims[0].evaluate({{3, 2}}), 2u + 2u);
    EXPECT_EQ(masked->dims[0].evaluate({}), (16u | 1u) ^ 0u);
    EXPECT_EQ(masked->dims[0].evaluate({{3, 2}}), (4u | 1u) ^ 2u);
}

// A length built from an operation the reflection does not model is unknown, not zero: no check
// may then call the array empty.
TEST(InstrumentStructure, ASelectSizedSharedArrayIsUnknownNotEmpty) {
    InstrumentResult r = instrumentValid(R"(
layout(constant_id = 3) const uint SIZE = 16;
layout(set = 0, binding = 0) buffer Data { uint d[]; };
shared uint c[SIZE > 8u ? SIZE : 8u];
void main() {
    c[gl_LocalInvocationID.x] = 1u;
    barrier();
    d[gl_LocalInvocationID.x] = c[0];
}
)");
    const TracedVariable* c = find(r.layout, "c");
    ASSERT_TRUE(c);
    ASSERT_EQ(c->dims.size(), 1u);
    EXPECT_FALSE(c->dims[0].known());
}

TEST(InstrumentStructure, TwoDimensionalSharedArrayHasTwoLiteralDims) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { int d[]; };
shared int t[4][3];
void main() {
    uint i = gl_LocalInvocationID.x;
    for (uint j = 0u; j < 3u; ++j) t[i][j] = d[i * 3u + j];
    barrier();
    d[i] = t[3u - i][1];
}
)");
    const TracedVariable* t = find(r.layout, "t");
    ASSERT_TRUE(t);
    EXPECT_TRUE(t->shared);
    EXPECT_EQ(t->elementType, ElementKind::Int);
    ASSERT_EQ(t->dims.size(), 2u);
    EXPECT_EQ(t->dims[0].kind, SizeExpr::Kind::Literal);
    EXPECT_EQ(t->dims[0].value, 4u); // outermost first
    EXPECT_EQ(t->dims[1].kind, SizeExpr::Kind::Literal);
    EXPECT_EQ(t->dims[1].value, 3u);
    EXPECT_EQ(r.loopsGuarded, 1u);
}

const std::string kLoop = R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
void main() {
    float acc = 0.0;
    for (uint k = 0u; k < 8u; ++k) acc += d[k];
    d[gl_GlobalInvocationID.x] = acc;
}
)";

TEST(InstrumentStructure, OneForLoopIsGuarded) {
    InstrumentResult r = instrumentValid(kLoop);
    EXPECT_EQ(r.loopsGuarded, 1u);
    EXPECT_EQ(r.accessSites, 2u);
}

TEST(InstrumentStructure, LoopBudgetOffGuardsNothing) {
    InstrumentOptions o;
    o.loopBudget = false;
    InstrumentResult on = instrumentValid(kLoop);
    InstrumentResult off = instrumentValid(kLoop, o);
    EXPECT_EQ(off.loopsGuarded, 0u);
    EXPECT_EQ(off.accessSites, 2u); // accesses are traced either way
    EXPECT_LT(off.spirv.size(), on.spirv.size());
}

// Counted as lavapipe counts (subgroupLoopCount): each back-edge takes the subgroup's most, so
// the module needs subgroup arithmetic, and each loop's merge block counts the pass that ended
// the loop (a load, an add and a store more per loop). The rest is as before, traced or guarded,
// and it validates; without the option no subgroup operation appears.
TEST(InstrumentStructure, CountingPerSubgroupTakesTheSubgroupsMostAndCountsEachExit) {
    const std::string nested = R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
void main() {
    float acc = 0.0;
    for (uint i = 0u; i < 4u; ++i) {
        for (uint j = 0u; j < i; ++j) acc += d[j];
    }
    d[gl_GlobalInvocationID.x] = acc;
}
)";
    auto hasWord = [](const std::vector<uint32_t>& words, spv::Op op) {
        for (size_t k = 5; k < words.size();) { // the header is 5 words
            uint32_t count = words[k] >> 16;
            if ((words[k] & 0xffffu) == uint32_t(op)) return true;
            k += count ? count : 1;
        }
        return false;
    };
    InstrumentOptions lockstep;
    lockstep.subgroupLoopCount = true;
    InstrumentResult plain = instrumentValid(nested);
    InstrumentResult counted = instrumentValid(nested, lockstep);
    EXPECT_EQ(counted.loopsGuarded, plain.loopsGuarded);
    EXPECT_EQ(counted.accessSites, plain.accessSites);
    EXPECT_FALSE(hasWord(plain.spirv, spv::Op::OpGroupNonUniformUMax));
    EXPECT_TRUE(hasWord(counted.spirv, spv::Op::OpGroupNonUniformUMax));
    EXPECT_GT(counted.spirv.size(), plain.spirv.size());
    std::vector<uint32_t> spirv = compileDebug(nested);
    auto guarded = guardKernel(spirv, 100, lockstep);
    ASSERT_TRUE(guarded.ok()) << guarded.error().message;
    EXPECT_TRUE(validateSpirv(guarded->spirv).ok());
    EXPECT_TRUE(hasWord(guarded->spirv, spv::Op::OpGroupNonUniformUMax));
}

TEST(InstrumentStructure, InstrumentingAddsWordsAndKeepsTheHeader) {
    std::vector<uint32_t> plain = compileDebug(kMap);
    auto r = instrumentKernel(plain);
    ASSERT_TRUE(r.ok());
    ASSERT_GT(r->spirv.size(), plain.size());
    EXPECT_EQ(r->spirv[0], plain[0]); // magic
    EXPECT_EQ(r->spirv[1], plain[1]); // version
    EXPECT_GT(r->spirv[3], plain[3]); // a larger id bound
}

TEST(InstrumentStructure, NotSpirvIsAnError) {
    std::vector<uint32_t> junk = {1, 2, 3, 4, 5, 6};
    EXPECT_FALSE(instrumentKernel(junk).ok());
    EXPECT_FALSE(validateSpirv(junk).ok());
}

TEST(InstrumentStructure, ValidatesWithoutDebugInfo) {
    CompileResult c = Compiler().compile(kHeader + kLoop, "k.comp");
    ASSERT_TRUE(c.ok());
    auto r = instrumentKernel(c.spirv);
    ASSERT_TRUE(r.ok()) << r.error().message;
    Status valid = validateSpirv(r->spirv);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    EXPECT_EQ(r->loopsGuarded, 1u);
}

// --- control-flow shapes -------------------------------------------------------------------------

TEST(InstrumentStructure, DoWhileLoop) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { uint d[]; };
void main() {
    uint k = 0u;
    do {
        d[k] += 1u;
        k++;
    } while (k < d[0]);
}
)");
    EXPECT_EQ(r.loopsGuarded, 1u);
    EXPECT_GE(r.accessSites, 3u);
}

TEST(InstrumentStructure, WhileTrueWithBreak) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { uint d[]; };
void main() {
    uint k = gl_GlobalInvocationID.x;
    while (true) {
        if (d[k] == 0u) break;
        k = d[k];
    }
    d[gl_GlobalInvocationID.x] = k;
}
)");
    EXPECT_EQ(r.loopsGuarded, 1u);
    EXPECT_EQ(r.accessSites, 3u);
}

TEST(InstrumentStructure, NestedLoopsWithContinue) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
void main() {
    float acc = 0.0;
    for (uint i = 0u; i < 4u; ++i) {
        for (uint j = 0u; j < 4u; ++j) {
            if (j == i) continue;
            acc += d[i * 4u + j];
        }
    }
    d[gl_GlobalInvocationID.x] = acc;
}
)");
    EXPECT_EQ(r.loopsGuarded, 2u);
}

TEST(InstrumentStructure, LoopWithPhiAtTheMerge) {
    // Short-circuit conditions make glslang emit OpPhi; the guard adds a predecessor to the merge.
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { uint d[]; };
void main() {
    uint k = 0u;
    while (k < 16u && d[k] != 0u) ++k;
    d[gl_GlobalInvocationID.x] = k;
}
)");
    EXPECT_EQ(r.loopsGuarded, 1u);
}

TEST(InstrumentStructure, SharedAccessInsideAHelperFunction) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float s[4];
float neighbour(uint i) { return s[(i + 1u) % 4u]; }
void store(uint i, float v) { s[i] = v; }
void main() {
    uint i = gl_LocalInvocationID.x;
    store(i, d[i]);
    barrier();
    d[i] = neighbour(i);
}
)");
    const TracedVariable* s = find(r.layout, "s");
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->shared);
    EXPECT_EQ(r.accessSites, 4u); // d[i] load, s store (helper), s load (helper), d store
}

TEST(InstrumentStructure, AtomicAddOnABuffer) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Counter { uint count[]; };
void main() {
    uint old = atomicAdd(count[0], 1u);
    if (old == 0u) atomicMax(count[1], gl_GlobalInvocationID.x);
}
)");
    EXPECT_EQ(r.accessSites, 2u);
}

TEST(InstrumentStructure, AtomicsOnSharedInts) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { int d[]; };
shared int total;
void main() {
    if (gl_LocalInvocationIndex == 0u) total = 0;
    barrier();
    atomicAdd(total, d[gl_LocalInvocationIndex]);
    atomicCompSwap(total, 5, 6);
    barrier();
    d[gl_LocalInvocationIndex] = atomicExchange(total, total);
}
)");
    const TracedVariable* total = find(r.layout, "total");
    ASSERT_TRUE(total);
    EXPECT_TRUE(total->dims.empty()); // a scalar
    EXPECT_EQ(total->elementType, ElementKind::Int);
}

TEST(InstrumentStructure, BoolStoredToSharedMemory) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared bool flags[4];
void main() {
    uint i = gl_LocalInvocationID.x;
    flags[i] = d[i] > 0.0;
    barrier();
    d[i] = flags[(i + 1u) % 4u] ? 1.0 : 0.0;
}
)");
    const TracedVariable* flags = find(r.layout, "flags");
    ASSERT_TRUE(flags);
    EXPECT_FALSE(flags->elementType.has_value()); // not a 32-bit scalar
    EXPECT_EQ(r.accessSites, 4u);
}

TEST(InstrumentStructure, VectorsAndStructsInBuffers) {
    InstrumentResult r = instrumentValid(R"(
struct P { vec2 pos; float w; };
layout(set = 0, binding = 0) buffer Points { P p[]; };
layout(set = 0, binding = 1) buffer V { vec4 v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    v[i].y = p[i].pos.x * p[i].w;
    v[i] = v[i] * 2.0;
}
)");
    EXPECT_EQ(r.layout.variables.size(), 2u);
    EXPECT_EQ(r.accessSites, 5u);
}

TEST(InstrumentStructure, SwitchAndEarlyReturnInsideALoop) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { int d[]; };
void main() {
    for (int k = 0; k < 8; ++k) {
        switch (d[k]) {
        case 0: return;
        case 1: d[k] = 2; break;
        default: d[k] = 3;
        }
    }
}
)");
    EXPECT_EQ(r.loopsGuarded, 1u);
}

TEST(InstrumentStructure, SharedMemoryBarrierAndMemoryBarriers) {
    InstrumentResult r = instrumentValid(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float s[4];
void main() {
    uint i = gl_LocalInvocationID.x;
    s[i] = d[i];
    memoryBarrierShared();
    barrier();
    d[i] = s[3u - i];
}
)");
    EXPECT_EQ(r.accessSites, 4u);
}

// glslang's optimiser rewrites loops (phis at merges, single-block loops); the rewriters must cope.
// (Traced runs compile without optimisation today; instrumentKernel does not require it.)
Status instrumentOptimised(const std::string& body) {
    CompileOptions options;
    options.debugInfo = true;
    options.optimize = true;
    CompileResult c = Compiler().compile(kHeader + body, "k.comp", options);
    EXPECT_TRUE(c.ok()) << body;
    if (!c.ok()) return Error{ErrorKind::Compile, "does not compile"};
    auto r = instrumentKernel(c.spirv);
    if (!r.ok()) return r.error();
    EXPECT_GT(r->accessSites, 0u);
    return validateSpirv(r->spirv);
}

TEST(InstrumentStructure, OptimisedForLoopValidates) {
    // The bound comes from the buffer, so the optimiser cannot unroll the loop away.
    Status s = instrumentOptimised(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
void main() {
    float acc = 0.0;
    for (uint k = 1u; k < uint(d[0]); ++k) acc += d[k];
    d[gl_GlobalInvocationID.x] = acc;
}
)");
    EXPECT_TRUE(s.ok()) << s.error().message;
}

TEST(InstrumentStructure, OptimisedWhileTrueWithBreakValidates) {
    Status s = instrumentOptimised(R"(
layout(set = 0, binding = 0) buffer Data { uint d[]; };
void main() {
    uint j = gl_GlobalInvocationID.x;
    while (true) { if (d[j] == 0u) break; j = d[j]; }
    d[gl_GlobalInvocationID.x] = j;
}
)");
    EXPECT_TRUE(s.ok()) << s.error().message;
}

TEST(InstrumentStructure, OptimisedShortCircuitLoopValidates) {
    Status s = instrumentOptimised(R"(
layout(set = 0, binding = 0) buffer Data { uint d[]; };
void main() {
    uint n = 0u;
    while (n < 16u && d[n] != 0u) ++n;
    d[gl_GlobalInvocationID.x] = n;
}
)");
    EXPECT_TRUE(s.ok()) << s.error().message;
}

TEST(InstrumentStructure, OptimisedNestedLoopsAndHelperValidate) {
    Status s = instrumentOptimised(R"(
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float s[4][4];
float sum(uint row) { float a = 0.0; for (uint c = 0u; c < 4u; ++c) a += s[row][c]; return a; }
void main() {
    uint i = gl_LocalInvocationID.x;
    for (uint c = 0u; c < 4u; ++c) s[i][c] = d[i * 4u + c];
    barrier();
    float acc = 0.0;
    for (uint r = 0u; r < 4u; ++r) { if (r == i) continue; acc += sum(r); }
    d[i] = acc;
}
)");
    EXPECT_TRUE(s.ok()) << s.error().message;
}

TEST(InstrumentStructure, OptimisedSingleBlockDoWhileValidates) {
    // With -O, glslang turns this do-while into one block that is its own loop header, continue
    // target and back-edge block: OpLoopMerge %merge %self, then OpBranchConditional %c %self
    // %merge.
    Status s = instrumentOptimised(R"(
layout(set = 0, binding = 0) buffer Data { uint d[]; };
void main() {
    uint k = 0u;
    do { d[k] += 1u; k++; } while (k < d[0]);
}
)");
    // The budget check must go before OpLoopMerge, which has to stay right before the branch.
    EXPECT_TRUE(s.ok()) << s.error().message;
}

} // namespace
} // namespace vkp
