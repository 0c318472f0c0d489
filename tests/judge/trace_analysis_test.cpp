// analyzeTrace on synthetic traces: shared-memory snapshots, races, write conflicts, bounds,
// traffic limits and uninitialised reads (loop budgets and the rest: trace_analysis_more_test).
#include <gtest/gtest.h>

#include <tuple>

#include <string>
#include <vector>

#include "judge/trace_analysis.h"
#include "support/trace_builder.h"

namespace vkp {
namespace {

using namespace test;

// --- (a) a clean reduction -----------------------------------------------------------------

// A tree reduction of in[0..3] = 1, 2, 3, 4 in shared memory by 4 threads:
//   round 0: s[t] = in[t];                 barrier
//   round 1: t < 2: s[t] = s[t] + s[t+2];  barrier
//   round 2: t < 1: s[t] = s[t] + s[t+1];  barrier
//   round 3: t == 0: out[0] = s[0]
TraceBuilder reduction() {
    TraceBuilder b({4, 1, 1});
    uint32_t in = b.buffer("in", 4), out = b.buffer("out", 1), s = b.shared("s", {4});
    std::vector<uint32_t> v = {1, 2, 3, 4};
    for (uint32_t t = 0; t < 4; ++t)
        b.read(t, in, t, 3, v[t]).write(t, s, t, v[t], 4);
    b.barrierAll(5);
    for (uint32_t t = 0; t < 2; ++t)
        b.read(t, s, t, 8, v[t]).read(t, s, t + 2, 8, v[t + 2]).write(t, s, t, v[t] + v[t + 2], 8);
    b.barrierAll(9);
    b.read(0, s, 0, 8, 4).read(0, s, 1, 8, 6).write(0, s, 0, 10, 8);
    b.barrierAll(9);
    b.read(0, s, 0, 12, 10).write(0, out, 0, 10, 12);
    return b;
}

TEST(TraceAnalysis, CleanReductionHasNoFindings) {
    TraceBuilder b = reduction();
    Limits limits;
    limits.globalReads = 1;
    limits.globalWrites = 1;
    TraceAnalysis a = analyzeTrace(b.t, limits);
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
    EXPECT_FALSE(a.failsCase());
    EXPECT_EQ(a.events, b.t.eventCount());
}

TEST(TraceAnalysis, ReductionSnapshotsHoldTheValuesAfterEachRound) {
    TraceBuilder b = reduction();
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.rounds.size(), 1u); // one workgroup
    const auto& snaps = a.rounds[0];
    ASSERT_EQ(snaps.size(), 4u); // three barriers, then the end of the kernel
    const uint32_t s = 2;
    std::vector<std::vector<uint32_t>> want = {
        {1, 2, 3, 4}, {4, 6, 3, 4}, {10, 6, 3, 4}, {10, 6, 3, 4}};
    for (uint32_t r = 0; r < 4; ++r) {
        EXPECT_EQ(snaps[r].round, r);
        ASSERT_EQ(snaps[r].values.size(), 3u); // one entry per variable
        EXPECT_EQ(snaps[r].values[s], want[r]) << "round " << r;
        EXPECT_EQ(snaps[r].written[s], (std::vector<uint8_t>{1, 1, 1, 1})) << "round " << r;
        EXPECT_TRUE(snaps[r].values[0].empty()); // buffers have no snapshot
        EXPECT_TRUE(snaps[r].values[1].empty());
    }
}

TEST(TraceAnalysis, SnapshotsMarkOnlyWrittenCells) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {4});
    b.write(0, s, 0, 7, 3).write(1, s, 2, 9, 3);
    b.barrierAll(4);
    b.write(1, s, 3, 11, 6);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.rounds.size(), 1u);
    ASSERT_EQ(a.rounds[0].size(), 2u);
    EXPECT_EQ(a.rounds[0][0].values[s], (std::vector<uint32_t>{7, 0, 9, 0}));
    EXPECT_EQ(a.rounds[0][0].written[s], (std::vector<uint8_t>{1, 0, 1, 0}));
    EXPECT_EQ(a.rounds[0][1].values[s], (std::vector<uint32_t>{7, 0, 9, 11}));
    EXPECT_EQ(a.rounds[0][1].written[s], (std::vector<uint8_t>{1, 0, 1, 1}));
}

