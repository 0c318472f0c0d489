// Headless models behind the panels: the solution diff, thread ids and cell links, statement
// blocks, the browser's search.
#include <gtest/gtest.h>

#include "core/puzzle_loader.h"
#include "support/test_env.h"
#include "ui/browser_panel.h"
#include "ui/line_diff.h"
#include "ui/statement_panel.h"
#include "ui/thread_map.h"

namespace vkp::ui {
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

TestCase launch(std::array<uint32_t, 3> size, std::array<uint32_t, 3> groups) {
    TestCase c;
    c.workgroupSize = size;
    c.workgroups = groups;
    return c;
}

TEST(ThreadMapTest, IdsOfAThreadIn2D) {
    TestCase c = launch({4, 2, 1}, {3, 2, 1});
    ThreadIds t = threadIds(c, {5, 3, 0}, 4);
    EXPECT_EQ(t.local, (Uvec3{1, 1, 0}));
    EXPECT_EQ(t.workgroup, (Uvec3{1, 1, 0}));
    EXPECT_EQ(t.localIndex, 5u);
    EXPECT_EQ(t.subgroup, 1u);
    EXPECT_EQ(t.lane, 1u);
    EXPECT_EQ(launchSize(c), (Uvec3{12, 4, 1}));
}

TEST(ThreadMapTest, CellsAndThreadsLinkByIndex) {
    TestCase c = launch({4, 4, 1}, {1, 1, 1});
    Shape matrix{{3, 3}};
    EXPECT_EQ(cellOfThread(matrix, {2, 1, 0}), 5u);   // row 1, column 2
    EXPECT_EQ(cellOfThread(matrix, {3, 0, 0}), std::nullopt); // a spare thread
    EXPECT_EQ(threadOfCell(matrix, 5, c), (Uvec3{2, 1, 0}));
    Shape vec{{6}};
    EXPECT_EQ(cellOfThread(vec, {4, 0, 0}), 4u);
    EXPECT_EQ(cellOfThread(vec, {4, 1, 0}), std::nullopt);
    TestCase small = launch({4, 1, 1}, {1, 1, 1});
    EXPECT_EQ(threadOfCell(vec, 5, small), std::nullopt) << "no thread reaches cell 5 of 6";
}

TEST(StatementTest, BlocksFromTheText) {
    auto b = statementBlocks("First line\ncontinues.\n\n- a bullet\n  that wraps\n    code line\nEnd.\n");
    ASSERT_EQ(b.size(), 5u);
    EXPECT_EQ(b[0].kind, TextBlock::Kind::Paragraph);
    EXPECT_EQ(b[0].text, "First line continues.");
    EXPECT_EQ(b[1].kind, TextBlock::Kind::Blank);
    EXPECT_EQ(b[2].kind, TextBlock::Kind::Bullet);
    EXPECT_EQ(b[2].text, "a bullet that wraps");
    EXPECT_EQ(b[3].kind, TextBlock::Kind::Code);
    EXPECT_EQ(b[3].text, "code line");
    EXPECT_EQ(b[4].text, "End.");
}

TEST(BrowserTest, SearchMatchesTitleSlugAndNumber) {
    PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    auto p = set.find("matmul");
    ASSERT_TRUE(p.ok());
    EXPECT_TRUE(matchesSearch(**p, ""));
    EXPECT_TRUE(matchesSearch(**p, "MATRIX"));
    EXPECT_TRUE(matchesSearch(**p, "matmul"));
    EXPECT_TRUE(matchesSearch(**p, " 14 "));
    EXPECT_TRUE(matchesSearch(**p, "14-"));
    EXPECT_FALSE(matchesSearch(**p, "zip"));
    EXPECT_FALSE(matchesSearch(**p, "pooling"));
}

} // namespace
} // namespace vkp::ui
