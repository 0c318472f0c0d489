// The editor's model: editing rules, selection, undo/redo, columns. No window needed.
#include <gtest/gtest.h>

#include "text/text_document.h"

namespace vkp::text {
namespace {

void typeText(TextDocument& d, const std::string& s) {
    for (char c : s)
        d.typeChar(static_cast<unsigned char>(c));
}

TEST(TextDocumentTest, TypingInsertsAtTheCursor) {
    TextDocument d("ac");
    d.setCursor({0, 1});
    d.typeChar('b');
    EXPECT_EQ(d.text(), "abc");
    EXPECT_EQ(d.cursor(), (TextPos{0, 2}));
}

TEST(TextDocumentTest, EnterKeepsIndentationAndIndentsAfterABrace) {
    TextDocument d("void main() {}");
    d.setCursor({0, 13}); // between { and }
    d.newline();
    EXPECT_EQ(d.text(), "void main() {\n    \n}");
    EXPECT_EQ(d.cursor(), (TextPos{1, 4}));
    typeText(d, "x = 1;");
    d.newline();
    EXPECT_EQ(d.line(2), "    ");
    EXPECT_EQ(d.cursor(), (TextPos{2, 4}));
}

TEST(TextDocumentTest, EnterAfterAnOpeningBraceClosesTheBlock) {
    TextDocument d("void main() {\n    if (i < n) {\n}");
    d.setCursor({1, 16});
    d.newline();
    EXPECT_EQ(d.text(), "void main() {\n    if (i < n) {\n        \n    }\n}");
    EXPECT_EQ(d.cursor(), (TextPos{2, 8}));
    // A block that is already closed gets no second brace.
    TextDocument e("    if (a) {\n        x;\n    }");
    e.setCursor({0, 12});
    e.newline();
    EXPECT_EQ(e.text(), "    if (a) {\n        \n        x;\n    }");
}

TEST(TextDocumentTest, ClosingBraceOnABlankLineDedentsToItsOpeningLine) {
    TextDocument d("if (a) {\n        ");
    d.setCursor({1, 8});
    d.typeChar('}');
    EXPECT_EQ(d.line(1), "}");
    EXPECT_EQ(d.cursor(), (TextPos{1, 1}));
    // Nested: the '}' lines up with the line of the '{' it closes, not one level less than before.
    TextDocument e("void main() {\n    if (a) {\n        x;\n        ");
    e.setCursor({3, 8});
    e.typeChar('}');
    EXPECT_EQ(e.line(3), "    }");
    // A second '}' (after Enter) closes main at column 0.
    e.newline();
    EXPECT_EQ(e.line(4), "    ");
    e.typeChar('}');
    EXPECT_EQ(e.text(), "void main() {\n    if (a) {\n        x;\n    }\n}");
}

TEST(TextDocumentTest, ClosingBraceAfterTextOrInACommentDoesNotDedent) {
    TextDocument d("if (a) {\n        x = 1;");
    d.moveToEnd(false);
    d.typeChar('}');
    EXPECT_EQ(d.line(1), "        x = 1;}");
    // Braces in comments do not count when finding the opening line.
    TextDocument e("if (a) {\n    // not a block {\n        ");
    e.moveToEnd(false);
    e.typeChar('}');
    EXPECT_EQ(e.line(2), "}");
}

TEST(TextDocumentTest, ClosingBraceIsOneUndoStep) {
    TextDocument d("if (a) {\n        x;\n        ");
    d.moveToEnd(false);
    d.typeChar('}');
    EXPECT_EQ(d.line(2), "}");
    ASSERT_TRUE(d.undo());
    EXPECT_EQ(d.text(), "if (a) {\n        x;\n        ");
    EXPECT_EQ(d.cursor(), (TextPos{2, 8}));
}

// "{", Enter, "}" as a learner types them: Enter adds the closing brace, the typed one steps
// over it, so the block is closed once.
TEST(TextDocumentTest, TypingBraceEnterBraceClosesTheBlockOnce) {
    TextDocument d("void main() {\n    ");
    d.moveToEnd(false);
    typeText(d, "if (a) {");
    d.newline();
    EXPECT_EQ(d.text(), "void main() {\n    if (a) {\n        \n    }");
    typeText(d, "x;");
    d.newline();
    d.typeChar('}');
    EXPECT_EQ(d.text(), "void main() {\n    if (a) {\n        x;\n    }");
    EXPECT_EQ(d.cursor(), (TextPos{3, 5}));
    d.undo();
    EXPECT_EQ(d.text(), "void main() {\n    if (a) {\n        x;\n        \n    }");
    // Where the '}' below belongs to an outer block (its indentation says so), the typed '}' is a
    // new one.
    TextDocument e("void main() {\n    if (a) {\n        x;\n        \n}");
    e.setCursor({3, 8});
    e.typeChar('}');
    EXPECT_EQ(e.text(), "void main() {\n    if (a) {\n        x;\n    }\n}");
}

TEST(TextDocumentTest, EnterMidLineSplitsAtTheLinesIndentation) {
    TextDocument d("    a = 1;   b = 2;");
    d.setCursor({0, 11}); // after "a = 1;" and one blank
    d.newline();
    EXPECT_EQ(d.text(), "    a = 1;\n    b = 2;");
    EXPECT_EQ(d.cursor(), (TextPos{1, 4}));
    ASSERT_TRUE(d.undo());
    EXPECT_EQ(d.text(), "    a = 1;   b = 2;");
}

TEST(TextDocumentTest, EnterInTheIndentationOpensALineAbove) {
    TextDocument d("        x;");
    d.setCursor({0, 2});
    d.newline();
    EXPECT_EQ(d.text(), "\n        x;");
    EXPECT_EQ(d.cursor(), (TextPos{1, 8}));
}

TEST(TextDocumentTest, EnterOnABlankIndentedLineLeavesItEmpty) {
    TextDocument d("{\n    ");
    d.moveToEnd(false);
    d.newline();
    EXPECT_EQ(d.text(), "{\n\n    ");
}

TEST(TextDocumentTest, EnterBeforeAClosingBraceLinesItUpWithItsOpeningLine) {
    TextDocument d("if (a) {\n    x; }");
    d.setCursor({1, 6});
    d.newline();
    EXPECT_EQ(d.text(), "if (a) {\n    x;\n}");
    EXPECT_EQ(d.cursor(), (TextPos{2, 0}));
}

TEST(TextDocumentTest, BackspaceInIndentationRemovesOneLevel) {
    TextDocument d("        x");
    d.setCursor({0, 8});
    d.backspace();
    EXPECT_EQ(d.line(0), "    x");
    d.backspace();
    EXPECT_EQ(d.line(0), "x");
}

TEST(TextDocumentTest, BackspaceJoinsLinesAndDeletesSelections) {
    TextDocument d("ab\ncd");
    d.setCursor({1, 0});
    d.backspace();
    EXPECT_EQ(d.text(), "abcd");
    d.setCursor({0, 1});
    d.setCursor({0, 3}, true);
    EXPECT_EQ(d.selectedText(), "bc");
    d.backspace();
    EXPECT_EQ(d.text(), "ad");
}

TEST(TextDocumentTest, TabIndentsToTheNextStopAndIndentsSelectedLines) {
    TextDocument d("ab\ncd\nef");
    d.setCursor({0, 1});
    d.indent();
    EXPECT_EQ(d.line(0), "a   b");
    d.setCursor({0, 0});
    d.setCursor({2, 1}, true);
    d.indent();
    EXPECT_EQ(d.text(), "    a   b\n    cd\n    ef");
    d.unindent();
    EXPECT_EQ(d.text(), "a   b\ncd\nef");
}

TEST(TextDocumentTest, TabAndShiftTabAreOneUndoStepEach) {
    TextDocument d("a\nb\nc");
    d.selectAll();
    d.indent();
    EXPECT_EQ(d.text(), "    a\n    b\n    c");
    d.indent();
    d.unindent();
    EXPECT_EQ(d.text(), "    a\n    b\n    c");
    ASSERT_TRUE(d.undo());
    EXPECT_EQ(d.text(), "        a\n        b\n        c");
    ASSERT_TRUE(d.undo());
    ASSERT_TRUE(d.undo());
    EXPECT_EQ(d.text(), "a\nb\nc");
}

TEST(TextDocumentTest, ShiftTabDedentsTheCursorLineAndNothingIsNoUndoStep) {
    TextDocument d("      x");
    d.setCursor({0, 7});
    d.unindent();
    EXPECT_EQ(d.text(), "  x");
    EXPECT_EQ(d.cursor(), (TextPos{0, 3}));
    d.unindent();
    EXPECT_EQ(d.text(), "x");
    d.unindent(); // nothing left to take off
    EXPECT_EQ(d.text(), "x");
    ASSERT_TRUE(d.undo());
    EXPECT_EQ(d.text(), "  x"); // the no-op added no step
}

TEST(TextDocumentTest, TabWithoutSelectionGoesToTheNextStop) {
    TextDocument d("ab");
    d.setCursor({0, 2});
    d.indent();
    EXPECT_EQ(d.text(), "ab  ");
    d.indent();
    EXPECT_EQ(d.text(), "ab      ");
    EXPECT_EQ(d.cursor(), (TextPos{0, 8}));
}

TEST(TextDocumentTest, ToggleCommentIsConsistentOverMixedLinesAndOneUndoStep) {
    // Mixed: one line commented, one not, one blank: all get commented at the least indentation.
    TextDocument d("    // x = 1;\n\n        y = 2;");
    d.selectAll();
    d.toggleComment();
    EXPECT_EQ(d.text(), "    // // x = 1;\n\n    //     y = 2;");
    d.toggleComment();
    EXPECT_EQ(d.text(), "    // x = 1;\n\n        y = 2;");
    ASSERT_TRUE(d.undo());
    ASSERT_TRUE(d.undo());
    EXPECT_EQ(d.text(), "    // x = 1;\n\n        y = 2;");
    EXPECT_FALSE(d.canUndo());
}

TEST(TextDocumentTest, ToggleCommentKeepsTheSelectionOverTheLines) {
    TextDocument d("a;\nb;\nc;");
    d.setCursor({0, 0});
    d.setCursor({2, 0}, true); // lines 1 and 2 selected down to the start of line 3
    d.toggleComment();
    EXPECT_EQ(d.text(), "// a;\n// b;\nc;");
    EXPECT_EQ(d.selection().first, (TextPos{0, 0}));
    EXPECT_EQ(d.selection().second, (TextPos{2, 0}));
    // Without a selection the cursor stays on its character.
    TextDocument e("    x;");
    e.setCursor({0, 5});
    e.toggleComment();
    EXPECT_EQ(e.text(), "    // x;");
    EXPECT_EQ(e.cursor(), (TextPos{0, 8}));
}

TEST(TextDocumentTest, FindAllIgnoresCaseUnlessAsked) {
    TextDocument d("uint i = ID.x;\nid = id + Id;");
    std::vector<TextRange> all = d.findAll("id");
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0], (TextRange{{0, 9}, {0, 11}}));
    EXPECT_EQ(all[3], (TextRange{{1, 10}, {1, 12}}));
    EXPECT_EQ(d.findAll("id", true).size(), 2u);
    EXPECT_TRUE(d.findAll("").empty());
    EXPECT_TRUE(d.findAll("nowhere").empty());
}