// Atomics change shared cells too: a histogram's bins after its round are the atomics' results
// (in whatever order the threads ran), read off the kernel's lines for the operation.
TEST(TraceAnalysis, SnapshotsApplyTheRoundsAtomics) {
    TraceBuilder b({3, 1, 1});
    uint32_t s = b.shared("bins", {4});
    b.t.source = "#version 450\n"                       // 1
                 "void main() {\n"                      // 2
                 "  atomicAdd(bins[k], 1u);\n"          // 3
                 "  atomicMax(bins[3], v);\n"           // 4
                 "  atomicExchange(bins[2], v);\n"      // 5
                 "  atomicCompSwap(bins[1], 0u, v);\n"; // 6
    b.write(0, s, 0, 0, 2).write(0, s, 1, 5, 2).write(0, s, 2, 0, 2).write(0, s, 3, 0, 2);
    b.barrierAll(2);
    // Threads 2, 0, 1 add to bin 0 (old values 0, 1, 2), as they happened to run.
    b.atomic(2, s, 0, 3, 0, 1).atomic(0, s, 0, 3, 1, 1).atomic(1, s, 0, 3, 2, 1);
    b.atomic(0, s, 3, 4, 0, 9).atomic(1, s, 3, 4, 9, 4); // max: 9 stays
    // Exchanges: 0 -> 7 (thread 1 saw 0), 7 -> 8 (thread 0 saw 7): the cell keeps 8.
    b.atomic(1, s, 2, 5, 0, 7).atomic(0, s, 2, 5, 7, 8);
    b.barrierAll(7);
    b.atomic(0, s, 1, 6, 5, 5); // compare-and-swap: found 5, not 0: left 5 (traced as its operand)
    b.barrierAll(9);
    b.atomic(1, s, 1, 6, 5, 0).atomic(0, s, 1, 6, 0, 6); // 5 -> 0 (an exchange's kin), then 0 -> 6
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.rounds.at(0).size(), 4u);
    EXPECT_EQ(a.rounds[0][1].values[s], (std::vector<uint32_t>{3, 5, 8, 9}));
    EXPECT_EQ(a.rounds[0][1].written[s], (std::vector<uint8_t>{1, 1, 1, 1}));
    EXPECT_TRUE(a.findings.empty());
    EXPECT_EQ(a.rounds[0][2].values[s], (std::vector<uint32_t>{3, 5, 8, 9}))
        << "a compare-and-swap that found another value leaves the cell as it was";
    EXPECT_EQ(a.rounds[0][3].values[s], (std::vector<uint32_t>{3, 6, 8, 9}))
        << "two swaps that succeeded one after the other: the chain ends at the last one's value";
}

// Bins counted into without being cleared first: the atomics change the value, but the cell was
// never written, so the read after the barrier is still reported.
TEST(TraceAnalysis, AtomicsOnACellNeverWrittenLeaveItUnwritten) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("bins", {1});
    b.t.source = "#version 450\nvoid main() {\n  atomicAdd(bins[0], 1u);\n  x = bins[0];\n";
    b.atomic(0, s, 0, 3, 0, 1).atomic(1, s, 0, 3, 1, 1);
    b.barrierAll(3);
    b.read(0, s, 0, 4, 2);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_EQ(a.rounds.at(0).at(0).values[s], (std::vector<uint32_t>{2}));
    EXPECT_EQ(a.rounds[0][0].written[s], (std::vector<uint8_t>{0}));
    ASSERT_EQ(a.findings.size(), 1u);
    EXPECT_EQ(a.findings[0].kind, FindingKind::UninitialisedRead);
}

TEST(TraceAnalysis, EachWorkgroupHasItsOwnSharedMemory) {
    TraceBuilder b({2, 1, 1}, {2, 1, 1});
    uint32_t s = b.shared("s", {2});
    // Workgroup 0 writes s[0]; workgroup 1 reads s[0] without writing it: uninitialised there.
    b.write(0, s, 0, 5, 3).write(1, s, 1, 6, 3);
    b.barrierAll(4);
    b.read(2, s, 0, 7);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.rounds.size(), 2u);
    EXPECT_EQ(a.rounds[0].back().values[s], (std::vector<uint32_t>{5, 6}));
    EXPECT_EQ(a.rounds[1].back().values[s], (std::vector<uint32_t>{0, 0}));
    EXPECT_EQ(a.rounds[1].back().written[s], (std::vector<uint8_t>{0, 0}));
    auto u = findingsOf(a, FindingKind::UninitialisedRead);
    ASSERT_EQ(u.size(), 1u) << allMessages(a);
    EXPECT_EQ(u[0]->threads, (std::vector<uint64_t>{2}));
    EXPECT_EQ(u[0]->round, 1u);
}

TEST(TraceAnalysis, NoSharedArraysMeansNoSnapshots) {
    TraceBuilder b({2, 1, 1});
    uint32_t in = b.buffer("in", 2);
    b.read(0, in, 0, 1).read(1, in, 1, 1);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.rounds.empty());
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

// --- (b) shared races ----------------------------------------------------------------------

