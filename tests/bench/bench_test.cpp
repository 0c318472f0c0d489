// `vkpuzzles bench` on matrix puzzles: a 2-D first input is scaled to rows x cols = N, as square
// as N allows, and the constants and workgroup counts written with rows and cols follow it. Real
// shaderc, real lavapipe (in this process), small N.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "bench/bench.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "puzzle/kernel_sections.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "support/test_env.h"

namespace vkp {
namespace {

class BenchTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        auto ctx = GpuContext::create(test::deviceOptions());
        ASSERT_TRUE(ctx.ok()) << ctx.error().str();
        s_gpu = std::move(*ctx).release();
        s_set = new PuzzleSet(loadPuzzleSet(test::puzzleDir()));
    }
    static void TearDownTestSuite() {
        delete s_gpu;
        delete s_set;
    }
    const Puzzle& puzzle(const std::string& slug) {
        auto p = s_set->find(slug);
        EXPECT_TRUE(p.ok()) << slug;
        return **p;
    }
    Result<BenchReport> bench(const Puzzle& p, uint64_t n, double steadySpread = 1.2) {
        BenchOptions o;
        o.n = n;
        o.reps = 2;
        o.steadySpread = steadySpread;
        o.warmupMs = 1;
        o.templateCase = p.benchCase;
        InProcessRunner runner(*s_gpu);
        std::string file = p.dir + "/solution.comp";
        return benchProgram(m_compiler, runner, p, {{"kernel", *readTextFile(file), file}},
                            *readTextFile(test::sourceDir() + "/shaders/copy.comp"), o);
    }
    // Every kernel of a multi-pass puzzle's official solution.
    Result<BenchReport> benchAll(const Puzzle& p, uint64_t n) {
        BenchOptions o;
        o.n = n;
        o.reps = 2;
        o.warmupMs = 1;
        o.templateCase = p.benchCase;
        InProcessRunner runner(*s_gpu);
        auto sources = readKernelSources(p, true);
        if (!sources) return sources.error();
        return benchProgram(m_compiler, runner, p, *sources,
                            *readTextFile(test::sourceDir() + "/shaders/copy.comp"), o);
    }
    static inline GpuContext* s_gpu = nullptr;
    static inline PuzzleSet* s_set = nullptr;
    Compiler m_compiler;
};

TEST_F(BenchTest, AMatrixBecomesRowsTimesColsAndTheTilesFollow) {
    const Puzzle& p = puzzle("transpose-padded");
    EXPECT_EQ(benchUnavailable(p), std::nullopt);
    auto r = bench(p, 1u << 13); // 64 x 128: 4 x 2 tiles of 32 x 32
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->shape, (std::vector<uint64_t>{64, 128}));
    EXPECT_EQ(r->workgroups, (std::array<uint32_t, 3>{4, 2, 1}));
    EXPECT_TRUE(r->pass) << benchResultText(*r);
    EXPECT_EQ(benchResultText(*r), "matches the CPU reference");
}

TEST_F(BenchTest, ANumberWithoutASquareFactorStillGivesRowsTimesColsEqualToN) {
    auto r = bench(puzzle("transpose-tiled"), 300); // 15 x 20: the largest divisor <= 17 is 15
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->shape, (std::vector<uint64_t>{15, 20}));
    EXPECT_EQ(r->workgroups, (std::array<uint32_t, 3>{1, 1, 1}));
    EXPECT_TRUE(r->pass) << benchResultText(*r);
}

TEST_F(BenchTest, AOneDimensionalLaunchOverAMatrix) {
    auto r = bench(puzzle("coalesced"), 1u << 12); // 64 x 64, 4096 threads of 256
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->shape, (std::vector<uint64_t>{64, 64}));
    EXPECT_EQ(r->workgroups[0], 16u);
    EXPECT_TRUE(r->pass) << benchResultText(*r);
}

