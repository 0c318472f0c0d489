// The stepping model: one workgroup's accesses in round / thread / program order, the contents
// of shared arrays and buffers at each position replayed from the initial data, and the cells a
// step changed. Also the watch tables ("index per thread per iteration").
#include <gtest/gtest.h>

#include "support/trace_builder.h"
#include "views/timeline.h"
#include "views/watches.h"

namespace vkp::views {
namespace {

using test::TraceBuilder;

// One workgroup of 2 threads: t stores a[t] + 1 in tile[t]; barrier; t writes tile[1 - t] to
// result[t] (a swap through shared memory). a = {5, 6}; result starts at {9, 9}.
struct Swap {
    TraceBuilder b{{2, 1, 1}};
    uint32_t a = b.buffer("a", 2), result = b.buffer("result", 2), tile = b.shared("tile", {2});
    std::vector<BufferData> initial;

    Swap() {
        for (uint32_t t = 0; t < 2; ++t) {
            b.read(t, a, t, 20, 5 + t);
            b.write(t, tile, t, 6 + t, 21);
        }
        b.barrierAll(22);
        for (uint32_t t = 0; t < 2; ++t) {
            b.read(t, tile, 1 - t, 23, 7 - t);
            b.write(t, result, t, 7 - t, 24);
        }
        initial.push_back(BufferData{ElementKind::Uint, Shape{{2}}, {5, 6}});
        initial.push_back(BufferData{ElementKind::Uint, Shape{{2}}, {9, 9}});
    }
};

TEST(TimelineTest, OrderIsRoundThenThreadThenProgram) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    ASSERT_EQ(tl.size(), 8u) << "barriers are not steps";
    EXPECT_EQ(tl.rounds(), 2u);
    EXPECT_EQ(tl.roundEnd(0), 4u);
    EXPECT_EQ(tl.roundStart(1), 4u);
    EXPECT_EQ(tl.roundEnd(1), 8u);
    EXPECT_EQ(tl.access(0).invocation, 0u);
    EXPECT_EQ(tl.access(1).invocation, 0u);
    EXPECT_EQ(tl.access(2).invocation, 1u);
    EXPECT_EQ(tl.access(5).round, 1u);
    EXPECT_EQ(tl.position(), 0u) << "a new timeline starts before the first access";
}

TEST(TimelineTest, ContentsAtAPositionAreReplayedFromTheInitialData) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    const MemoryState& m = tl.state();
    EXPECT_EQ(m.values[s.result], (std::vector<uint32_t>{9, 9})) << "the output's initial contents";
    EXPECT_EQ(m.written[s.tile], (std::vector<uint8_t>{0, 0}));
    tl.nextAccess();
    tl.nextAccess(); // thread 0 stored tile[0]
    EXPECT_EQ(tl.state().values[s.tile], (std::vector<uint32_t>{6, 0}));
    EXPECT_EQ(tl.state().written[s.tile], (std::vector<uint8_t>{1, 0}));
    ASSERT_EQ(tl.changed().size(), 1u);
    EXPECT_EQ(tl.changed()[0], CellRef::sharedCell(s.tile, 0, 0));
    tl.nextRound(); // to the end of round 0
    EXPECT_EQ(tl.position(), 4u);
    EXPECT_TRUE(tl.atRoundEnd());
    EXPECT_EQ(tl.state().values[s.tile], (std::vector<uint32_t>{6, 7}));
    EXPECT_TRUE(tl.wasChanged(CellRef::sharedCell(s.tile, 0, 1)));
    tl.nextRound();
    EXPECT_EQ(tl.position(), 8u);
    EXPECT_EQ(tl.state().values[s.result], (std::vector<uint32_t>{7, 6})) << "the swap";
    EXPECT_EQ(tl.changed().size(), 2u) << "both result cells changed in round 1";
    EXPECT_FALSE(tl.wasChanged(CellRef::sharedCell(s.tile, 0, 0)));
}

