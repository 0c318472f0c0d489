// The models behind visual debugging: a thread's footprint (order numbers, data
// flow, lines), a cell's history, limits, findings as targets. Synthetic traces, no window.
#include <gtest/gtest.h>

#include "support/neighbour_sum.h"
#include "views/trace_model.h"

namespace vkp::views {
namespace {

using test::TraceBuilder;

TEST(FootprintTest, AccessesInOrderWithOrderNumbersFlowsAndLines) {
    test::NeighbourSum n;
    ThreadFootprint f = threadFootprint(n.b.t, 3); // workgroup 1, local 1
    ASSERT_EQ(f.accesses.size(), 6u);
    EXPECT_EQ(f.accesses[0].order, 1u);
    EXPECT_EQ(f.accesses[2].order, 0u) << "a barrier has no order number";
    EXPECT_EQ(f.accesses[5].order, 5u);
    ASSERT_TRUE(f.accesses[1].cell);
    EXPECT_EQ(*f.accesses[1].cell, CellRef::sharedCell(n.cache, 1, 1))
        << "shared cells belong to the thread's workgroup";
    const CellMark& own = f.cells.at(CellRef::sharedCell(n.cache, 1, 1));
    EXPECT_TRUE(own.read);
    EXPECT_TRUE(own.written);
    EXPECT_EQ(own.orders, (std::vector<uint32_t>{2, 3}));
    EXPECT_EQ(f.globalReads, 1u);
    EXPECT_EQ(f.globalWrites, 1u);
    ASSERT_EQ(f.flows.size(), 2u);
    EXPECT_EQ(f.flows[0].to, CellRef::sharedCell(n.cache, 1, 1));
    EXPECT_EQ(f.flows[0].from, (std::vector<CellRef>{CellRef::buffer(0, 3)}));
    EXPECT_EQ(f.flows[1].to, CellRef::buffer(1, 3));
    EXPECT_EQ(f.flows[1].from.size(), 2u) << "both cache cells feed the result";
    EXPECT_EQ(f.lines, (std::vector<uint32_t>{10, 11, 12, 13, 14}));
}

// The tiled-matmul pattern: loads copied into tiles, tile reads accumulated into the result.
TEST(FootprintTest, CopiesTakeTheirReadAndComputedWritesTheRest) {
    TraceBuilder b({1, 1, 1});
    uint32_t a = b.buffer("a", 4), result = b.buffer("result", 1), tile = b.shared("tile", {2});
    b.read(0, a, 0, 37, 5).write(0, tile, 0, 5, 39).barrier(0);
    b.read(0, tile, 0, 52, 5).read(0, tile, 1, 52, 0).barrier(0);
    b.read(0, a, 2, 37, 6).write(0, tile, 0, 6, 39).barrier(0);
    b.read(0, tile, 0, 52, 6).read(0, tile, 1, 52, 0).barrier(0);
    b.write(0, result, 0, 11, 62);
    ThreadFootprint f = threadFootprint(b.t, 0);
    ASSERT_EQ(f.flows.size(), 3u);
    EXPECT_EQ(f.flows[1].to, CellRef::sharedCell(tile, 0, 0));
    EXPECT_EQ(f.flows[1].from, (std::vector<CellRef>{CellRef::buffer(a, 2)}))
        << "the second load copies a[2] only";
    EXPECT_EQ(f.flows[2].to, CellRef::buffer(result, 0));
    EXPECT_EQ(f.flows[2].from, (std::vector<CellRef>{CellRef::sharedCell(tile, 0, 0),
                                                     CellRef::sharedCell(tile, 0, 1)}))
        << "every tile read of both steps feeds the computed result";
    EXPECT_EQ(f.flows[2].event, 12u);
}

TEST(FootprintTest, ArrowsAreThinnedPerArrayWhenThereAreMany) {
    TraceBuilder b({1, 1, 1});
    uint32_t a = b.buffer("a", 64), out = b.buffer("result", 1);
    for (uint32_t i = 0; i < 40; ++i)
        b.read(0, a, i, 5);
    b.write(0, out, 0, 1, 6);
    ThreadFootprint f = threadFootprint(b.t, 0);
    auto all = arrowsFor(f, 100);
    EXPECT_EQ(all.size(), 40u);
    auto thin = arrowsFor(f, 24);
    ASSERT_EQ(thin.size(), 1u) << "40 reads of one array become one arrow";
    EXPECT_EQ(thin[0].count, 40u);
    EXPECT_EQ(thin[0].to, CellRef::buffer(1, 0));
    EXPECT_EQ(thin[0].from, CellRef::buffer(0, 20)) << "from the middle of the read cells";
}

TEST(CellIndexTest, EveryThreadThatTouchedACellInRoundOrder) {
    test::NeighbourSum n;
    CellIndex index(n.b.t);
    // cache[0] of workgroup 1: thread 2 writes it in round 0, threads 2 and 3 read it in round 1.
    const auto& h = index.history(CellRef::sharedCell(n.cache, 1, 0));
    ASSERT_EQ(h.size(), 3u);
    EXPECT_EQ(h[0].invocation, 2u);
    EXPECT_EQ(h[0].kind, TraceEventKind::Write);
    EXPECT_EQ(h[0].round, 0u);
    EXPECT_EQ(h[1].round, 1u);
    EXPECT_EQ(h[1].invocation, 2u);
    EXPECT_EQ(h[2].invocation, 3u);
    EXPECT_EQ(h[2].line, 13u);
    EXPECT_EQ(index.threads(CellRef::sharedCell(n.cache, 1, 0)), (std::vector<uint64_t>{2, 3}));
    EXPECT_TRUE(index.history(CellRef::sharedCell(n.cache, 0, 0)).size() == 3u)
        << "workgroup 0 has its own copy";
    EXPECT_TRUE(index.history(CellRef::buffer(1, 9)).empty());
}

TEST(IdTextTest, AsManyNumbersAsTheLaunchHasDimensions) {
    TestCase oneD, twoD;
    oneD.workgroupSize = {8, 1, 1};
    oneD.workgroups = {3, 1, 1};
    twoD.workgroupSize = {4, 4, 1};
    twoD.workgroups = {1, 2, 1};
    EXPECT_EQ(idText(oneD, {7, 0, 0}), "(7)");
    EXPECT_EQ(idText(twoD, {1, 6, 0}), "(1, 6)");
}

TEST(TrafficTest, TheOffendingThreadIsOverTheLimit) {
    TraceAnalysis a;
    a.traffic = {{2, 1}, {3, 1}, {2, 2}};
    Limits limits;
    limits.globalReads = 2;
    limits.globalWrites = 1;
    EXPECT_FALSE(trafficOf(a, limits, 0).over());
    EXPECT_TRUE(trafficOf(a, limits, 1).overReads());
    EXPECT_TRUE(trafficOf(a, limits, 2).overWrites());
    EXPECT_EQ(threadsOverLimits(a, limits), (std::vector<uint64_t>{1, 2}));
    EXPECT_TRUE(threadsOverLimits(a, Limits{}).empty()) << "no limits, no offenders";
}

TEST(FindingTargetTest, ARaceSendsTheViewsToItsCellRoundAndWorkgroup) {
    test::NeighbourSum n;
    Finding f{FindingKind::SharedRace, "race", 13, {3, 2}};
    f.variable = static_cast<int>(n.cache);
    f.index = 1;
    f.round = 1;
    FindingTarget t = findingTarget(n.b.t, f);
    EXPECT_EQ(t.line, 13);
    EXPECT_EQ(t.workgroup, 1u);
    EXPECT_EQ(t.round, 1u);
    ASSERT_TRUE(t.cell);
    EXPECT_EQ(*t.cell, CellRef::sharedCell(n.cache, 1, 1));
    Finding limit{FindingKind::ReadLimit, "too many reads", 10, {0}};
    EXPECT_FALSE(findingTarget(n.b.t, limit).cell);
}

} // namespace
} // namespace vkp::views
