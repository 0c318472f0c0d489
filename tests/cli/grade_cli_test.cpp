// `vkpuzzles grade` end to end: the real binary grades tests/data/grade in its worker on lavapipe;
// the CSV, the JSON and Gradescope's results.json are parsed and every score checked.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/crashing_kernel.h"
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
    explicit TempDir(const std::string& name) : test::TempDir("grade-cli-" + name) {}
};

std::string readFile(const std::string& path) {
    return test::fileBytes(path);
}

// RFC 4180 rows (no quoted line breaks in these files).
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        EXPECT_TRUE(!line.empty() && line.back() == '\r') << "CRLF line ends: " << line;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::vector<std::string> row{""};
        bool quoted = false;
        for (size_t i = 0; i < line.size(); ++i) {
            char c = line[i];
            if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                row.back() += '"', ++i;
            else if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted)
                row.emplace_back();
            else
                row.back() += c;
        }
        rows.push_back(row);
    }
    return rows;
}

// The points each student of tests/data/grade/offset earns per case (5 in all), and the
// compiler-crashing submission the test adds.
const std::map<std::string, std::vector<double>> kOffsetPoints = {
    {"alice", {1, 2, 1, 1}}, {"bob", {0, 0, 0, 0}},    {"carol", {0, 0, 0, 0}},
    {"dave", {0, 0, 0, 0}},  {"erin", {0, 0, 0, 0}},   {"frank", {0, 0, 0, 0}},
    {"grace", {0, 0, 0, 0}}, {"heidi", {0, 0, 0, 0}},  {"ivan", {1, 2, 0, 1}},
    {"judy", {1, 2, 1, 1}},  {"mallory", {0, 0, 0, 0}}};

TEST(GradeCliTest, AClassIsGradedIntoLinesCsvAndJsonTheSameWayTwice) {
    TempDir t("class");
    fs::copy(gradeData("offset"), t.path / "class", fs::copy_options::recursive);
    std::ofstream(t / "class/mallory.comp") << test::crashingKernel();
    std::string args = pack() + "grade offset " + t / "class" + " --timeout 30 --color never";
    CliRun r = vkpuzzles(args + " --csv " + t / "a.csv" + " --json " + t / "a.json");
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "grading 11 submissions of offset (4 cases, 5 points) on")) << r.out;
    EXPECT_TRUE(has(r.out, "grading 3/11: carol")) << "plain progress lines off a terminal";
    EXPECT_TRUE(has(r.out, "  alice    5/5      4/4 cases\n")) << r.out;
    EXPECT_TRUE(has(r.out, "  frank    0/5      0/4 cases  does not compile: frank.comp:8: "))
        << r.out;
    EXPECT_TRUE(has(r.out, "  ivan     4/5      3/4 cases  case 3: result: ")) << r.out;
    EXPECT_TRUE(has(r.out, "  grace    0/5      0/4 cases  the file is empty")) << r.out;
    EXPECT_TRUE(has(r.out, "11 submissions: mean 1.27 of 5 (25%), 2 with full marks")) << r.out;

    auto csv = parseCsv(readFile(t / "a.csv"));
    ASSERT_EQ(csv.size(), 12u);
    EXPECT_EQ(csv[0],
              (std::vector<std::string>{"name", "score", "max_score", "offset case 1",
                                        "offset case 2", "offset case 3", "offset case 4"}));
    for (size_t i = 1; i < csv.size(); ++i) {
        const auto& row = csv[i];
        ASSERT_EQ(row.size(), 7u);
        ASSERT_TRUE(kOffsetPoints.count(row[0])) << row[0];
        const std::vector<double>& points = kOffsetPoints.at(row[0]);
        double sum = 0;
        for (size_t c = 0; c < 4; ++c) {
            EXPECT_DOUBLE_EQ(std::stod(row[3 + c]), points[c]) << row[0] << " case " << c + 1;
            sum += points[c];
        }
        EXPECT_DOUBLE_EQ(std::stod(row[1]), sum) << row[0];
        EXPECT_EQ(row[2], "5");
    }
    EXPECT_LT(csv[1][0], csv[2][0]) << "in name order";

    auto doc = nlohmann::json::parse(readFile(t / "a.json"));
    EXPECT_EQ(doc["version"], 1);
    EXPECT_EQ(doc["puzzles"], nlohmann::json::array({"offset"}));
    ASSERT_EQ(doc["submissions"].size(), 11u);
    for (const auto& s : doc["submissions"]) {
        std::string name = s["name"];
        const std::vector<double>& points = kOffsetPoints.at(name);
        ASSERT_EQ(s["cases"].size(), 4u);
        double sum = 0;
        for (size_t c = 0; c < 4; ++c) {
            const auto& one = s["cases"][c];
            EXPECT_EQ(one["index"], c + 1);
            EXPECT_EQ(one["points"].get<double>(), c == 1 ? 2 : 1);
            EXPECT_EQ(one["hidden"], c == 2);
            EXPECT_DOUBLE_EQ(one["earned"].get<double>(), points[c]) << name;
            EXPECT_EQ(one["pass"], points[c] > 0) << name;
            EXPECT_EQ(one["reason"].is_null(), points[c] > 0) << name;
            sum += points[c];
        }
        EXPECT_DOUBLE_EQ(s["score"].get<double>(), sum) << name;
        EXPECT_DOUBLE_EQ(s["max_score"].get<double>(), 5);
    }
    const auto& carol = doc["submissions"][2];
    EXPECT_EQ(carol["cases"][0]["failure"], "finding");
    EXPECT_TRUE(has(carol["reason"].get<std::string>(), "race")) << carol["reason"];
    EXPECT_EQ(doc["submissions"][3]["files"], nlohmann::json::array({t / "class/dave.comp"}));
    EXPECT_EQ(doc["summary"]["full_marks"], 2);

    // Same inputs, same scores: the CSV again, byte for byte.
    CliRun again = vkpuzzles(args + " --csv " + t / "b.csv");
    ASSERT_EQ(again.exit, 0) << again.out;
    EXPECT_EQ(readFile(t / "a.csv"), readFile(t / "b.csv"));
}

