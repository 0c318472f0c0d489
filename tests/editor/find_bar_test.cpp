// The find bar's search, without a window: what it says, what opening, stepping and closing do
// to the document and ask of the editor. Its drawing is driven by real keys in
// tests/app/gui_input_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "editor/find_bar.h"

namespace vkp::ui {

using namespace text; // the document the find bar searches
namespace {

TEST(FindSummaryTest, CountsMatchesAndNamesTheSelectedOne) {
    TextDocument d("x = id;\ny = id + id;");
    std::vector<TextRange> all = d.findAll("id");
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(findSummary(all, d.selection()), "3 matches"); // the cursor is on no match
    d.findNext("id");
    d.findNext("id");
    EXPECT_EQ(findSummary(all, d.selection()), "2 of 3");
    d.findNext("id", false);
    EXPECT_EQ(findSummary(all, d.selection()), "1 of 3");
    EXPECT_EQ(findSummary(d.findAll("x ="), d.selection()), "1 match");
    EXPECT_EQ(findSummary(d.findAll("nowhere"), d.selection()), "No results");
}

TEST(FindBarTest, OpeningTakesTheSelectedWordAndSteppingSelectsMatchesInTurn) {
    TextDocument d("x = id;\ny = id + ID;");
    FindBar bar;
    EXPECT_FALSE(bar.isOpen());
    EXPECT_EQ(bar.summary(d), ""); // closed: nothing to say, nothing to highlight
    EXPECT_TRUE(bar.matches(d).empty());
    d.setCursor({0, 4});
    d.setCursor({0, 6}, true); // "id" on line 1 selected
    bar.open(d);
    EXPECT_TRUE(bar.isOpen());
    EXPECT_EQ(bar.query(), "id");
    EXPECT_EQ(bar.matches(d).size(), 3u); // case ignored: ID too
    EXPECT_EQ(bar.summary(d), "1 of 3");
    FindEffect e = bar.next(d, true);
    EXPECT_TRUE(e.scrollToCursor);
    EXPECT_FALSE(e.focusText);
    EXPECT_EQ(d.selection().first, (TextPos{1, 4}));
    EXPECT_EQ(bar.summary(d), "2 of 3");
    bar.next(d, false);
    EXPECT_EQ(d.selection().first, (TextPos{0, 4}));
    e = bar.close();
    EXPECT_TRUE(e.focusText); // the keyboard goes back to the text, the match stays selected
    EXPECT_FALSE(bar.isOpen());
    EXPECT_EQ(d.selectedText(), "id");
    EXPECT_FALSE(bar.close().focusText); // closing a closed bar asks nothing
}

TEST(FindBarTest, SteppingWithNoQueryOpensTheBarInstead) {
    TextDocument d("a b a");
    FindBar bar;
    FindEffect e = bar.next(d, true); // F3 before anything was searched
    EXPECT_TRUE(bar.isOpen());
    EXPECT_FALSE(e.scrollToCursor);
    EXPECT_EQ(d.selection().first, d.selection().second); // nothing selected
}

TEST(FindBarTest, ASelectionOverSeveralLinesIsNotTakenAsTheQuery) {
    TextDocument d("int a;\nint b;");
    d.selectAll();
    FindBar bar;
    bar.open(d);
    EXPECT_EQ(bar.query(), "");
    EXPECT_EQ(bar.summary(d), "");
}

} // namespace
} // namespace vkp::ui
