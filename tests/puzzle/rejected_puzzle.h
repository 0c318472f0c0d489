// The parts the rejected-puzzle tables build their malformed puzzle.toml files from (a valid
// puzzle assembled from them, so each row only spells out what it breaks), and the check every
// row must pass: rejected, with the file, the line marked "# HERE" (and the column where given)
// and a message an author can act on.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "puzzle/puzzle_loader.h"

namespace vkp::test {

// A valid puzzle assembled from parts, so each row only spells out what it breaks.
inline const std::string kHead =
    "title = \"T\"\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = [\"h\"]\n";
inline const std::string kInput =
    "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"float\"\nrole = \"input\"\n";
inline const std::string kOutput =
    "[[buffers]]\nname = \"result\"\nbinding = 1\ntype = \"float\"\nrole = \"output\"\n";
inline const std::string kBuffers = kInput + kOutput;
inline const std::string kUintInput =
    "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"uint\"\nrole = \"input\"\n";
inline const std::string kCaseHead = "[[cases]]\nworkgroup_size = [4]\nworkgroups = [1]\n";
inline const std::string kInputA = "inputs.a = { shape = [4], fill = \"iota\" }\n";
inline const std::string kExpected =
    "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 1 }\n";
inline const std::string kCase = kCaseHead + kInputA + kExpected;
inline const std::string kConstant = "[[constants]]\nname = \"SIZE\"\nid = 3\n";
// A decoupled look-back's buffers, and a [lookback] table that names them (after the cases).
inline const std::string kLookbackBuffers =
    "[[buffers]]\nname = \"status\"\nbinding = 2\ntype = \"uint\"\nrole = \"scratch\"\n"
    "size = \"1\"\n[[buffers]]\nname = \"counter\"\nbinding = 3\ntype = \"uint\"\n"
    "role = \"scratch\"\nsize = \"1\"\n";
inline const std::string kLookback = "[lookback]\nstatus = \"status\"\ncounter = \"counter\"\n";

struct BadFile {
    const char* name;
    std::string toml;    // the line the error must point at ends with "# HERE"
    const char* message; // a substring of the error's message
    int column = 0;      // checked when not 0
};

inline std::ostream& operator<<(std::ostream& os, const BadFile& b) {
    return os << b.name;
}

inline int markedLine(const std::string& text) {
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find("# HERE") != std::string::npos) return n;
    return 0;
}

inline void expectRejected(const BadFile& row) {
    const int line = markedLine(row.toml);
    ASSERT_GT(line, 0) << "the row has no # HERE marker";
    auto p = parsePuzzle(row.toml, "puzzles/09-bad/puzzle.toml", "puzzles/09-bad");
    ASSERT_FALSE(p.ok()) << "accepted:\n" << row.toml;
    const Error& e = p.error();
    EXPECT_EQ(e.kind, ErrorKind::PuzzleFile);
    EXPECT_NE(e.message.find(row.message), std::string::npos) << "message: " << e.message;
    EXPECT_EQ(e.where.file, "puzzles/09-bad/puzzle.toml");
    EXPECT_GT(e.where.line, 0) << e.str();
    EXPECT_EQ(e.where.line, line) << e.str() << "\n" << row.toml;
    if (row.column) {
        EXPECT_EQ(e.where.column, row.column) << e.str();
    }
    EXPECT_EQ(e.str().rfind("puzzles/09-bad/puzzle.toml:" + std::to_string(e.where.line), 0), 0u)
        << e.str();
}

} // namespace vkp::test
