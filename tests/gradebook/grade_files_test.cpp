// The files of a graded class (gradebook/grade_files.h): the CSV's quoting, the JSON read back
// as merging reads a share: the same document again, and a file that is no share refused by name;
// and the results of one submission that students read on PrairieLearn and GitHub Classroom:
// scores, names and reasons, and never a hidden case's name or data.
#include <gtest/gtest.h>

#include "gradebook/grade_files.h"
#include "report/json_text.h"
#include "support/graded_class.h"
#include "support/test_env.h"

namespace vkp {
namespace {

TEST(GradeFilesTest, CsvFieldsAreQuotedAsRfc4180SaysAndPointsPrintShort) {
    EXPECT_EQ(csvField("alice"), "alice");
    EXPECT_EQ(csvField("smith, jo"), "\"smith, jo\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(pointsText(5), "5");
    EXPECT_EQ(pointsText(2.5), "2.5");
    EXPECT_EQ(pointsText(1.0 / 3), "0.33");
    EXPECT_EQ(pointsText(0), "0");
}

TEST(GradeFilesTest, AShareReadBackWritesTheSameDocumentAndFiles) {
    GradedClass share = test::smallGradedClass();
    share.share = ShareOfClass{{2, 3}, 7, "0123456789abcdef"};
    std::string text = jsonText(gradeJson(share));
    auto back = readGradeJson(text, "share-2.json");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(jsonText(gradeJson(*back)), text);
    EXPECT_EQ(gradeCsv(*back), gradeCsv(share));
    ASSERT_TRUE(back->share);
    EXPECT_EQ(back->share->share.index, 2u);
    EXPECT_EQ(back->share->classSize, 7u);
    ASSERT_EQ(back->puzzles.size(), 1u);
    EXPECT_EQ(back->puzzles[0]->slug, "offset");
    EXPECT_EQ(back->puzzles[0]->title, "Offset");
    EXPECT_TRUE(back->puzzles[0]->cases[2].hidden);
    EXPECT_DOUBLE_EQ(back->puzzles[0]->cases[1].points, 2);
    EXPECT_EQ(back->grades[2].puzzles[0].caseFile, share.grades[2].puzzles[0].caseFile);
    EXPECT_EQ(back->grades[2].puzzles[0].cases[0].cause, "race");
    EXPECT_EQ(back->grades[1].puzzles[0].puzzle, back->puzzles[0]) << "points at its own";
}

TEST(GradeFilesTest, AFileThatIsNoGradeDocumentIsRefusedByName) {
    auto notJson = readGradeJson("{\"version\": 1,", "a.json");
    ASSERT_FALSE(notJson);
    EXPECT_EQ(notJson.error().message,
              "a.json is not a `vkpuzzles grade --json` file: it does not parse as JSON");
    auto old = readGradeJson("{\"version\": 1, \"device\": \"x\", \"submissions\": []}", "b.json");
    ASSERT_FALSE(old);
    EXPECT_NE(old.error().message.find("b.json is not a `vkpuzzles grade --json` file: no "
                                       "\"puzzle_set\": it was written by a vkpuzzles older"),
              std::string::npos)
        << old.error().message;
    nlohmann::json doc = gradeJson(test::smallGradedClass());
    doc["submissions"][0]["cases"][1]["failure"] = "bad luck";
    auto kind = readGradeJson(doc.dump(), "c.json");
    ASSERT_FALSE(kind);
    EXPECT_NE(kind.error().message.find("c.json is not a `vkpuzzles grade --json` file: a case's "
                                        "failure \"bad luck\" is no kind of failure"),
              std::string::npos)
        << kind.error().message;
    doc = gradeJson(test::smallGradedClass());
    doc["submissions"][0]["cases"].erase(0);
    auto fewer = readGradeJson(doc.dump(), "d.json");
    ASSERT_FALSE(fewer);
    EXPECT_NE(fewer.error().message.find("has 3 cases of offset, not 4"), std::string::npos)
        << fewer.error().message;
}

// Everything a student could read of a document, as one text.
std::string allText(const nlohmann::json& doc) {
    return doc.dump();
}

// The student whose hidden case 3 failed with its values in the teacher's reason.
SubmissionGrade hiddenFailure() {
    return test::smallGradedClass().grades[1];
}

// Neither the hidden case's data nor its name, whatever the writer.
void expectNoHiddenCaseDetails(const nlohmann::json& doc, const GradedClass& g) {
    std::string text = allText(doc);
    EXPECT_EQ(text.find(test::kHiddenData), std::string::npos) << text;
    EXPECT_EQ(text.find("expected 6"), std::string::npos) << text;
    EXPECT_EQ(text.find(g.puzzles[0]->cases[2].name), std::string::npos)
        << "the hidden case's name: " << text;
}

TEST(GradeFilesTest, PrairieLearnResultsScoreFromZeroToOneAndHideTheHiddenCase) {
    GradedClass g = test::smallGradedClass();
    nlohmann::json doc = prairieLearnJson(hiddenFailure());
    EXPECT_EQ(doc["gradable"], true);
    EXPECT_DOUBLE_EQ(doc["score"].get<double>(), 4.0 / 5);
    EXPECT_EQ(doc["message"], "4 of 5 points, 3 of 4 cases pass");
    ASSERT_EQ(doc["tests"].size(), 4u);
    std::vector<double> points = {1, 2, 0, 1}, max = {1, 2, 1, 1};
    for (size_t c = 0; c < 4; ++c) {
        const nlohmann::json& t = doc["tests"][c];
        EXPECT_DOUBLE_EQ(t["points"].get<double>(), points[c]) << c;
        EXPECT_DOUBLE_EQ(t["max_points"].get<double>(), max[c]) << c;
        EXPECT_TRUE(t["message"].is_string());
    }
    EXPECT_EQ(doc["tests"][0]["name"], "case 1: 4 threads, a = 0..3");
    EXPECT_EQ(doc["tests"][0]["message"], "pass");
    // The hidden case: that it exists and failed, and the kind of failure only.
    EXPECT_EQ(doc["tests"][2]["name"], "case 3: hidden by your teacher");
    EXPECT_EQ(doc["tests"][2]["message"], "wrong values (a hidden case: its data is not shown)");
    expectNoHiddenCaseDetails(doc, g);

    nlohmann::json full = prairieLearnJson(g.grades[0]);
    EXPECT_DOUBLE_EQ(full["score"].get<double>(), 1.0);
    EXPECT_EQ(full["tests"][2]["name"], "case 3: hidden by your teacher");
    EXPECT_EQ(full["tests"][2]["message"], "pass");
    expectNoHiddenCaseDetails(full, g);
}

// A kernel that does not compile (or no kernel at all) is "not gradable": PrairieLearn counts
// no attempt, and says why in format_errors.
TEST(GradeFilesTest, PrairieLearnResultsOfAFileThatNeverRanAreNotGradable) {
    SubmissionGrade g = test::smallGradedClass().grades[0];
    for (CaseGrade& c : g.puzzles[0].cases) {
        c.pass = false;
        c.earned = 0;
        c.failure = FailureKind::Compile;
        c.reason = "does not compile: offset.comp:8: 'missing' : undeclared identifier";
    }
    g.puzzles[0].score = 0;
    g.puzzles[0].passed = 0;
    nlohmann::json doc = prairieLearnJson(g);
    EXPECT_EQ(doc["gradable"], false);
    EXPECT_DOUBLE_EQ(doc["score"].get<double>(), 0);
    ASSERT_EQ(doc["format_errors"].size(), 1u);
    EXPECT_EQ(doc["format_errors"][0],
              "does not compile: offset.comp:8: 'missing' : undeclared identifier");
    EXPECT_NE(doc["message"].get<std::string>().find("not graded"), std::string::npos);
    // One case that ran and failed makes it gradable: the kernel was graded.
    g.puzzles[0].cases[0].failure = FailureKind::WrongValues;
    EXPECT_EQ(prairieLearnJson(g)["gradable"], true);
}

TEST(GradeFilesTest, PrairieLearnResultsStayUnderOneMegabyte) {
    SubmissionGrade g = test::smallGradedClass().grades[0];
    CaseGrade many = g.puzzles[0].cases[0];
    many.pass = false;
    many.earned = 0;
    many.failure = FailureKind::WrongValues;
    many.reason = std::string(50000, 'x') + "\xc3\xa9"; // a long reason ending in a letter é
    g.puzzles[0].cases.assign(600, many);
    nlohmann::json doc = prairieLearnJson(g);
    std::string text = jsonText(doc);
    EXPECT_LT(text.size(), kPrairieLearnMaxBytes);
    EXPECT_EQ(doc["tests"].size(), 600u) << "every case is still listed";
    EXPECT_NE(doc["tests"][0]["message"].get<std::string>().find("..."), std::string::npos);
}

TEST(GradeFilesTest, GithubResultsAreWhatTheClassroomReporterAddsUp) {
    GradedClass g = test::smallGradedClass();
    nlohmann::json doc = githubResultJson(hiddenFailure());
    EXPECT_EQ(doc["version"], 1);
    EXPECT_EQ(doc["status"], "fail");
    EXPECT_DOUBLE_EQ(doc["max_score"].get<double>(), 5);
    ASSERT_EQ(doc["tests"].size(), 4u);
    double sum = 0;
    for (const nlohmann::json& t : doc["tests"]) {
        sum += t["score"].get<double>(); // what the reporter sends Classroom
        EXPECT_EQ(t["line_no"], 0) << "the reporter prints \" - line N\" for any other";
        EXPECT_EQ(t["test_code"], "");
    }
    EXPECT_DOUBLE_EQ(sum, 4);
    EXPECT_EQ(doc["tests"][0]["status"], "pass");
    EXPECT_EQ(doc["tests"][0]["name"], "case 1: 4 threads, a = 0..3");
    EXPECT_EQ(doc["tests"][2]["status"], "fail");
    EXPECT_EQ(doc["tests"][2]["name"], "case 3: hidden by your teacher - failed: wrong values (a "
                                       "hidden case: its data is not shown)");
    EXPECT_EQ(doc["tests"][2]["message"], "wrong values (a hidden case: its data is not shown)");
    expectNoHiddenCaseDetails(doc, g);

    nlohmann::json full = githubResultJson(g.grades[0]);
    EXPECT_EQ(full["status"], "pass");
    EXPECT_EQ(full["tests"][2]["name"], "case 3: hidden by your teacher");
    EXPECT_EQ(full["tests"][2]["status"], "pass");
    EXPECT_EQ(full["tests"][0]["filename"], "alice.comp") << "the file's name, not its path";
    expectNoHiddenCaseDetails(full, g);
    // A visible case's failure is told in full: it is the student's own data.
    nlohmann::json racy = githubResultJson(g.grades[2]);
    EXPECT_EQ(racy["tests"][0]["name"],
              "case 1: 4 threads, a = 0..3 - failed: race: s[3] in barrier round 0");
}

} // namespace
} // namespace vkp
