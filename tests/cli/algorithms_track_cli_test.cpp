// The algorithms track end to end (issue 24): each official solution passes and each starter
// fails, and each kernel of tests/data/algorithms/SLUG/ that is wrong the way a learner's kernel
// is wrong fails exactly the cases built to catch it (a score of 100 where exp overflows, scores
// near -110 where it rounds to 0, a row shorter than the workgroup, rows near 1000 where a sum of
// squares cancels, segments inside a block) and passes the others, or fails every case on the
// finding it earns (a read limit, a race): cases that a wrong kernel cannot pass by luck.
#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

// What a check's JSON says went wrong, without its passing cases (a report of every case is
// longer than what a CI log keeps of a failure).
std::string failedParts(const std::string& out) {
    nlohmann::json doc = nlohmann::json::parse(out, nullptr, false);
    if (!doc.is_object()) return out;
    nlohmann::json failed = nlohmann::json::array();
    for (const nlohmann::json& c : doc["cases"])
        if (!c.value("pass", false)) failed.push_back(c);
    doc["cases"] = failed;
    return doc.dump(1);
}

nlohmann::json checkJson(const std::string& args, int wantExit) {
    test::CliRun r = test::vkpuzzlesStdout("check " + args + " --json");
    EXPECT_EQ(r.exit, wantExit) << args << "\n" << failedParts(r.out);
    return nlohmann::json::parse(r.out, nullptr, false);
}

// How a failing case must fail.
enum class Outputs { Wrong, Right, Either };

struct Wrong {
    const char* slug;
    const char* kernel;               // under tests/data/algorithms/, or puzzles/ when it starts so
    std::set<int> failing;            // the cases it must fail, 1-based; it passes the others
    Outputs outputs = Outputs::Wrong; // its values in a failing case
    const char* finding = "";         // a finding kind every failing case must have, if any
};

// A kernel whose values are right and whose threads read global memory more than its puzzle
// allows, in every case listed.
Wrong overReads(const char* slug, const char* kernel, std::set<int> cases) {
    return Wrong{slug, kernel, std::move(cases), Outputs::Right, "read limit"};
}

void PrintTo(const Wrong& w, std::ostream* os) {
    *os << w.slug << " " << w.kernel;
}

class AlgorithmsWrongKernelTest : public testing::TestWithParam<Wrong> {};

// The files to check: one kernel, or for a folder (ending in /) of a multi-pass puzzle's wrong
// kernels, its files with the official solution's for the kernels it leaves alone.
std::string kernelFiles(const Wrong& w) {
    std::string kernel = w.kernel;
    std::string path = test::sourceDir() + "/" +
                       (kernel.rfind("puzzles/", 0) == 0 ? "" : "tests/data/algorithms/") + kernel;
    if (kernel.back() != '/') return path;
    std::string files;
    for (const auto& folder : std::filesystem::directory_iterator(test::sourceDir() + "/puzzles")) {
        std::string name = folder.path().filename().string(), suffix = "-" + std::string(w.slug);
        if (name.size() <= suffix.size() ||
            name.compare(name.size() - suffix.size(), std::string::npos, suffix) != 0)
            continue;
        for (const auto& f : std::filesystem::directory_iterator(folder.path() / "solution")) {
            std::filesystem::path own = path + f.path().filename().string();
            files += " " + (std::filesystem::exists(own) ? own : f.path()).string();
        }
    }
    return files;
}

TEST_P(AlgorithmsWrongKernelTest, FailsExactlyTheCasesBuiltToCatchIt) {
    const Wrong& w = GetParam();
    std::string files = kernelFiles(w);
    ASSERT_FALSE(files.empty()) << w.kernel;
    nlohmann::json doc = checkJson(std::string(w.slug) + " " + files, 1);
    ASSERT_TRUE(doc.is_object());
    std::set<int> failed;
    for (const nlohmann::json& c : doc["cases"]) {
        int n = c["case"].get<int>();
        if (c["pass"].get<bool>()) continue;
        failed.insert(n);
        if (w.outputs != Outputs::Either)
            EXPECT_EQ(c["outputs_match"].get<bool>(), w.outputs == Outputs::Right)
                << w.kernel << ", case " << n;
        if (*w.finding) {
            bool found = false;
            for (const nlohmann::json& f : c["findings"])
                found = found || (f["kind"] == w.finding && f["fails_case"] == true);
            EXPECT_TRUE(found) << w.kernel << ", case " << n << ": " << c["findings"].dump();
        }
    }
    EXPECT_EQ(failed, w.failing) << w.kernel;
}

