// OwnCaseStore (the app's own cases on disk), applyOwnCases and the puzzle-only verdicts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "puzzle/puzzle_loader.h"
#include "session/live_session.h"
#include "store/own_cases.h"
#include "support/test_env.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

Puzzle zip() {
    auto p = loadPuzzle(test::puzzleDir() + "/02-zip");
    EXPECT_TRUE(p.ok());
    return *p;
}

fs::path tempDir(const std::string& name) {
    fs::path d =
        fs::temp_directory_path() / ("vkp-own-cases-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

TEST(OwnCaseStore, CasesComeBackAfterARestart) {
    fs::path dir = tempDir("restart");
    {
        OwnCaseStore store(dir.string());
        store.add("02-zip", {1, {{"a", "1, 2"}, {"b", "3 4"}}, "1", "2", {}});
        store.add("02-zip", {0, {{"a", "5"}, {"b", "6"}}});
        ASSERT_TRUE(store.save().ok());
    }
    OwnCaseStore again(dir.string());
    EXPECT_FALSE(again.loadProblem());
    ASSERT_EQ(again.specs("02-zip").size(), 2u);
    EXPECT_EQ(again.specs("02-zip")[0].templateCase, 1u);
    EXPECT_EQ(again.specs("02-zip")[0].inputs[1].second, "3 4");
    EXPECT_EQ(again.specs("02-zip")[0].workgroupSize, "2");
    again.remove("02-zip", 0);
    EXPECT_EQ(again.specs("02-zip")[0].inputs[0].second, "5");
    EXPECT_TRUE(again.specs("01-map").empty());
    fs::remove_all(dir);
}

TEST(OwnCaseStore, AnUnreadableFileIsSetAsideWithAMessage) {
    fs::path dir = tempDir("corrupt");
    std::ofstream(dir / "own_cases.json") << "{ not json";
    OwnCaseStore store(dir.string());
    ASSERT_TRUE(store.loadProblem());
    EXPECT_NE(store.loadProblem()->find("could not be read"), std::string::npos)
        << *store.loadProblem();
    EXPECT_TRUE(fs::exists(dir / "own_cases.json.corrupt"));
    fs::remove_all(dir);
}

TEST(OwnCases, AppliedAfterThePuzzlesCasesAndAStaleOneIsNamed) {
    Puzzle p = zip();
    size_t own = p.cases.size();
    std::vector<std::string> problems;
    applyOwnCases(p, {{0, {{"a", "1, 2"}, {"b", "3, 4"}}}, {0, {{"c", "1"}}}}, problems);
    ASSERT_EQ(p.cases.size(), own + 1);
    EXPECT_TRUE(p.cases.back().own);
    EXPECT_EQ(p.cases.back().name, "Your case 1 (from case 1)");
    EXPECT_EQ(p.puzzleCaseCount(), own);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("the values of c: no buffer named 'c'"), std::string::npos)
        << problems[0];
    // Applied again: replaced, not added twice.
    applyOwnCases(p, {}, problems);
    EXPECT_EQ(p.cases.size(), own);
}

TEST(OwnCases, OnlyThePuzzlesCasesDecideItIsSolved) {
    Puzzle p = zip();
    std::vector<std::string> problems;
    applyOwnCases(p, {{0, {{"a", "1, 2"}, {"b", "3, 4"}}}}, problems);
    CheckReport r;
    r.reached = StageKind::Done;
    for (size_t i = 0; i < p.cases.size(); ++i) {
        CaseOutcome c;
        c.index = i;
        c.pass = !p.cases[i].own; // the learner's case fails
        r.cases.push_back(c);
    }
    EXPECT_FALSE(r.allPass());
    EXPECT_TRUE(puzzleCasesPass(r, p));
    EXPECT_EQ(puzzleCasesPassed(r, p), p.puzzleCaseCount());
    r.cases[0].pass = false;
    EXPECT_FALSE(puzzleCasesPass(r, p));
}

// The status line counts the learner's cases apart: "all 7 cases pass" is about the puzzle's.
TEST(OwnCases, TheStatusLineCountsTheLearnersCasesApart) {
    Puzzle p = zip();
    std::vector<std::string> problems;
    applyOwnCases(p, {{0, {{"a", "1, 2"}, {"b", "3, 4"}}}}, problems);
    auto r = std::make_shared<CheckReport>();
    r->reached = StageKind::Done;
    for (size_t i = 0; i < p.cases.size(); ++i) {
        CaseOutcome c;
        c.index = i;
        c.pass = !p.cases[i].own; // the learner's case fails
        r->cases.push_back(c);
    }
    LiveSnapshot s;
    s.status = LiveStatusKind::Done;
    s.puzzle = std::make_shared<const Puzzle>(p);
    s.report = r;
    std::string n = std::to_string(p.puzzleCaseCount());
    EXPECT_EQ(statusLine(s), "all " + n + " cases pass; your cases: 0 of 1 pass");
    r->cases[0].pass = false;
    EXPECT_EQ(statusLine(s), std::to_string(p.puzzleCaseCount() - 1) + " of " + n +
                                 " cases pass; your cases: 0 of 1 pass");
}

} // namespace
} // namespace vkp
