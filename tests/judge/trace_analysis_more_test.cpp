// analyzeTrace on synthetic traces: loop budgets, divergent barriers, dropped records,
// collapsing of repeated findings, and multi-dimensional shared arrays.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "judge/trace_analysis.h"
#include "support/trace_builder.h"

namespace vkp {
namespace {

using namespace test;

// --- (g) loop budget ---------------------------------------------------------------------------

TEST(TraceAnalysis, LoopBudgetEventsAreOneFindingCountingTheThreads) {
    TraceBuilder b({4, 1, 1});
    b.loopBudget(1, 12).loopBudget(3, 12);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    const Finding& f = a.findings[0];
    EXPECT_EQ(f.kind, FindingKind::LoopBudget);
    EXPECT_EQ(f.occurrences, 2u);
    EXPECT_EQ(f.threads, (std::vector<uint64_t>{1}));
    EXPECT_EQ(f.line, 12u);
    EXPECT_TRUE(f.failsCase);
    EXPECT_EQ(f.message,
              "thread 1 was stopped after " + std::to_string(kDefaultLoopBudget) +
                  " loop iterations in the loop at line 12: an endless loop? (2 threads ran out)");
}

TEST(TraceAnalysis, OneLoopBudgetEventHasNoThreadCount) {
    TraceBuilder b({2, 1, 1});
    b.loopBudget(0, 7, 11);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    EXPECT_EQ(
        a.findings[0].message,
        "thread 0 was stopped after 10 loop iterations in the loop at line 7: an endless loop?");
    EXPECT_EQ(a.findings[0].occurrences, 1u);
}

// --- (h) divergent barriers --------------------------------------------------------------------

TEST(TraceAnalysis, DifferentBarrierCountsInAWorkgroupDiverge) {
    TraceBuilder b({3, 1, 1});
    b.barrier(0, 4).barrier(1, 4).barrier(0, 6).barrier(1, 6).barrier(2, 4);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto d = findingsOf(a, FindingKind::DivergentBarrier);
    ASSERT_EQ(d.size(), 1u) << allMessages(a);
    EXPECT_EQ(d[0]->threads, (std::vector<uint64_t>{0, 2}));
    EXPECT_TRUE(contains(d[0]->message, "thread 0 passed 2 barriers but thread 2 passed 1"))
        << d[0]->message;
    EXPECT_TRUE(d[0]->failsCase);
}

TEST(TraceAnalysis, ThreadsAtDifferentBarriersDivergeWhateverTheCounts) {
    // Thread 0 and 1 pass the barrier at line 4, thread 2 the one at line 9, then all meet at
    // line 12: as many barriers each, but not the same ones.
    TraceBuilder b({3, 1, 1});
    b.barrier(0, 4).barrier(1, 4).barrier(2, 9);
    b.barrier(0, 12).barrier(1, 12).barrier(2, 12);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto d = findingsOf(a, FindingKind::DivergentBarrier);
    ASSERT_EQ(d.size(), 1u) << allMessages(a);
    EXPECT_EQ(d[0]->threads, (std::vector<uint64_t>{0, 2}));
    EXPECT_EQ(d[0]->line, 9u);
    EXPECT_TRUE(contains(d[0]->message, "the 1st barrier that thread 0 reached is the one at line "
                                        "4, but thread 2 reached the one at line 9"))
        << d[0]->message;
    EXPECT_TRUE(d[0]->failsCase);
    // The same sites in the same order, however often (a barrier in a loop), are no finding.
    TraceBuilder c({2, 1, 1});
    c.barrier(0, 4).barrier(0, 7).barrier(0, 7).barrier(1, 4).barrier(1, 7).barrier(1, 7);
    EXPECT_TRUE(analyzeTrace(c.t, Limits{}).findings.empty());
    // Sites that differ after the shorter thread's last barrier: the counts say it.
    TraceBuilder e({2, 1, 1});
    e.barrier(0, 4).barrier(0, 7).barrier(1, 4);
    TraceAnalysis ae = analyzeTrace(e.t, Limits{});
    auto de = findingsOf(ae, FindingKind::DivergentBarrier);
    ASSERT_EQ(de.size(), 1u);
    EXPECT_TRUE(contains(de[0]->message, "passed 2 barriers but thread 1 passed 1"))
        << de[0]->message;
}

TEST(TraceAnalysis, BarrierCountsCountTrailingEvents) {
    // A thread whose last event follows its barrier passed as many barriers as one ending on it.
    TraceBuilder b({2, 1, 1});
    uint32_t out = b.buffer("out", 2);
    b.barrier(0, 3).write(0, out, 0, 1, 5);
    b.barrier(1, 3);
    EXPECT_TRUE(analyzeTrace(b.t, Limits{}).findings.empty());
    // No barrier at all in one thread: divergent.
    TraceBuilder c({2, 1, 1});
    uint32_t out2 = c.buffer("out", 2);
    c.barrier(0, 3).write(1, out2, 1, 1, 5);
    EXPECT_EQ(findingsOf(analyzeTrace(c.t, Limits{}), FindingKind::DivergentBarrier).size(), 1u);
}

TEST(TraceAnalysis, BarrierCountsOnlyCompareWithinAWorkgroup) {
    TraceBuilder b({2, 1, 1}, {2, 1, 1});
    b.barrier(0).barrier(1);                       // workgroup 0: one barrier each
    b.barrier(2).barrier(3).barrier(2).barrier(3); // workgroup 1: two each
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

TEST(TraceAnalysis, AThreadStoppedByTheLoopBudgetIsNoDivergence) {
    TraceBuilder b({2, 1, 1});
    b.barrier(0, 3).barrier(0, 8);
    b.barrier(1, 3).loopBudget(1, 5); // stopped in a loop before the second barrier
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(findingsOf(a, FindingKind::DivergentBarrier).empty()) << allMessages(a);
    EXPECT_EQ(findingsOf(a, FindingKind::LoopBudget).size(), 1u);
}

TEST(TraceAnalysis, TheFirstThreadStoppedByTheLoopBudgetIsNoDivergence) {
    // As above, but the stopped thread is the workgroup's first, which the others are compared
    // with.
    TraceBuilder b({2, 1, 1});
    b.barrier(0, 3).loopBudget(0, 5);
    b.barrier(1, 3).barrier(1, 8);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_EQ(findingsOf(a, FindingKind::LoopBudget).size(), 1u);
    EXPECT_TRUE(findingsOf(a, FindingKind::DivergentBarrier).empty()) << allMessages(a);
}

TEST(TraceAnalysis, DroppedRecordsExcuseBarrierDifferences) {
    TraceBuilder b({2, 1, 1});
    b.barrier(0).barrier(0).barrier(1);
    b.t.dropped = 3;
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(findingsOf(a, FindingKind::DivergentBarrier).empty()) << allMessages(a);
    EXPECT_EQ(findingsOf(a, FindingKind::TraceOverflow).size(), 1u);
}

// --- (i) trace overflow and failsCase ----------------------------------------------------------

TEST(TraceAnalysis, DroppedRecordsAreAWarningThatDoesNotFailTheCase) {
    TraceBuilder b({2, 1, 1});
    uint32_t in = b.buffer("in", 2);
    b.read(0, in, 0, 1).read(1, in, 1, 1);
    b.t.dropped = 5;
    b.t.slotsPerInvocation = 16;
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    const Finding& f = a.findings[0];
    EXPECT_EQ(f.kind, FindingKind::TraceOverflow);
    EXPECT_FALSE(f.failsCase);
    EXPECT_EQ(f.occurrences, 5u);
    EXPECT_TRUE(contains(f.message, "5 trace records did not fit (16 per thread)")) << f.message;
    EXPECT_FALSE(a.failsCase());
}

TEST(TraceAnalysis, FailsCaseWhenAnyFindingFails) {
    TraceAnalysis a;
    EXPECT_FALSE(a.failsCase());
    Finding warning{FindingKind::TraceOverflow, "w"};
    warning.failsCase = false;
    a.findings.push_back(warning);
    EXPECT_FALSE(a.failsCase());
    a.findings.push_back(Finding{FindingKind::SharedRace, "r"});
    EXPECT_TRUE(a.failsCase());

    // From a trace: a warning plus a real finding fails.
    TraceBuilder b({1, 1, 1});
    b.loopBudget(0, 4);
    b.t.dropped = 1;
    TraceAnalysis t = analyzeTrace(b.t, Limits{});
    EXPECT_EQ(t.findings.size(), 2u) << allMessages(t);
    EXPECT_TRUE(t.failsCase());
}

TEST(TraceAnalysis, FindingKindNames) {
    EXPECT_STREQ(findingKindName(FindingKind::SharedRace), "race");
    EXPECT_STREQ(findingKindName(FindingKind::GlobalWriteConflict), "write conflict");
    EXPECT_STREQ(findingKindName(FindingKind::OutOfBounds), "out of bounds");
    EXPECT_STREQ(findingKindName(FindingKind::UninitialisedRead), "uninitialised read");
    EXPECT_STREQ(findingKindName(FindingKind::ReadLimit), "read limit");
    EXPECT_STREQ(findingKindName(FindingKind::WriteLimit), "write limit");
    EXPECT_STREQ(findingKindName(FindingKind::LoopBudget), "endless loop?");
    EXPECT_STREQ(findingKindName(FindingKind::DivergentBarrier), "divergent barrier");
    EXPECT_STREQ(findingKindName(FindingKind::TraceOverflow), "trace incomplete");
}

// --- (j) collapsing ----------------------------------------------------------------------------

TEST(TraceAnalysis, ManyRacesCollapseIntoOneFinding) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {3});
    for (uint32_t i = 0; i < 3; ++i)
        b.write(0, s, i, 1, 4).write(1, s, i, 2, 4);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto races = findingsOf(a, FindingKind::SharedRace);
    ASSERT_EQ(races.size(), 1u) << allMessages(a);
    EXPECT_EQ(races[0]->occurrences, 3u);
    EXPECT_TRUE(contains(races[0]->message, " (and 2 more like it)")) << races[0]->message;
    EXPECT_EQ(a.findings.size(), 1u) << allMessages(a);
}

TEST(TraceAnalysis, ManyUninitialisedReadsCollapseIntoOneFinding) {
    TraceBuilder b({4, 1, 1});
    uint32_t s = b.shared("s", {4});
    for (uint32_t t = 0; t < 4; ++t)
        b.read(t, s, t, 6);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    EXPECT_EQ(a.findings[0].kind, FindingKind::UninitialisedRead);
    EXPECT_EQ(a.findings[0].occurrences, 4u);
    EXPECT_TRUE(contains(a.findings[0].message, "(and 3 more like it)")) << a.findings[0].message;
}

TEST(TraceAnalysis, OutOfBoundsKeepsFourLinesThenCollapses) {
    TraceBuilder b({1, 1, 1});
    uint32_t in = b.buffer("in", 1);
    for (uint32_t line = 10; line < 16; ++line)
        b.read(0, in, 5, line); // six lines
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto oob = findingsOf(a, FindingKind::OutOfBounds);
    ASSERT_EQ(oob.size(), 4u) << allMessages(a);
    for (size_t k = 0; k < 4; ++k)
        EXPECT_EQ(oob[k]->line, 10u + k);
    EXPECT_TRUE(contains(oob[3]->message, "(and 2 more like it)")) << oob[3]->message;
    for (size_t k = 0; k < 3; ++k)
        EXPECT_FALSE(contains(oob[k]->message, "more like it")) << oob[k]->message;
}

// --- (k) two-dimensional shared arrays ---------------------------------------------------------

TEST(TraceAnalysis, TwoDimensionalSharedCellsAreNamedByRowAndColumn) {
    TraceBuilder b({2, 1, 1});
    uint32_t tile = b.shared("tile", {2, 3}); // tile[2][3]: index 5 is tile[1][2]
    b.write(0, tile, 5, 1, 4).read(1, tile, 5, 5);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto races = findingsOf(a, FindingKind::SharedRace);
    ASSERT_EQ(races.size(), 1u) << allMessages(a);
    EXPECT_TRUE(contains(races[0]->message, "tile[1][2] in barrier round 0")) << races[0]->message;
    EXPECT_EQ(races[0]->index, 5u);

    TraceBuilder c({1, 1, 1});
    uint32_t t2 = c.shared("tile", {2, 3});
    c.read(0, t2, 3, 7); // tile[1][0]
    TraceAnalysis u = analyzeTrace(c.t, Limits{});
    ASSERT_EQ(u.findings.size(), 1u) << allMessages(u);
    EXPECT_EQ(u.findings[0].message, "thread 0 reads tile[1][0] (line 7) in barrier round 0, but "
                                     "no thread wrote that cell before");
}

TEST(TraceAnalysis, ThreeDimensionalSharedCellsAreNamedByEveryIndex) {
    TraceBuilder b({1, 1, 1});
    uint32_t cube = b.shared("cube", {2, 3, 4}); // index 1*12 + 2*4 + 3 = 23
    b.read(0, cube, 23, 2);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    EXPECT_TRUE(contains(a.findings[0].message, "cube[1][2][3]")) << a.findings[0].message;
}

TEST(TraceAnalysis, TwoDimensionalSnapshotsAreFlatRowMajor) {
    TraceBuilder b({2, 1, 1});
    uint32_t tile = b.shared("tile", {2, 2});
    b.write(0, tile, 1, 10, 3).write(1, tile, 2, 20, 3);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.rounds.size(), 1u);
    EXPECT_EQ(a.rounds[0][0].values[tile], (std::vector<uint32_t>{0, 10, 20, 0}));
}

