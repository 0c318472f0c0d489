// debugPrintfEXT from the command line on a real device: `run` prints every thread's lines
// (capped, with what was left out), `trace --thread` one thread's among its accesses, --json
// carries them, and untraced checks run the same kernel with its calls removed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "puzzle/puzzle_loader.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;
using test::vkpuzzlesStdout;

std::string kernel(const char* name) {
    return test::sourceDir() + "/tests/data/printf/" + name;
}

TEST(PrintfCli, RunPrintsEveryThreadsLines) {
    CliRun r = vkpuzzles("run map " + kernel("map_printf.comp") + " --case 1 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "printf output")) << r.out;
    EXPECT_TRUE(
        has(r.out,
            "  thread 3\n    line 12: i=3 a=3.0\n    line 13: neg=-3 vec=3, 4, 5 odd=1 hex=0030\n"))
        << r.out;
    EXPECT_TRUE(has(r.out, "line 12: i=5 a=5.0")) << r.out;
    EXPECT_FALSE(has(r.out, "not shown")) << r.out;
}

TEST(PrintfCli, TraceOfOneThreadShowsItsLinesAmongItsAccesses) {
    CliRun r =
        vkpuzzles("trace map " + kernel("map_printf.comp") + " --case 1 --thread 2 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    size_t read = r.out.find("read  a[2] = 2"), print = r.out.find("printf i=2 a=2.0"),
           write = r.out.find("write result[2] = 12");
    ASSERT_NE(read, std::string::npos) << r.out;
    ASSERT_NE(print, std::string::npos) << r.out;
    ASSERT_NE(write, std::string::npos) << r.out;
    EXPECT_LT(read, print) << "program order: the read, then the printf, then the write";
    EXPECT_LT(print, write);
    EXPECT_FALSE(has(r.out, "i=3 a=3.0")) << "another thread's line";
}

TEST(PrintfCli, JsonCarriesTheLines) {
    CliRun r = vkpuzzlesStdout("run map " + kernel("map_printf.comp") + " --case 2 --json");
    EXPECT_EQ(r.exit, 0) << r.out;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    ASSERT_EQ(j["printf"].size(), 1u);
    const auto& lines = j["printf"][0]["lines"];
    ASSERT_EQ(lines.size(), 20u) << "10 threads, 2 lines each";
    EXPECT_EQ(lines[14]["invocation"], 7);
    EXPECT_EQ(lines[14]["line"], 12);
    EXPECT_EQ(lines[14]["global_id"][0], 7);
    EXPECT_TRUE(lines[14]["text"].get<std::string>().rfind("i=7 a=", 0) == 0) << lines[14];
    CliRun t =
        vkpuzzlesStdout("trace map " + kernel("map_printf.comp") + " --case 2 --thread 4 --json");
    auto tj = nlohmann::json::parse(t.out, nullptr, false);
    ASSERT_FALSE(tj.is_discarded()) << t.out;
    ASSERT_EQ(tj["trace"]["printf"]["lines"].size(), 2u);
    EXPECT_EQ(tj["trace"]["printf"]["lines"][1]["text"], "neg=-4 vec=4, 5, 6 odd=0 hex=0040");
}

TEST(PrintfCli, UntracedAndTracedChecksPassWithPrintfInTheKernel) {
    CliRun plain =
        vkpuzzles("check map " + kernel("map_printf.comp") + " --no-trace --color never");
    EXPECT_EQ(plain.exit, 0) << plain.out;
    size_t mapCases = loadPuzzleSet(test::puzzleDir()).find("map").value()->cases.size();
    std::string all = std::to_string(mapCases) + " of " + std::to_string(mapCases) + " cases pass";
    EXPECT_TRUE(has(plain.out, all)) << plain.out;
    CliRun traced = vkpuzzles("check map " + kernel("map_printf.comp") + " --color never");
    EXPECT_EQ(traced.exit, 0) << traced.out;
    CliRun loop =
        vkpuzzles("check map " + kernel("loop_printf.comp") + " --no-trace --color never");
    EXPECT_EQ(loop.exit, 0) << loop.out;
}

TEST(PrintfCli, APrintingLoopIsCappedPerThreadAndInTheReport) {
    CliRun r = vkpuzzles("run map " + kernel("loop_printf.comp") + " --case 4 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "    line 12: k=63\n    36 more lines not recorded\n")) << r.out;
    EXPECT_FALSE(has(r.out, "k=64")) << r.out;
    EXPECT_TRUE(has(r.out, "684 printf lines were not recorded")) << "19 threads x 36";
    EXPECT_TRUE(has(r.out, "1016 more lines from 16 threads not shown"))
        << "19 x 64 recorded, 200 shown: " << r.out;
    CliRun t =
        vkpuzzlesStdout("trace map " + kernel("loop_printf.comp") + " --case 4 --thread 18 --json");
    auto j = nlohmann::json::parse(t.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << t.out;
    EXPECT_EQ(j["trace"]["printf"]["lines"].size(), 64u);
    EXPECT_EQ(j["trace"]["printf"]["dropped"]["18"], 36);
}

} // namespace
} // namespace vkp