TEST(TraceAnalysis, WriteAndReadOfOneSharedCellInOneRoundIsARace) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {2});
    b.write(0, s, 0, 1, 3).write(1, s, 0, 1, 3); // round 0: both write s[0]... (a race too)
    b.barrierAll(4);
    b.write(0, s, 1, 5, 7).read(1, s, 1, 8); // round 1: thread 0 writes s[1], thread 1 reads it
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto races = findingsOf(a, FindingKind::SharedRace);
    ASSERT_EQ(races.size(), 1u) << allMessages(a); // collapsed: one listed
    // The first race found is round 0's write/write.
    EXPECT_EQ(races[0]->round, 0u);
    EXPECT_TRUE(contains(races[0]->message, "also writes it")) << races[0]->message;
}

TEST(TraceAnalysis, OneSharedRaceNamesThreadsCellRoundAndLines) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {2});
    b.write(0, s, 0, 1, 3).write(1, s, 1, 2, 3);
    b.barrierAll(4);
    b.write(0, s, 1, 5, 7).read(1, s, 1, 8);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    const Finding& f = a.findings[0];
    EXPECT_EQ(f.kind, FindingKind::SharedRace);
    EXPECT_EQ(f.threads, (std::vector<uint64_t>{0, 1}));
    EXPECT_EQ(f.variable, static_cast<int>(s));
    EXPECT_EQ(f.index, 1u);
    EXPECT_EQ(f.round, 1u);
    EXPECT_EQ(f.line, 8u);
    EXPECT_EQ(f.occurrences, 1u);
    EXPECT_TRUE(f.failsCase);
    EXPECT_TRUE(contains(f.message, "s[1]")) << f.message;
    EXPECT_TRUE(contains(f.message, "barrier round 1")) << f.message;
    EXPECT_TRUE(contains(f.message, "thread 0 writes it (line 7)")) << f.message;
    EXPECT_TRUE(contains(f.message, "thread 1 reads it (line 8)")) << f.message;
    EXPECT_TRUE(a.failsCase());
    // The read of a cell written in the same round is reported as the race, not as uninitialised.
    EXPECT_TRUE(findingsOf(a, FindingKind::UninitialisedRead).empty());
}

TEST(TraceAnalysis, ReaderBeforeWriterInThreadOrderIsStillARace) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {1});
    b.write(0, s, 0, 3, 2);
    b.barrierAll(3);
    b.read(0, s, 0, 5).write(1, s, 0, 9, 6);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto races = findingsOf(a, FindingKind::SharedRace);
    ASSERT_EQ(races.size(), 1u) << allMessages(a);
    EXPECT_EQ(races[0]->threads, (std::vector<uint64_t>{1, 0})); // the writer first
    EXPECT_EQ(races[0]->line, 5u);
    EXPECT_TRUE(
        contains(races[0]->message, "thread 1 writes it (line 6) while thread 0 reads it (line 5)"))
        << races[0]->message;
}

TEST(TraceAnalysis, AccessesSeparatedByABarrierDoNotRace) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {2});
    b.write(0, s, 1, 5, 7);
    b.barrierAll(9);
    b.read(1, s, 1, 11, 5);
    b.barrierAll(12);
    b.write(1, s, 1, 6, 13); // thread 1 overwrites what thread 0 wrote, a round later
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

TEST(TraceAnalysis, OneThreadReadingAndWritingItsOwnCellIsNoRace) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {2});
    b.write(0, s, 0, 1, 3).read(0, s, 0, 4, 1).write(0, s, 0, 2, 5);
    b.write(1, s, 1, 1, 3).read(1, s, 1, 4, 1);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
    ASSERT_EQ(a.rounds.size(), 1u);
    EXPECT_EQ(a.rounds[0].back().values[s],
              (std::vector<uint32_t>{2, 1})); // program order: the last write wins
}

TEST(TraceAnalysis, ReadsOnlyNeverRace) {
    TraceBuilder b({3, 1, 1});
    uint32_t s = b.shared("s", {1});
    b.write(0, s, 0, 4, 2);
    b.barrierAll(3);
    for (uint64_t t = 0; t < 3; ++t)
        b.read(t, s, 0, 5, 4);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

TEST(TraceAnalysis, TwoAtomicsOnOneCellDoNotRace) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {1});
    b.write(0, s, 0, 0, 2);
    b.barrierAll(3);
    b.atomic(0, s, 0, 5, 0, 1).atomic(1, s, 0, 5, 1, 1);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