TEST(GradeCliTest, GradescopeResultsHideTheHiddenCaseUntilPublished) {
    TempDir t("gradescope");
    fs::create_directories(t.path / "submission");
    fs::copy(gradeData("offset/ivan.comp"), t.path / "submission/offset.comp");
    CliRun r = vkpuzzles(pack() + "grade offset " + t / "submission" + " --gradescope " +
                         t / "results.json --color never");
    ASSERT_EQ(r.exit, 0) << r.out;
    auto doc = nlohmann::json::parse(readFile(t / "results.json"));
    EXPECT_DOUBLE_EQ(doc["score"].get<double>(), 4);
    ASSERT_EQ(doc["tests"].size(), 4u);
    std::vector<double> score = {1, 2, 0, 1}, max = {1, 2, 1, 1};
    for (size_t c = 0; c < 4; ++c) {
        const auto& test = doc["tests"][c];
        EXPECT_DOUBLE_EQ(test["score"].get<double>(), score[c]);
        EXPECT_DOUBLE_EQ(test["max_score"].get<double>(), max[c]);
        EXPECT_EQ(test["visibility"], c == 2 ? "after_published" : "visible");
        EXPECT_TRUE(test["name"].is_string() && test["output"].is_string());
    }
    // Students read results.json: a hidden case's name stays the teacher's, as in `show`.
    EXPECT_EQ(doc["tests"][2]["name"], "case 3: hidden by your teacher");
    std::string hidden = doc["tests"][2]["output"];
    EXPECT_TRUE(has(hidden, "fail: wrong values (a hidden case")) << hidden;
    EXPECT_FALSE(has(hidden, "expected")) << "a hidden case's data stays hidden: " << hidden;
    EXPECT_EQ(doc["tests"][0]["output"], "pass");

    // Gradescope grades one student at a time: a folder of several is refused before grading.
    CliRun several = vkpuzzles(pack() + "grade offset " + gradeData("offset") + " --gradescope " +
                               t / "x.json --color never");
    EXPECT_EQ(several.exit, 2) << several.out;
    EXPECT_TRUE(has(several.out, "--gradescope writes the results of one submission"))
        << several.out;
    EXPECT_TRUE(has(several.out, "holds 10: alice, bob, carol, ...")) << several.out;
    EXPECT_FALSE(fs::exists(t.path / "x.json"));
}

TEST(GradeCliTest, AllGradesEveryPuzzleOfThePackPerStudent) {
    TempDir t("all");
    CliRun r = vkpuzzles(pack() + "grade --all " + gradeData("class") + " --json " +
                         t / "all.json --color never");
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "grading 3 students on 2 puzzles (offset and twostep)")) << r.out;
    EXPECT_TRUE(has(r.out, "notes.comp: its name is no puzzle's slug")) << r.out;
    EXPECT_TRUE(has(r.out, "  carol  4/9      3/6 cases  offset: case 3: result: ")) << r.out;
    EXPECT_TRUE(has(r.out, "3 students: mean 6 of 9 (67%), 1 with full marks")) << r.out;
    auto doc = nlohmann::json::parse(readFile(t / "all.json"));
    ASSERT_EQ(doc["submissions"].size(), 3u);
    std::vector<double> scores = {9, 5, 4};
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_DOUBLE_EQ(doc["submissions"][i]["score"].get<double>(), scores[i]) << i;
        EXPECT_DOUBLE_EQ(doc["submissions"][i]["max_score"].get<double>(), 9);
        EXPECT_EQ(doc["submissions"][i]["cases"].size(), 6u);
    }
    const auto& carol = doc["submissions"][2]["puzzles"][1];
    EXPECT_EQ(carol["handed_in"], false);
    EXPECT_EQ(carol["reason"], "not handed in");
    EXPECT_EQ(doc["submissions"][1]["puzzles"][0]["path"], gradeData("class/bob/offset-2.comp"));
}

