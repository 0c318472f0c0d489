// Which thread handed which a value through a shuffle or broadcast (the thread grid's arrows),
// on synthetic traces: a butterfly, broadcasts from lane 0 across short subgroups, sources the
// trace cannot name, and several handoffs between one pair of threads.
#include <gtest/gtest.h>

#include "views/lane_flow.h"

namespace vkp::views {
namespace {

TraceEvent shuffle(ShuffleOp op, uint32_t operand, float value, uint32_t line = 20) {
    TraceEvent e;
    e.kind = TraceEventKind::Shuffle;
    e.index = operand;
    e.value = toWord(ElementKind::Float, value);
    e.extra = packShuffleExtra(op, ElementKind::Float);
    e.line = line;
    return e;
}

TraceEvent read(uint32_t index) {
    TraceEvent e;
    e.kind = TraceEventKind::Read;
    e.variable = 0;
    e.index = index;
    return e;
}

Trace launch(uint32_t workgroupSize, uint32_t workgroups, uint32_t subgroupSize) {
    Trace t;
    t.launch.workgroupSize = {workgroupSize, 1, 1};
    t.launch.workgroups = {workgroups, 1, 1};
    t.subgroupSize = subgroupSize;
    t.threads.resize(t.launch.invocations());
    return t;
}

// Butterfly's solution: a[i] read, then v += xor 1, v += xor 2 (8 threads, subgroups of 8).
Trace butterfly() {
    Trace t = launch(8, 1, 8);
    float a[8] = {3, 1, 7, 0, 4, 1, 6, 3};
    for (uint32_t i = 0; i < 8; ++i) // xor 2 brings the other pair's sum
        t.threads[i] = {read(i), shuffle(ShuffleOp::Xor, 1, a[i ^ 1], 28),
                        shuffle(ShuffleOp::Xor, 2, a[i ^ 2] + a[i ^ 3], 29)};
    return t;
}

TEST(LaneFlowTest, AButterflyLaneTakesFromItsXorPartnersAndFeedsThem) {
    Trace t = butterfly();
    LaneFlows f = laneFlows(t, 0);
    ASSERT_EQ(f.into.size(), 2u);
    EXPECT_EQ(f.into[0].from, 1u);
    EXPECT_EQ(f.into[0].to, 0u);
    EXPECT_EQ(f.into[0].event, 1u) << "the record's index among thread 0's events";
    EXPECT_EQ(f.into[0].line, 28u);
    EXPECT_EQ(handoffOpText(f.into[0]), "xor 1");
    EXPECT_EQ(handoffValueText(f.into[0]), "1") << "a[1] arrived, as a float";
    EXPECT_EQ(f.into[1].from, 2u);
    EXPECT_EQ(handoffOpText(f.into[1]), "xor 2");
    EXPECT_EQ(handoffValueText(f.into[1]), "7") << "lane 2's pair sum a2 + a3";
    ASSERT_EQ(f.outOf.size(), 2u) << "lane 1 took from it with xor 1, lane 2 with xor 2";
    EXPECT_EQ(f.outOf[0].to, 1u);
    EXPECT_EQ(f.outOf[0].from, 0u);
    EXPECT_EQ(handoffOpText(f.outOf[0]), "xor 1");
    EXPECT_EQ(f.outOf[1].to, 2u);
    EXPECT_EQ(handoffOpText(f.outOf[1]), "xor 2");
    EXPECT_EQ(f.fromItself, 0u);
    EXPECT_EQ(f.unknownSources, 0u);

    // Lane 5 (team 4-7): from 4 and 7, and fed them.
    LaneFlows five = laneFlows(t, 5);
    ASSERT_EQ(five.into.size(), 2u);
    EXPECT_EQ(five.into[0].from, 4u);
    EXPECT_EQ(five.into[1].from, 7u);
    ASSERT_EQ(five.outOf.size(), 2u);
    EXPECT_EQ(five.outOf[0].to, 4u);
    EXPECT_EQ(five.outOf[1].to, 7u);
    EXPECT_TRUE(hasLaneHandoffs(t));
}

TEST(LaneFlowTest, ArrowsGoIntoTheThreadFirstThenOutOfItInLighterFedArrows) {
    Trace t = butterfly();
    std::vector<LaneArrow> arrows = laneArrows(laneFlows(t, 0));
    ASSERT_EQ(arrows.size(), 4u);
    EXPECT_EQ(arrows[0].from, 1u);
    EXPECT_EQ(arrows[0].to, 0u);
    EXPECT_FALSE(arrows[0].fed);
    EXPECT_EQ(arrows[0].op, "xor 1");
    EXPECT_EQ(arrows[0].value, "1");
    EXPECT_EQ(arrows[0].count, 1u);
    EXPECT_EQ(arrows[1].from, 2u);
    EXPECT_EQ(arrows[1].op, "xor 2");
    EXPECT_EQ(arrows[2].from, 0u);
    EXPECT_EQ(arrows[2].to, 1u);
    EXPECT_TRUE(arrows[2].fed);
    EXPECT_EQ(arrows[2].op, "xor 1");
    EXPECT_EQ(arrows[2].value, "3") << "what lane 1 took: a[0]";
    EXPECT_EQ(arrows[3].to, 2u);
    EXPECT_TRUE(arrows[3].fed);
}

// Two workgroups of 12 in subgroups of 8: every thread takes lane 0's value twice
// (subgroupBroadcast(v, 0) in a loop of 2). Locals 8-11 are a short subgroup of their own.
Trace broadcasts() {
    Trace t = launch(12, 2, 8);
    for (auto& events : t.threads)
        events = {shuffle(ShuffleOp::Broadcast, 0, 5, 40), shuffle(ShuffleOp::Broadcast, 0, 6, 40)};
    return t;
}

TEST(LaneFlowTest, ABroadcastingLaneFeedsEveryLaneOfItsSubgroupAndNoOther) {
    Trace t = broadcasts();
    // Invocation 12 is lane 0 of workgroup 1's first subgroup (invocations 12-19).
    LaneFlows f = laneFlows(t, 12);
    EXPECT_TRUE(f.into.empty());
    EXPECT_EQ(f.fromItself, 2u) << "lane 0 broadcast to itself: no arrow";
    ASSERT_EQ(f.outOf.size(), 14u) << "7 lanes, 2 values each";
    for (const LaneHandoff& h : f.outOf) {
        EXPECT_GE(h.to, 13u);
        EXPECT_LE(h.to, 19u) << "invocations 20-23 are another subgroup";
    }
    std::vector<LaneArrow> arrows = laneArrows(f);
    ASSERT_EQ(arrows.size(), 7u) << "one arrow per taker";
    EXPECT_EQ(arrows[0].to, 13u);
    EXPECT_EQ(arrows[0].count, 2u);
    EXPECT_EQ(arrows[0].op, "broadcast 0");
    EXPECT_EQ(arrows[0].value, "") << "two values: none is the arrow's";

    // Invocation 21 (local 9, lane 1 of the short subgroup) takes from local 8 = invocation 20.
    LaneFlows g = laneFlows(t, 21);
    ASSERT_EQ(g.into.size(), 2u);
    EXPECT_EQ(g.into[0].from, 20u);
    EXPECT_TRUE(g.outOf.empty());
    std::vector<LaneArrow> one = laneArrows(g);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].from, 20u);
    EXPECT_EQ(one[0].count, 2u);
}