TEST(TraceAnalysis, RacesInDifferentWorkgroupsAreIndependent) {
    // Same cell index, same round, but different workgroups: separate shared memories.
    TraceBuilder b({1, 1, 1}, {2, 1, 1});
    uint32_t s = b.shared("s", {1});
    b.write(0, s, 0, 1, 3).write(1, s, 0, 2, 3);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

// --- (c) global write conflicts ----------------------------------------------------------------

TEST(TraceAnalysis, TwoThreadsWritingOneBufferCellConflict) {
    TraceBuilder b({4, 1, 1});
    uint32_t out = b.buffer("out", 4);
    b.write(0, out, 0, 1, 9).write(1, out, 2, 1, 9).write(3, out, 2, 3, 9).write(2, out, 3, 1, 9);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    const Finding& f = a.findings[0];
    EXPECT_EQ(f.kind, FindingKind::GlobalWriteConflict);
    EXPECT_EQ(f.threads, (std::vector<uint64_t>{1, 3}));
    EXPECT_EQ(f.variable, static_cast<int>(out));
    EXPECT_EQ(f.index, 2u);
    EXPECT_EQ(f.line, 9u);
    EXPECT_EQ(f.occurrences, 1u);
    EXPECT_TRUE(f.failsCase);
    EXPECT_TRUE(contains(f.message, "thread 1 and thread 3 both write out[2] (line 9)"))
        << f.message;
}

TEST(TraceAnalysis, OneThreadWritingACellTwiceIsNoConflict) {
    TraceBuilder b({2, 1, 1});
    uint32_t out = b.buffer("out", 2);
    b.write(0, out, 0, 1, 4).write(0, out, 0, 2, 5).write(1, out, 1, 1, 4);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

TEST(TraceAnalysis, ReadsAndAtomicsOfOneBufferCellAreNoWriteConflict) {
    TraceBuilder b({3, 1, 1});
    uint32_t out = b.buffer("out", 1);
    b.write(0, out, 0, 1, 4).read(1, out, 0, 5).atomic(1, out, 0, 6).atomic(2, out, 0, 6);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(findingsOf(a, FindingKind::GlobalWriteConflict).empty()) << allMessages(a);
}

TEST(TraceAnalysis, ThreeWritersOfOneCellAreOneConflict) {
    TraceBuilder b({3, 1, 1});
    uint32_t out = b.buffer("out", 1);
    for (uint64_t t = 0; t < 3; ++t)
        b.write(t, out, 0, uint32_t(t), 4);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto c = findingsOf(a, FindingKind::GlobalWriteConflict);
    ASSERT_EQ(c.size(), 1u) << allMessages(a);
    EXPECT_EQ(c[0]->occurrences, 1u); // one cell
    EXPECT_FALSE(contains(c[0]->message, "more like it")) << c[0]->message;
}

TEST(TraceAnalysis, WriteConflictsOnSeveralCellsCountEachCellOnce) {
    TraceBuilder b({2, 1, 1});
    uint32_t out = b.buffer("out", 2);
    b.write(0, out, 0, 1, 4).write(1, out, 0, 1, 4).write(0, out, 1, 1, 5).write(1, out, 1, 1, 5);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto c = findingsOf(a, FindingKind::GlobalWriteConflict);
    ASSERT_EQ(c.size(), 1u) << allMessages(a);
    EXPECT_TRUE(contains(c[0]->message, "(and 1 more like it)")) << c[0]->message;
    EXPECT_EQ(c[0]->occurrences, 2u);
}

// --- (c2) races between workgroups (plain reads of cells another workgroup writes) ------------

TEST(TraceAnalysis, AReadOfACellAnotherWorkgroupWritesIsARace) {
    TraceBuilder b({2, 1, 1}, {2, 1, 1});
    uint32_t out = b.buffer("out", 4);
    // Thread 1 (workgroup 0) reads out[2], which thread 2 (workgroup 1) writes.
    b.write(0, out, 0, 1, 7).read(1, out, 2, 5).write(2, out, 2, 1, 7).write(3, out, 3, 1, 7);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto r = findingsOf(a, FindingKind::GlobalRace);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_EQ(r[0]->threads, (std::vector<uint64_t>{1, 2}));
    EXPECT_EQ(r[0]->line, 5u);
    EXPECT_EQ(r[0]->index, 2u);
    EXPECT_TRUE(r[0]->failsCase);
    EXPECT_TRUE(contains(r[0]->message, "reads out[2] (line 5), which "));
    EXPECT_TRUE(contains(r[0]->message, "writes (line 7) in the same dispatch")) << r[0]->message;
    EXPECT_STREQ(findingKindName(FindingKind::GlobalRace), "race between workgroups");
}

TEST(TraceAnalysis, ReadsInTheWritersWorkgroupAndAtomicsAreNoRaceBetweenWorkgroups) {
    TraceBuilder b({2, 1, 1}, {2, 1, 1});
    uint32_t out = b.buffer("out", 4);
    b.write(0, out, 0, 1, 7).read(1, out, 0, 5); // the same workgroup: a barrier can order it
    b.atomic(2, out, 1, 6).read(0, out, 1, 5);   // an atomic is no plain write
    b.write(3, out, 3, 1, 7).read(3, out, 3, 8); // a thread's own write
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(findingsOf(a, FindingKind::GlobalRace).empty()) << allMessages(a);
}

// A workgroup that makes atomics may have acquired what it reads (a flag set with release
// semantics after the writes): a decoupled look-back is not a race.
TEST(TraceAnalysis, ReadsOfAWorkgroupThatMakesAtomicsAreNotJudged) {
    TraceBuilder b({2, 1, 1}, {2, 1, 1});
    uint32_t out = b.buffer("out", 4);
    uint32_t flag = b.buffer("flag", 2);
    b.write(0, out, 0, 1, 7).atomic(0, flag, 0, 8); // workgroup 0 publishes
    b.atomic(2, flag, 0, 10).read(3, out, 0, 11);   // workgroup 1 acquires, then reads
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(findingsOf(a, FindingKind::GlobalRace).empty()) << allMessages(a);
}

TEST(TraceAnalysis, ACellWrittenInTheReadersWorkgroupAndAnotherStillRaces) {
    TraceBuilder b({2, 1, 1}, {2, 1, 1});
    uint32_t out = b.buffer("out", 4);
    b.write(0, out, 1, 1, 7).write(2, out, 1, 2, 9).read(1, out, 1, 5);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto r = findingsOf(a, FindingKind::GlobalRace);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_EQ(r[0]->threads, (std::vector<uint64_t>{1, 2}));
    EXPECT_TRUE(contains(r[0]->message, "writes (line 9)")) << r[0]->message;
    EXPECT_EQ(findingsOf(a, FindingKind::GlobalWriteConflict).size(), 1u) << allMessages(a);
}

// --- (d) out of bounds -------------------------------------------------------------------------

TEST(TraceAnalysis, IndexPastABufferIsOutOfBounds) {
    TraceBuilder b({4, 1, 1});
    uint32_t in = b.buffer("in", 4);
    for (uint32_t t = 0; t < 4; ++t)
        b.read(t, in, t, 6);
    b.read(2, in, 4, 7);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    const Finding& f = a.findings[0];
    EXPECT_EQ(f.kind, FindingKind::OutOfBounds);
    EXPECT_EQ(f.threads, (std::vector<uint64_t>{2}));
    EXPECT_EQ(f.index, 4u);
    EXPECT_EQ(f.line, 7u);
    EXPECT_EQ(f.variable, static_cast<int>(in));
    EXPECT_EQ(f.occurrences, 1u);
    EXPECT_EQ(f.message, "thread 2 reads in[4] (line 7), past the end of in (length 4)");
}

TEST(TraceAnalysis, IndexPastASharedArrayIsOutOfBoundsAndLeavesTheSnapshotAlone) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {2});
    b.write(0, s, 0, 1, 3).write(1, s, 5, 9, 4);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto oob = findingsOf(a, FindingKind::OutOfBounds);
    ASSERT_EQ(oob.size(), 1u) << allMessages(a);
    EXPECT_EQ(oob[0]->message, "thread 1 writes s[5] (line 4), past the end of s (length 2)");
    EXPECT_EQ(oob[0]->threads, (std::vector<uint64_t>{1}));
    ASSERT_EQ(a.rounds.size(), 1u);
    EXPECT_EQ(a.rounds[0].back().values[s], (std::vector<uint32_t>{1, 0}));
    EXPECT_EQ(a.findings.size(), 1u) << allMessages(a);
}