// A puzzle whose official solution needs what the device lacks (the tensor-core puzzle on
// lavapipe) is not graded there: alone it is refused before any submission is checked, among
// others it is left out with a warning, so no submission is scored 0 for the device's sake.
TEST(GradeCliTest, APuzzleTheDeviceCannotRunIsNotGradedOnIt) {
    TempDir t("lacks");
    fs::create_directories(t / "alice");
    fs::copy_file(test::sourceDir() + "/puzzles/53-matmul-tensor-cores/solution.comp",
                  t / "alice/matmul-tensor-cores.comp");
    fs::copy_file(test::sourceDir() + "/puzzles/01-map/solution.comp", t / "alice/map.comp");
    CliRun one = vkpuzzles("grade matmul-tensor-cores " + t / "alice" + " --color never");
    EXPECT_EQ(one.exit, 2) << one.out;
    EXPECT_TRUE(has(one.out, "matmul-tensor-cores needs cooperative matrix, which ")) << one.out;
    EXPECT_TRUE(has(one.out, "every submission would score 0")) << one.out;
    EXPECT_FALSE(has(one.out, "grading 1")) << one.out;
    CliRun all = vkpuzzles("grade --all " + t.path.string() + " --color never");
    EXPECT_EQ(all.exit, 0) << all.out;
    EXPECT_TRUE(has(all.out, "not graded on this device: matmul-tensor-cores needs cooperative "
                             "matrix"))
        << all.out;
    EXPECT_FALSE(has(all.out, "blocks, matmul-tensor-cores")) << all.out;
    EXPECT_TRUE(has(all.out, "alice  8/")) << all.out;
}

// --case-files: the teacher gets each failing submission's first failing case, traced, as a case
// file to open with every view; passing and never-run submissions get none.
TEST(GradeCliTest, CaseFilesHoldEachFailingSubmissionsFirstFailingCase) {
    TempDir t("case-files");
    std::string cases = t / "cases";
    CliRun r = vkpuzzles(pack() + "grade --all " + gradeData("class") + " --case-files " + cases +
                         " --color never");
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(
        has(r.out, "case files: 2 (a failing case of each submission that ran) in " + cases))
        << r.out;
    std::vector<std::string> written;
    for (const auto& e : fs::directory_iterator(cases))
        written.push_back(e.path().filename().string());
    std::sort(written.begin(), written.end());
    // bob's twostep adds 1 where it should add 10; carol's offset is wrong on the hidden case 3.
    EXPECT_EQ(written, (std::vector<std::string>{"bob-twostep-case1.vkpcase",
                                                 "carol-offset-case3.vkpcase"}));
    CliRun opened =
        vkpuzzles("--color never open " + cases + "/carol-offset-case3.vkpcase --print");
    EXPECT_TRUE(has(opened.out, "case 3:")) << opened.out;
    EXPECT_TRUE(has(opened.out, "outputs wrong")) << opened.out;
    CliRun inside = vkpuzzles(pack() + "grade --all " + gradeData("class") + " --case-files " +
                              gradeData("class") + "/cases");
    EXPECT_EQ(inside.exit, 2);
    EXPECT_TRUE(has(inside.out, "is inside")) << inside.out;
}

TEST(GradeCliTest, AWorkerThatCrashesCostsTheSubmissionAndGradingGoesOn) {
    TempDir t("crash");
    fs::copy(gradeData("offset/alice.comp"), t.path / "alice.comp");
    fs::copy(gradeData("offset/ivan.comp"), t.path / "ivan.comp");
    // The worker crashes on every job: each submission's check restarts it, and the class is
    // graded to the end.
    CliRun r = test::runCommand("VKPUZZLES_TEST_WORKER=crash " + test::binaryPath() + " " + pack() +
                                "grade offset " + t.path.string() + " --color never 2>&1");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "  alice  0/5      0/4 cases  case 1 the worker process running the "
                           "kernel crashed"))
        << r.out;
    EXPECT_TRUE(has(r.out, "  ivan   0/5      0/4 cases  case 1 the worker process")) << r.out;
    EXPECT_TRUE(has(r.out, "2 submissions: mean 0 of 5 (0%), 0 with full marks")) << r.out;
}