// The second input's shape is written as ["cols", "cols"]: it follows the scaled first input, and
// the reference matmul's result with it.
TEST_F(BenchTest, ASecondInputWhoseShapeIsAnExpressionFollowsTheFirst) {
    // Blocks of cells per workgroup, columns x rows: 16 x 16, 32 x 32, and 64 x 64 (workgroups of
    // 16 x 8 threads of 4 x 8 cells).
    const std::map<std::string, std::array<uint32_t, 2>> blocks = {
        {"matmul", {16, 16}}, {"matmul-register-tiling", {32, 32}}, {"matmul-items", {64, 64}}};
    for (const auto& [slug, block] : blocks) {
        const Puzzle& p = puzzle(slug);
        EXPECT_EQ(benchUnavailable(p), std::nullopt) << slug;
        auto r = bench(p, 2048); // a 32 x 64, b 64 x 64, result 32 x 64
        ASSERT_TRUE(r.ok()) << slug << ": " << r.error().str();
        EXPECT_EQ(r->shape, (std::vector<uint64_t>{32, 64})) << slug;
        EXPECT_EQ(r->workgroups,
                  (std::array<uint32_t, 3>{64 / block[0], (32 + block[1] - 1) / block[1], 1}))
            << slug;
        EXPECT_TRUE(r->pass) << slug << ": " << benchResultText(*r);
    }
}

// bench_cols = 64 keeps flash-attention's rows 64 floats wide (D, the head's width) at any N, the
// other inputs follow as ["rows", "cols"], and bench_n is the N it takes when none is given.
TEST_F(BenchTest, AMatrixKeepsTheColumnsThePuzzleNames) {
    const Puzzle& p = puzzle("flash-attention");
    EXPECT_EQ(p.benchCols, 64u);
    EXPECT_EQ(p.benchN, uint64_t(1) << 20);
    auto r = bench(p, 1u << 12); // 64 rows of 64: 8 heads of 8 queries
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->shape, (std::vector<uint64_t>{64, 64}));
    EXPECT_EQ(r->workgroups, (std::array<uint32_t, 3>{1, 8, 1})); // 8 queries, workgroups of 128
    EXPECT_TRUE(r->pass) << benchResultText(*r);
    auto ragged = bench(p, 1000);
    ASSERT_FALSE(ragged.ok());
    EXPECT_EQ(ragged.error().message,
              "N = 1000 is not a whole number of rows of 64 columns (the puzzle's bench_cols)");
}

// Several items per thread: a launch of ceil_div(N, WG * ITEMS) workgroups still covers N.
TEST_F(BenchTest, ALaunchOfSeveralItemsPerThreadCoversEveryElement) {
    auto r = bench(puzzle("items-per-thread"), 1u << 14); // 128 x 128, 256 threads of 8 cells
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->workgroups[0], 8u);
    EXPECT_TRUE(r->pass) << benchResultText(*r);
    auto sum = bench(puzzle("reduce-items"), 1u << 14); // 4096 elements per workgroup
    ASSERT_TRUE(sum.ok()) << sum.error().str();
    EXPECT_EQ(sum->workgroups[0], 4u);
    EXPECT_TRUE(sum->pass) << benchResultText(*sum);
    auto histogram = bench(puzzle("histogram-items"), 1u << 16); // 256 threads of 64 elements
    ASSERT_TRUE(histogram.ok()) << histogram.error().str();
    EXPECT_EQ(histogram->workgroups[0], 4u);
    EXPECT_TRUE(histogram->pass) << benchResultText(*histogram);
}

// The fraction of the limit: the bytes the kernel must move, at the copy's speed of the same run.
TEST_F(BenchTest, TheLimitIsTheKernelsBytesAtTheCopysSpeed) {
    auto r = bench(puzzle("coalesced"), 1u << 12);
    ASSERT_TRUE(r.ok()) << r.error().str();
    double copy = std::max(r->copyGbPerS, r->shaderCopyGbPerS);
    EXPECT_NEAR(r->limitMs, r->bytesMoved / (copy * 1e6), 1e-9);
    EXPECT_NEAR(r->ratioToCopy, r->limitMs / r->medianMs, 1e-9);
    auto lines = benchFigureLines(*r);
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.starts_with("of the limit") && l.find("at the copy's speed") != std::string::npos;
    }));
}