TEST(TextDocumentTest, FindNextAndPreviousWrapAround) {
    TextDocument d("a x\nb x\nc x");
    d.setCursor({1, 0});
    ASSERT_TRUE(d.findNext("x"));
    EXPECT_EQ(d.selection(), std::make_pair(TextPos{1, 2}, TextPos{1, 3}));
    ASSERT_TRUE(d.findNext("x"));
    EXPECT_EQ(d.selection().first, (TextPos{2, 2}));
    ASSERT_TRUE(d.findNext("x")); // wraps to the top
    EXPECT_EQ(d.selection().first, (TextPos{0, 2}));
    ASSERT_TRUE(d.findNext("x", false)); // and back to the bottom
    EXPECT_EQ(d.selection().first, (TextPos{2, 2}));
    EXPECT_EQ(d.selectedText(), "x");
    EXPECT_FALSE(d.findNext("y"));
    EXPECT_EQ(d.selection().first, (TextPos{2, 2})); // unchanged
    EXPECT_FALSE(d.canUndo());                       // finding is no edit
}

TEST(TextDocumentTest, SelectMatchStartsAtTheGivenPlace) {
    TextDocument d("ab ab ab");
    ASSERT_TRUE(d.selectMatch("ab", {0, 3}));
    EXPECT_EQ(d.selection().first, (TextPos{0, 3}));
    ASSERT_TRUE(d.selectMatch("ab", {0, 3}, false));
    EXPECT_EQ(d.selection().first, (TextPos{0, 0}));
}