TEST(TraceAnalysis, RepeatedOutOfBoundsAccessesAtOneLineAreOneFinding) {
    TraceBuilder b({4, 1, 1});
    uint32_t out = b.buffer("out", 2);
    for (uint32_t t = 0; t < 4; ++t)
        b.write(t, out, t, 1, 5);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    auto oob = findingsOf(a, FindingKind::OutOfBounds);
    ASSERT_EQ(oob.size(), 1u) << allMessages(a);
    EXPECT_EQ(oob[0]->occurrences, 2u);
    EXPECT_EQ(oob[0]->threads, (std::vector<uint64_t>{2}));
    EXPECT_TRUE(contains(oob[0]->message, "thread 2 writes out[2] (line 5)")) << oob[0]->message;
    EXPECT_TRUE(contains(oob[0]->message, "; 2 such accesses at this line")) << oob[0]->message;
}

TEST(TraceAnalysis, AtomicsPastTheEndAreWrites) {
    TraceBuilder b({1, 1, 1});
    uint32_t c = b.buffer("counter", 1);
    b.atomic(0, c, 1, 3);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    EXPECT_EQ(a.findings[0].message,
              "thread 0 writes counter[1] (line 3), past the end of counter (length 1)");
}

// --- (e) traffic limits ------------------------------------------------------------------------

