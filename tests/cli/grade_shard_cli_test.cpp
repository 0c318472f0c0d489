// A class split across machines, end to end on lavapipe: `grade --shard K/N` grades each share
// of the class in its own process, `grade --merge` puts their JSON files together, and the CSV,
// JSON and HTML report it writes are byte for byte those of one run over the whole class. The
// report keeps a hidden case's data out and a student's markup inert.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/temp_dir.h"
#include "support/test_env.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;

std::string gradeData(const std::string& sub) {
    return test::sourceDir() + "/tests/data/grade/" + sub;
}
std::string pack() {
    return "--puzzles " + gradeData("pack") + " ";
}

// Each file's folders apart from the others'.
struct TempDir : test::TempDir {
    explicit TempDir(const std::string& name) : test::TempDir("grade-shard-" + name) {}
};

std::string readFile(const std::string& path) {
    return test::fileBytes(path);
}

// The offset class and a student whose name is markup, wrong on the hidden case only.
constexpr const char* kMarkupName = "<script>alert(1)<";

TEST(GradeShardCliTest, ThreeSharesMergedAreTheWholeClassByteForByte) {
    TempDir t("offset");
    fs::copy(gradeData("offset"), t.path / "class", fs::copy_options::recursive);
    fs::copy(gradeData("offset/ivan.comp"),
             t.path / "class" / (std::string(kMarkupName) + ".comp"));
    // Run from the folder, as a teacher would: relative outputs and case files.
    std::string run = "cd " + t.path.string() + " && " + test::binaryPath() + " " + pack() +
                      "grade offset class --case-files cases --color never ";
    CliRun whole =
        test::runCommand(run + "--csv whole.csv --json whole.json --html whole.html 2>&1");
    ASSERT_EQ(whole.exit, 0) << whole.out;
    EXPECT_TRUE(has(whole.out, "class report: whole.html")) << whole.out;
    for (int k = 1; k <= 3; ++k) {
        std::string share = "share-" + std::to_string(k) + ".json";
        CliRun r =
            test::runCommand(run + "--shard " + std::to_string(k) + "/3 --json " + share + " 2>&1");
        ASSERT_EQ(r.exit, 0) << r.out;
        EXPECT_TRUE(has(r.out, "grading share " + std::to_string(k) + " of 3 (")) << r.out;
        auto doc = nlohmann::json::parse(readFile(t / share));
        EXPECT_EQ(doc["shard"]["index"], k);
        EXPECT_EQ(doc["shard"]["count"], 3);
        EXPECT_EQ(doc["shard"]["class_submissions"], 11);
        EXPECT_EQ(doc["submissions"].size(), k == 3 ? 3u : 4u) << "11 = 4 + 4 + 3";
    }
    CliRun merged = test::runCommand("cd " + t.path.string() + " && " + test::binaryPath() +
                                     " grade --merge share-3.json share-1.json share-2.json --csv "
                                     "m.csv --json m.json --html m.html --color never 2>&1");
    ASSERT_EQ(merged.exit, 0) << merged.out;
    EXPECT_TRUE(has(merged.out, "merged 3 shares: 11 submissions of offset")) << merged.out;
    EXPECT_TRUE(has(merged.out, "11 submissions: mean 1.64 of 5 (33%), 2 with full marks"))
        << merged.out;
    for (const char* ext : {"csv", "json", "html"}) {
        std::string single = readFile(t / (std::string("whole.") + ext));
        EXPECT_FALSE(single.empty()) << ext;
        EXPECT_EQ(readFile(t / (std::string("m.") + ext)), single)
            << "the merged " << ext << " differs from the single run's";
    }

    // The single run's JSON is the teacher's: the hidden case in full. The report is not.
    auto doc = nlohmann::json::parse(readFile(t / "whole.json"));
    EXPECT_EQ(doc["shard"], nullptr);
    std::string hiddenReason, hiddenName;
    for (const auto& s : doc["submissions"])
        if (s["name"] == kMarkupName) {
            hiddenReason = s["cases"][2]["reason"];
            hiddenName = s["cases"][2]["name"];
        }
    ASSERT_TRUE(has(hiddenReason, "expected")) << hiddenReason;
    std::string html = readFile(t / "whole.html");
    EXPECT_FALSE(has(html, hiddenReason));
    EXPECT_FALSE(has(html, hiddenReason.substr(hiddenReason.find("expected"))));
    EXPECT_FALSE(has(html, hiddenName)) << hiddenName;
    EXPECT_TRUE(has(html, "case 3: wrong values (a hidden case: its data is not shown)"));
    EXPECT_FALSE(has(html, kMarkupName)) << "a name is text, not markup";
    EXPECT_TRUE(has(html, "&lt;script&gt;alert(1)&lt;"));
    // carol's race and bob's wrong values, with the students behind them, and their case files.
    EXPECT_TRUE(has(html, "<b>race</b>"));
    EXPECT_TRUE(has(html, "<a href=\"cases/carol-offset-case1.vkpcase\""));
    EXPECT_TRUE(fs::exists(t.path / "cases/carol-offset-case1.vkpcase"));
    EXPECT_TRUE(has(html, "cases/%3Cscript%3Ealert%281%29%3C-offset-case3.vkpcase"));
}