INSTANTIATE_TEST_SUITE_P(
    WrongKernels, AlgorithmsWrongKernelTest,
    testing::Values(
        // exp(x) / sum exp(x): NaN where exp overflows (case 3) or rounds to 0 (case 4).
        Wrong{"softmax", "softmax/naive.comp", {3, 4}},
        // The first score for the max: right unless a larger score overflows exp (case 3).
        Wrong{"softmax", "softmax/first-column-max.comp", {3}},
        // An empty pair of -infinity: NaN once two empty threads merge (case 4: 5 columns, 64
        // threads).
        Wrong{"softmax-online", "softmax-online/infinity-start.comp", {4}},
        // Row softmax's three reads per column: right values, over the read limit everywhere.
        overReads("softmax-online", "puzzles/30-softmax/solution.comp", {1, 2, 3, 4, 5}),
        // sum(x^2) / COLS - mean^2 in floats: cancels on the rows near 1000 (case 3) only.
        Wrong{"layer-norm", "layer-norm/sum-of-squares.comp", {3}},
        // The mean, then the distances from it: right values, over the read limit everywhere.
        overReads("layer-norm", "layer-norm/two-reads-for-the-statistics.comp", {1, 2, 3, 4, 5}),
        // Combining without carrying the partner's head on: passes only where no segment starts
        // inside a block (case 4: every element a head, then one whole block).
        Wrong{"segmented-scan", "segmented-scan/flags-not-combined.comp", {1, 2, 3, 5, 6, 7, 8}},
        // Rounds cut short: segments longer than the distances reached go wrong. Stopping at
        // 16 fails the long segments of case 3 and the block-long ones of cases 5 and 8; one
        // round short (no distance wg / 2) cases 5 and 8, which are there for it (8 with blocks
        // of 48, where stopping at WG / 2 is a round short too: tests/data/wrong).
        Wrong{"segmented-scan", "segmented-scan/stops-at-distance-16.comp", {3, 5, 8}},
        Wrong{"segmented-scan", "segmented-scan/one-round-short.comp", {5, 8}},
        // No barrier between a round's reads and writes: a race in every case, whether or not
        // the threads' order on this device spoiled the values.
        Wrong{"segmented-scan",
              "segmented-scan/no-barrier-between-read-and-write.comp",
              {1, 2, 3, 4, 5, 6, 7, 8},
              Outputs::Either,
              "race"},
        // Five global reads per cell, straight from src: right values, over the read limit.
        overReads("stencil", "stencil/neighbours-from-src.comp", {1, 2, 3, 4}),
        // The tile without its halo: wrong on every tile edge inside the grid.
        Wrong{"stencil", "stencil/no-halo.comp", {1, 2, 3, 4}},
        // One exchange instead of two: each lane ends with its pair's sum, in every case.
        Wrong{"butterfly", "butterfly/pairs-only.comp", {1, 2, 3, 4, 5}},
        // Every lane loads the block's scale: right values, WG loads of `scale` per workgroup
        // where the rule allows ceil(WG / 4), in every case.
        Wrong{"subgroup-broadcast",
              "subgroup-broadcast/every-lane-loads.comp",
              {1, 2, 3, 4, 5, 6, 7},
              Outputs::Right,
              "rule"},
        // One load into shared memory behind a barrier: right values, and the rule forbids
        // shared memory, in every case.
        Wrong{"subgroup-broadcast",
              "subgroup-broadcast/shared-and-barrier.comp",
              {1, 2, 3, 4, 5, 6, 7},
              Outputs::Right,
              "rule"},
        // The workgroup's thread 0 loads the scale: the other subgroups broadcast 0. Right in the
        // workgroups of 4 to 8 threads (one subgroup), wrong in those of 100 threads and more
        // (cases 3, 4, 5, 7), on any device whose subgroups have 8 to 64 lanes.
        Wrong{"subgroup-broadcast", "subgroup-broadcast/workgroup-thread-zero.comp", {3, 4, 5, 7}},
        // The inclusive bit count for a place: every kept element one cell to the right, in
        // every case.
        Wrong{"ballot-compact", "ballot-compact/inclusive-count.comp", {1, 2, 3, 4, 5, 6, 7, 8}},
        // The ballot's places without the earlier subgroups' counts: right where a workgroup is
        // one subgroup (4 to 8 threads), wrong from 96 threads up (cases 3, 4, 5, 8), on any
        // device whose subgroups have 8 to 64 lanes.
        Wrong{"ballot-compact", "ballot-compact/no-subgroup-base.comp", {3, 4, 5, 8}},
        // Scatter taking the keys as count does (thread t: keys j * WG + t): right places per
        // digit, but not stable. Case 1 (one of two digits), 4, 5, 6 and 7 have keys whose
        // order the next rounds need; with one key per thread (case 3) the two are the same, and
        // case 2's 9 keys of 32 random bits are told apart by their first digit alone.
        Wrong{"radix-sort", "radix-sort/coalesced-scatter/", {1, 4, 5, 6, 7}},
        // Counts tile by tile (counts[tile * 16 + digit]): the scan then puts all of tile 0 before
        // tile 1. Right only with one tile (cases 1 and 5).
        Wrong{"radix-sort", "radix-sort/tile-major-counts/", {2, 3, 4, 6, 7}},
        // Right places, but scatter reads its keys twice: over the rule of ITEMS reads.
        Wrong{"radix-sort",
              "radix-sort/keys-read-twice/",
              {1, 2, 3, 4, 5, 6, 7},
              Outputs::Right,
              "rule"},
        // Every workgroup loads the keys of its head's last query: right values, and the rule
        // that names the workgroup's bound (min(SQ, (group_x + 1) * WG) * D) breaks wherever a
        // head has more than one workgroup.
        Wrong{"attention-causal",
              "attention-causal/every-key-of-the-head.comp",
              {1, 2, 4, 5},
              Outputs::Right,
              "rule"},
        // One sweep without the start of each digit in `sorted` (the histogram's scan): every
        // key lands among the keys of digit 0's places, in every case.
        Wrong{"radix-sort-onesweep",
              "radix-sort-onesweep/no-digit-start/",
              {1, 2, 3, 4, 5, 6, 7},
              Outputs::Either}),
    // (radix-sort-onesweep/no-fallback/ fails cases 2, 3 and 4 under their forced schedules:
    // tests/check/schedule_test.cpp. Its other cases pass or not with the machine's load.)
    [](const testing::TestParamInfo<Wrong>& info) {
        std::string name = std::string(info.param.slug) + "_" + info.param.kernel;
        for (char& ch : name)
            if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
        return name;
    });

