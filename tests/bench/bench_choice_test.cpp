// Which case `vkpuzzles bench` times and at what N, on real shaderc and lavapipe (in this process,
// small N): the case a puzzle names or the widest one that scales, never merely the last (a pack
// of our own whose last case is written value by value); a launch of one workgroup at its own N;
// a square matrix kept square; a second input that does not follow the first named; a kernel
// that needs what the device lacks refused in check's words.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <unistd.h>

#include "bench/bench.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "puzzle/bench_case.h"
#include "puzzle/kernel_sections.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "support/test_env.h"

namespace vkp {
namespace {

namespace fs = std::filesystem;

class BenchChoiceTest : public ::testing::Test {
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
    void TearDown() override {
        if (!m_pack.empty()) fs::remove_all(m_pack);
    }
    const Puzzle& puzzle(const std::string& slug) {
        auto p = s_set->find(slug);
        EXPECT_TRUE(p.ok()) << slug;
        return **p;
    }
    // The official solution at N, on the case the puzzle's benchmark takes.
    Result<BenchReport> bench(const Puzzle& p, uint64_t n) {
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
    // A pack of one puzzle in a temporary folder: a copy of the bundled `folder`, its
    // puzzle.toml changed by `edit`.
    const Puzzle& packPuzzle(const std::string& folder,
                             const std::function<std::string(std::string)>& edit) {
        m_pack = fs::temp_directory_path() / ("vkp-bench-choice-" + std::to_string(getpid()));
        fs::remove_all(m_pack);
        fs::create_directories(m_pack);
        fs::copy(test::puzzleDir() + "/" + folder, m_pack / folder, fs::copy_options::recursive);
        fs::path toml = m_pack / folder / "puzzle.toml";
        std::string text = edit(*readTextFile(toml.string()));
        std::ofstream(toml) << text;
        m_packSet = std::make_unique<PuzzleSet>(loadPuzzleSet(m_pack.string()));
        EXPECT_TRUE(m_packSet->errors.empty())
            << (m_packSet->errors.empty() ? "" : m_packSet->errors[0].str());
        EXPECT_EQ(m_packSet->puzzles.size(), 1u);
        return m_packSet->puzzles.at(0);
    }
    static inline GpuContext* s_gpu = nullptr;
    static inline PuzzleSet* s_set = nullptr;
    Compiler m_compiler;
    fs::path m_pack;
    std::unique_ptr<PuzzleSet> m_packSet;
};

// Without the line that names the benchmark's case, and with a small case written value by value
// added at the end (as a new mistake to catch is), map still benchmarks its widest case that
// follows N, at any N.
TEST_F(BenchChoiceTest, APuzzleThatNamesNoCaseIsTimedOnItsWidestScalableCase) {
    const Puzzle& p = packPuzzle("01-map", [](std::string t) {
        t.erase(t.find("bench_case"),
                t.find('\n', t.find("bench_case")) + 1 - t.find("bench_case"));
        return t + "\n[[cases]]\nname = \"3 values\"\nworkgroup_size = [4]\n"
                   "workgroups = [\"ceil_div(N, WG)\"]\n"
                   "inputs.a = { shape = [3], values = [1.5, -2, 0.25] }\n"
                   "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 10 }\n";
    });
    ASSERT_EQ(p.cases.size(), 9u);
    EXPECT_FALSE(p.benchCaseNamed);
    EXPECT_EQ(p.benchCase, 7u) << "the 256-wide case, not the last one";
    EXPECT_EQ(benchUnavailable(p), std::nullopt);
    auto r = bench(p, 1u << 12);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->n, 4096u);
    EXPECT_EQ(r->workgroups[0], 16u);
    EXPECT_EQ(r->fixedLaunch, "");
    EXPECT_TRUE(r->pass) << benchResultText(*r);
    // The last case, named, is refused with what to do.
    Puzzle named = p;
    named.benchCase = 8;
    EXPECT_EQ(benchUnavailable(named),
              "case 9 of map cannot be generated at another N: 'a' is written out value by "
              "value; a benchmark needs a generated fill (iota, constant, random or each) and "
              "expected outputs from a reference op or `each`: pick another case with --case, "
              "or name one with bench_case");
}

// Every bundled puzzle's benchmark case scales to any N, or is one workgroup on purpose.
TEST_F(BenchChoiceTest, EveryBundledPuzzleCanBeBenchmarked) {
    for (const Puzzle& p : s_set->puzzles) {
        EXPECT_EQ(benchUnavailable(p), std::nullopt) << p.slug;
        auto fixed = fixedLaunch(p, p.benchCase);
        if (fixed)
            EXPECT_EQ(fixed->grid, "one workgroup") << p.slug << ": " << fixed->why;
        else
            EXPECT_TRUE(scalesToAnyN(p, p.cases[p.benchCase])) << p.slug;
    }
}

// Dot product launches one workgroup: its benchmark is that case as it is, at its own N, and the
// report says so beside the N asked.
TEST_F(BenchChoiceTest, OneWorkgroupIsTimedAtItsOwnN) {
    const Puzzle& p = puzzle("dot");
    auto fixed = fixedLaunch(p, p.benchCase);
    ASSERT_TRUE(fixed);
    const TestCase& c = p.cases[p.benchCase];
    EXPECT_EQ(fixed->n, c.data[*p.firstInput()]->shape.count());
    EXPECT_EQ(fixed->why, "dot launches one workgroup (case " + std::to_string(p.benchCase + 1) +
                              " as it is, " + std::to_string(c.threadCount()) + " threads)");
    auto r = bench(p, 1u << 12);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->n, fixed->n);
    EXPECT_EQ(r->nAsked, 4096u);
    EXPECT_EQ(r->fixedLaunch, fixed->why);
    EXPECT_TRUE(r->pass) << benchResultText(*r);
    auto lines = benchFigureLines(*r);
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
        return l == "fixed launch   " + fixed->why +
                        ": timed at its own N = " + std::to_string(fixed->n) +
                        ", not the 2^12 asked";
    }));
}