TEST(GradeCliTest, UsageErrorsSayWhatIsWrongAndExitTwo) {
    TempDir t("usage");
    CliRun missing = vkpuzzles(pack() + "grade offset " + t / "nowhere --color never");
    EXPECT_EQ(missing.exit, 2) << missing.out;
    EXPECT_TRUE(has(missing.out, "there is no folder '" + t / "nowhere" + "'")) << missing.out;
    CliRun empty = vkpuzzles(pack() + "grade offset " + t.path.string() + " --color never");
    EXPECT_EQ(empty.exit, 2) << empty.out;
    EXPECT_TRUE(has(empty.out, "holds no submission (no .comp file and no folder)")) << empty.out;
    CliRun noPuzzle = vkpuzzles("grade no-such-puzzle " + t.path.string() + " --color never");
    EXPECT_EQ(noPuzzle.exit, 2) << noPuzzle.out;
    CliRun noDir = vkpuzzles("grade map --color never");
    EXPECT_EQ(noDir.exit, 2) << noDir.out;
    EXPECT_TRUE(has(noDir.out, "name a puzzle and the folder of submissions")) << noDir.out;
    CliRun badOut = vkpuzzles(pack() + "grade offset " + gradeData("offset") + " --csv " +
                              t / "no/such/dir/x.csv --color never");
    EXPECT_EQ(badOut.exit, 2) << badOut.out;
    EXPECT_TRUE(has(badOut.out, "there is no folder '" + t / "no/such/dir" + "'")) << badOut.out;
    CliRun jsonFlag = vkpuzzles(pack() + "grade offset " + gradeData("offset") + " --json");
    EXPECT_EQ(jsonFlag.exit, 2) << jsonFlag.out;
    EXPECT_TRUE(has(jsonFlag.out, "--json needs a value")) << jsonFlag.out;
}

// Where the reports go: a plain file name is the current folder (it failed after the whole class
// was graded); a report inside the folder being graded (it replaced a submission) and two
// reports in one file are refused before anything is graded.
TEST(GradeCliTest, ReportsGoBesideTheClassEachToItsOwnFile) {
    TempDir t("outputs");
    CliRun here = test::runCommand("cd " + t.path.string() + " && " + test::binaryPath() + " " +
                                   pack() + "grade offset " + gradeData("offset") +
                                   " --csv scores.csv --json scores.json --color never 2>&1");
    EXPECT_EQ(here.exit, 0) << here.out;
    EXPECT_TRUE(fs::exists(t.path / "scores.csv")) << here.out;
    EXPECT_TRUE(fs::exists(t.path / "scores.json")) << here.out;
    fs::copy(gradeData("offset"), t.path / "class", fs::copy_options::recursive);
    CliRun inside = vkpuzzles(pack() + "grade offset " + t / "class" + " --csv " +
                              t / "class/alice.comp --color never");
    EXPECT_EQ(inside.exit, 2) << inside.out;
    EXPECT_TRUE(has(inside.out, "the folder being graded: write it beside the class"))
        << inside.out;
    EXPECT_TRUE(has(readFile(t / "class/alice.comp"), "void main")) << "the submission stays";
    CliRun same = vkpuzzles(pack() + "grade offset " + t / "class" + " --csv " + t / "x" +
                            " --json " + t.path.string() + "/./x --color never");
    EXPECT_EQ(same.exit, 2) << same.out;
    EXPECT_TRUE(has(same.out, "--csv and --json name the same file")) << same.out;
    EXPECT_FALSE(has(same.out, "grading")) << "refused before grading: " << same.out;
}

TEST(GradeCliTest, CheckJsonSaysWhyAKernelDidNotCompile) {
    TempDir t("compile");
    std::ofstream(t / "broken.comp")
        << "#version 450\nlayout(local_size_x_id = 0) in;\n"
           "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
           "layout(set = 0, binding = 1) buffer Result { float result[]; };\n"
           "void main() {\n    result[0] = missing;\n}\n";
    CliRun r = test::vkpuzzlesStdout("check map " + t / "broken.comp" + " --json");
    EXPECT_EQ(r.exit, 1);
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["compiled"], false);
    EXPECT_EQ(doc["cases_total"], 8) << "the puzzle's cases, none of which ran";
    EXPECT_EQ(doc["cases_passed"], 0);
    EXPECT_EQ(doc["error_count"], 1);
    ASSERT_TRUE(doc["error"].is_object()) << r.out;
    EXPECT_EQ(doc["error"]["kind"], "compile");
    EXPECT_EQ(doc["error"]["line"], 6);
    EXPECT_TRUE(
        has(doc["error"]["message"].get<std::string>(), "the kernel does not compile: 'missing'"))
        << doc["error"];
}

} // namespace
} // namespace vkp
