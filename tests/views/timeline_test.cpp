// The stepping model: one workgroup's accesses in round / thread / program order, the contents
// of shared arrays and buffers at each position replayed from the initial data, and the cells a
// step changed; what the Timeline view shows of it (the position, the step and what a click on it
// selects, its arrows, the replayed buffers, the requests a frame applies). Also the watch tables
// ("index per thread per iteration").
#include <gtest/gtest.h>

#include "support/trace_builder.h"
#include "views/timeline.h"
#include "views/view_state.h"
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
    Puzzle puzzle;   // its buffers a (input) and result (output)
    TestCase launch; // its launch: one workgroup of 2

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
        puzzle.buffers.resize(2);
        puzzle.buffers[0].name = "a";
        puzzle.buffers[1].name = "result";
        puzzle.buffers[1].role = RoleKind::Output;
        launch.workgroupSize = {2, 1, 1};
        launch.workgroups = {1, 1, 1};
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

TEST(TimelineViewTest, ThePositionInWords) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    EXPECT_EQ(positionText(tl), "start \xC2\xB7 access 0 of 8");
    tl.nextAccess();
    std::string dash = "\xE2\x80\x93";
    EXPECT_EQ(positionText(tl), "round 0 (0" + dash + "1) \xC2\xB7 access 1 of 8");
    tl.toEnd();
    EXPECT_EQ(positionText(tl), "end (after round 1) \xC2\xB7 access 8 of 8");
    TraceBuilder two({1, 1, 1}, {2, 1, 1});
    uint32_t a = two.buffer("a", 2);
    two.read(0, a, 0, 3);
    Timeline idle(two.t, 1, {});
    EXPECT_EQ(positionText(idle), "no accesses in this workgroup");
}

TEST(TimelineViewTest, TheStepJustTakenAndWhatAClickOnItSelects) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    EXPECT_FALSE(timelineStep(tl, s.b.t, s.launch)) << "nothing applied at the start";
    tl.nextAccess();
    std::optional<TimelineStep> read = timelineStep(tl, s.b.t, s.launch);
    ASSERT_TRUE(read);
    EXPECT_TRUE(read->read);
    tl.nextAccess(); // thread 0 stores tile[0]
    std::optional<TimelineStep> step = timelineStep(tl, s.b.t, s.launch);
    ASSERT_TRUE(step);
    EXPECT_FALSE(step->read);
    EXPECT_EQ(step->thread, (Uvec3{0, 0, 0}));
    EXPECT_EQ(step->line, 21u);
    EXPECT_EQ(step->cell, CellRef::sharedCell(s.tile, 0, 0));
    EXPECT_EQ(step->text.rfind("thread (0)  line 21", 0), 0u) << step->text;
    EXPECT_NE(step->text.find("tile[0]"), std::string::npos) << step->text;
    ViewState view;
    showTimelineStep(view, *step, false);
    EXPECT_EQ(view.selection.thread, (Uvec3{0, 0, 0}));
    EXPECT_EQ(view.jumpTo, std::make_pair(21, 0)) << "the editor goes to the line";
    EXPECT_TRUE(view.focus.lines.empty());
    ViewState official;
    showTimelineStep(official, *step, true);
    EXPECT_FALSE(official.jumpTo) << "the official solution is not in the editor";
    EXPECT_EQ(official.focus.lines, (std::vector<uint32_t>{21}));
}

TEST(TimelineViewTest, AWriteHasArrowsFromTheReadsThatFedIt) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    tl.nextAccess(); // a read: no arrow
    EXPECT_TRUE(stepArrows(tl, s.b.t).empty());
    tl.nextAccess(); // tile[0] = a[0] + 1
    std::vector<Arrow> arrows = stepArrows(tl, s.b.t);
    ASSERT_EQ(arrows.size(), 1u);
    EXPECT_EQ(arrows[0].from, CellRef::buffer(s.a, 0));
    EXPECT_EQ(arrows[0].to, CellRef::sharedCell(s.tile, 0, 0));
}

