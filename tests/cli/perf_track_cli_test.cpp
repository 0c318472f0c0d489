// The performance track's puzzles (23-25, issue 23 item 4, 39, 50, 52 and 54) end to end: each
// official solution passes every case and limit; each naive variant
// (tests/data/perf-track/SLUG/*.comp) computes the right values in every case and still fails,
// with the efficiency finding (or the rule's) on the line that costs.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "support/check_json.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::checkJson;
using test::CliRun;
using test::vkpuzzles;

std::string variant(const std::string& slug, const std::string& file) {
    return test::sourceDir() + "/tests/data/perf-track/" + slug + "/" + file;
}

// Every case's outputs are right, and some case fails with a finding of `kind` on `line` (and
// none of that kind on `cleanLine`, where given).
void expectRightButSlow(const std::string& slug, const std::string& file, const std::string& kind,
                        int line, int cleanLine = 0) {
    SCOPED_TRACE(slug + " " + file);
    nlohmann::json doc = checkJson(slug + " " + variant(slug, file), 1);
    ASSERT_TRUE(doc["compiled"].get<bool>()) << doc.dump(2);
    bool found = false;
    for (const auto& c : doc["cases"]) {
        EXPECT_TRUE(c["outputs_match"].get<bool>()) << "case " << c["case"] << ": values wrong";
        for (const auto& f : c["findings"]) {
            if (!f["fails_case"].get<bool>()) continue;
            if (f["kind"] == kind && f["line"] == line) found = true;
            EXPECT_FALSE(f["kind"] == kind && f["line"] == cleanLine) << f.dump();
        }
    }
    EXPECT_TRUE(found) << "no failing '" << kind << "' finding on line " << line << ":\n"
                       << doc["cases"].dump(2).substr(0, 4000);
}

void expectSolutionPasses(const std::string& slug) {
    SCOPED_TRACE(slug);
    nlohmann::json doc = checkJson(slug + " --solution", 0);
    EXPECT_TRUE(doc["pass"].get<bool>());
    EXPECT_GE(doc["cases_total"].get<int>(), 5);
}

TEST(PerfTrackCli, CoalescedSolutionPassesAndNaiveWalksFail) {
    expectSolutionPasses("coalesced");
    expectRightButSlow("coalesced", "column-walk.comp", "uncoalesced", 14);
    expectRightButSlow("coalesced", "stride.comp", "uncoalesced", 17);
}

TEST(PerfTrackCli, TiledTransposePassesAndTheNaiveOneFailsOnItsWrite) {
    expectSolutionPasses("transpose-tiled");
    // The reads (line 14) are coalesced; the writes (line 15) are not.
    expectRightButSlow("transpose-tiled", "naive.comp", "uncoalesced", 15, 14);
}

TEST(PerfTrackCli, PaddedTransposePassesAndTheTiledOneConflicts) {
    expectSolutionPasses("transpose-padded");
    // Puzzle 24's answer: coalesced, but reading the tile down a column is a 32-way conflict.
    expectRightButSlow("transpose-padded", "tiled.comp", "bank conflict", 33);
    expectRightButSlow("transpose-padded", "naive.comp", "uncoalesced", 15, 14);
    // A swizzled tile is another answer: every limit holds.
    nlohmann::json doc =
        checkJson("transpose-padded " + variant("transpose-padded", "swizzled.comp"), 0);
    EXPECT_TRUE(doc["pass"].get<bool>());
}

// Several rows per thread: the official solution passes, an unpadded tile conflicts; a kernel that
// stores each row before it reads the next passes too, since the check cannot see how many loads
// are in flight (the statement says so, and `bench` shows it).
TEST(PerfTrackCli, TransposeItemsPassesAndTheUnpaddedTileConflicts) {
    expectSolutionPasses("transpose-items");
    expectRightButSlow("transpose-items", "unpadded.comp", "bank conflict", 38);
    nlohmann::json doc =
        checkJson("transpose-items " + variant("transpose-items", "row-by-row.comp"), 0);
    EXPECT_TRUE(doc["pass"].get<bool>());
}

// Several items per thread, as a rule the trace checks: a kernel that loads an element and
// stores (or counts) it before loading the next breaks "load all of a thread's cells before ...",
// at the store or atomic between two of its reads.
TEST(PerfTrackCli, ItemsPerThreadLoadsEverythingBeforeStoringAny) {
    expectSolutionPasses("items-per-thread");
    expectRightButSlow("items-per-thread", "load-and-store.comp", "rule", 19);
    expectSolutionPasses("histogram-items");
    expectRightButSlow("histogram-items", "load-and-count.comp", "rule", 27);
    // Histogram in shared memory's own answer: right, coalesced, few atomics, and still one load
    // at a time.
    nlohmann::json doc = checkJson(
        "histogram-items " + test::sourceDir() + "/puzzles/28-histogram-shared/solution.comp", 1);
    ASSERT_FALSE(doc["cases"].empty());
    EXPECT_TRUE(doc["cases"][0]["outputs_match"].get<bool>());
    EXPECT_FALSE(doc["cases"][0]["pass"].get<bool>()) << doc["cases"][0].dump();
}

// Matmul, 32 cells per thread: the official solution passes; a kernel that reads both values of
// every multiply-add from the tiles breaks the rule on that line; one that reads each value once
// a step but a word at a time conflicts where it reads tileB's four columns (lanes 16 bytes apart
// in one request), and not where it reads tileA (a broadcast), while the official vec4 reads of
// the same words are served 8 lanes at a time without a conflict.
TEST(PerfTrackCli, MatmulItemsReadsEachTileValueOnceAStepFourWordsAtATime) {
    expectSolutionPasses("matmul-items");
    expectRightButSlow("matmul-items", "cell-by-cell.comp", "rule", 70);
    expectRightButSlow("matmul-items", "word-by-word.comp", "bank conflict", 72, 70);
}

TEST(PerfTrackCli, StartersFail) {
    for (const char* slug : {"coalesced", "transpose-tiled", "transpose-padded", "transpose-items",
                             "items-per-thread", "histogram-items", "matmul-items"}) {
        CliRun r = vkpuzzles(std::string("check ") + slug + " --starter --color never");
        EXPECT_EQ(r.exit, 1) << slug << "\n" << r.out;
    }
}

TEST(PerfTrackCli, ListShowsThePerformanceTrackAfterTheScans) {
    CliRun r = vkpuzzles("list --color never");
    ASSERT_EQ(r.exit, 0) << r.out;
    size_t scan = r.out.find("scan track"), perf = r.out.find("performance track");
    ASSERT_NE(scan, std::string::npos) << r.out;
    ASSERT_NE(perf, std::string::npos) << r.out;
    EXPECT_LT(scan, perf);
    EXPECT_LT(r.out.find("transpose-tiled"), r.out.find("transpose-padded"));
    EXPECT_LT(r.out.find("transpose-padded"), r.out.find("transpose-items"));
    EXPECT_GT(r.out.find("coalesced"), perf);
}

} // namespace
} // namespace vkp
