// A small graded class of the grading test pack's offset puzzle, written out by hand, for the
// tests of what reads and writes grades (gradebook): a student with full marks, one whose name
// is markup and who fails the hidden case with its values in the teacher's reason, and one with
// a race and a case file.
#pragma once

#include "classroom/grade_shards.h"
#include "puzzle/puzzle_loader.h"
#include "support/test_env.h"

namespace vkp::test {

// The hidden case's data in the teacher's reason: nothing students read may hold it.
inline constexpr const char* kHiddenData = "expected 6, got -4";

inline GradedClass smallGradedClass() {
    static PuzzleSet set = loadPuzzleSet(puzzleDir(), {sourceDir() + "/tests/data/grade/pack"});
    const Puzzle* offset = *set.find("offset");
    auto grade = [&](const std::string& name, std::vector<bool> pass) {
        PuzzleGrade p;
        p.puzzle = offset;
        p.path = "class/" + name + ".comp";
        p.files = {p.path};
        for (size_t i = 0; i < offset->cases.size(); ++i) {
            CaseGrade c;
            c.index = i;
            c.name = offset->cases[i].name;
            c.points = offset->cases[i].points;
            c.hidden = offset->cases[i].hidden;
            c.pass = pass[i];
            c.earned = c.pass ? c.points : 0;
            p.score += c.earned;
            p.maxScore += c.points;
            p.passed += c.pass ? 1 : 0;
            p.cases.push_back(c);
        }
        return SubmissionGrade{name, {p}};
    };
    GradedClass g;
    g.puzzles = {offset};
    g.fingerprints = {"fedcba9876543210"};
    g.device = "llvmpipe";
    g.grades.push_back(grade("alice", {true, true, true, true}));
    SubmissionGrade script = grade("<script>alert('x')</script>", {true, true, false, true});
    CaseGrade& hidden = script.puzzles[0].cases[2];
    hidden.failure = FailureKind::WrongValues;
    hidden.reason = std::string("result: 15 of 15 cells wrong (result[0]: ") + kHiddenData + ")";
    script.puzzles[0].reason = "case 3: " + hidden.reason;
    g.grades.push_back(script);
    SubmissionGrade racy = grade("O'Brien & \"Jo\"", {false, true, true, true});
    CaseGrade& race = racy.puzzles[0].cases[0];
    race.failure = FailureKind::Finding;
    race.cause = "race";
    race.reason = "race: s[3] in barrier round 0";
    racy.puzzles[0].reason = "case 1: " + race.reason;
    racy.puzzles[0].caseFile = "cases/O'Brien & \"Jo\"-offset-case1.vkpcase";
    g.grades.push_back(racy);
    return g;
}

} // namespace vkp::test
