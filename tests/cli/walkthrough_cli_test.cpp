// `vkpuzzles walkthrough` end to end: steps as text and JSON from a real traced run, the puzzles
// without one, and bad walkthrough files (file:line:col, exit status 2).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/walkthrough_report.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;

// A puzzle root holding a copy of 10-dot with the given walkthrough.toml.
class DotCopy {
  public:
    explicit DotCopy(const std::string& walkthrough) {
        m_root = fs::temp_directory_path() /
                 ("vkp-walk-cli-" + std::to_string(getpid()) + "-" + std::to_string(s_count++));
        fs::create_directories(m_root);
        fs::copy(test::puzzleDir() + "/10-dot", m_root / "10-dot", fs::copy_options::recursive);
        std::ofstream(m_root / "10-dot" / "walkthrough.toml") << walkthrough;
    }
    ~DotCopy() { fs::remove_all(m_root); }
    std::string args() const {
        return "--puzzles " + m_root.string() + " --in-process --color never";
    }
    std::string file() const { return (m_root / "10-dot" / "walkthrough.toml").string(); }

  private:
    fs::path m_root;
    static inline int s_count = 0;
};

TEST(WalkthroughCli, OneStepShowsItsTextLinesSharedMemoryAndThreads) {
    CliRun r = vkpuzzles("walkthrough dot --step 2 --color never", false);
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "10. Dot product: A tree of additions in shared memory")) << r.out;
    EXPECT_TRUE(has(r.out, "Step 2/6: Round 1: fold 5 cells onto 3")) << r.out;
    EXPECT_FALSE(has(r.out, "Step 1/6")) << r.out;
    EXPECT_FALSE(has(r.out, "Step 3/6")) << r.out;
    // The focused solution lines, numbered.
    EXPECT_TRUE(has(r.out, "36 |             cache[t] += cache[t + stride];")) << r.out;
    // Shared memory after round 1, the focused cells bracketed: cells 0, 1, 3 and 4.
    EXPECT_TRUE(has(r.out, "shared memory of workgroup 0 after round 1")) << r.out;
    EXPECT_TRUE(has(r.out, "[9] [17]   4   [9] [16]")) << r.out;
    // The focused threads' accesses in that round only.
    EXPECT_TRUE(has(r.out, "thread 1, round 1")) << r.out;
    EXPECT_TRUE(has(r.out, "write cache[1] = 17")) << r.out;
    EXPECT_FALSE(has(r.out, "read  a[1]")) << "round 0's accesses are not part of this step\n"
                                           << r.out;
}

TEST(WalkthroughCli, EveryStepInOrderWithBufferCells) {
    CliRun r = vkpuzzles("walkthrough block-sum --color never", false);
    ASSERT_EQ(r.exit, 0) << r.out;
    size_t last = 0;
    for (int i = 1; i <= 7; ++i) {
        size_t at = r.out.find("Step " + std::to_string(i) + "/7: ");
        ASSERT_NE(at, std::string::npos) << i << "\n" << r.out;
        EXPECT_GT(at, last);
        last = at;
    }
    EXPECT_TRUE(has(r.out, "result[1]      = 17")) << r.out;
    EXPECT_TRUE(has(r.out, "result[0]      = 28")) << r.out;
}

TEST(WalkthroughCli, TwoDimensionalTilesArePrintedAsRows) {
    CliRun r = vkpuzzles("walkthrough matmul --step 2 --color never", false);
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "tileA    [0]   0    1 \n           [1]   3   [4]")) << r.out;
    EXPECT_TRUE(has(r.out, "a[1][1]        = 4")) << r.out;
}

// A shared array of vectors keeps its rows, each element's components side by side: the FFT's
// vec2 buf[2][8] is two rows of eight complex numbers, (re, im) after (re, im).
TEST(WalkthroughCli, VectorTilesArePrintedAsRowsOfComponents) {
    CliRun r = vkpuzzles("walkthrough fft --step 3 --color never", false);
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "  buf    [0]  12    0  [-4]   4   -4    0  [-4]  -4   16")) << r.out;
    EXPECT_TRUE(has(r.out, "         [1]   4    0   -4    0    6")) << r.out;
}

TEST(WalkthroughCli, JsonCarriesTheSameState) {
    CliRun r = vkpuzzles("walkthrough dot --step 2 --json", false);
    ASSERT_EQ(r.exit, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["puzzle"], "dot");
    EXPECT_EQ(j["case"], 2);
    EXPECT_EQ(j["step_count"], 6);
    ASSERT_EQ(j["steps"].size(), 1u);
    const auto& s = j["steps"][0];
    EXPECT_EQ(s["number"], 2);
    EXPECT_EQ(s["round"], 1);
    EXPECT_EQ(s["lines"][3]["line"], 36);
    EXPECT_EQ(s["shared"][0]["name"], "cache");
    EXPECT_EQ(s["shared"][0]["values"], nlohmann::json({9, 17, 4, 9, 16}));
    ASSERT_EQ(s["threads"].size(), 2u);
    EXPECT_EQ(s["threads"][1]["global_id"], nlohmann::json({1, 0, 0}));
    EXPECT_EQ(s["threads"][1]["events"].size(), 4u) << "three accesses and the barrier of round 1";
    EXPECT_EQ(s["cells"][1]["value"], 17);
}

