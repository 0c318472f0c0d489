// `vkpuzzles grade` writing the results students read on the platforms they hand in on
// (--gradescope, --prairielearn, --github-result; docs/graders.md), end to end on lavapipe with
// the hidden-case pack of tests/data/hidden: every document parses and scores the submission, and
// none holds a number of the hidden case (its input starts at 7777, it has 419 elements and 448
// threads) while the teacher's --json of the same run does.
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

std::string hiddenPack() {
    return test::sourceDir() + "/tests/data/hidden";
}

// Each file's folders apart from the others'.
struct TempDir : test::TempDir {
    explicit TempDir(const std::string& name) : test::TempDir("grade-platforms-" + name) {}
};

nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    nlohmann::json doc = nlohmann::json::parse(s.str(), nullptr, false);
    EXPECT_FALSE(doc.is_discarded()) << path << ":\n" << s.str();
    return doc;
}

// The hidden case's numbers, each a whole token of the text (runs of digits and dots).
std::string leakedNumber(const std::string& text) {
    std::string token;
    for (char ch : text + " ") {
        if ((ch >= '0' && ch <= '9') || ch == '.') {
            token += ch;
            continue;
        }
        for (const char* marker : {"7777", "7778", "7787", "7788", "419", "448"})
            if (token == marker) return token;
        token.clear();
    }
    return "";
}

// A folder holding one student's submission of hidden-shift: `kernel` from the pack's kernels.
std::string oneSubmission(const TempDir& t, const std::string& kernel) {
    fs::create_directories(t.path / "class");
    fs::copy_file(hiddenPack() + "/kernels/" + kernel, t.path / "class/student.comp");
    return t / "class";
}

TEST(GradePlatformsCliTest, EveryPlatformsResultsScoreTheSubmissionAndHideTheHiddenCase) {
    TempDir t("hidden");
    std::string cls = oneSubmission(t, "wrong-on-hidden.comp");
    CliRun r = vkpuzzles("--puzzles " + hiddenPack() + " --color never grade hidden-shift " + cls +
                         " --json " + t / "teacher.json" + " --gradescope " + t / "gs.json" +
                         " --prairielearn " + t / "pl.json" + " --github-result " + t / "gh.json");
    ASSERT_EQ(r.exit, 0) << r.out;
    // The teacher's file holds the hidden case's values: there was something to leak.
    nlohmann::json teacher = readJson(t / "teacher.json");
    std::string reason = teacher["submissions"][0]["cases"][2]["reason"];
    EXPECT_TRUE(has(reason, "7787")) << reason;

    nlohmann::json pl = readJson(t / "pl.json");
    EXPECT_EQ(pl["gradable"], true);
    EXPECT_DOUBLE_EQ(pl["score"].get<double>(), 3.0 / 6) << "cases of 1 + 1 + 3 + 1 points";
    ASSERT_EQ(pl["tests"].size(), 4u);
    EXPECT_EQ(pl["tests"][2]["name"], "case 3: hidden by your teacher");
    EXPECT_DOUBLE_EQ(pl["tests"][2]["points"].get<double>(), 0);
    EXPECT_DOUBLE_EQ(pl["tests"][2]["max_points"].get<double>(), 3);
    EXPECT_EQ(pl["tests"][2]["message"], "wrong values (a hidden case: its data is not shown)");
    EXPECT_EQ(pl["tests"][1]["name"], "case 2: 10 elements, 12 threads");

    nlohmann::json gh = readJson(t / "gh.json");
    EXPECT_EQ(gh["status"], "fail");
    EXPECT_DOUBLE_EQ(gh["max_score"].get<double>(), 6);
    double earned = 0;
    for (const auto& test : gh["tests"])
        earned += test["score"].get<double>();
    EXPECT_DOUBLE_EQ(earned, 3);
    EXPECT_EQ(gh["tests"][2]["status"], "fail");
    EXPECT_TRUE(has(gh["tests"][2]["name"], "case 3: hidden by your teacher - failed: wrong"))
        << gh["tests"][2]["name"];
    EXPECT_EQ(gh["tests"][0]["filename"], "student.comp");

    nlohmann::json gs = readJson(t / "gs.json");
    EXPECT_DOUBLE_EQ(gs["score"].get<double>(), 3);
    EXPECT_EQ(gs["tests"][2]["visibility"], "after_published");

    for (const char* f : {"pl.json", "gh.json", "gs.json"}) {
        std::ifstream in(t / f);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(leakedNumber(text), "") << f << " holds the hidden case's data:\n" << text;
        EXPECT_FALSE(has(text, "the teacher's case")) << f << ": the hidden case's name";
    }
}

TEST(GradePlatformsCliTest, AKernelThatDoesNotCompileIsNotGradableOnPrairieLearn) {
    TempDir t("compile");
    fs::create_directories(t.path / "class");
    std::ofstream(t / "class/student.comp") << "#version 450\nlayout(local_size_x_id = 0) in;\n"
                                               "void main() {\n    undeclared = 1u;\n}\n";
    CliRun r =
        vkpuzzles("--puzzles " + hiddenPack() + " --color never grade hidden-shift " + t / "class" +
                  " --prairielearn " + t / "pl.json" + " --github-result " + t / "gh.json");
    ASSERT_EQ(r.exit, 0) << r.out;
    nlohmann::json pl = readJson(t / "pl.json");
    EXPECT_EQ(pl["gradable"], false);
    ASSERT_EQ(pl["format_errors"].size(), 1u);
    EXPECT_TRUE(has(pl["format_errors"][0], "does not compile: student.comp:4: "))
        << pl["format_errors"];
    nlohmann::json gh = readJson(t / "gh.json");
    EXPECT_EQ(gh["status"], "fail");
    for (const auto& test : gh["tests"]) {
        EXPECT_DOUBLE_EQ(test["score"].get<double>(), 0);
        EXPECT_TRUE(has(test["message"], "does not compile: student.comp:4: ")) << test;
    }
}

// Each platform grades one student at a time: a folder of several, or a share of a class, is
// refused before anything is graded.
TEST(GradePlatformsCliTest, AFolderOfSeveralSubmissionsIsRefused) {
    TempDir t("several");
    fs::create_directories(t.path / "class");
    for (const char* k : {"no-guard.comp", "wrong-values.comp"})
        fs::copy_file(hiddenPack() + "/kernels/" + k, t.path / "class" / k);
    for (const char* option : {"--prairielearn", "--github-result"}) {
        CliRun r = vkpuzzles("--puzzles " + hiddenPack() + " --color never grade hidden-shift " +
                             t / "class" + " " + option + " " + t / "out.json");
        EXPECT_EQ(r.exit, 2) << r.out;
        EXPECT_TRUE(has(r.out, std::string(option) + " writes the results of one submission"))
            << r.out;
        EXPECT_TRUE(has(r.out, "holds 2: no-guard, wrong-values")) << r.out;
        EXPECT_FALSE(has(r.out, "grading")) << r.out;
        CliRun shard =
            vkpuzzles("--puzzles " + hiddenPack() + " grade hidden-shift " + t / "class" +
                      " --shard 1/2 --json " + t / "s.json " + option + " " + t / "out.json");
        EXPECT_EQ(shard.exit, 2) << shard.out;
        EXPECT_TRUE(has(shard.out, "splits a class")) << shard.out;
    }
    EXPECT_FALSE(fs::exists(t.path / "out.json"));
}

} // namespace
} // namespace vkp
