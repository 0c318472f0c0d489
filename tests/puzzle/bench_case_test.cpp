// The case `vkpuzzles bench` times (puzzle/bench_case.h): the one a puzzle names with bench_case,
// else the case that scales to any N with the most threads per workgroup, never merely the last
// (a small case written value by value, added at the end, cannot be scaled); a puzzle of one
// workgroup gets its largest case. And the loader's errors for bench_case and bench_square, each
// at its line.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "puzzle/bench_case.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

const std::string kHead =
    "title = \"T\"\ntrack = \"classic\"\norder = 1\nstatement = \"s\"\nhints = [\"h\"]\n"
    "[[buffers]]\nname = \"a\"\nbinding = 0\ntype = \"float\"\nrole = \"input\"\n"
    "[[buffers]]\nname = \"result\"\nbinding = 1\ntype = \"float\"\nrole = \"output\"\n";

// One [[cases]] entry: its workgroup size, workgroups (as written) and the data of `a`.
std::string aCase(int size, const std::string& workgroups, const std::string& data,
                  const std::string& more = "") {
    return "[[cases]]\nworkgroup_size = [" + std::to_string(size) + "]\nworkgroups = [" +
           workgroups + "]\ninputs.a = { " + data +
           " }\nexpected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 1 }\n" + more;
}

const std::string kRandom = "shape = [40], fill = \"random\", seed = 1, min = -9, max = 9";
const std::string kValues = "shape = [3], values = [1, 2, 3]";
const std::string kFollows = "\"ceil_div(N, WG)\"";

Puzzle parsed(const std::string& text) {
    auto p = parsePuzzle(text, "p/puzzle.toml", "p");
    EXPECT_TRUE(p.ok()) << p.error().str();
    return p.ok() ? *p : Puzzle{};
}

TEST(BenchCase, TheWidestCaseThatScalesIsTimedNotTheLastOne) {
    // Case 2 follows N with the widest workgroups; case 3, added last to catch a mistake, is
    // written value by value; case 4 is wide but its grid is fixed.
    Puzzle p = parsed(kHead + aCase(8, kFollows, kRandom) + aCase(64, kFollows, kRandom) +
                      aCase(128, kFollows, kValues) + aCase(256, "1", kRandom));
    EXPECT_EQ(p.benchCase, 1u);
    EXPECT_FALSE(p.benchCaseNamed);
    EXPECT_TRUE(scalesToAnyN(p, p.cases[1]));
    EXPECT_TRUE(launchFollowsN(p, p.cases[2]));
    EXPECT_EQ(dataFixedAt(p, p.cases[2]), "'a' is written out value by value");
    EXPECT_FALSE(launchFollowsN(p, p.cases[3]));
    EXPECT_EQ(dataFixedAt(p, p.cases[3]), std::nullopt);
}

TEST(BenchCase, EqualWorkgroupsGoToTheLaterCaseAndHiddenCasesAreNeverTimed) {
    Puzzle p = parsed(kHead + aCase(64, kFollows, kRandom) + aCase(64, kFollows, kRandom) +
                      aCase(256, kFollows, kRandom, "hidden = true\n"));
    EXPECT_EQ(p.benchCase, 1u) << "the hidden case would print its shape";
}

TEST(BenchCase, AConstantThatFollowsNMakesTheGridFollowIt) {
    std::string text = kHead + "[[constants]]\nname = \"TILES\"\nid = 3\n" +
                       aCase(16, "\"TILES\"", kRandom, "constants = { TILES = \"N / 16\" }\n") +
                       aCase(32, "\"TILES\"", kRandom, "constants = { TILES = 2 }\n");
    Puzzle p = parsed(text);
    EXPECT_TRUE(launchFollowsN(p, p.cases[0]));
    EXPECT_FALSE(launchFollowsN(p, p.cases[1])) << "a literal constant does not follow N";
    EXPECT_EQ(p.benchCase, 0u);
}

TEST(BenchCase, OneWorkgroupGetsItsLargestCase) {
    // No case follows N: the one with the most threads, then the most elements, the data as it
    // is (written out or not).
    Puzzle p = parsed(kHead + aCase(8, "1", kRandom) + aCase(64, "1", kValues) +
                      aCase(64, "1", kRandom) + aCase(16, "2", kValues));
    EXPECT_EQ(p.benchCase, 2u) << "64 threads and 40 elements";
    EXPECT_FALSE(launchFollowsN(p, p.cases[p.benchCase]));
}

TEST(BenchCase, TheCaseAPuzzleNamesIsTheOneTimed) {
    Puzzle p = parsed("bench_case = 1\n" + kHead + aCase(8, kFollows, kRandom) +
                      aCase(64, kFollows, kRandom));
    EXPECT_EQ(p.benchCase, 0u);
    EXPECT_TRUE(p.benchCaseNamed);
}

TEST(BenchCase, BenchSquareIsReadForAMatrix) {
    std::string matrix = kHead + aCase(8, kFollows, "shape = [4, 4], fill = \"iota\"");
    Puzzle p = parsed("bench_square = true\n" + matrix);
    EXPECT_TRUE(p.benchSquare);
    EXPECT_FALSE(parsed(matrix).benchSquare);
}

struct BadKey {
    const char* what;
    std::string text;    // placed before the puzzle, at line 1
    std::string message; // a part of the error
};

TEST(BenchCase, ABadBenchKeyIsRefusedAtItsLine) {
    std::string cases = aCase(8, kFollows, kRandom) + aCase(64, kFollows, kRandom);
    std::string matrix = aCase(8, kFollows, "shape = [4, 4], fill = \"iota\"");
    const std::vector<std::pair<BadKey, std::string>> rows = {
        {{"no case 0", "bench_case = 0", "'bench_case' is 0; it must be between 1 and 2"}, cases},
        {{"past the last case", "bench_case = 3", "'bench_case' is 3; it must be between 1 and 2"},
         cases},
        {{"a word", "bench_case = \"last\"", "'bench_case'"}, cases},
        {{"a 1-D input", "bench_square = true",
          "'bench_square' keeps a matrix square at the benchmark, and the benchmark case's first "
          "input is not 2D"},
         cases},
        {{"not a boolean", "bench_square = 1", "'bench_square' must be true or false"}, matrix},
        {{"both widths", "bench_cols = 4\nbench_square = true",
          "'bench_square' and 'bench_cols' both set the benchmark's columns: give one of them"},
         matrix},
    };
    for (const auto& [row, body] : rows) {
        auto p = parsePuzzle(row.text + "\n" + kHead + body, "p/puzzle.toml", "p");
        ASSERT_FALSE(p.ok()) << row.what;
        EXPECT_NE(p.error().message.find(row.message), std::string::npos)
            << row.what << ": " << p.error().message;
        int line = static_cast<int>(std::count(row.text.begin(), row.text.end(), '\n')) + 1;
        EXPECT_EQ(p.error().where.line, line) << row.what << ": " << p.error().str();
    }
}

} // namespace
} // namespace vkp
