// Issue 19, item 11: text from kernels and puzzle files reaches the terminal escaped.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/terminal_text.h"

namespace vkp::cli {
namespace {

TEST(TerminalText, ControlCharactersAreEscapedAndTextIsKept) {
    EXPECT_EQ(terminalText("plain text, tabs\tand newlines\n", false),
              "plain text, tabs\tand newlines\n");
    EXPECT_EQ(terminalText(std::string("a\0b", 3), false), "a\\x00b");
    EXPECT_EQ(terminalText("\x1b]0;title\x07\x1b[2J\r\b\x7f", false),
              "\\x1b]0;title\\x07\\x1b[2J\\x0d\\x08\\x7f");
    EXPECT_EQ(terminalText("\xc2\x9b"
                           "31m",
                           false),
              "\\xc2\\x9b31m")
        << "U+009B, the one-byte CSI";
    EXPECT_EQ(terminalText("caf\xc3\xa9 \xe2\x9c\x93 \xff", false), "caf\xc3\xa9 \xe2\x9c\x93 \xff")
        << "other UTF-8 and bytes pass";
}

TEST(TerminalText, OnlyTheCliColoursPassAndOnlyWhenColourIsOn) {
    EXPECT_EQ(terminalText("\x1b[31;1mFAIL\x1b[0m", true), "\x1b[31;1mFAIL\x1b[0m");
    EXPECT_EQ(terminalText("\x1b[31;1mFAIL\x1b[0m", false), "\\x1b[31;1mFAIL\\x1b[0m");
    EXPECT_EQ(terminalText("\x1b[2J\x1b[1;1H", true), "\\x1b[2J\\x1b[1;1H")
        << "cursor and erase sequences never pass";
}

TEST(TerminalText, TheFilterEscapesLineByLineAndOnFlush) {
    std::ostringstream sink;
    {
        TerminalFilter filter(sink.rdbuf(), false);
        std::ostream out(&filter);
        out << "one\x1b[2J\n";
        out << "two" << std::flush;
        EXPECT_EQ(sink.str(), "one\\x1b[2J\ntwo");
        out << "\x07";
    } // the rest on destruction
    EXPECT_EQ(sink.str(), "one\\x1b[2J\ntwo\\x07");
}

} // namespace
} // namespace vkp::cli