// In a multi-pass puzzle a step's buffer cells are as its dispatch left them (replayed from the
// traces up to it), not as the whole run ended: bfs's first step (init) leaves node 6
// unreached (INT_MAX), which finish turns into -1 only at the end.
TEST(WalkthroughCli, AMultiPassStepsCellsAreAsItsDispatchLeftThem) {
    CliRun text = vkpuzzles("walkthrough bfs --step 1 --color never", false);
    ASSERT_EQ(text.exit, 0) << text.out;
    EXPECT_TRUE(has(text.out, "result[6]      = 2147483647   (after this dispatch)")) << text.out;
    CliRun r = vkpuzzles("walkthrough bfs --step 1 --json", false);
    ASSERT_EQ(r.exit, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    const auto& cells = j["steps"][0]["cells"];
    ASSERT_GE(cells.size(), 2u) << r.out;
    EXPECT_EQ(cells[1]["variable"], "result");
    EXPECT_EQ(cells[1]["value"], 2147483647) << "the run's end says -1";
}

// A step may show another case (here under its forced schedule) and the look-back as text: a
// strip per tile, then what each tile's workgroup did.
TEST(WalkthroughCli, AStepOfAnotherCaseShowsTheLookBack) {
    CliRun r = vkpuzzles("walkthrough scan-decoupled --step 7 --color never", false);
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "Step 7/8: A slow predecessor: the fallback")) << r.out;
    EXPECT_TRUE(has(r.out, "case 3 (8 tiles of 32 threads x 4 items, 1000 random elements), traced "
                           "under its forced schedule"))
        << r.out;
    EXPECT_TRUE(has(r.out, "look-back of 'status': one line per tile")) << r.out;
    EXPECT_TRUE(has(r.out, "  tile 7   |")) << r.out;
    EXPECT_TRUE(has(r.out, "256 polls saw tile 1 not ready (and 1 more past it, which do not "
                           "count); gives up on tile 1 and sums it itself (fallback)"))
        << r.out;
    EXPECT_TRUE(has(r.out, "published PREFIX 1694 = 2147485342")) << r.out;
    EXPECT_FALSE(has(r.out, "PROBLEM")) << r.out;
    CliRun j = vkpuzzles("walkthrough scan-decoupled --step 7 --json", false);
    ASSERT_EQ(j.exit, 0) << j.out;
    auto json = nlohmann::json::parse(j.out);
    EXPECT_EQ(json["case"], 1) << "the walkthrough's own case";
    EXPECT_EQ(json["steps"][0]["case"], 3) << "the step's";
    ASSERT_TRUE(json["steps"][0]["lookback"].is_array());
    EXPECT_GT(json["steps"][0]["lookback"].size(), 10u);
}

// Every bundled puzzle has one; a pack's puzzle may not.
TEST(WalkthroughCli, APuzzleWithoutOneSaysWhichHaveOne) {
    CliRun r = vkpuzzles("--puzzles " + test::sourceDir() +
                         "/tests/data/packcheck/weak walkthrough one-block --color never");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "one-block has no walkthrough yet; puzzles with one: ")) << r.out;
    EXPECT_TRUE(has(r.out, "map, zip, guards")) << r.out;
}

TEST(WalkthroughCli, StepOutOfRangeIsAUsageError) {
    CliRun r = vkpuzzles("walkthrough dot --step 7 --color never");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "--step needs a whole number from 1 to 6")) << r.out;
}

TEST(WalkthroughCli, ABadFileIsNamedWithLineAndColumn) {
    DotCopy copy("title = \"T\"\ncase = 9\n[[steps]]\ntitle = \"s\"\ntext = \"t\"\n");
    CliRun r = vkpuzzles("walkthrough dot " + copy.args());
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, copy.file() + ":2:8: 'case' is 9; it must be between 1 and 7")) << r.out;
}

TEST(WalkthroughCli, AWalkthroughThatDoesNotFitTheSolutionIsRejected) {
    DotCopy copy(
        "title = \"T\"\n[[steps]]\ntitle = \"s\"\ntext = \"t\"\nlines = [999]\nround = 40\n");
    CliRun r = vkpuzzles("walkthrough dot " + copy.args());
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(
        r.out, copy.file() + ":2:1: error: step 1 (s): line 999 is past the end of solution.comp"))
        << r.out;
    EXPECT_TRUE(has(r.out, "round 40 did not happen in workgroup 0")) << r.out;
    EXPECT_FALSE(has(r.out, "Step 1/1")) << r.out;
}

TEST(WalkthroughText, WrapsParagraphsAndKeepsPictures) {
    std::string text =
        "one two three four five six seven eight nine ten\neleven twelve\n\n    a  b  c\nlast";
    std::string out = cli::wrapText(text, 24, 2);
    EXPECT_EQ(out, "  one two three four\n  five six seven eight\n  nine ten eleven twelve\n\n     "
                   " a  b  c\n  last\n");
}

} // namespace
} // namespace vkp