TEST(TextDocumentTest, ToggleCommentOnAndOff) {
    TextDocument d("    x = 1;\n    y = 2;");
    d.selectAll();
    d.toggleComment();
    EXPECT_EQ(d.text(), "    // x = 1;\n    // y = 2;");
    d.toggleComment();
    EXPECT_EQ(d.text(), "    x = 1;\n    y = 2;");
}

TEST(TextDocumentTest, UndoRedoWordsAtATime) {
    TextDocument d("");
    typeText(d, "hello world");
    EXPECT_EQ(d.text(), "hello world");
    ASSERT_TRUE(d.undo());
    EXPECT_EQ(d.text(), "hello");
    ASSERT_TRUE(d.undo());
    EXPECT_EQ(d.text(), "");
    EXPECT_FALSE(d.undo());
    ASSERT_TRUE(d.redo());
    ASSERT_TRUE(d.redo());
    EXPECT_EQ(d.text(), "hello world");
    EXPECT_FALSE(d.redo());
}

TEST(TextDocumentTest, MovingTheCursorEndsAnUndoStep) {
    TextDocument d("");
    typeText(d, "ab");
    d.moveLeft(false);
    typeText(d, "x");
    EXPECT_EQ(d.text(), "axb");
    d.undo();
    EXPECT_EQ(d.text(), "ab");
}