TEST(TimelineViewTest, ReplayedBuffersOutputsFirst) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    tl.toEnd();
    std::vector<ReplayedBuffer> shown = replayedBuffers(s.puzzle, s.b.t, tl, s.initial);
    ASSERT_EQ(shown.size(), 2u);
    EXPECT_EQ(shown[0].buffer, 1u) << "the output first: it changes";
    EXPECT_EQ(shown[0].now.words, (std::vector<uint32_t>{7, 6})) << "the swap, replayed";
    EXPECT_EQ(shown[1].buffer, 0u);
    EXPECT_EQ(shown[1].now.words, (std::vector<uint32_t>{5, 6}));
    EXPECT_TRUE(shown[0].startedAs.empty());
    tl.toStart();
    EXPECT_EQ(replayedBuffers(s.puzzle, s.b.t, tl, s.initial)[0].now.words,
              (std::vector<uint32_t>{9, 9}))
        << "at the start, the initial data";
    // A dispatch binding only the output, over the memory that started as `a`.
    std::vector<size_t> bound{1}, bufferAt{1, 0};
    std::vector<ReplayedBuffer> dispatch =
        replayedBuffers(s.puzzle, s.b.t, tl, s.initial, &bound, &bufferAt);
    ASSERT_EQ(dispatch.size(), 1u);
    EXPECT_EQ(dispatch[0].buffer, 1u);
    EXPECT_EQ(dispatch[0].startedAs, "a");
}

TEST(TimelineViewTest, WhereAReplayStarts) {
    EXPECT_EQ(timelineStartText(false), "Start: every buffer holds its initial data; shared "
                                        "memory is not written yet (\xC2\xB7).");
    EXPECT_EQ(timelineStartText(true), "Start: every buffer holds what it held before this "
                                       "dispatch; shared memory is not written yet (\xC2\xB7).");
    EXPECT_EQ(dispatchStartText(0, "scan_tiles"), "");
    EXPECT_EQ(dispatchStartText(1, "scan_sums"),
              "Dispatch 2 (scan_sums) starts from what dispatch 1 wrote (replayed from its "
              "trace).");
    EXPECT_EQ(dispatchStartText(2, "add_offsets"),
              "Dispatch 3 (add_offsets) starts from what dispatches 1 and 2 wrote (replayed "
              "from their traces).");
    EXPECT_EQ(dispatchStartText(4, "step (5 of 9)"),
              "Dispatch 5 (step (5 of 9)) starts from what dispatches 1 to 4 wrote (replayed "
              "from their traces).");
}

TEST(TimelineViewTest, AFrameAppliesThePendingRequestsOnce) {
    Swap s;
    Timeline tl(s.b.t, 0, s.initial);
    ViewState view;
    view.timelineMove = TimelineMove::End;
    applyTimelineRequests(view, tl);
    EXPECT_EQ(tl.position(), 8u);
    EXPECT_FALSE(view.timelineMove) << "a request is applied once";
    view.seekRound = 0;
    applyTimelineRequests(view, tl);
    EXPECT_EQ(tl.position(), 4u) << "the end of round 0";
    EXPECT_FALSE(view.seekRound);
    view.seekEvent = std::make_pair(uint64_t(1), uint32_t(0));
    applyTimelineRequests(view, tl);
    EXPECT_EQ(tl.position(), 3u) << "just after thread 1's first access";
    EXPECT_FALSE(view.seekEvent);
    // Each move from where the one before it left the timeline.
    const std::pair<TimelineMove, size_t> moves[] = {{TimelineMove::PrevRound, 0},
                                                     {TimelineMove::NextRound, 4},
                                                     {TimelineMove::NextAccess, 5},
                                                     {TimelineMove::PrevAccess, 4},
                                                     {TimelineMove::Start, 0}};
    for (auto [move, position] : moves) {
        view.timelineMove = move;
        applyTimelineRequests(view, tl);
        EXPECT_EQ(tl.position(), position) << static_cast<int>(move);
    }
}

} // namespace
} // namespace vkp::views