TEST(GradeShardCliTest, SharesThatDoNotMakeOneClassAreRefused) {
    TempDir t("refused");
    std::string all = pack() + "grade --all " + gradeData("class") + " --color never ";
    for (int k = 1; k <= 2; ++k)
        ASSERT_EQ(vkpuzzles(all + "--shard " + std::to_string(k) + "/2 --json " +
                            t / ("s" + std::to_string(k) + ".json"))
                      .exit,
                  0);
    // Two shares of --all: the same as one run.
    ASSERT_EQ(vkpuzzles(all + "--json " + t / "whole.json").exit, 0);
    CliRun merged = vkpuzzles("grade --merge " + t / "s1.json" + " " + t / "s2.json" + " --json " +
                              t / "m.json --color never");
    ASSERT_EQ(merged.exit, 0) << merged.out;
    EXPECT_TRUE(has(merged.out, "merged 2 shares: 3 students of offset and twostep")) << merged.out;
    EXPECT_EQ(readFile(t / "m.json"), readFile(t / "whole.json"));

    CliRun missing = vkpuzzles("grade --merge " + t / "s1.json --color never");
    EXPECT_EQ(missing.exit, 2);
    EXPECT_TRUE(has(missing.out, "share 2 of 2 is missing")) << missing.out;
    CliRun twice = vkpuzzles("grade --merge " + t / "s1.json " + t / "s2.json " + t / "s2.json");
    EXPECT_EQ(twice.exit, 2);
    EXPECT_TRUE(has(twice.out, "are both share 2 of 2")) << twice.out;
    CliRun whole = vkpuzzles("grade --merge " + t / "s1.json " + t / "whole.json");
    EXPECT_EQ(whole.exit, 2);
    EXPECT_TRUE(has(whole.out, t / "whole.json" + " is not a share")) << whole.out;
    std::ofstream(t / "junk.json") << "{\"version\": 1}";
    CliRun junk = vkpuzzles("grade --merge " + t / "s1.json " + t / "junk.json");
    EXPECT_EQ(junk.exit, 2);
    EXPECT_TRUE(has(junk.out, t / "junk.json" + " is not a `vkpuzzles grade --json` file"))
        << junk.out;
    // A share of another puzzle set: offset alone, 1 of 2.
    ASSERT_EQ(vkpuzzles(pack() + "grade offset " + gradeData("offset") + " --shard 2/2 --json " +
                        t / "offset-2.json")
                  .exit,
              0);
    CliRun mixed = vkpuzzles("grade --merge " + t / "s1.json " + t / "offset-2.json");
    EXPECT_EQ(mixed.exit, 2);
    EXPECT_TRUE(has(mixed.out, "offset-2.json (share 2 of 2)")) << mixed.out;
    CliRun over =
        vkpuzzles("grade --merge " + t / "s1.json " + t / "s2.json --json " + t / "s1.json");
    EXPECT_EQ(over.exit, 2);
    EXPECT_TRUE(has(over.out, "is a share being merged")) << over.out;
}

