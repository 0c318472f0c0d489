// Hidden cases (issue 22 item 2): every student-facing command, in text and JSON, on right and
// wrong kernels, says that the hidden case exists and whether it passes, and prints none of its
// data; --reveal-hidden (the teacher) shows it. The pack tests/data/hidden marks the hidden case:
// its input starts at 7777 (expected 7787...), it has 419 elements run by 448 threads.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

namespace fs = std::filesystem;
using test::CliRun;
using test::has;
using test::vkpuzzles;

std::string pack() {
    return test::sourceDir() + "/tests/data/hidden";
}
std::string kernel(const std::string& name) {
    return pack() + "/kernels/" + name;
}
std::string withPack(const std::string& args) {
    return "--puzzles " + pack() + " --color never " + args;
}

// The numbers of the hidden case, each a whole token of the output: the input's first values,
// the expected and a wrong kernel's values, the element count and the thread count. Tokens are
// runs of digits and dots, so a timing such as 0.4193 is not taken for 419.
const std::vector<std::string> kMarkers = {"7777", "7778", "7787", "7788", "419", "448"};

std::vector<std::string> numberTokens(const std::string& text) {
    std::vector<std::string> out;
    std::string token;
    for (char ch : text + " ") {
        if ((ch >= '0' && ch <= '9') || ch == '.') {
            token += ch;
            continue;
        }
        if (!token.empty()) out.push_back(token);
        token.clear();
    }
    return out;
}

std::string leakedMarker(const std::string& text) {
    for (const std::string& t : numberTokens(text))
        for (const std::string& m : kMarkers)
            if (t == m) return m;
    return "";
}

// Runs a student-facing command and requires that no marker of the hidden case shows.
CliRun student(const std::string& args) {
    CliRun r = vkpuzzles(withPack(args));
    EXPECT_EQ(leakedMarker(r.out), "") << "vkpuzzles " << args << " printed hidden data:\n"
                                       << r.out;
    return r;
}

nlohmann::json parsed(const CliRun& r) {
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r.out;
    return j;
}

TEST(HiddenCliTest, ListAndShowNameTheHiddenCaseWithoutItsData) {
    CliRun list = student("list");
    EXPECT_EQ(list.exit, 0) << list.out;
    EXPECT_TRUE(has(list.out, "hidden-shift")) << list.out;
    EXPECT_TRUE(has(list.out, "(4 cases, 1 hidden)")) << list.out;
    student("list --json");
    CliRun show = student("show hidden-shift");
    EXPECT_EQ(show.exit, 0) << show.out;
    EXPECT_TRUE(has(show.out, "  3. hidden by your teacher")) << show.out;
    EXPECT_TRUE(has(show.out, "  4. 5 elements")) << "the visible cases in full\n" << show.out;
    EXPECT_FALSE(has(show.out, "the teacher's case")) << "its name is hidden too\n" << show.out;
    nlohmann::json j = parsed(student("show hidden-shift --json"));
    ASSERT_EQ(j["cases"].size(), 4u) << j.dump();
    EXPECT_EQ(j["cases"][2]["hidden"], true);
    EXPECT_EQ(j["cases"][2]["points"], 3.0);
    EXPECT_TRUE(j["cases"][2]["workgroups"].is_null());
    EXPECT_TRUE(j["cases"][2]["name"].is_null());
    EXPECT_EQ(j["cases"][0]["hidden"], false);
    EXPECT_EQ(j["cases"][0]["workgroups"], nlohmann::json::array({2, 1, 1}));
    CliRun hint = student("hint hidden-shift 9");
    EXPECT_EQ(hint.exit, 0) << hint.out;
}

TEST(HiddenCliTest, CheckSaysWhetherTheHiddenCasePassesAndHowItFails) {
    CliRun right = student("check hidden-shift --solution");
    EXPECT_EQ(right.exit, 0) << right.out;
    EXPECT_TRUE(has(right.out, "case 3  hidden by your teacher")) << right.out;
    EXPECT_TRUE(has(right.out, "4 of 4 cases pass")) << right.out;

    CliRun wrong = student("check hidden-shift " + kernel("wrong-values.comp"));
    EXPECT_EQ(wrong.exit, 1) << wrong.out;
    EXPECT_TRUE(has(wrong.out, "result: wrong values")) << wrong.out;
    EXPECT_FALSE(has(wrong.out, "--case 3")) << "no command to look inside it\n" << wrong.out;

    // The extra threads of the hidden case write past the end: the kind and the kernel line.
    CliRun bounds = student("check hidden-shift " + kernel("no-guard.comp"));
    EXPECT_EQ(bounds.exit, 1) << bounds.out;
    size_t at = bounds.out.find("case 3  hidden by your teacher");
    ASSERT_NE(at, std::string::npos) << bounds.out;
    std::string hidden = bounds.out.substr(at, bounds.out.find("case 4", at) - at);
    EXPECT_TRUE(has(hidden, "FAIL")) << hidden;
    EXPECT_TRUE(has(hidden, "out of bounds: a thread used an index past the end")) << hidden;
    EXPECT_TRUE(has(hidden, "(line 12)")) << hidden;

    student("check hidden-shift --starter");
    student("check --all --solution");
    student("check --all --starter --json");
}

