// [[peers]] in puzzle.toml: an expert's time at the benchmark, read with its device, N, date and
// command; every malformed entry is refused at its line with what to write instead. Also the
// benchmark's own keys beside them: bench_n (its N) and bench_cols (a matrix's width).
#include <gtest/gtest.h>

#include <string>

#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

const std::string kPuzzle =
    "title = \"T\"\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = [\"h\"]\n"
    "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"float\"\nrole = \"input\"\n"
    "[[buffers]]\nname = \"result\"\nbinding = 1\ntype = \"float\"\nrole = \"output\"\n"
    "[[cases]]\nworkgroup_size = [4]\nworkgroups = [1]\n"
    "inputs.a = { shape = [4], fill = \"iota\" }\n"
    "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 1 }\n";

std::string peer(const std::string& fields) {
    return "[[peers]]\n" + fields;
}

const std::string kGood = "name = \"torch.softmax\"\ndevice = \"NVIDIA H200\"\nn = \"2^28\"\n"
                          "ms = 0.685\ndate = \"2026-11-28\"\nhow = \"torch_peers.py\"\n";

TEST(PeerLoader, APeerIsReadWithEveryField) {
    auto p = parsePuzzle(kPuzzle + peer(kGood) +
                             peer("name = \"cub\"\ndevice = \"NVIDIA H100\"\nn = 1024\nms = 2\n"
                                  "date = \"2026-11-01\"\nhow = \"cub.cu\"\n"),
                         "p/puzzle.toml", "p");
    ASSERT_TRUE(p.ok()) << p.error().str();
    ASSERT_EQ(p->peers.size(), 2u);
    EXPECT_EQ(p->peers[0].name, "torch.softmax");
    EXPECT_EQ(p->peers[0].device, "NVIDIA H200");
    EXPECT_EQ(p->peers[0].n, uint64_t(1) << 28);
    EXPECT_DOUBLE_EQ(p->peers[0].ms, 0.685);
    EXPECT_EQ(p->peers[0].date, "2026-11-28");
    EXPECT_EQ(p->peers[0].how, "torch_peers.py");
    EXPECT_EQ(p->peers[1].n, 1024u);
    EXPECT_DOUBLE_EQ(p->peers[1].ms, 2.0);
    auto none = parsePuzzle(kPuzzle, "p/puzzle.toml", "p");
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->peers.empty());
}

struct BadPeer {
    const char* what;
    std::string entry;   // replaces one line of kGood
    std::string message; // a part of the error
};

TEST(PeerLoader, AMalformedPeerIsRefusedAtItsLine) {
    const std::vector<BadPeer> rows = {
        {"n as a word", "n = \"many\"", "'n' must be an element count"},
        {"n of 0", "n = 0", "'n' must be an element count"},
        {"n past 2^40", "n = \"2^41\"", "'n' must be an element count"},
        {"no time", "ms = 0", "'ms' must be a time in milliseconds"},
        {"a time as text", "ms = \"fast\"", "'ms' must be a number"},
        {"a date in words", "date = \"last week\"", "'date' must be the day it was measured"},
        {"an unknown field", "speed = 3", "unknown"},
    };
    for (const BadPeer& row : rows) {
        std::string key = row.entry.substr(0, row.entry.find(' '));
        std::string fields = kGood;
        size_t at = fields.find(key + " =");
        if (at == std::string::npos) {
            fields += row.entry + "\n";
        } else {
            fields.replace(at, fields.find('\n', at) - at, row.entry);
        }
        auto p = parsePuzzle(kPuzzle + peer(fields), "p/puzzle.toml", "p");
        ASSERT_FALSE(p.ok()) << row.what;
        EXPECT_NE(p.error().message.find(row.message), std::string::npos)
            << row.what << ": " << p.error().message;
        EXPECT_GT(p.error().where.line, 19) << row.what << ": points into the [[peers]] entry";
    }
    auto notATable = parsePuzzle("peers = 3\n" + kPuzzle, "p/puzzle.toml", "p");
    ASSERT_FALSE(notATable.ok());
    EXPECT_NE(notATable.error().message.find("'peers' must be an array of tables"),
              std::string::npos)
        << notATable.error().message;
}

TEST(BenchKeys, BenchNAndBenchColsAreReadAndCheckedAtTheirLine) {
    auto plain = parsePuzzle(kPuzzle, "p/puzzle.toml", "p");
    ASSERT_TRUE(plain.ok()) << plain.error().str();
    EXPECT_EQ(plain->benchN, uint64_t(1) << 24);
    EXPECT_EQ(plain->benchCols, 0u);
    auto n = parsePuzzle("bench_n = \"2^20\"\n" + kPuzzle, "p/puzzle.toml", "p");
    ASSERT_TRUE(n.ok()) << n.error().str();
    EXPECT_EQ(n->benchN, uint64_t(1) << 20);
    auto badN = parsePuzzle("bench_n = \"lots\"\n" + kPuzzle, "p/puzzle.toml", "p");
    ASSERT_FALSE(badN.ok());
    EXPECT_NE(badN.error().message.find("'bench_n' must be an element count"), std::string::npos)
        << badN.error().message;
    EXPECT_EQ(badN.error().where.line, 1);
    // kPuzzle's first input is 1-D: there are no columns to keep.
    auto flat = parsePuzzle("bench_cols = 64\n" + kPuzzle, "p/puzzle.toml", "p");
    ASSERT_FALSE(flat.ok());
    EXPECT_EQ(flat.error().message, "'bench_cols' keeps a matrix's columns at the benchmark, and "
                                    "the benchmark case's first input is not 2D");
    std::string matrix = kPuzzle;
    matrix.replace(matrix.find("shape = [4]"), 11, "shape = [2, 2]");
    auto wide = parsePuzzle("bench_cols = 2\n" + matrix, "p/puzzle.toml", "p");
    ASSERT_TRUE(wide.ok()) << wide.error().str();
    EXPECT_EQ(wide->benchCols, 2u);
}

} // namespace
} // namespace vkp