TEST(TraceAnalysis, TrafficCountsGlobalAccessesPerThread) {
    TraceBuilder b({3, 1, 1});
    uint32_t in = b.buffer("in", 8), out = b.buffer("out", 8), s = b.shared("s", {3});
    b.read(0, in, 0, 1).write(0, out, 0, 1, 2);
    b.read(1, in, 1, 1).read(1, in, 2, 1).read(1, in, 3, 1).write(1, out, 1, 1, 2);
    b.atomic(2, out, 2, 3).write(2, out, 3, 1, 4).write(2, out, 4, 1, 4);
    for (uint32_t t = 0; t < 3; ++t)
        b.write(t, s, t, 1, 5).read(t, s, t, 6); // shared: not counted
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.traffic.size(), 3u);
    EXPECT_EQ(a.traffic[0].globalReads, 1u);
    EXPECT_EQ(a.traffic[0].globalWrites, 1u);
    EXPECT_EQ(a.traffic[1].globalReads, 3u);
    EXPECT_EQ(a.traffic[1].globalWrites, 1u);
    EXPECT_EQ(a.traffic[2].globalReads, 1u);  // the atomic reads...
    EXPECT_EQ(a.traffic[2].globalWrites, 3u); // ...and writes
    EXPECT_EQ(a.maxReads, 3u);
    EXPECT_EQ(a.maxReadsThread, 1u);
    EXPECT_EQ(a.maxWrites, 3u);
    EXPECT_EQ(a.maxWritesThread, 2u);
    EXPECT_TRUE(a.findings.empty()) << allMessages(a); // no limits set
}

TEST(TraceAnalysis, ReadLimitNamesTheWorstThreadAndWhereTheFirstWentOver) {
    TraceBuilder b({3, 1, 1});
    uint32_t in = b.buffer("in", 8);
    b.read(0, in, 0, 4);
    b.read(1, in, 0, 4).read(1, in, 1, 5);
    b.read(2, in, 0, 4).read(2, in, 1, 5).read(2, in, 2, 6);
    Limits limits;
    limits.globalReads = 1;
    TraceAnalysis a = analyzeTrace(b.t, limits);
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    const Finding& f = a.findings[0];
    EXPECT_EQ(f.kind, FindingKind::ReadLimit);
    EXPECT_EQ(f.line, 5u);
    EXPECT_EQ(f.threads, (std::vector<uint64_t>{1, 2})); // first over, worst
    EXPECT_EQ(f.occurrences, 2u);
    EXPECT_EQ(f.message, "thread 2 makes 3 global reads; the puzzle allows 1 per thread (2 threads "
                         "over; thread 1 went "
                         "over at line 5)");
    EXPECT_EQ(a.maxReads, 3u);
    EXPECT_EQ(a.maxReadsThread, 2u);
    EXPECT_TRUE(a.failsCase());
}

TEST(TraceAnalysis, ReadLimitOfOneWithTwoReads) {
    TraceBuilder b({2, 1, 1});
    uint32_t in = b.buffer("in", 4);
    b.read(0, in, 0, 4);
    b.read(1, in, 1, 4).read(1, in, 2, 7);
    Limits limits;
    limits.globalReads = 1;
    TraceAnalysis a = analyzeTrace(b.t, limits);
    auto r = findingsOf(a, FindingKind::ReadLimit);
    ASSERT_EQ(r.size(), 1u) << allMessages(a);
    EXPECT_EQ(r[0]->line, 7u);
    EXPECT_TRUE(contains(r[0]->message, "thread 1 makes 2 global reads")) << r[0]->message;
    EXPECT_TRUE(contains(r[0]->message, "went over at line 7")) << r[0]->message;
    EXPECT_TRUE(findingsOf(a, FindingKind::WriteLimit).empty());
}

TEST(TraceAnalysis, UnsetOrUnreachedLimitsGiveNoFinding) {
    TraceBuilder b({1, 1, 1});
    uint32_t in = b.buffer("in", 4), out = b.buffer("out", 4);
    b.read(0, in, 0, 4).read(0, in, 1, 4).write(0, out, 0, 1, 5).write(0, out, 1, 1, 5);
    EXPECT_TRUE(analyzeTrace(b.t, Limits{}).findings.empty());
    Limits exact;
    exact.globalReads = 2;
    exact.globalWrites = 2;
    TraceAnalysis a = analyzeTrace(b.t, exact);
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
    EXPECT_EQ(a.maxReads, 2u);
    EXPECT_EQ(a.maxWrites, 2u);
    // Only a write limit set: reads may be as many as they like.
    Limits writesOnly;
    writesOnly.globalWrites = 1;
    TraceAnalysis w = analyzeTrace(b.t, writesOnly);
    ASSERT_EQ(w.findings.size(), 1u) << allMessages(w);
    EXPECT_EQ(w.findings[0].kind, FindingKind::WriteLimit);
    EXPECT_EQ(w.findings[0].message, "thread 0 makes 2 global writes; the puzzle allows 1 per "
                                     "thread (the only thread over; it went over at line 5)");
}

