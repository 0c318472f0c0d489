// The room an overflowed case's next run gives each dispatch (check/trace_rerun.h): no device,
// the outcome's dispatches and the room the last run left are all it reads.
#include <gtest/gtest.h>

#include <memory>

#include "check/trace_rerun.h"

namespace vkp {
namespace {

// A case of `kernels.size()` dispatches, dispatch j running kernel kernels[j].
CaseOutcome dispatchesOf(const std::vector<size_t>& kernels) {
    CaseOutcome c;
    for (size_t k : kernels) {
        DispatchTrace d;
        d.kernel = k;
        c.dispatches.push_back(d);
    }
    return c;
}

// A one-sweep sort: a histogram pass (kernel 0), then four rounds of one kernel (1). Round 1's
// look-back polled past its 546 slots; rounds 2 to 4 fit this time, but poll alike and may not
// in the next run: they get round 1's room too. The histogram keeps what it had.
TEST(TraceRerun, EveryDispatchOfAKernelThatOverflowedGetsTheRoomItNeeded) {
    CaseOutcome c = dispatchesOf({0, 1, 1, 1, 1});
    TraceRoom room;
    room.kept = {546, 546, 546, 546, 546};
    room.wanted = {546, 1286, 546, 700, 546};
    room.possible = {5000, 5000, 5000, 5000, 5000};
    EXPECT_EQ(rerunSlots(c, room, {}), (std::vector<uint32_t>{546, 1929, 1929, 1929, 1929}));
}

TEST(TraceRerun, TheRoomNeverShrinksAndNeverPassesWhatIsPossible) {
    CaseOutcome c = dispatchesOf({0, 1});
    TraceRoom room;
    room.kept = {1929, 1929};
    room.wanted = {1929, 4000}; // round 1 polled more again
    room.possible = {5000, 5000};
    // 4000 and half again is past what the trace may hold: as much as it may.
    EXPECT_EQ(rerunSlots(c, room, {2500, 1929}), (std::vector<uint32_t>{2500, 5000}));
}

// A dispatch short again in a re-run (a loaded machine: its polls grew past half as much again)
// gets twice what its busiest thread made; one short the first time, half as much again.
TEST(TraceRerun, ADispatchShortInAReRunGetsTwiceWhatItMade) {
    CaseOutcome c = dispatchesOf({0, 1});
    TraceRoom room;
    room.kept = {1500, 1500};
    room.wanted = {1400, 3000};
    room.possible = {10000, 10000};
    EXPECT_EQ(rerunSlots(c, room, {1500, 1500}), (std::vector<uint32_t>{1500, 6000}));
    EXPECT_EQ(rerunSlots(c, room, {}), (std::vector<uint32_t>{1500, 4500}));
}

TEST(TraceRerun, ASingleDispatchCaseGrowsItsOneTrace) {
    CaseOutcome c; // no dispatches: its one trace
    TraceRoom room;
    room.kept = {100};
    room.wanted = {300};
    room.possible = {1000};
    EXPECT_EQ(rerunSlots(c, room, {}), (std::vector<uint32_t>{450}));
    room.wanted = {100}; // it fit: nothing grows
    EXPECT_EQ(rerunSlots(c, room, {}), (std::vector<uint32_t>{100}));
}

// A one-dispatch case of `threads` threads whose busiest thread made `wanted` records and whose
// trace had `slots` a thread.
CaseOutcome tracedCase(size_t index, uint32_t threads, uint32_t slots, uint32_t wanted) {
    auto t = std::make_shared<Trace>();
    t->launch.workgroupSize = {threads, 1, 1};
    t->slotsPerInvocation = slots;
    t->mostRecordsWanted = wanted;
    CaseOutcome c;
    c.index = index;
    c.trace = t;
    return c;
}

// What a check keeps for the next (TraceRoomMemory): the room of a case that needed more than
// the default (1024 records a thread here), growing for the same launch, replaced for another,
// forgotten when the default holds it again or when it is more than one run may hold.
TEST(TraceRoom, ARoomIsKeptWhereTheDefaultWasShortAndOnlyGrowsForTheSameLaunch) {
    const uint64_t records = 1u << 20, roomy = 1ull << 30;
    TraceRoomMemory m;
    rememberRoom(m, tracedCase(2, 64, 1024, 900), records, roomy);
    EXPECT_EQ(m.cases.count(2), 0u) << "the default held it";
    rememberRoom(m, tracedCase(2, 64, 3000, 2000), records, roomy);
    EXPECT_EQ(rememberedSlots(m, 2, 0, 64, 1), 3000u);
    EXPECT_EQ(rememberedSlots(m, 2, 0, 128, 1), 0u) << "another launch";
    EXPECT_EQ(rememberedSlots(m, 2, 0, 64, 2), 0u) << "another number of dispatches";
    EXPECT_EQ(rememberedSlots(m, 3, 0, 64, 1), 0u) << "another case";
    rememberRoom(m, tracedCase(2, 64, 1500, 1400), records, roomy); // polled less this time
    EXPECT_EQ(rememberedSlots(m, 2, 0, 64, 1), 3000u) << "the room for the same launch only grows";
    rememberRoom(m, tracedCase(2, 32, 1500, 1400), records, roomy);
    EXPECT_EQ(rememberedSlots(m, 2, 0, 32, 1), 1500u) << "another launch starts anew";
    rememberRoom(m, tracedCase(2, 32, 1500, 1400), records, 1000);
    EXPECT_EQ(m.cases.count(2), 0u) << "more than one run may hold";
}

} // namespace
} // namespace vkp