TEST(TextDocumentTest, ANewEditForgetsRedo) {
    TextDocument d("");
    typeText(d, "a");
    d.undo();
    typeText(d, "b");
    EXPECT_FALSE(d.canRedo());
}

TEST(TextDocumentTest, ReplaceAllIsUndoableSetTextIsNot) {
    TextDocument d("mine");
    d.replaceAll("starter");
    EXPECT_EQ(d.text(), "starter");
    d.undo();
    EXPECT_EQ(d.text(), "mine");
    d.setText("other puzzle");
    EXPECT_FALSE(d.canUndo());
}

TEST(TextDocumentTest, PasteReplacesTheSelectionAndKeepsLines) {
    TextDocument d("x = OLD;");
    d.setCursor({0, 4});
    d.setCursor({0, 7}, true);
    d.insert("a +\n    b");
    EXPECT_EQ(d.text(), "x = a +\n    b;");
    EXPECT_EQ(d.cursor(), (TextPos{1, 5}));
}

TEST(TextDocumentTest, CutCopiesAndRemoves) {
    TextDocument d("one two");
    d.selectWordAt({0, 5});
    EXPECT_EQ(d.selectedText(), "two");
    EXPECT_EQ(d.cut(), "two");
    EXPECT_EQ(d.text(), "one ");
}

TEST(TextDocumentTest, WordMovementAndSmartHome) {
    TextDocument d("    uint i = gl_GlobalInvocationID.x;");
    d.moveEnd(false);
    d.moveLeft(false, true);
    d.moveLeft(false, true);
    EXPECT_EQ(d.cursor().column, 35); // past ";" then to the start of "x"
    d.moveHome(false);
    EXPECT_EQ(d.cursor().column, 4);
    d.moveHome(false);
    EXPECT_EQ(d.cursor().column, 0);
}

TEST(TextDocumentTest, UpAndDownKeepTheColumn) {
    TextDocument d("abcdef\nab\nabcdef");
    d.setCursor({0, 5});
    d.moveDown(false);
    EXPECT_EQ(d.cursor(), (TextPos{1, 2}));
    d.moveDown(false);
    EXPECT_EQ(d.cursor(), (TextPos{2, 5}));
}

TEST(TextDocumentTest, Utf8CharactersMoveAsOne) {
    TextDocument d("a\xC3\xA9z"); // aéz
    d.setCursor({0, 1});
    d.moveRight(false);
    EXPECT_EQ(d.cursor().column, 3);
    EXPECT_EQ(d.visualColumn(0, 3), 2);
    d.backspace();
    EXPECT_EQ(d.text(), "az");
    d.typeChar(0x2713); // a check mark
    EXPECT_EQ(d.text(), "a\xE2\x9C\x93z");
}

TEST(TextDocumentTest, TabsCountToTheNextStop) {
    TextDocument d("\tx\ty");
    EXPECT_EQ(d.visualColumn(0, 1), 4);
    EXPECT_EQ(d.visualColumn(0, 3), 8);
    EXPECT_EQ(d.byteColumnAt(0, 4), 1);
    EXPECT_EQ(d.byteColumnAt(0, 1), 0);
    EXPECT_EQ(d.byteColumnAt(0, 3), 1);
}

TEST(TextDocumentTest, CursorIsClampedIntoTheText) {
    TextDocument d("ab\nc");
    d.setCursor({9, 9});
    EXPECT_EQ(d.cursor(), (TextPos{1, 1}));
    d.setCursor({-3, -3});
    EXPECT_EQ(d.cursor(), (TextPos{0, 0}));
}

TEST(TextDocumentTest, CarriageReturnsAreDropped) {
    TextDocument d("a\r\nb\r\n");
    EXPECT_EQ(d.text(), "a\nb\n");
}

} // namespace
} // namespace vkp::text