TEST(TraceAnalysis, ALimitOfZero) {
    TraceBuilder b({2, 1, 1});
    uint32_t out = b.buffer("out", 2);
    b.write(1, out, 1, 1, 3);
    Limits limits;
    limits.globalWrites = 0;
    TraceAnalysis a = analyzeTrace(b.t, limits);
    auto w = findingsOf(a, FindingKind::WriteLimit);
    ASSERT_EQ(w.size(), 1u) << allMessages(a);
    EXPECT_EQ(w[0]->threads, (std::vector<uint64_t>{1, 1}));
    EXPECT_EQ(w[0]->line, 3u);
}

// --- (f) uninitialised reads -------------------------------------------------------------------

TEST(TraceAnalysis, ReadingANeverWrittenSharedCellIsUninitialised) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {4});
    b.write(0, s, 0, 1, 3).write(1, s, 1, 1, 3);
    b.barrierAll(4);
    b.read(1, s, 2, 6);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    ASSERT_EQ(a.findings.size(), 1u) << allMessages(a);
    const Finding& f = a.findings[0];
    EXPECT_EQ(f.kind, FindingKind::UninitialisedRead);
    EXPECT_EQ(f.threads, (std::vector<uint64_t>{1}));
    EXPECT_EQ(f.index, 2u);
    EXPECT_EQ(f.round, 1u);
    EXPECT_EQ(f.line, 6u);
    EXPECT_EQ(f.variable, static_cast<int>(s));
    EXPECT_EQ(
        f.message,
        "thread 1 reads s[2] (line 6) in barrier round 1, but no thread wrote that cell before");
    EXPECT_TRUE(f.failsCase);
}

TEST(TraceAnalysis, ACellWrittenInAnEarlierRoundIsInitialised) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {2});
    b.write(1, s, 0, 1, 3);
    b.barrierAll(4);
    b.barrierAll(5); // an empty round in between
    b.read(0, s, 0, 6, 1);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

TEST(TraceAnalysis, ACellWrittenInTheSameRoundByAnotherThreadIsARaceNotUninitialised) {
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {2});
    b.read(0, s, 1, 5).write(1, s, 1, 3, 6);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_EQ(findingsOf(a, FindingKind::SharedRace).size(), 1u) << allMessages(a);
    EXPECT_TRUE(findingsOf(a, FindingKind::UninitialisedRead).empty()) << allMessages(a);
    EXPECT_EQ(a.findings.size(), 1u) << allMessages(a);
}

TEST(TraceAnalysis, ReadModifyWriteOfAnUnwrittenCellIsUninitialised) {
    // `s[t] += x` without initialising s: the thread reads the cell before it writes it.
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("s", {2});
    for (uint32_t t = 0; t < 2; ++t)
        b.read(t, s, t, 5, 0).write(t, s, t, 7, 5);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_EQ(findingsOf(a, FindingKind::UninitialisedRead).size(), 1u) << allMessages(a);
}

TEST(TraceAnalysis, ReadingOnesOwnEarlierWriteInTheSameRoundIsInitialised) {
    TraceBuilder b({1, 1, 1});
    uint32_t s = b.shared("s", {1});
    b.write(0, s, 0, 3, 4).read(0, s, 0, 5, 3);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
}

TEST(TraceAnalysis, AtomicCounterInitialisedBeforeABarrierIsClean) {
    // if (t == 0) count = 0; barrier(); atomicAdd(count, 1); barrier(); read count
    TraceBuilder b({2, 1, 1});
    uint32_t s = b.shared("count", {1});
    b.write(0, s, 0, 0, 3);
    b.barrierAll(4);
    b.atomic(0, s, 0, 5, 0, 1).atomic(1, s, 0, 5, 1, 1);
    b.barrierAll(6);
    b.read(1, s, 0, 7, 2);
    TraceAnalysis a = analyzeTrace(b.t, Limits{});
    EXPECT_TRUE(a.findings.empty()) << allMessages(a);
    ASSERT_EQ(a.rounds.size(), 1u);
    ASSERT_EQ(a.rounds[0].size(), 3u);
    EXPECT_EQ(a.rounds[0][2].written[s], (std::vector<uint8_t>{1}));
}