TEST(TraceAnalysis, TwoDimensionalOutOfBoundsNamesTheRowPastTheEnd) {
    // tile[2][3] has 6 cells; flat index 6 is tile[2][0], one row past the end, not tile[0][0].
    TraceBuilder b({1, 1, 1});
    uint32_t tile = b.shared("tile", {2, 3});
    b.write(0, tile, 6, 1, 9);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto oob = findingsOf(a, FindingKind::OutOfBounds);
    ASSERT_EQ(oob.size(), 1u) << allMessages(a);
    EXPECT_TRUE(contains(oob[0]->message, "past the end of tile (length 6)")) << oob[0]->message;
    EXPECT_EQ(oob[0]->message,
              "thread 0 writes tile[2][0] (line 9), past the end of tile (length 6)");
}

// Neighbours exchange through shared memory: 8 threads in subgroups of 4, each writes s[t], then
// subgroupBarrier(), then reads s[next]: `next` wraps within the subgroup, or crosses into the
// next one (thread 3 reads s[4], which thread 4 writes, in the other subgroup).
TraceBuilder subgroupExchange(bool crossing, uint32_t subgroupSize) {
    TraceBuilder b({8, 1, 1});
    uint32_t s = b.shared("s", {8});
    b.t.subgroupSize = subgroupSize;
    for (uint32_t t = 0; t < 8; ++t)
        b.write(t, s, t, 100 + t, 5).subgroupBarrier(t, 6);
    for (uint32_t t = 0; t < 8; ++t) {
        uint32_t next = crossing ? (t + 1) % 8 : t / 4 * 4 + (t + 1) % 4;
        b.read(t, s, next, 7, 100 + next);
    }
    return b;
}

