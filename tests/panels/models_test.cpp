// Headless models behind the panels: statement blocks, the browser's search.
#include <gtest/gtest.h>

#include "panels/browser_panel.h"
#include "panels/statement_panel.h"
#include "puzzle/puzzle_loader.h"
#include "support/test_env.h"

#include <set>

namespace vkp::ui {
namespace {

TEST(StatementTest, BlocksFromTheText) {
    auto b = statementBlocks(
        "First line\ncontinues.\n\n- a bullet\n  that wraps\n    code line\nEnd.\n");
    ASSERT_EQ(b.size(), 5u);
    EXPECT_EQ(b[0].kind, TextBlock::Kind::Paragraph);
    EXPECT_EQ(b[0].text, "First line continues.");
    EXPECT_EQ(b[1].kind, TextBlock::Kind::Blank);
    EXPECT_EQ(b[2].kind, TextBlock::Kind::Bullet);
    EXPECT_EQ(b[2].text, "a bullet that wraps");
    EXPECT_EQ(b[3].kind, TextBlock::Kind::Code);
    EXPECT_EQ(b[3].text, "code line");
    EXPECT_EQ(b[4].text, "End.");
    auto steps = statementBlocks("Task:\n1. copy\n2. add 10\n   and write\n");
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[1].label, "1.");
    EXPECT_EQ(steps[2].label, "2.");
    EXPECT_EQ(steps[2].text, "add 10 and write");
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