// A value taken from a lane that did not run the shuffle is undefined: a finding per line that
// fails the case. That is a lane of the subgroup that was not active there, a lane a short
// subgroup does not have, or, by an absolute lane (shuffle, xor, broadcast), one at or past the
// subgroup's size. Shuffling up past lane 0 or down past the last lane is the scans' idiom, its
// value dropped by a select: none. Each thread here uses what it took (an UndefinedUse record
// at line 20, as the instrumentation makes where the value reaches a store); the next test drops
// it.
TEST(TraceAnalysis, AShuffleFromALaneThatDidNotRunItIsUndefined) {
    // One shuffle (or several on one line) in a workgroup of 12 on subgroups of 8: locals 0-7,
    // and a short subgroup of 4, locals 8-11. The undefined-shuffle findings it gives.
    auto judge = [](std::vector<std::tuple<uint64_t, ShuffleOp, uint32_t, bool>> shuffles) {
        TraceBuilder b({12, 1, 1});
        b.t.subgroupSize = 8;
        for (auto [inv, op, index, ran] : shuffles) {
            b.shuffle(inv, op, index, 16, ran);
            b.undefinedUse(inv, 20);
        }
        TraceAnalysis a = analyzeTrace(b.t, {});
        auto u = findingsOf(a, FindingKind::UndefinedShuffle);
        return u.empty() ? std::string() : u[0]->message + (u[0]->failsCase ? "" : " (passes)");
    };
    std::vector<std::tuple<uint64_t, ShuffleOp, uint32_t, bool>> skipped;
    for (uint64_t inv = 1; inv < 8; ++inv)
        skipped.emplace_back(inv, ShuffleOp::Shuffle, 0, false); // lane 0 skipped the branch
    EXPECT_EQ(judge(skipped),
              "thread 1 takes lane 0's value by shuffle 0 (line 16), but lane 0 did not run it "
              "(it was not active there): the value is undefined; shuffle where every lane it "
              "takes from runs too; the value is used (line 20); 7 such values at this line");
    EXPECT_EQ(judge({{9, ShuffleOp::Xor, 4, true}}), // lane 5 of the 4-lane subgroup
              "thread 9 takes lane 5's value by xor 4 (line 16), but this subgroup has only "
              "lanes 0 to 3 (the workgroup's 12 threads fill its last subgroup partly): the "
              "value is undefined; take only from lanes that exist; the value is used (line 20)");
    EXPECT_EQ(judge({{3, ShuffleOp::Shuffle, 9, true}}), // the local id taken for the lane
              "thread 3 takes lane 9's value by shuffle 9 (line 16), but the subgroup has lanes 0 "
              "to 7 here (8 lanes; other devices have 4 to 64): the value is undefined (a kernel "
              "written for one subgroup size); keep the lanes it takes from below "
              "gl_SubgroupSize; the value is used (line 20)");
    EXPECT_NE(judge({{5, ShuffleOp::Xor, 16, true}}), ""); // a butterfly written for 32 lanes
    EXPECT_NE(judge({{1, ShuffleOp::Broadcast, 8, true}}), "");
    // The scans' idiom: up past lane 0, down past the last lane; and a lane that ran it.
    EXPECT_EQ(judge({{0, ShuffleOp::Up, 1, false}, {6, ShuffleOp::Down, 3, true}}), "");
    EXPECT_EQ(judge({{2, ShuffleOp::Xor, 1, true}}), "");
    EXPECT_STREQ(findingKindName(FindingKind::UndefinedShuffle), "undefined shuffle");
    TraceBuilder unknown({12, 1, 1}); // no subgroup size: nothing to judge
    unknown.shuffle(1, ShuffleOp::Shuffle, 0, 16, false);
    EXPECT_TRUE(findingsOf(analyzeTrace(unknown.t, {}), FindingKind::UndefinedShuffle).empty());
}

// An undefined value that reaches nothing (no UndefinedUse record in its thread: the lane dropped
// it) is no finding; a trace that lost records may have lost the use, and then it still counts.
TEST(TraceAnalysis, AnUndefinedValueIsAFindingOnlyWhereItIsUsed) {
    auto count = [](bool used, uint64_t dropped) {
        TraceBuilder b({12, 1, 1});
        b.t.subgroupSize = 8;
        b.shuffle(9, ShuffleOp::Xor, 4, 16, true); // lane 5 of the 4-lane subgroup
        b.shuffle(8, ShuffleOp::Xor, 1, 16, true); // lane 1: there
        if (used) b.undefinedUse(9, 21);
        b.t.dropped = dropped;
        return findingsOf(analyzeTrace(b.t, {}), FindingKind::UndefinedShuffle).size();
    };
    EXPECT_EQ(count(false, 0), 0u);
    EXPECT_EQ(count(true, 0), 1u);
    EXPECT_EQ(count(false, 3), 1u);
}

} // namespace
} // namespace vkp