TEST(TraceAnalysis, ASubgroupBarrierOrdersTheAccessesOfItsSubgroup) {
    TraceAnalysis a = analyzeTrace(subgroupExchange(false, 4).t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

TEST(TraceAnalysis, ASubgroupBarrierDoesNotOrderAnotherSubgroup) {
    TraceAnalysis a = analyzeTrace(subgroupExchange(true, 4).t, Limits{});
    auto races = findingsOf(a, FindingKind::SharedRace);
    ASSERT_EQ(races.size(), 1u) << allMessages(a);
    // A crossing pair: thread 3 reads s[4] while thread 4 writes it, or thread 7 reads s[0] while
    // thread 0 writes it (one of them is listed, the other counted).
    ASSERT_EQ(races[0]->threads.size(), 2u);
    uint64_t writer = races[0]->threads[0], reader = races[0]->threads[1];
    EXPECT_NE(writer / 4, reader / 4) << races[0]->message;
    EXPECT_TRUE(contains(races[0]->message, "in barrier round 0: thread " + std::to_string(writer) +
                                                " writes it (line 5) while thread " +
                                                std::to_string(reader) + " reads it (line 7)"))
        << races[0]->message;
}

TEST(TraceAnalysis, WithSubgroupsOfOneOrUnknownASubgroupBarrierOrdersNothing) {
    for (uint32_t size : {0u, 1u}) {
        TraceAnalysis a = analyzeTrace(subgroupExchange(false, size).t, Limits{});
        EXPECT_EQ(findingsOf(a, FindingKind::SharedRace).size(), 1u)
            << "subgroup size " << size << "\n"
            << allMessages(a);
    }
}

TEST(TraceAnalysis, AccessesOnTheSameSideOfASubgroupBarrierStillRace) {
    TraceBuilder b({4, 1, 1});
    uint32_t s = b.shared("s", {4});
    b.t.subgroupSize = 4;
    b.write(0, s, 0, 1, 5).read(1, s, 0, 6, 1); // no subgroup barrier between them
    for (uint32_t t = 0; t < 4; ++t)
        b.subgroupBarrier(t, 7);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_EQ(findingsOf(a, FindingKind::SharedRace).size(), 1u) << allMessages(a);
}

// One thread updating its own cell in a long loop (map-trace-too-long's shape, 300,000 times):
// the race check keeps one use per thread and kind, so this takes milliseconds, and the finding
// is still the first access of each thread. Each thread making its many uses took hours before.
TEST(TraceAnalysis, AThreadsLongLoopOverOneCellKeepsTheFirstRaceAndNoOther) {
    TraceBuilder b({3, 1, 1});
    uint32_t s = b.shared("s", {3});
    for (uint32_t k = 0; k < 150000; ++k)
        b.read(0, s, 0, 10 + k % 2).write(0, s, 0, k, 12 + k % 2); // its own cell: no race
    for (uint32_t k = 0; k < 150000; ++k)
        b.read(1, s, 1, 20).write(1, s, 1, k, 21);
    b.read(2, s, 1, 30).read(2, s, 1, 31); // thread 1's cell, in the same round: the race
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto races = findingsOf(a, FindingKind::SharedRace);
    ASSERT_EQ(races.size(), 1u) << allMessages(a);
    EXPECT_EQ(races[0]->threads, (std::vector<uint64_t>{1, 2}));
    EXPECT_EQ(races[0]->index, 1u);
    EXPECT_TRUE(contains(races[0]->message, "thread 1 writes it (line 21) while thread 2 reads it "
                                            "(line 30)"))
        << races[0]->message;
}

} // namespace
} // namespace vkp
