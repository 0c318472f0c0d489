// What the learner selected in the views: clicking, and what a new case drops.
#include <gtest/gtest.h>

#include "views/selection.h"

namespace vkp::views {
namespace {

TEST(SelectionTest, ClickingSelectsAndClickingAgainClears) {
    Selection s;
    EXPECT_TRUE(s.empty());
    s.clickThread({3, 1, 0});
    ASSERT_TRUE(s.thread);
    EXPECT_EQ(*s.thread, (Uvec3{3, 1, 0}));
    s.clickThread({2, 1, 0});
    EXPECT_EQ(*s.thread, (Uvec3{2, 1, 0})) << "another thread replaces the selection";
    s.clickCell(CellRef::buffer(2, 5));
    EXPECT_TRUE(s.thread) << "a thread and a cell can be selected together";
    s.clickCell(CellRef::buffer(2, 5));
    EXPECT_FALSE(s.cell);
    s.clickThread({2, 1, 0});
    EXPECT_TRUE(s.empty());
}

TEST(SelectionTest, ANewCaseDropsWhatLiesOutsideIt) {
    Puzzle p;
    p.buffers.push_back({"a"});
    TestCase small;
    small.workgroupSize = {4, 1, 1};
    small.workgroups = {2, 1, 1};
    DataSpec d;
    d.shape = Shape{{6}};
    small.data = {d};
    Selection s;
    s.thread = Uvec3{7, 0, 0};
    s.cell = CellRef::buffer(0, 5);
    s.fitTo(p, small, nullptr);
    EXPECT_TRUE(s.thread);
    EXPECT_TRUE(s.cell);
    s.thread = Uvec3{8, 0, 0};
    s.cell = CellRef::buffer(0, 6);
    s.fitTo(p, small, nullptr);
    EXPECT_FALSE(s.thread) << "8 is past the launch of 8 threads";
    EXPECT_FALSE(s.cell) << "cell 6 is past a buffer of 6";
    s.cell = CellRef::sharedCell(0, 0, 1);
    s.fitTo(p, small, nullptr);
    EXPECT_FALSE(s.cell) << "no trace: no shared cell";
}

} // namespace
} // namespace vkp::views