TEST(LaneFlowTest, FedArrowsAreThinnedAndTheRestCounted) {
    Trace t = broadcasts();
    size_t leftOut = 0;
    std::vector<LaneArrow> arrows = laneArrows(laneFlows(t, 0), 3, &leftOut);
    ASSERT_EQ(arrows.size(), 3u);
    EXPECT_EQ(arrows[0].to, 1u);
    EXPECT_EQ(arrows[2].to, 3u);
    EXPECT_EQ(leftOut, 4u) << "lanes 4-7 left out";
}

TEST(LaneFlowTest, SourcesTheTraceCannotNameAreCountedNotDrawn) {
    Trace t = launch(8, 1, 8);
    t.threads[3] = {shuffle(ShuffleOp::BroadcastFirst, 3, 1), shuffle(ShuffleOp::Down, 6, 1),
                    shuffle(ShuffleOp::Up, 1, 1)};
    LaneFlows f = laneFlows(t, 3);
    EXPECT_EQ(f.unknownSources, 1u) << "lane 9 of 8";
    EXPECT_EQ(f.fromItself, 1u) << "its broadcast-first's first active lane was its own";
    ASSERT_EQ(f.into.size(), 1u);
    EXPECT_EQ(f.into[0].from, 2u);
    EXPECT_EQ(laneFlows(t, 2).outOf.size(), 1u);

    Trace noSize = t;
    noSize.subgroupSize = 0;
    LaneFlows none = laneFlows(noSize, 3);
    EXPECT_EQ(none.unknownSources, 3u);
    EXPECT_TRUE(none.into.empty());
    EXPECT_TRUE(laneFlows(noSize, 2).outOf.empty());
    EXPECT_TRUE(laneFlows(t, 99).into.empty()) << "an invocation past the trace";

    EXPECT_TRUE(hasLaneHandoffs(t));
    EXPECT_FALSE(hasLaneHandoffs(noSize)) << "no source known: no arrow to draw";
    Trace first = launch(8, 1, 8);
    first.threads[0] = {read(0), shuffle(ShuffleOp::BroadcastFirst, 0, 1)};
    EXPECT_FALSE(hasLaneHandoffs(first)) << "a broadcast-first from its only lane: no arrow";
    first.threads[1] = {shuffle(ShuffleOp::BroadcastFirst, 0, 1)};
    EXPECT_TRUE(hasLaneHandoffs(first)) << "lane 1 took lane 0's value";
}

TEST(LaneFlowTest, SeveralOpsBetweenOnePairShareAnArrowNamingThem) {
    Trace t = launch(4, 1, 4);
    t.threads[1] = {shuffle(ShuffleOp::Shuffle, 0, 1), shuffle(ShuffleOp::Broadcast, 0, 2)};
    t.threads[2] = {shuffle(ShuffleOp::Shuffle, 0, 1), shuffle(ShuffleOp::Broadcast, 0, 2),
                    shuffle(ShuffleOp::Up, 2, 3), shuffle(ShuffleOp::Up, 2, 4)};
    std::vector<LaneArrow> two = laneArrows(laneFlows(t, 1));
    ASSERT_EQ(two.size(), 1u);
    EXPECT_EQ(two[0].op, "shuffle 0, broadcast 0");
    EXPECT_EQ(two[0].count, 2u);
    std::vector<LaneArrow> three = laneArrows(laneFlows(t, 2));
    ASSERT_EQ(three.size(), 1u);
    EXPECT_EQ(three[0].op, "") << "past two ops the label is the count alone";
    EXPECT_EQ(three[0].count, 4u);
    std::vector<LaneArrow> fed = laneArrows(laneFlows(t, 0));
    ASSERT_EQ(fed.size(), 2u) << "lane 0 fed lanes 1 and 2";
    EXPECT_TRUE(fed[0].fed && fed[1].fed);
    EXPECT_EQ(fed[0].to, 1u);
    EXPECT_EQ(fed[1].to, 2u);
}

} // namespace
} // namespace vkp::views