TEST(TimelineTest, SteppingBackRestoresEarlierContents) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    tl.toEnd();
    tl.prevAccess(); // undo thread 1's result write
    EXPECT_EQ(tl.state().values[s.result], (std::vector<uint32_t>{7, 9}));
    EXPECT_EQ(tl.changed(), (std::vector<CellRef>{CellRef::buffer(s.result, 1)}))
        << "the cell put back";
    ASSERT_TRUE(tl.current());
    EXPECT_EQ(tl.current()->invocation, 1u);
    tl.prevRound();
    EXPECT_EQ(tl.position(), 4u) << "back to the end of round 0";
    EXPECT_EQ(tl.changed().size(), 2u)
        << "a round move shows what that round wrote (tile[0], tile[1])";
    EXPECT_TRUE(tl.wasChanged(CellRef::sharedCell(s.tile, 0, 1)));
    EXPECT_FALSE(tl.wasChanged(CellRef::buffer(s.result, 0))) << "not what the jump put back";
    tl.prevRound();
    EXPECT_EQ(tl.position(), 0u);
    EXPECT_FALSE(tl.current());
    tl.prevAccess();
    EXPECT_EQ(tl.position(), 0u) << "nothing before the start";
    tl.seekRoundEnd(7);
    EXPECT_EQ(tl.position(), 8u) << "past the last round: its end";
}

TEST(TimelineTest, OnlyTheChosenWorkgroupIsReplayed) {
    TraceBuilder b({1, 1, 1}, {2, 1, 1});
    uint32_t out = b.buffer("result", 2);
    b.write(0, out, 0, 10, 5);
    b.write(1, out, 1, 11, 5);
    std::vector<BufferData> initial{BufferData{ElementKind::Uint, Shape{{2}}, {0, 0}}};
    Timeline tl(b.t, 1, initial);
    ASSERT_EQ(tl.size(), 1u);
    tl.toEnd();
    EXPECT_EQ(tl.state().values[out], (std::vector<uint32_t>{0, 11}));
}

TEST(TimelineTest, AtomicsApplyTheOperationOfTheirLine) {
    TraceBuilder b({2, 1, 1});
    uint32_t counter = b.buffer("counter", 1), best = b.buffer("best", 1);
    b.atomic(0, counter, 0, 3, /*old*/ 0, /*operand*/ 5);
    b.atomic(1, counter, 0, 3, 5, 2);
    b.atomic(0, best, 0, 4, 0, 9);
    b.atomic(1, best, 0, 4, 9, 4);
    std::vector<BufferData> initial{BufferData{ElementKind::Uint, Shape{{1}}, {0}},
                                    BufferData{ElementKind::Uint, Shape{{1}}, {0}}};
    std::string source = "#version 450\n\natomicAdd(counter[0], x);\n  atomicMax (best[0], y);\n";
    auto ops = atomicOpsFromSource(source);
    EXPECT_EQ(ops.at(3), AtomicOpKind::Add);
    EXPECT_EQ(ops.at(4), AtomicOpKind::Max);
    Timeline tl(b.t, 0, initial, ops);
    tl.toEnd();
    EXPECT_EQ(tl.state().values[counter][0], 7u);
    EXPECT_EQ(tl.state().values[best][0], 9u) << "max(9, 4), not 9 + 4";
    EXPECT_EQ(applyAtomic(AtomicOpKind::Min, ElementKind::Int, uint32_t(-3), 2), uint32_t(-3))
        << "signed min";
    EXPECT_EQ(applyAtomic(AtomicOpKind::Exchange, ElementKind::Uint, 4, 8), 8u);
    EXPECT_EQ(applyAtomic(AtomicOpKind::CompSwap, ElementKind::Uint, 4, 8), 8u)
        << "a compare-and-swap is traced with the value it left";
}

