// What a forced schedule's report says about itself: whether the schedule took place, and whether
// a passing case is worth another run (trace/forced_schedule.h).
#include <gtest/gtest.h>

#include "trace/forced_schedule.h"

namespace vkp {
namespace {

ScheduleReport held(ScheduleOutcome outcome, bool afterWrite, ScheduleView view, uint32_t reads) {
    ScheduleReport r;
    r.outcome = outcome;
    r.afterWrite = afterWrite;
    r.view = view;
    r.viewReads = reads;
    return r;
}

TEST(ForcedScheduleTest, AHoldUntilTheOthersFinishedIsForcedAndDecidesTheRun) {
    ScheduleReport r = held(ScheduleOutcome::OthersFinished, true, ScheduleView::None, 0);
    EXPECT_TRUE(r.forced());
    EXPECT_FALSE(r.mayHaveMissed());
    r.outcome = ScheduleOutcome::OthersWaiting; // the bound ran out: not forced
    EXPECT_FALSE(r.forced());
    EXPECT_TRUE(r.mayHaveMissed());
    EXPECT_TRUE(held(ScheduleOutcome::NotReached, false, ScheduleView::None, 0).mayHaveMissed());
}

TEST(ForcedScheduleTest, AFrozenViewAfterTheFirstWriteMissesWhenTheHeldWorkgroupCameLast) {
    // Others read the half-published word while others ran beside it: forced, decided.
    EXPECT_FALSE(
        held(ScheduleOutcome::OthersWaiting, true, ScheduleView::Frozen, 3).mayHaveMissed());
    // Nothing else ran while it was held: it came last, its successors may all have taken their
    // fallback before it published; a frozen read or two does not show that one acted on it.
    ScheduleReport last = held(ScheduleOutcome::NothingElseRan, true, ScheduleView::Frozen, 1);
    EXPECT_TRUE(last.forced());
    EXPECT_TRUE(last.mayHaveMissed());
    // No read of the frozen word at all: not forced.
    EXPECT_FALSE(held(ScheduleOutcome::OthersWaiting, true, ScheduleView::Frozen, 0).forced());
}

TEST(ForcedScheduleTest, AFrozenViewBeforeTheFirstWriteIsSilenceWhateverTheOrder) {
    // Held before its first write: every successor found it silent, which is the schedule.
    ScheduleReport r = held(ScheduleOutcome::NothingElseRan, false, ScheduleView::Frozen, 0);
    EXPECT_TRUE(r.forced());
    EXPECT_FALSE(r.mayHaveMissed());
}

} // namespace
} // namespace vkp
