// `vkpuzzles bench` on matrix puzzles: a 2-D first input is scaled to rows x cols = N, as square
// as N allows, and the constants and workgroup counts written with rows and cols follow it. Real
// shaderc, real lavapipe (in this process), small N.
#include <gtest/gtest.h>

#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "puzzle/puzzle_loader.h"
#include "session/bench.h"
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
    Result<BenchReport> bench(const Puzzle& p, uint64_t n) {
        BenchOptions o;
        o.n = n;
        o.reps = 2;
        o.warmupMs = 1;
        o.templateCase = p.benchCase;
        InProcessRunner runner(*s_gpu);
        std::string file = p.dir + "/solution.comp";
        return benchProgram(m_compiler, runner, p, {{"kernel", *readTextFile(file), file}},
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
    for (const char* slug : {"matmul", "matmul-register-tiling"}) {
        const Puzzle& p = puzzle(slug);
        EXPECT_EQ(benchUnavailable(p), std::nullopt) << slug;
        auto r = bench(p, 2048); // a 32 x 64, b 64 x 64, result 32 x 64
        ASSERT_TRUE(r.ok()) << slug << ": " << r.error().str();
        EXPECT_EQ(r->shape, (std::vector<uint64_t>{32, 64})) << slug;
        uint32_t block = std::string(slug) == "matmul" ? 16 : 32; // cells per workgroup side
        EXPECT_EQ(r->workgroups, (std::array<uint32_t, 3>{64 / block, 32 / block, 1})) << slug;
        EXPECT_TRUE(r->pass) << slug << ": " << benchResultText(*r);
    }
}

} // namespace
} // namespace vkp
