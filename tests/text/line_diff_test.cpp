// The line diff between the learner's kernel and the official solution (the solution panel's).
#include <gtest/gtest.h>

#include "text/line_diff.h"

namespace vkp::text {
namespace {

TEST(LineDiffTest, ShowsWhatDiffersLineByLine) {
    auto d = diffLines("a\nb\nc\n", "a\nB\nc\nd\n");
    ASSERT_EQ(d.size(), 5u);
    EXPECT_EQ(d[0].kind, DiffKind::Same);
    EXPECT_EQ(d[1].kind, DiffKind::Removed);
    EXPECT_EQ(d[1].text, "b");
    EXPECT_EQ(d[2].kind, DiffKind::Added);
    EXPECT_EQ(d[2].text, "B");
    EXPECT_EQ(d[3].kind, DiffKind::Same);
    EXPECT_EQ(d[4].kind, DiffKind::Added);
    DiffStats s = diffStats(d);
    EXPECT_EQ(s.added, 2);
    EXPECT_EQ(s.removed, 1);
}

TEST(LineDiffTest, TrailingBlanksAreNotChanges) {
    auto d = diffLines("x;   \ny;\n", "x;\ny;\n");
    EXPECT_EQ(diffStats(d).added + diffStats(d).removed, 0);
}

TEST(LineDiffTest, EmptySides) {
    EXPECT_EQ(diffStats(diffLines("", "a\nb\n")).added, 2);
    EXPECT_EQ(diffStats(diffLines("a\n", "")).removed, 1);
    EXPECT_TRUE(diffLines("", "").empty());
}

} // namespace
} // namespace vkp::text