// A loop on one line (acc += tileA[ly][k] * tileB[k][lx]) over 3 iterations, and a line read
// twice per execution with a write (result[i] = a[i] + a[i + 1]).
TEST(WatchTest, OneColumnPerExecutionOfTheLine) {
    TraceBuilder b({2, 1, 1});
    uint32_t a = b.buffer("a", 4), result = b.buffer("result", 2),
             tileA = b.shared("tileA", {2, 3}), tileB = b.shared("tileB", {3, 2});
    for (uint32_t t = 0; t < 2; ++t) {
        for (uint32_t k = 0; k < 3; ++k) {
            b.read(t, tileA, 0 * 3 + k, 52, k);
            b.read(t, tileB, k * 2 + t, 52, 10 + k);
        }
        b.read(t, a, t, 60, 1);
        b.read(t, a, t + 1, 60, 2);
        b.write(t, result, t, 3, 60);
    }
    WatchTable w = buildWatchTable(b.t, 52);
    ASSERT_EQ(w.rows.size(), 2u);
    EXPECT_EQ(w.maxExecutions, 3u) << "three iterations";
    EXPECT_EQ(w.rows[1].execution(2).size(), 2u) << "one read of each tile per iteration";
    EXPECT_EQ(w.variables, (std::vector<uint32_t>{tileA, tileB}));
    EXPECT_EQ(w.events, 12u);
    EXPECT_EQ(watchCellText(b.t, 1, w.rows[1].execution(2), WatchTextKind::Cells),
              "tileA[0][2] tileB[2][1]");
    EXPECT_EQ(watchCellText(b.t, 1, w.rows[1].execution(2), WatchTextKind::CellsAndValues,
                            static_cast<int>(tileB)),
              "tileB[2][1]=12");
    WatchTable sum = buildWatchTable(b.t, 60);
    ASSERT_EQ(sum.rows.size(), 2u);
    EXPECT_EQ(sum.maxExecutions, 1u) << "a, a, result is one execution, not three";
    EXPECT_EQ(watchCellText(b.t, 0, sum.rows[0].execution(0), WatchTextKind::CellsAndValues),
              "a[0]=1 a[1]=2 result[0] \xE2\x86\x90 3");
    EXPECT_TRUE(buildWatchTable(b.t, 99).rows.empty()) << "a line without accesses";
}

TEST(WatchTest, AnotherLineBetweenStartsANewExecution) {
    TraceBuilder b({1, 1, 1});
    uint32_t a = b.buffer("a", 4), s = b.shared("s", {4});
    for (uint32_t i = 0; i < 3; ++i) {
        b.read(0, a, i, 7);
        b.write(0, s, i, 0, 8);
    }
    WatchTable w = buildWatchTable(b.t, 7);
    ASSERT_EQ(w.rows.size(), 1u);
    EXPECT_EQ(w.rows[0].executions(), 3u);
    EXPECT_TRUE(w.rows[0].execution(3).empty());
}

TEST(WatchTest, WatchedLinesStaySortedAndUnique) {
    std::vector<uint32_t> lines;
    toggleWatchedLine(lines, 52);
    toggleWatchedLine(lines, 37);
    toggleWatchedLine(lines, 60);
    EXPECT_EQ(lines, (std::vector<uint32_t>{37, 52, 60}));
    toggleWatchedLine(lines, 52);
    EXPECT_EQ(lines, (std::vector<uint32_t>{37, 60}));
}

} // namespace
} // namespace vkp::views

namespace vkp::views {
namespace {

TEST(TimelineTest, APositionAfterAThreadsAccess) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    EXPECT_EQ(tl.positionAfter(1, 0), 3u) << "thread 1's first access is the third step";
    EXPECT_EQ(tl.positionAfter(1, 2), 7u) << "event 2 is its barrier: the access after it";
    EXPECT_FALSE(tl.positionAfter(5, 0)) << "not a thread of this workgroup";
}

} // namespace
} // namespace vkp::views
