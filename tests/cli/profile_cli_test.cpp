// `vkpuzzles profile` and the efficiency limits of `check` (issue 23), on the real binary and
// lavapipe, with the transpose of tests/data/efficiency: naive.comp writes a column (8x the
// sectors), tiled.comp reads its shared tile down a column (a 32-way bank conflict), padded.comp
// does neither. The puzzle sets global_efficiency = 1.0 and bank_conflicts = 1.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;

std::string puzzleDir() {
    return test::sourceDir() + "/tests/data/efficiency/01-transpose";
}
CliRun run(const std::string& args) {
    return vkpuzzles("--puzzles " + test::sourceDir() + "/tests/data/efficiency --color never " +
                     args);
}
std::string kernel(const std::string& name) {
    return puzzleDir() + "/" + name;
}

TEST(ProfileCliTest, NaiveTransposeNamesTheUncoalescedWriteWithItsRatio) {
    CliRun r = run("profile eff-transpose " + kernel("naive.comp"));
    EXPECT_EQ(r.exit, 1) << r.out; // the case fails global_efficiency
    EXPECT_TRUE(has(r.out, "memory model: 32 lanes, 32-byte sectors, 32 banks of 4 bytes"))
        << r.out;
    EXPECT_TRUE(has(r.out, "case 2: ")) << r.out; // the last case, the one bench scales
    EXPECT_TRUE(has(r.out, "the case `vkpuzzles bench` scales")) << r.out;
    EXPECT_TRUE(has(r.out, "result[x * N + y] = a[y * N + x];")) << r.out;
    EXPECT_TRUE(has(r.out, "[8.0x sectors] 8.0x the sectors needed: neighbouring threads write "
                           "addresses 256 bytes apart"))
        << r.out;
    // The finding that fails the case, with the limit.
    EXPECT_TRUE(has(r.out, "line 13: a request of 32 lanes touched 32 sectors where 4 would hold "
                           "its bytes (0.13; the puzzle allows global_efficiency = 1.0)"))
        << r.out;
}

TEST(ProfileCliTest, TiledTransposeNamesTheBankConflict) {
    CliRun r = run("profile eff-transpose " + kernel("tiled.comp") + " --case 1");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "case 1: ")) << r.out;
    EXPECT_TRUE(has(r.out, "asked for with --case")) << r.out;
    EXPECT_TRUE(has(r.out, "[32-way] 32-way bank conflict on tile: lanes 0, 1, 2")) << r.out;
    EXPECT_FALSE(has(r.out, "x sectors]")) << r.out; // both global accesses are rows
}

TEST(ProfileCliTest, PaddedTransposeShowsNone) {
    CliRun r = run("profile eff-transpose --solution");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "no uncoalesced accesses, bank conflicts, idle lanes")) << r.out;
    EXPECT_TRUE(has(r.out, "tile[ty][tx] = a[")) << r.out; // every access line is listed
    EXPECT_FALSE(has(r.out, "-way")) << r.out;
}

// Several items per thread show as the work of a thread: 5760 cells for 768 threads.
TEST(ProfileCliTest, TheWorkPerThreadShowsSeveralItemsPerThread) {
    CliRun r = vkpuzzles("profile items-per-thread --solution --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "buffer accesses per thread: 7.50 reads, 7.50 writes (768 threads)"))
        << r.out;
    CliRun one =
        vkpuzzles("profile coalesced --solution --color never"); // 1920 cells, 2048 threads
    EXPECT_TRUE(has(one.out, "buffer accesses per thread: 0.94 reads, 0.94 writes (2048 threads)"))
        << one.out;
}

TEST(ProfileCliTest, JsonHasTheLinesAndTheModel) {
    CliRun r = test::vkpuzzlesStdout("--puzzles " + test::sourceDir() +
                                     "/tests/data/efficiency profile eff-transpose " +
                                     kernel("naive.comp") + " --json");
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    EXPECT_EQ(j["version"], 1);
    EXPECT_EQ(j["case"], 2);
    EXPECT_EQ(j["model"]["sector_bytes"], 32);
    EXPECT_EQ(j["pass"], false);
    EXPECT_EQ(j["outputs_match"], true);
    const auto& line = j["dispatches"][0]["lines"][0];
    EXPECT_EQ(line["line"], 13);
    EXPECT_EQ(line["cost"], "severe");
    EXPECT_EQ(line["badge"], "8.0x sectors");
    // The line's two accesses: the write, 128 requests of 32 sectors where 4 or 5 would do (5
    // where a column starts mid-sector), and the read, 128 requests of 4.
    EXPECT_EQ(line["sectors"], 128 * 32 + 128 * 4);
    EXPECT_GE(line["needed_sectors"], 128 * 4 + 128 * 4);
    EXPECT_LE(line["needed_sectors"], 128 * 5 + 128 * 4);
    EXPECT_DOUBLE_EQ(j["dispatches"][0]["global_efficiency"].get<double>(), 0.125);
}

TEST(ProfileCliTest, CheckFailsTheNaiveKernelWithTheFindingAndPassesThePadded) {
    CliRun naive = run("check eff-transpose " + kernel("naive.comp"));
    EXPECT_EQ(naive.exit, 1) << naive.out;
    EXPECT_TRUE(has(naive.out, "uncoalesced")) << naive.out;
    EXPECT_TRUE(has(naive.out, "the puzzle allows global_efficiency = 1.0")) << naive.out;
    CliRun tiled = run("check eff-transpose " + kernel("tiled.comp"));
    EXPECT_EQ(tiled.exit, 1) << tiled.out;
    EXPECT_TRUE(has(tiled.out, "the puzzle allows bank_conflicts = 1 (no conflicts)")) << tiled.out;
    CliRun padded = run("check eff-transpose --solution");
    EXPECT_EQ(padded.exit, 0) << padded.out;
    // Like the read limits, the efficiency limits need the trace: --no-trace compares outputs.
    CliRun untraced = run("check eff-transpose " + kernel("naive.comp") + " --no-trace");
    EXPECT_EQ(untraced.exit, 0) << untraced.out;
}

TEST(ProfileCliTest, CheckJsonNamesTheFindingKind) {
    CliRun r = test::vkpuzzlesStdout("--puzzles " + test::sourceDir() +
                                     "/tests/data/efficiency check eff-transpose " +
                                     kernel("naive.comp") + " --json");
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    const auto& f = j["cases"][0]["findings"][0];
    EXPECT_EQ(f["kind"], "uncoalesced");
    EXPECT_EQ(f["line"], 13);
}

TEST(ProfileCliTest, ShowListsTheEfficiencyLimits) {
    CliRun r = run("show eff-transpose");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "Efficiency limits")) << r.out;
    EXPECT_TRUE(has(r.out, "bank_conflicts = 1: no shared-memory bank conflicts")) << r.out;
}

TEST(ProfileCliTest, BadCaseIsAUsageError) {
    CliRun r = run("profile eff-transpose --solution --case 9");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "--case needs a whole number from 1 to 2")) << r.out;
}

} // namespace
} // namespace vkp