// Blocks 2D reads one SIZE for rows and columns: its benchmark keeps the matrix square, and an N
// that is not a square is refused with two that are.
TEST_F(BenchChoiceTest, ASquareMatrixStaysSquare) {
    const Puzzle& p = puzzle("blocks-2d");
    EXPECT_TRUE(p.benchSquare);
    auto r = bench(p, 1u << 14);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->shape, (std::vector<uint64_t>{128, 128}));
    EXPECT_EQ(r->workgroups, (std::array<uint32_t, 3>{8, 8, 1}));
    EXPECT_TRUE(r->pass) << benchResultText(*r);
    auto odd = bench(p, 1u << 13);
    ASSERT_FALSE(odd.ok());
    EXPECT_EQ(odd.error().message, "N = 2^13 is not a square, and the puzzle's matrix stays square "
                                   "(its bench_square): give N as a square, such as 2^12 or 2^14");
    auto other = bench(p, 1000);
    ASSERT_FALSE(other.ok());
    EXPECT_NE(other.error().message.find("such as 961 or 2^10"), std::string::npos)
        << other.error().message;
}

// Zip's b written with a shape of numbers stays 256 long while a grows: the op's complaint names b
// and what to write.
TEST_F(BenchChoiceTest, ASecondInputThatDoesNotFollowTheFirstIsNamed) {
    const Puzzle& p = packPuzzle("02-zip", [](std::string t) {
        size_t at = t.find("shape = [\"N\"]");
        return t.replace(at, 13, "shape = [256]");
    });
    auto r = bench(p, 1u << 12);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("'b' keeps its shape [256] at any N: to follow the first "
                                     "input, write it as [\"N\"]"),
              std::string::npos)
        << r.error().message;
}

// On a device without cooperative matrices, the tensor-core puzzle's benchmark is refused at the
// solution's #extension line in the words check uses, never with a compiler's line.
TEST_F(BenchChoiceTest, WhatTheDeviceLacksIsRefusedAsCheckRefusesIt) {
    if (s_gpu->info().shaderFeatures & kCooperativeMatrix)
        GTEST_SKIP() << s_gpu->info().name << " has cooperative matrices";
    auto r = bench(puzzle("matmul-tensor-cores"), 1u << 12);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::Device);
    const std::string& m = r.error().message;
    EXPECT_NE(m.find("solution.comp:4: error: uses cooperative matrices"), std::string::npos) << m;
    EXPECT_NE(m.find("which " + s_gpu->info().name + " does not support"), std::string::npos) << m;
    EXPECT_NE(m.find("Benchmark it on a device that has them (vkpuzzles devices)"),
              std::string::npos)
        << m;
    EXPECT_EQ(m.find("extension not supported"), std::string::npos) << m;
}

} // namespace
} // namespace vkp
