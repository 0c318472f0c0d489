// The class report's numbers (classroom/class_summary.h) on the offset class graded for real:
// who failed what and how, per case, and a hidden case's failure reduced to its kind.
#include <gtest/gtest.h>

#include <algorithm>

#include "classroom/class_summary.h"
#include "gpu/device_runner.h"
#include "support/engines.h"

namespace vkp {
namespace {

struct Offset {
    const Puzzle* puzzle = nullptr;
    std::vector<SubmissionGrade> grades;
};

const Offset& offsetClass() {
    static Offset o = [] {
        static PuzzleSet set =
            loadPuzzleSet(test::puzzleDir(), {test::sourceDir() + "/tests/data/grade/pack"});
        Offset out;
        out.puzzle = *set.find("offset");
        auto found = findSubmissions(test::sourceDir() + "/tests/data/grade/offset");
        if (!found) throw std::runtime_error(found.error().message);
        InProcessRunner runner(*test::engines().gpu);
        CheckOptions options;
        options.trace = true;
        out.grades =
            gradeClass(test::engines().compiler, runner, {out.puzzle}, found->submissions, options);
        return out;
    }();
    return o;
}

const CategoryCount* category(const PuzzleSummary& p, const std::string& name) {
    for (const CategoryCount& c : p.categories)
        if (c.category == name) return &c;
    return nullptr;
}

TEST(ClassSummaryTest, EachKindOfFailureNamesTheStudentsBehindIt) {
    ASSERT_TRUE(test::engines().gpu);
    const Offset& o = offsetClass();
    ClassSummary sum = summarizeClass({o.puzzle}, o.grades);
    ASSERT_EQ(sum.puzzles.size(), 1u);
    const PuzzleSummary& p = sum.puzzles[0];
    EXPECT_DOUBLE_EQ(p.maxScore, 5);
    EXPECT_DOUBLE_EQ(p.mean, 1.4); // alice 5, ivan 4, judy 5 of 10
    EXPECT_DOUBLE_EQ(sum.median, 0);
    EXPECT_EQ(p.fullMarks, 2u);
    EXPECT_EQ(p.handedIn, 10u);
    using Names = std::vector<std::string>;
    ASSERT_TRUE(category(p, "does not compile"));
    EXPECT_EQ(category(p, "does not compile")->students, (Names{"frank", "heidi"}));
    EXPECT_EQ(category(p, "does not compile")->cases, 8u);
    ASSERT_TRUE(category(p, "race"));
    EXPECT_EQ(category(p, "race")->students, (Names{"carol"}));
    ASSERT_TRUE(category(p, "out of bounds"));
    EXPECT_EQ(category(p, "out of bounds")->students, (Names{"dave"}));
    ASSERT_TRUE(category(p, "wrong values"));
    EXPECT_EQ(category(p, "wrong values")->students, (Names{"bob", "ivan"}));
    EXPECT_EQ(category(p, "wrong values")->cases, 5u) << "bob's 4 and ivan's hidden one";
    ASSERT_TRUE(category(p, "unreadable or empty"));
    EXPECT_EQ(category(p, "unreadable or empty")->students, (Names{"grace"}));
    EXPECT_EQ(p.categories.front().students.size(), 2u) << "most students first";
    // Per case: 7 of 10 fail case 1; the hidden case 3 also ivan, and keeps its name out.
    ASSERT_EQ(p.cases.size(), 4u);
    EXPECT_EQ(p.cases[0].failed, 7u);
    EXPECT_EQ(p.cases[2].failed, 8u);
    EXPECT_TRUE(p.cases[2].hidden);
    EXPECT_EQ(p.cases[2].name, "");
    EXPECT_EQ(p.cases[0].name, "4 threads, a = 0..3");
    size_t sum3 = 0;
    for (const auto& [cat, n] : p.cases[2].byCategory)
        sum3 += n;
    EXPECT_EQ(sum3, 8u);
}

TEST(ClassSummaryTest, AHiddenCasesFailureShowsItsKindNeverItsData) {
    ASSERT_TRUE(test::engines().gpu);
    const Offset& o = offsetClass();
    const SubmissionGrade& ivan = o.grades[8];
    ASSERT_EQ(ivan.name, "ivan");
    const CaseGrade& hidden = ivan.puzzles[0].cases[2];
    ASSERT_TRUE(hidden.hidden && !hidden.pass);
    EXPECT_NE(hidden.reason.find("expected"), std::string::npos) << "the teacher's reason";
    EXPECT_EQ(shownReason(hidden), "wrong values (a hidden case: its data is not shown)");
    EXPECT_EQ(shownReason(ivan.puzzles[0]),
              "case 3: wrong values (a hidden case: its data is not shown)");
    // A visible case keeps its reason; a file that does not compile is no case's data.
    const SubmissionGrade& carol = o.grades[2];
    EXPECT_EQ(carol.puzzles[0].cases[0].cause, "race");
    EXPECT_EQ(failureCategory(carol.puzzles[0].cases[0]), "race");
    EXPECT_EQ(shownReason(carol.puzzles[0].cases[2]),
              "finding: race (a hidden case: its data is not shown)");
    EXPECT_EQ(shownReason(carol.puzzles[0]), "case 1: " + carol.puzzles[0].cases[0].reason);
    const SubmissionGrade& frank = o.grades[5];
    EXPECT_EQ(shownReason(frank.puzzles[0]), frank.puzzles[0].reason);
    EXPECT_EQ(shownReason(o.grades[0].puzzles[0]), "") << "alice lost nothing";
}

TEST(ClassSummaryTest, ScoresAreBinnedByValueOrByARoundWidth) {
    auto bins = scoreBins({0, 0, 5, 4, 5}, 5);
    ASSERT_EQ(bins.size(), 6u);
    EXPECT_EQ(bins[0].count, 2u);
    EXPECT_EQ(bins[4].count, 1u);
    EXPECT_EQ(bins[5].count, 2u);
    auto wide = scoreBins({0, 24, 25, 12, 5}, 25); // whole points up to 25: 5 bins of 5
    ASSERT_EQ(wide.size(), 5u);
    EXPECT_DOUBLE_EQ(wide[1].from, 5);
    EXPECT_EQ(wide[4].count, 2u) << "the last bin holds the maximum";
    EXPECT_EQ(wide[1].count, 1u);
    auto halves = scoreBins({0.5, 2.5, 3.25}, 3.5); // not whole: 7 bins of 0.5
    ASSERT_EQ(halves.size(), 7u);
    EXPECT_EQ(halves[1].count, 1u);
    EXPECT_EQ(halves[5].count, 1u);
    EXPECT_EQ(halves[6].count, 1u);
}

} // namespace
} // namespace vkp