TEST(HiddenCliTest, CheckJsonMarksTheHiddenCaseAndLeavesItsDataOut) {
    for (const char* k : {"wrong-values.comp", "no-guard.comp"}) {
        CliRun r = student("check hidden-shift " + kernel(k) + " --json --timing");
        EXPECT_EQ(r.exit, 1) << r.out;
        nlohmann::json j = parsed(r);
        ASSERT_EQ(j["cases"].size(), 4u) << r.out;
        const nlohmann::json& c = j["cases"][2];
        EXPECT_EQ(c["hidden"], true) << c.dump();
        EXPECT_EQ(c["pass"], false) << c.dump();
        EXPECT_TRUE(c["workgroup_size"].is_null()) << c.dump();
        EXPECT_TRUE(c["gpu_ms"].is_null()) << c.dump();
        EXPECT_TRUE(c["outputs"][0]["mismatches"].empty()) << c.dump();
        EXPECT_TRUE(c["outputs"][0]["mismatch_count"].is_null()) << c.dump();
        EXPECT_TRUE(c["outputs"][0]["worst_index"].is_null()) << c.dump();
        if (std::string(k) == "no-guard.comp") {
            ASSERT_FALSE(c["findings"].empty()) << c.dump();
            EXPECT_EQ(c["findings"][0]["kind"], "out of bounds") << c.dump();
            EXPECT_TRUE(c["findings"][0]["threads"].empty()) << c.dump();
        }
    }
}

TEST(HiddenCliTest, RunAndTraceRefuseTheHiddenCase) {
    std::string k = kernel("wrong-values.comp");
    for (const std::string& args : std::vector<std::string>{
             "run hidden-shift " + k + " --case 3", "run hidden-shift " + k + " --case 3 --json",
             "trace hidden-shift " + k + " --case 3", "trace hidden-shift --solution --case 3",
             "run hidden-shift " + k + " --case 3 --input a=1,2,3"}) {
        CliRun r = student(args);
        EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
        EXPECT_TRUE(has(r.out, "case 3 of hidden-shift is hidden by your teacher")) << args << "\n"
                                                                                    << r.out;
    }
    // The visible cases stay open to both.
    EXPECT_EQ(student("run hidden-shift " + k + " --case 2").exit, 1);
    EXPECT_EQ(student("trace hidden-shift --solution --case 4 --json").exit, 0);
    EXPECT_EQ(student("run hidden-shift " + k + " --case 1 --input a=5,6").exit, 1);
}

// bench prints its case's shape: a hidden case is refused to students, as run and trace refuse it.
TEST(HiddenCliTest, BenchRefusesTheHiddenCaseUnlessRevealed) {
    const std::string args = "bench hidden-shift --solution --case 3 --n 4096 --reps 2 --warmup 0";
    CliRun r = student(args);
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "case 3 of hidden-shift is hidden by your teacher, so `bench` cannot"))
        << r.out;
    // The teacher's benchmark runs: the case's grid is written as numbers, so at its own N.
    CliRun teacher = vkpuzzles(withPack(args + " --reveal-hidden"));
    EXPECT_EQ(teacher.exit, 0) << teacher.out;
    EXPECT_FALSE(has(teacher.out, "hidden by your teacher")) << teacher.out;
    EXPECT_TRUE(has(teacher.out, "benchmarking hidden-shift at N = 419 on ")) << teacher.out;
}

TEST(HiddenCliTest, RevealHiddenShowsTheTeacherEverything) {
    CliRun check = vkpuzzles(
        withPack("check hidden-shift " + kernel("wrong-values.comp") + " --reveal-hidden"));
    EXPECT_EQ(check.exit, 1) << check.out;
    EXPECT_TRUE(has(check.out, "(hidden) workgroup (64) x (7) = 448 threads")) << check.out;
    EXPECT_TRUE(has(check.out, "expected 7787, got 7788")) << check.out;
    nlohmann::json j = parsed(vkpuzzles(withPack("check hidden-shift --solution --json "
                                                 "--reveal-hidden"),
                                        false));
    EXPECT_EQ(j["cases"][2]["hidden"], true);
    EXPECT_EQ(j["cases"][2]["workgroups"], nlohmann::json::array({7, 1, 1}));
    CliRun run = vkpuzzles(withPack("run hidden-shift --solution --case 3 --reveal-hidden"));
    EXPECT_EQ(run.exit, 0) << run.out;
    EXPECT_TRUE(has(run.out, "7777")) << run.out;
    CliRun trace = vkpuzzles(withPack("trace hidden-shift --solution --case 3 --reveal-hidden"));
    EXPECT_EQ(trace.exit, 0) << trace.out;
    EXPECT_TRUE(has(trace.out, "448 threads")) << trace.out;
}

// A walkthrough plays its case's data step by step: on a hidden case its file is refused, at the
// line that names the case.
TEST(HiddenCliTest, AWalkthroughOfAHiddenCaseIsALoaderError) {
    fs::path dir = fs::temp_directory_path() / ("vkp-hidden-walk-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::copy(pack(), dir, fs::copy_options::recursive);
    fs::path file = dir / "01-shift" / "walkthrough.toml";
    std::ofstream(file) << "title = \"The hidden case\"\ncase = 3\n\n[[steps]]\ntitle = \"One\"\n"
                           "text = \"Each thread adds 10.\"\nlines = \"10\"\n";
    CliRun r = vkpuzzles("--puzzles " + dir.string() + " --color never walkthrough hidden-shift");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, file.string() + ":2")) << r.out;
    EXPECT_TRUE(has(r.out, "case 3 is hidden")) << r.out;
    EXPECT_EQ(leakedMarker(r.out), "") << r.out;
    fs::remove_all(dir);
}

} // namespace
} // namespace vkp