// A multi-pass program's passes move more than its task: each dispatch reads or writes each input
// and output it binds. A radix sort of 8-bit digits reads the keys once for its histograms, then
// reads and writes them in each of 4 rounds (keys and sorted swap: both count, the look-back's
// status words do not); Hillis-Steele's steps read one buffer and write the other.
TEST_F(BenchTest, AMultiPassProgramsPassesCountWhatEachDispatchBinds) {
    const uint64_t n = 1u << 12;
    auto sort = benchAll(puzzle("radix-sort-onesweep"), n);
    ASSERT_TRUE(sort.ok()) << sort.error().str();
    ASSERT_TRUE(sort->pass) << benchResultText(*sort);
    EXPECT_EQ(sort->bytesMoved, 2 * n * 4); // the task: read the keys, write them sorted
    ASSERT_EQ(sort->passes.size(), 2u);
    EXPECT_EQ(sort->passes[0].bytesMoved, n * 4);
    EXPECT_EQ(sort->passes[1].dispatches, 4);
    EXPECT_EQ(sort->passes[1].bytesMoved, 4 * 2 * n * 4);
    EXPECT_EQ(sort->passBytesMoved, 9 * n * 4);
    double copy = std::max(sort->copyGbPerS, sort->shaderCopyGbPerS);
    EXPECT_NEAR(sort->passLimitMs, sort->passBytesMoved / (copy * 1e6), 1e-9);
    EXPECT_NEAR(sort->ratioToPassLimit, sort->passLimitMs / sort->medianMs, 1e-9);
    auto lines = benchFigureLines(*sort);
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.starts_with("its passes") && l.find("147.5 kB") != std::string::npos;
    })) << lines.size();
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("pass onesweep") != std::string::npos &&
               l.find("of its limit") != std::string::npos;
    }));

    auto steps = benchAll(puzzle("scan-hillis-steele"), 1u << 10);
    ASSERT_TRUE(steps.ok()) << steps.error().str();
    ASSERT_EQ(steps->passes.size(), 1u);
    EXPECT_GT(steps->passes[0].dispatches, 1);
    EXPECT_EQ(steps->passes[0].bytesMoved,
              uint64_t(steps->passes[0].dispatches) * 2 * (1u << 10) * 4);

    auto one = bench(puzzle("coalesced"), 1u << 12); // a single pass: the task's bytes only
    ASSERT_TRUE(one.ok()) << one.error().str();
    EXPECT_EQ(one->passBytesMoved, 0u);
    auto oneLines = benchFigureLines(*one);
    EXPECT_FALSE(std::any_of(oneLines.begin(), oneLines.end(),
                             [](const std::string& l) { return l.starts_with("its passes"); }));
}

// A matmul does 43 operations a byte it moves at 256 x 256: the report counts them, and says that
// arithmetic, not the memory limit, bounds it; a copy-like kernel's report says neither.
TEST_F(BenchTest, ArithmeticIsCountedWhereItBoundsTheKernel) {
    auto r = bench(puzzle("matmul"), 1u << 16);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->flop, 2.0 * 256 * 256 * 256);
    EXPECT_NEAR(r->gflopPerS, r->flop / (r->medianMs * 1e6), 1e-9);
    auto lines = benchFigureLines(*r);
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.starts_with("arithmetic") && l.find("43 for each byte moved") != std::string::npos;
    }));
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("arithmetic bounds this kernel, not memory") != std::string::npos;
    }));
    auto copy = bench(puzzle("coalesced"), 1u << 12);
    ASSERT_TRUE(copy.ok());
    EXPECT_EQ(copy->flop, 0);
    for (const std::string& l : benchFigureLines(*copy))
        EXPECT_FALSE(l.starts_with("arithmetic")) << l;
}

