// [limits] on efficiency end to end on synthetic traces: puzzle.toml text is parsed, caseChecks
// evaluates the limits for a case, and analyzeCase fails the case with a finding that names the
// line, the figure, the limit and the cause.
#include <gtest/gtest.h>

#include <string>

#include "judge/statement_rules.h"
#include "puzzle/puzzle_loader.h"
#include "support/trace_builder.h"

namespace vkp {
namespace {

using namespace test;

// A puzzle with buffers a (input) and result (output), one case of 64 threads in two workgroups.
Puzzle load(const std::string& limits) {
    std::string text =
        "title = \"T\"\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = []\n"
        "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"uint\"\nrole = \"input\"\n"
        "[[buffers]]\nname = \"result\"\nbinding = 1\ntype = \"uint\"\nrole = \"output\"\n"
        "[[cases]]\nworkgroup_size = [32]\nworkgroups = [2]\n"
        "inputs.a = { shape = [64], fill = \"iota\" }\n"
        "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 1 }\n"
        "[limits]\n" +
        limits;
    auto p = parsePuzzle(text, "p/puzzle.toml", "p");
    EXPECT_TRUE(p.ok()) << p.error().str();
    return p.ok() ? *p : Puzzle{};
}

TraceAnalysis judge(const Puzzle& p, const Trace& t) {
    return analyzeCase(t, caseChecks(p, p.cases[0]));
}

// 64 threads: thread i reads a[i] (line 5) and writes result[stride * i] (line 6).
TraceBuilder copy(uint32_t stride) {
    TraceBuilder b({32, 1, 1}, {2, 1, 1});
    uint32_t a = b.buffer("a", 64), result = b.buffer("result", 64 * stride);
    for (uint32_t i = 0; i < 64; ++i) {
        b.read(i, a, i, 5);
        b.write(i, result, stride * i, i + 1, 6);
    }
    return b;
}

TEST(EfficiencyLimits, LoadedWithTheirValues) {
    Puzzle p = load("global_efficiency = 0.5\nbank_conflicts = 2\ndivergent_requests = \"WG / "
                    "16\"\nglobal_atomics_per_workgroup = 4\n");
    EXPECT_EQ(p.limits.globalEfficiency, 0.5);
    EXPECT_EQ(p.limits.bankConflicts, 2u);
    EXPECT_EQ(p.limits.globalAtomicsPerWorkgroup, 4u);
    CaseChecks c = caseChecks(p, p.cases[0]);
    EXPECT_EQ(c.limits.divergentRequests, 2u); // 32 / 16 in this case
    EXPECT_EQ(c.limits.globalEfficiency, 0.5);
    EXPECT_TRUE(c.limits.anyEfficiency());
}

TEST(EfficiencyLimits, UncoalescedWriteFailsWithTheLineAndTheRatio) {
    Puzzle p = load("global_efficiency = 1.0\n");
    TraceAnalysis a = judge(p, copy(33).t);
    auto found = findingsOf(a, FindingKind::Uncoalesced);
    ASSERT_EQ(found.size(), 1u) << allMessages(a);
    EXPECT_TRUE(a.failsCase());
    EXPECT_EQ(found[0]->line, 6u);
    EXPECT_EQ(found[0]->message,
              "line 6: a request of 32 lanes touched 32 sectors where 4 would hold its bytes "
              "(0.13; the puzzle allows global_efficiency = 1.0): neighbouring threads write "
              "addresses 132 bytes apart");
    EXPECT_DOUBLE_EQ(a.efficiency.globalEfficiency, 0.125);
}

TEST(EfficiencyLimits, CoalescedCopyPasses) {
    Puzzle p = load("global_efficiency = 1.0\nbank_conflicts = 1\ndivergent_requests = 0\n"
                    "global_atomics_per_workgroup = 0\n");
    TraceAnalysis a = judge(p, copy(1).t);
    EXPECT_FALSE(a.failsCase()) << allMessages(a);
}

TEST(EfficiencyLimits, AHalfEfficientRequestPassesALimitOfOneHalf) {
    Puzzle p = load("global_efficiency = 0.5\n");
    EXPECT_FALSE(judge(p, copy(2).t).failsCase());
    EXPECT_TRUE(judge(p, copy(4).t).failsCase());
}

// Skipped lanes leave gaps: lanes 5, 6 and 8 writing elements 5, 6 and 8 (a histogram's merge,
// bin 7 empty) touch bytes 20 to 35, two sectors, and no arrangement of those lanes needs fewer.
// The same few lanes far apart in memory are still uncoalesced.
TEST(EfficiencyLimits, LanesThatSkipAreNotUncoalesced) {
    Puzzle p = load("global_efficiency = 1.0\n");
    auto sparse = [](uint32_t stride) {
        TraceBuilder b({32, 1, 1}, {2, 1, 1});
        uint32_t result = b.buffer("result", 64 * stride);
        for (uint32_t i : {5u, 6u, 8u, 37u, 38u, 40u})
            b.write(i, result, stride * i, 1, 6);
        return b;
    };
    TraceAnalysis gaps = judge(p, sparse(1).t);
    EXPECT_FALSE(gaps.failsCase()) << allMessages(gaps);
    EXPECT_DOUBLE_EQ(gaps.efficiency.globalEfficiency, 1.0);
    TraceAnalysis apart = judge(p, sparse(16).t);
    auto found = findingsOf(apart, FindingKind::Uncoalesced);
    ASSERT_EQ(found.size(), 1u) << allMessages(apart);
    EXPECT_TRUE(contains(found[0]->message, "touched 3 sectors where 1 would hold its bytes"))
        << found[0]->message;
}

TEST(EfficiencyLimits, BankConflictFails) {
    Puzzle p = load("bank_conflicts = 1\n");
    TraceBuilder b({32, 1, 1}, {2, 1, 1});
    uint32_t tile = b.shared("tile", {32, 32});
    for (uint32_t i = 0; i < 64; ++i)
        b.write(i, tile, (i % 32) * 32, 0, 9); // a column
    TraceAnalysis a = judge(p, b.t);
    auto found = findingsOf(a, FindingKind::BankConflict);
    ASSERT_EQ(found.size(), 1u) << allMessages(a);
    EXPECT_EQ(found[0]->line, 9u);
    EXPECT_TRUE(contains(found[0]->message, "line 9: 32-way bank conflict on tile: lanes 0, 1, "
                                            "2\u2026 hit bank 0"))
        << found[0]->message;
    EXPECT_TRUE(contains(found[0]->message, "the puzzle allows bank_conflicts = 1 (no conflicts)"));
}

TEST(EfficiencyLimits, DivergenceCountsPerWorkgroup) {
    TraceBuilder b({32, 1, 1}, {2, 1, 1});
    uint32_t result = b.buffer("result", 64);
    for (uint32_t i = 0; i < 64; ++i)
        for (uint32_t k = 0; k < 3; ++k)
            if (i % 32 < 16 || i >= 32) b.write(i, result, i, k, 12 + k);
    // Workgroup 0: three divergent requests (lines 12, 13, 14); workgroup 1: none.
    EXPECT_FALSE(judge(load("divergent_requests = 3\n"), b.t).failsCase());
    TraceAnalysis a = judge(load("divergent_requests = \"WG / 16\"\n"), b.t);
    auto found = findingsOf(a, FindingKind::Divergence);
    ASSERT_EQ(found.size(), 1u) << allMessages(a);
    EXPECT_TRUE(contains(found[0]->message,
                         "workgroup 0 made 3 requests in which only some lanes of a subgroup ran; "
                         "the puzzle allows divergent_requests = WG / 16, which is 2 in this case "
                         "per workgroup"))
        << found[0]->message;
    EXPECT_TRUE(contains(found[0]->message, "25% of the lanes idle at line 1"));
}

TEST(EfficiencyLimits, GlobalAtomicsPerWorkgroup) {
    TraceBuilder b({32, 1, 1}, {2, 1, 1});
    uint32_t hist = b.buffer("hist", 4);
    for (uint32_t i = 0; i < 64; ++i)
        b.atomic(i, hist, i % 4, 20);
    TraceAnalysis a = judge(load("global_atomics_per_workgroup = 4\n"), b.t);
    auto found = findingsOf(a, FindingKind::GlobalAtomics);
    ASSERT_EQ(found.size(), 1u) << allMessages(a);
    EXPECT_EQ(found[0]->line, 20u);
    EXPECT_TRUE(contains(found[0]->message, "line 20: workgroup 0 made 32 atomic operations on "
                                            "buffers; the puzzle allows "
                                            "global_atomics_per_workgroup = 4"))
        << found[0]->message;
    EXPECT_FALSE(judge(load("global_atomics_per_workgroup = 32\n"), b.t).failsCase());
}

TEST(EfficiencyLimits, PartialTraceJudgesOnlyTheAtomicsCount) {
    TraceBuilder b = copy(33);
    b.t.dropped = 10; // some records did not fit: requests may miss lanes
    TraceAnalysis a = judge(load("global_efficiency = 1.0\n"), b.t);
    EXPECT_TRUE(findingsOf(a, FindingKind::Uncoalesced).empty()) << allMessages(a);
    EXPECT_FALSE(findingsOf(a, FindingKind::TraceOverflow).empty());
}

TEST(EfficiencyLimits, NoLimitsNoFindingsButFigures) {
    TraceAnalysis a = judge(load("global_reads = 1\n"), copy(33).t);
    EXPECT_FALSE(a.failsCase()) << allMessages(a);
    EXPECT_FALSE(a.efficiency.lines.empty()); // the figures are there for the profile and the app
}

} // namespace
} // namespace vkp
