#include <gtest/gtest.h>

#include "check/check.h"
#include "gpu/context.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "support/test_env.h"

namespace vkp {
namespace {

const char* kPuzzle = R"(
title = "Scale"
track = "test"
order = 1
statement = "result[i] = a[i] + 10"
hints = ["one", "two"]
[[buffers]]
name = "a"
binding = 0
type = "int"
role = "input"
[[buffers]]
name = "result"
binding = 1
type = "int"
role = "output"
[[cases]]
workgroup_size = [4]
workgroups = [2]
inputs.a = { shape = [7], values = [3, -1, 4, 1, -5, 9, 2] }
expected.result = { op = "add_scalar", args = ["a"], scalar = 10 }
[[cases]]
workgroup_size = [8]
workgroups = [1]
inputs.a = { shape = [5], fill = "iota", start = -2 }
expected.result = { op = "add_scalar", args = ["a"], scalar = 10 }
)";

const char* kGood = R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(a.length())) result[i] = a[i] + 10;
}
)";

class CheckTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        auto ctx = GpuContext::create(test::deviceOptions());
        ASSERT_TRUE(ctx.ok()) << ctx.error().str();
        s_gpu = std::move(*ctx).release();
    }
    static void TearDownTestSuite() { delete s_gpu; }
    void SetUp() override {
        auto p = parsePuzzle(kPuzzle, "scale.toml", "/tmp/01-scale");
        ASSERT_TRUE(p.ok()) << p.error().str();
        m_puzzle = *p;
    }
    CheckReport check(const std::string& src, CheckOptions o = {}) {
        return checkKernel(m_compiler, *s_gpu, m_puzzle, src, "k.comp", o);
    }
    static inline GpuContext* s_gpu = nullptr;
    Compiler m_compiler;
    Puzzle m_puzzle;
};

TEST_F(CheckTest, CorrectKernelPassesWithOutputsAndTimings) {
    CheckReport r = check(kGood);
    ASSERT_TRUE(r.allPass());
    ASSERT_EQ(r.cases.size(), 2u);
    const BufferOutcome& o = r.cases[0].outputs.at(0);
    EXPECT_EQ(o.actual.get(4), 5); // -5 + 10
    EXPECT_EQ(o.expected.get(4), 5);
    EXPECT_EQ(r.cases[1].outputs[0].actual.get(0), 8); // iota from -2
    EXPECT_GT(r.timing.compileMs, 0);
    EXPECT_GT(r.timing.pipelineMs, 0);
    EXPECT_GE(r.timing.totalMs, r.timing.compileMs + r.timing.pipelineMs);
}

TEST_F(CheckTest, WrongKernelReportsTheMismatchingCells) {
    std::string bad = kGood;
    bad.replace(bad.find("+ 10"), 4, "+ 11");
    CheckReport r = check(bad);
    EXPECT_FALSE(r.allPass());
    EXPECT_EQ(r.reached, StageKind::Done);
    const BufferComparison& v = r.cases[0].outputs[0].comparison;
    EXPECT_EQ(v.mismatchCount, 7u);
    EXPECT_EQ(v.mismatches[0].index, 0u);
    EXPECT_EQ(v.mismatches[0].expected, 13);
    EXPECT_EQ(v.mismatches[0].actual, 14);
}

TEST_F(CheckTest, CompileErrorsStopBeforeTheDevice) {
    std::string bad = kGood;
    bad.replace(bad.find("a[i] + 10"), 9, "a[i] + nope");
    CheckReport r = check(bad);
    EXPECT_FALSE(r.compiled());
    EXPECT_TRUE(r.cases.empty());
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 7);
    EXPECT_NE(r.diagnostics[0].message.find("nope"), std::string::npos);
}

TEST_F(CheckTest, InterfaceErrorsStopBeforeTheDevice) {
    std::string bad = kGood;
    bad.replace(bad.find("int result[]"), 12, "float result[]");
    bad.replace(bad.find("a[i] + 10"), 9, "float(a[i] + 10)");
    CheckReport r = check(bad);
    EXPECT_TRUE(r.compiled());
    EXPECT_EQ(r.reached, StageKind::Interface);
    EXPECT_TRUE(r.cases.empty());
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].line, 4);
    EXPECT_NE(r.diagnostics[0].message.find("binding 1"), std::string::npos);
}

TEST_F(CheckTest, OnlyOneCaseWhenAsked) {
    CheckOptions o;
    o.onlyCase = 1;
    CheckReport r = check(kGood, o);
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_EQ(r.cases[0].index, 1u);
    EXPECT_TRUE(r.allPass());
    o.onlyCase = 5;
    r = check(kGood, o);
    ASSERT_TRUE(r.error.has_value());
    EXPECT_EQ(r.error->kind, ErrorKind::Usage);
}

TEST_F(CheckTest, ExpectedValuesDoNotDependOnTheKernel) {
    // The expected output of a starter that writes nothing is still the reference op's.
    std::string empty = kGood;
    empty.replace(empty.find("if (i < uint(a.length())) result[i] = a[i] + 10;"), 49, "");
    CheckReport r = check(empty);
    ASSERT_EQ(r.reached, StageKind::Done);
    EXPECT_EQ(r.passCount(), 0u);
    EXPECT_EQ(r.cases[0].outputs[0].expected.get(0), 13);
    EXPECT_EQ(r.cases[0].outputs[0].actual.format(0), "unwritten"); // the poison it started with
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

TEST(SharedMemoryLimit, AKernelNeedingMoreSharedMemoryThanTheDeviceHasStopsBeforeRunning) {
    auto ctx = GpuContext::create(test::deviceOptions());
    ASSERT_TRUE(ctx.ok());
    PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    auto p = set.find("shared");
    ASSERT_TRUE(p.ok());
    uint32_t limit = (*ctx)->info().maxSharedMemoryBytes;
    // One array of exactly the limit, plus the puzzle's cache: over by the cache's bytes.
    std::string src =
        "#version 450\nlayout(local_size_x_id = 0) in;\nlayout(constant_id = 3) const uint "
        "SHARED_SIZE = 1;\n"
        "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
        "layout(set = 0, binding = 1) buffer Result { float result[]; };\n"
        "shared float cache[SHARED_SIZE];\nshared uint extra[" +
        std::to_string(limit / 4) +
        "];\n"
        "void main() { uint i = gl_LocalInvocationID.x; extra[i] = 1u; cache[i] = a[i]; barrier();"
        " result[i] = cache[i] + 10.0; }\n";
    Compiler compiler;
    CheckReport r = checkKernel(compiler, **ctx, **p, src, "big.comp");
    ASSERT_TRUE(r.error.has_value());
    EXPECT_EQ(r.error->kind, ErrorKind::Interface);
    EXPECT_NE(r.error->message.find("case 1: the kernel's shared arrays need " +
                                    std::to_string(limit + 32) + " bytes"),
              std::string::npos)
        << r.error->message; // case 1: SHARED_SIZE = 8 floats, 32 bytes
    EXPECT_TRUE(r.cases.empty());
}

} // namespace
} // namespace vkp