// Repetitions that disagree are a measurement not to trust, said so, not a slow kernel. The
// allowed spread decides: every run's slowest tenth takes at least 0.5x its fastest, and none
// takes a billion times it, whatever the machine's load.
TEST_F(BenchTest, RepetitionsThatDisagreeAreReportedAsUnsteady) {
    auto shaky = bench(puzzle("coalesced"), 1u << 12, 0.5);
    ASSERT_TRUE(shaky.ok()) << shaky.error().str();
    EXPECT_TRUE(shaky->unsteady.starts_with("the repetitions vary (slowest tenth over fastest: "
                                            "kernel "))
        << shaky->unsteady;
    EXPECT_NE(shaky->unsteady.find("x, copy "), std::string::npos) << shaky->unsteady;
    auto lines = benchFigureLines(*shaky);
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.starts_with("unsteady") && l.find("no sign of a slow kernel") != std::string::npos;
    }));
    auto steady = bench(puzzle("coalesced"), 1u << 12, 1e9);
    ASSERT_TRUE(steady.ok()) << steady.error().str();
    EXPECT_EQ(steady->unsteady, "");
    for (const std::string& l : benchFigureLines(*steady))
        EXPECT_FALSE(l.starts_with("unsteady")) << l;
}

BenchReport timedAt(std::string device, uint64_t n, double ms) {
    BenchReport r;
    r.device = std::move(device);
    r.n = n;
    r.medianMs = ms;
    return r;
}

TEST(BenchPeers, APeerIsComparedOnlyOnItsDeviceAtItsN) {
    Puzzle p;
    p.peers.push_back({"torch.softmax", "NVIDIA H200", 1u << 28, 0.5, "2026-11-28", "torch"});
    auto there = benchPeerLines(p, timedAt("NVIDIA H200 NVL", 1u << 28, 1.0));
    ASSERT_EQ(there.size(), 1u);
    EXPECT_NE(there[0].find("torch.softmax: 0.500 ms on NVIDIA H200 at N = 268435456 (2026-11-28)"),
              std::string::npos)
        << there[0];
    EXPECT_NE(there[0].find("this kernel takes 2.00x its time"), std::string::npos) << there[0];
    auto otherN = benchPeerLines(p, timedAt("NVIDIA H200", 1u << 20, 1.0));
    EXPECT_NE(otherN[0].find("bench at --n 2^28 to compare"), std::string::npos) << otherN[0];
    auto elsewhere = benchPeerLines(p, timedAt("llvmpipe (LLVM 15.0.6, 256 bits)", 1u << 28, 1.0));
    EXPECT_NE(elsewhere[0].find("another device"), std::string::npos) << elsewhere[0];
    EXPECT_EQ(elsewhere[0].find("its time"), std::string::npos) << elsewhere[0];
    EXPECT_TRUE(benchPeerLines(Puzzle{}, timedAt("NVIDIA H200", 1u << 28, 1.0)).empty());
}

TEST(BenchComparison, TheLearnersTimeIsSetBesideTheOfficialSolutions) {
    BenchReport yours = timedAt("d", 64, 3.0), official = timedAt("d", 64, 1.5);
    yours.ratioToCopy = 0.25;
    official.ratioToCopy = 0.5;
    official.unsteady = "the repetitions vary (slowest tenth over fastest: kernel 1.50x)";
    auto lines = benchComparisonLines(yours, official);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_NE(lines[0].find("3.000 ms   0.25 of the limit"), std::string::npos) << lines[0];
    EXPECT_NE(lines[1].find("1.500 ms   0.50 of the limit  (unsteady)"), std::string::npos)
        << lines[1];
    EXPECT_NE(lines[2].find("yours takes 2.00x the official solution's time"), std::string::npos)
        << lines[2];
    auto faster = benchComparisonLines(official, yours);
    EXPECT_NE(faster.back().find("faster than the official solution"), std::string::npos)
        << faster.back();
}

} // namespace
} // namespace vkp