// A shuffle is traced: which lane's value arrived, and what it was (the butterfly's example:
// a = [3, 1, 7, 0, ...], lanes numbered along the workgroup as on every device we know).
TEST(AlgorithmsTrackCliTest, TheTraceSaysWhichLaneEachShuffledValueCameFrom) {
    test::CliRun r = test::vkpuzzlesStdout("trace butterfly --solution --case 1 --thread 1");
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_NE(r.out.find("lanes xor 1: 3 from lane 0, thread 0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("lanes xor 2: 7 from lane 3, thread 3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("write result[1] = 11"), std::string::npos) << r.out;
    test::CliRun j = test::vkpuzzlesStdout("trace butterfly --solution --case 1 --thread 1 --json");
    ASSERT_EQ(j.exit, 0) << j.out;
    nlohmann::json doc = nlohmann::json::parse(j.out, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << j.out;
    const nlohmann::json& events = doc["trace"]["threads"][0]["events"];
    ASSERT_EQ(events.size(), 4u) << events.dump();
    EXPECT_EQ(events[1]["kind"], "shuffle");
    EXPECT_EQ(events[1]["op"], "xor");
    EXPECT_EQ(events[1]["index"], 1);
    EXPECT_EQ(events[1]["from_invocation"], 0);
    EXPECT_EQ(events[2]["from_invocation"], 3);
}

// subgroupBroadcastFirst names no lane: the trace records the first active lane as the device
// found it. Only lanes 3 and up of each subgroup run this broadcast (subgroups of 8 on
// lavapipe), so thread 13 (lane 5 of workgroup 1) took lane 3's value: thread 11's, 13.
TEST(AlgorithmsTrackCliTest, ABroadcastFirstComesFromTheFirstLaneThatRanIt) {
    std::string kernel =
        test::sourceDir() + "/tests/data/algorithms/subgroup-broadcast/upper-lanes-broadcast.comp";
    test::CliRun r =
        test::vkpuzzlesStdout("trace subgroup-broadcast " + kernel + " --case 1 --thread 13");
    EXPECT_NE(
        r.out.find("lanes broadcast first: 13 from lane 3, thread 11 (local 3 of workgroup 1)"),
        std::string::npos)
        << r.out;
    test::CliRun j = test::vkpuzzlesStdout("trace subgroup-broadcast " + kernel +
                                           " --case 1 --thread 13 --json");
    nlohmann::json doc = nlohmann::json::parse(j.out, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << j.out;
    const nlohmann::json& events = doc["trace"]["threads"][0]["events"];
    ASSERT_FALSE(events.empty()) << j.out;
    EXPECT_EQ(events[0]["op"], "broadcast first");
    EXPECT_EQ(events[0]["index"], 3) << "the first active lane";
    EXPECT_EQ(events[0]["from_invocation"], 11);
    // The official solution: every lane runs it, so lane 0 of each subgroup is the first.
    test::CliRun s =
        test::vkpuzzlesStdout("trace subgroup-broadcast --solution --case 3 --thread 45");
    EXPECT_NE(
        s.out.find("broadcast first: 0.0625 from lane 0, thread 40 (local 40 of workgroup 0)"),
        std::string::npos)
        << s.out;
}

// A shuffle from a lane that skipped the branch: the trace says the lane did not run it (the
// traced kernel's ballot), names no source, and the case fails on the undefined value although
// lavapipe handed over the right one.
TEST(AlgorithmsTrackCliTest, AShuffleFromALaneThatDidNotRunItIsUndefined) {
    std::string kernel =
        test::sourceDir() + "/tests/data/traced/subgroup-broadcast-shuffle-from-inactive-lane.comp";
    test::CliRun j =
        test::vkpuzzlesStdout("trace subgroup-broadcast " + kernel + " --case 1 --thread 1 --json");
    EXPECT_EQ(j.exit, 1) << j.out;
    nlohmann::json doc = nlohmann::json::parse(j.out, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << j.out;
    bool sawShuffle = false;
    for (const nlohmann::json& e : doc["trace"]["threads"][0]["events"])
        if (e["kind"] == "shuffle") {
            sawShuffle = true;
            EXPECT_EQ(e["source_ran"], false) << e;
            EXPECT_TRUE(e["from_invocation"].is_null()) << e;
        }
    EXPECT_TRUE(sawShuffle) << j.out;
    EXPECT_EQ(doc["cases"][0]["findings"][0]["kind"], "undefined shuffle") << j.out;
    // The official solution's broadcast: every lane ran it.
    test::CliRun ok =
        test::vkpuzzlesStdout("trace subgroup-broadcast --solution --case 1 --thread 1 --json");
    nlohmann::json good = nlohmann::json::parse(ok.out, nullptr, false);
    ASSERT_TRUE(good.is_object()) << ok.out;
    for (const nlohmann::json& e : good["trace"]["threads"][0]["events"])
        if (e["kind"] == "shuffle") EXPECT_EQ(e["source_ran"], true) << e;
}

TEST(AlgorithmsTrackCliTest, OfficialSolutionsPassAndStartersFail) {
    for (const char* slug :
         {"softmax", "softmax-online", "layer-norm", "segmented-scan", "stencil", "butterfly",
          "subgroup-broadcast", "ballot-compact", "radix-sort", "radix-sort-onesweep"}) {
        nlohmann::json ok = checkJson(std::string(slug) + " --solution", 0);
        ASSERT_TRUE(ok.is_object()) << slug;
        EXPECT_EQ(ok["cases_passed"], ok["cases_total"]) << slug;
        nlohmann::json starter = checkJson(std::string(slug) + " --starter", 1);
        ASSERT_TRUE(starter.is_object()) << slug;
        EXPECT_EQ(starter["cases_passed"], 0) << slug;
    }
}

} // namespace
} // namespace vkp