TEST(GradeShardCliTest, ABadShardSaysWhatIsWrongBeforeGrading) {
    std::string grade = pack() + "grade offset " + gradeData("offset") + " --json /tmp/x.json ";
    struct Row {
        const char* shard;
        const char* message;
    } rows[] = {
        {"3/2", "--shard 3/2: K must be 1..N, here 1..2"},
        {"0/4", "--shard 0/4: K must be 1..N, here 1..4"},
        {"1/0", "--shard 1/0: N must be 1..100000"},
        {"2", "--shard needs K/N, share K of N of the class"},
        {"a/b", "--shard needs K/N"},
        {"-1/2", "--shard needs K/N"},
    };
    for (const Row& r : rows) {
        CliRun run = vkpuzzles(grade + "--shard " + r.shard + " --color never");
        EXPECT_EQ(run.exit, 2) << r.shard << "\n" << run.out;
        EXPECT_TRUE(has(run.out, r.message)) << r.shard << "\n" << run.out;
        EXPECT_FALSE(has(run.out, "grading")) << run.out;
    }
    CliRun noJson =
        vkpuzzles(pack() + "grade offset " + gradeData("offset") + " --shard 1/2 --color never");
    EXPECT_EQ(noJson.exit, 2);
    EXPECT_TRUE(has(noJson.out, "write its results with --json FILE")) << noJson.out;
    CliRun mergeAll = vkpuzzles("grade --merge --all a.json --color never");
    EXPECT_EQ(mergeAll.exit, 2);
    EXPECT_TRUE(has(mergeAll.out, "--all is for grading")) << mergeAll.out;
    CliRun nothing = vkpuzzles("grade --merge --color never");
    EXPECT_EQ(nothing.exit, 2);
    EXPECT_TRUE(has(nothing.out, "name the shares' JSON files")) << nothing.out;
}

// A share may hold no submission (8 machines, 5 students): it writes an empty share that
// merges.
TEST(GradeShardCliTest, AnEmptyShareIsWrittenAndMerged) {
    TempDir t("empty");
    fs::create_directories(t.path / "class");
    fs::copy(gradeData("offset/alice.comp"), t.path / "class/alice.comp");
    fs::copy(gradeData("offset/bob.comp"), t.path / "class/bob.comp");
    std::string grade = pack() + "grade offset " + t / "class" + " --color never ";
    CliRun empty = vkpuzzles(grade + "--shard 3/3 --json " + t / "s3.json");
    ASSERT_EQ(empty.exit, 0) << empty.out;
    EXPECT_TRUE(has(empty.out, "this share holds none of the class's submissions")) << empty.out;
    ASSERT_EQ(vkpuzzles(grade + "--shard 1/3 --json " + t / "s1.json").exit, 0);
    ASSERT_EQ(vkpuzzles(grade + "--shard 2/3 --json " + t / "s2.json").exit, 0);
    ASSERT_EQ(vkpuzzles(grade + "--csv " + t / "whole.csv").exit, 0);
    CliRun merged = vkpuzzles("grade --merge " + t / "s1.json " + t / "s2.json " + t / "s3.json" +
                              " --csv " + t / "m.csv");
    ASSERT_EQ(merged.exit, 0) << merged.out;
    EXPECT_EQ(readFile(t / "m.csv"), readFile(t / "whole.csv"));
}

} // namespace
} // namespace vkp
