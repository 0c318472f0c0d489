// The content tier's benchmarks (CTest: bench_every_puzzle, label content): every bundled
// puzzle's official solution benchmarked at a small N in one process, `vkpuzzles bench --all`,
// each right, or not run only where the device lacks what the puzzle needs; and the seeds' scan
// comparison, `vkpuzzles bench --all-scans`, with a time for every scan of the track beside the
// copy and the CPU's scan. Few repetitions and no warm-up: these check that everything runs and
// is right, not how fast (nothing here depends on the machine's speed).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>

#include <nlohmann/json.hpp>

#include "bench/bench.h"
#include "puzzle/puzzle_loader.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::has;

const char* const kSmall = " --n 2^12 --reps 2 --warmup 0";

TEST(BenchEveryPuzzle, EveryOfficialSolutionBenchmarksAtASmallN) {
    PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    ASSERT_TRUE(set.errors.empty()) << set.errors[0].str();
    test::CliRun r = test::vkpuzzlesStdout(std::string("bench --all --json") + kSmall);
    auto doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << r.out;
    std::map<std::string, nlohmann::json> rows;
    for (const auto& row : doc["results"])
        rows[row["puzzle"].get<std::string>()] = row;
    EXPECT_EQ(rows.size(), set.puzzles.size());
    size_t notRun = 0;
    for (const Puzzle& p : set.puzzles) {
        ASSERT_TRUE(rows.count(p.slug)) << p.slug << " is missing from\n" << r.out;
        const nlohmann::json& row = rows[p.slug];
        EXPECT_FALSE(row.contains("error")) << p.slug << ": " << row.dump();
        if (row.contains("not_run")) { // only what the device lacks, and it says what
            ++notRun;
            EXPECT_FALSE(p.needs.empty()) << p.slug << " needs nothing special: " << row.dump();
            EXPECT_TRUE(has(row["not_run"].get<std::string>(), " lacks ") ||
                        has(row["not_run"].get<std::string>(), "this vkpuzzles cannot ask"))
                << p.slug << ": " << row.dump();
            continue;
        }
        EXPECT_EQ(row["pass"], true) << p.slug << ": " << row.dump();
        EXPECT_GT(row["median_ms"].get<double>(), 0.0) << p.slug;
        EXPECT_EQ(row["n_asked"], 4096) << p.slug;
        // At the N asked, or at its own where its launch is one workgroup.
        if (auto fixed = fixedLaunch(p, p.benchCase)) {
            EXPECT_EQ(row["n"], fixed->n) << p.slug;
            EXPECT_EQ(row["fixed_launch"], fixed->why) << p.slug;
        } else {
            EXPECT_EQ(row["n"], 4096) << p.slug;
            EXPECT_TRUE(row["fixed_launch"].is_null()) << p.slug;
        }
    }
    EXPECT_EQ(r.exit, 0) << "every benchmark right, what was not run aside (" << notRun << ")";
    EXPECT_EQ(doc["pass"], r.exit == 0);
}

// The seeds' comparison: Hillis-Steele, Blelloch (scan-workgroup), the blocked scans, the
// subgroup scan, the single pass and compaction, each with its N, a time and G elements per
// second, then the copy and the CPU's sequential scan at the same N.
TEST(BenchEveryPuzzle, TheScanComparisonListsEveryScanWithATime) {
    PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    test::CliRun r = test::vkpuzzlesStdout(std::string("bench --all-scans --color never") + kSmall);
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "official scans, N = 2^12 elements on ")) << r.out;
    std::vector<std::string> rows;
    for (const Puzzle& p : set.puzzles)
        if (p.track == "scan") rows.push_back(p.slug);
    EXPECT_GE(rows.size(), 8u);
    for (const char* slug : {"scan-hillis-steele", "scan-workgroup", "scan-blocks", "scan-levels",
                             "scan-reduce-then-scan", "scan-subgroup", "scan-decoupled", "compact"})
        EXPECT_NE(std::find(rows.begin(), rows.end(), slug), rows.end()) << slug;
    rows.insert(rows.end(),
                {"copy (vkCmdCopyBuffer)", "copy (copy shader)", "CPU sequential scan"});
    // A row: its name, its N (2^K or a count), then a median time in ms.
    std::string lines = r.out;
    for (const std::string& row : rows) {
        std::regex line("\\n  " + std::regex_replace(row, std::regex("[()]"), "\\$&") +
                        " +(2\\^\\d+|\\d+) +(\\d+\\.\\d+) ");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(lines, m, line)) << row << " has no time in\n" << r.out;
        if (row.rfind("CPU", 0) != 0) // a CPU's scan of 2^12 uints may print as 0.000 ms
            EXPECT_GT(std::stod(m[2]), 0.0) << row;
    }
    EXPECT_FALSE(has(r.out, "not benchmarked")) << r.out;
    EXPECT_FALSE(has(r.out, "WRONG")) << r.out;
}

} // namespace
} // namespace vkp
