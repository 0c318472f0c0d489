// The files of a graded class (gradebook/grade_files.h): the CSV's quoting, and the JSON read back
// as merging reads a share: the same document again, and a file that is no share refused by name.
#include <gtest/gtest.h>

#include "gradebook/grade_files.h"
#include "session/json_text.h"
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

} // namespace
} // namespace vkp
