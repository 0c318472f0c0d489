// Multi-pass puzzles from the command line: one file per kernel (by name or in order), the
// per-dispatch trace, and benchmarks of passes (every official scan's table is the content
// tier's, bench_every_puzzle_cli_test.cpp).
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::has;
using test::vkpuzzles;

std::string solution(const std::string& folder, const std::string& kernel) {
    return test::puzzleDir() + "/" + folder + "/solution/" + kernel + ".comp";
}

TEST(MultipassCli, KernelFilesAreMatchedByNameInAnyOrder) {
    std::string files = solution("17-scan-blocks", "add_offsets") + " " +
                        solution("17-scan-blocks", "scan_tiles") + " " +
                        solution("17-scan-blocks", "scan_sums");
    test::CliRun r = vkpuzzles("check scan-blocks " + files + " --in-process");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "dispatches")) << r.out;
    test::CliRun missing = vkpuzzles("check scan-blocks " +
                                     solution("17-scan-blocks", "scan_tiles") + " --in-process");
    EXPECT_EQ(missing.exit, 2) << missing.out;
    EXPECT_TRUE(has(missing.out, "scan-blocks has 3 kernels; name its files: scan_tiles.comp "
                                 "scan_sums.comp add_offsets.comp"))
        << missing.out;
}

TEST(MultipassCli, TheStarterShowsThePerBlockPitfall) {
    test::CliRun r = vkpuzzles("check scan-blocks --starter --in-process --no-trace");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "why: ")) << r.out;
    // The first line names what ran by its kernels, not by paths inside the puzzle folder.
    EXPECT_TRUE(has(r.out, "starter (scan_tiles.comp, scan_sums.comp, add_offsets.comp) on "))
        << r.out;
    EXPECT_FALSE(has(r.out, "/starter/")) << r.out;
}

TEST(MultipassCli, TraceShowsOneDispatchOfTheCase) {
    test::CliRun r = vkpuzzles(
        "trace scan-hillis-steele --solution --case 1 --dispatch 3 --in-process --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "dispatch 3 of 3: step (3 of 3)")) << r.out;
    EXPECT_TRUE(has(r.out, "R src[7]  R src[3]  W dst[7]")) << r.out; // offset 4 at the third step
    test::CliRun bad =
        vkpuzzles("trace scan-hillis-steele --solution --case 1 --dispatch 9 --in-process");
    EXPECT_EQ(bad.exit, 2) << bad.out;
    test::CliRun single = vkpuzzles("trace map --solution --dispatch 1 --in-process");
    EXPECT_EQ(single.exit, 2) << single.out;
    EXPECT_TRUE(has(single.out, "--dispatch is for multi-pass puzzles")) << single.out;
    // The option's old name, from before a pass meant one kernel of a multi-pass puzzle, still
    // works.
    test::CliRun old = vkpuzzles(
        "trace scan-hillis-steele --solution --case 1 --pass 3 --in-process --color never");
    EXPECT_EQ(old.exit, 0) << old.out;
    EXPECT_EQ(old.out, r.out);
}

TEST(MultipassCli, BenchTimesEachPassAndChecksTheResult) {
    test::CliRun r =
        vkpuzzles("bench scan-hillis-steele --solution --n 5000 --reps 2 --json", false);
    ASSERT_EQ(r.exit, 0) << r.out;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["pass"], true);
    ASSERT_EQ(doc["passes"].size(), 1u);
    EXPECT_EQ(doc["passes"][0]["kernel"], "step");
    EXPECT_EQ(doc["passes"][0]["dispatches"], 13); // log2ceil(5000)
    EXPECT_GT(doc["passes"][0]["median_ms"].get<double>(), 0.0);
}

// Two files for one kernel of a multi-pass puzzle: said as such, not as a missing kernel.
TEST(MultipassCli, TwoFilesForOneKernelAreNamed) {
    std::string tiles = solution("17-scan-blocks", "scan_tiles");
    test::CliRun r = vkpuzzles("check scan-blocks " + tiles + " " + tiles + " " +
                               solution("17-scan-blocks", "scan_sums") + " --in-process");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "two files for the kernel scan_tiles")) << r.out;
    EXPECT_TRUE(has(r.out, "name one file per kernel: scan_tiles.comp scan_sums.comp "
                           "add_offsets.comp"))
        << r.out;
}

// An endless loop in a pass that repeats: the finding once, then how many later dispatches of
// the same kernel had it, not the same lines once per dispatch.
TEST(MultipassCli, AFindingInEveryDispatchIsPrintedOnce) {
    std::string path = ::testing::TempDir() + "vkp-endless-step.comp";
    std::ofstream(path) << "#version 450\nlayout(local_size_x_id = 0) in;\n"
                           "layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };\n"
                           "layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };\n"
                           "layout(push_constant) uniform Step { uint offset; };\n"
                           "void main() {\n"
                           "    uint i = gl_GlobalInvocationID.x;\n"
                           "    while (src[0] != 12345u) { i += 1u; }\n"
                           "    if (i < src.length()) dst[i] = src[i];\n}\n";
    test::CliRun r = vkpuzzles("check scan-hillis-steele " + path + " --case 2 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    size_t first = r.out.find("endless loop?");
    ASSERT_NE(first, std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("step (2 of 4): endless loop?"), std::string::npos) << r.out;
    EXPECT_TRUE(has(r.out, "the same endless loop? at line 8 in 3 later dispatches of step (2, 3, "
                           "4; trace --dispatch K shows one)"))
        << r.out;
    // In JSON, each finding names its dispatch: its number and its label ("pass" is version 1's
    // name for the label).
    test::CliRun j = vkpuzzles("check scan-hillis-steele " + path + " --case 2 --json");
    EXPECT_EQ(j.exit, 1) << j.out;
    nlohmann::json doc = nlohmann::json::parse(j.out);
    const nlohmann::json& findings = doc["cases"][0]["findings"];
    ASSERT_FALSE(findings.empty()) << j.out;
    EXPECT_EQ(findings[0]["dispatch"], 1) << j.out;
    EXPECT_EQ(findings[0]["dispatch_label"], "step (1 of 4)") << j.out;
    EXPECT_EQ(findings[0]["pass"], findings[0]["dispatch_label"]) << j.out;
}

// The most dispatches a case may run, through the worker process as the app and the CLI run
// kernels by default: every dispatch's trace travels back with the case's buffers.
TEST(MultipassCli, ACaseOf256DispatchesRunsInTheWorker) {
    std::string pack = "--puzzles " + test::sourceDir() + "/tests/data/long-passes ";
    test::CliRun r = vkpuzzles(pack + "check count-up --solution --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "256 dispatches")) << r.out;
    test::CliRun last = vkpuzzles(pack + "trace count-up --solution --dispatch 256 --color never");
    EXPECT_EQ(last.exit, 0) << last.out;
    EXPECT_TRUE(has(last.out, "dispatch 256 of 256: add (2 of 2, lap 128 of 128)")) << last.out;
    test::CliRun untraced = vkpuzzles(pack + "check count-up --solution --no-trace");
    EXPECT_EQ(untraced.exit, 0) << untraced.out;
    test::CliRun starter = vkpuzzles(pack + "check count-up --starter");
    EXPECT_EQ(starter.exit, 1) << starter.out;
}

} // namespace
} // namespace vkp
