// The editor's model: editing rules, selection, undo/redo, columns. No window needed.
#include <gtest/gtest.h>

#include "ui/text_document.h"

namespace vkp::ui {
namespace {

void typeText(TextDocument& d, const std::string& s) {
    for (char c : s) d.typeChar(static_cast<unsigned char>(c));
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

TEST(TextDocumentTest, ClosingBraceOnABlankLineDedents) {
    TextDocument d("if (a) {\n        ");
    d.setCursor({1, 8});
    d.typeChar('}');
    EXPECT_EQ(d.line(1), "    }");
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
} // namespace vkp::ui
