// `vkpuzzles pack check DIR` end to end on tests/data/packcheck/weak: a puzzle whose one case lets
// a local-id kernel through, and a puzzle that does not load.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "base/text_file.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;
using test::vkpuzzlesStdout;

std::string weakPack() {
    return test::sourceDir() + "/tests/data/packcheck/weak";
}

TEST(PackCheckCli, ReportsTheSurvivorWithItsLineAndAdvice) {
    CliRun r = vkpuzzles("pack check " + weakPack() + " --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "one-block")) << r.out;
    EXPECT_TRUE(has(r.out, "survived: solution.comp:7  gl_GlobalInvocationID -> "
                           "gl_LocalInvocationID"))
        << r.out;
    EXPECT_TRUE(has(r.out, "uses gl_LocalInvocationID for gl_GlobalInvocationID on line 7: add "
                           "a case with more than one workgroup"))
        << r.out;
    EXPECT_TRUE(has(r.out, "every case launches one workgroup")) << "the weak-case warning";
    EXPECT_TRUE(has(r.out, "kill rate") || has(r.out, "killed (")) << r.out;
}

TEST(PackCheckCli, ALoadErrorNamesItsLineAndTheOthersAreStillChecked) {
    CliRun r = vkpuzzles("pack check " + weakPack() + " --color never --no-mutants");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "02-broken/puzzle.toml:24")) << r.out;
    EXPECT_TRUE(has(r.out, "one-block")) << "the other puzzle is still checked: " << r.out;
}

TEST(PackCheckCli, JsonListsEveryMutantWithItsFate) {
    CliRun r = vkpuzzlesStdout("pack check " + weakPack() + " --json");
    EXPECT_EQ(r.exit, 1);
    auto j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j["pass"]);
    ASSERT_EQ(j["load_errors"].size(), 1u);
    EXPECT_EQ(j["load_errors"][0]["where"]["line"], 24);
    ASSERT_EQ(j["puzzles"].size(), 1u);
    const auto& p = j["puzzles"][0];
    EXPECT_EQ(p["slug"], "one-block");
    EXPECT_TRUE(p["solution_problem"].is_null());
    EXPECT_TRUE(p["starter_problem"].is_null());
    bool localSurvives = false, someKilled = false;
    for (const auto& m : p["mutants"]) {
        if (m["kind"] == "local-for-global" && m["fate"] == "survived") {
            localSurvives = true;
            EXPECT_EQ(m["line"], 7);
            EXPECT_EQ(m["line_text"], "uint i = gl_GlobalInvocationID.x;");
            EXPECT_TRUE(has(m["advice"].get<std::string>(), "more than one workgroup"));
        }
        someKilled = someKilled || m["fate"] == "killed";
    }
    EXPECT_TRUE(localSurvives) << p.dump(1);
    EXPECT_TRUE(someKilled) << "a[i] + 10.0 -> a[i] * 10.0 fails the case";
    EXPECT_GT(p["survived"].get<int>(), 0);
    EXPECT_LT(p["kill_rate"].get<double>(), 1.0);
}

TEST(PackCheckCli, OnePuzzleFolderIsCheckedAlone) {
    CliRun r = vkpuzzles("pack check " + weakPack() + "/01-one-block --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "survived: solution.comp:7")) << r.out;
    EXPECT_TRUE(has(r.out, "1 puzzle checked, 0 ok")) << r.out;
    EXPECT_FALSE(has(r.out, "02-broken")) << "the folder beside it is not checked: " << r.out;
    r = vkpuzzles("pack check " + weakPack() + "/02-broken --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "02-broken/puzzle.toml:24")) << r.out;
}

// The device's subgroup width, as `devices --json` reports the selected device.
uint32_t subgroupSize() {
    auto j = nlohmann::json::parse(vkpuzzlesStdout("devices --json").out);
    for (const auto& d : j["devices"])
        if (d["index"] == j["selected"]) return d["subgroup_size"].get<uint32_t>();
    return 0;
}

// An equivalent mutant listed for one subgroup width applies on a device of that width only;
// on another the mutant runs (here: survives) and the entry is not called stale.
TEST(PackCheckCli, AnEquivalentForOneSubgroupWidthAppliesOnThatWidthOnly) {
    uint32_t lanes = subgroupSize();
    ASSERT_GT(lanes, 0u);
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("vkp-pack-lanes-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::copy(weakPack() + "/01-one-block", dir);
    auto listFor = [&](uint32_t width) {
        std::ofstream(dir / "mutants.toml")
            << "[[equivalent]]\nkind = \"local-for-global\"\n"
               "line = \"uint i = gl_GlobalInvocationID.x;\"\n"
               "before = \"gl_GlobalInvocationID\"\nafter = \"gl_LocalInvocationID\"\n"
               "subgroup_size = "
            << width << "\nwhy = \"a test of subgroup_size\"\n";
    };
    listFor(lanes);
    CliRun r = vkpuzzles("pack check " + dir.string() + " --color never");
    EXPECT_FALSE(has(r.out, "survived: solution.comp:7")) << r.out;
    EXPECT_TRUE(has(r.out, "1 equivalent")) << r.out;
    listFor(lanes * 2);
    r = vkpuzzles("pack check " + dir.string() + " --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "survived: solution.comp:7")) << r.out;
    EXPECT_FALSE(has(r.out, "matches no mutant")) << r.out;
    fs::remove_all(dir);
}

// A teacher's check before class covers the walkthrough the learners will play: one that does
// not load, or whose steps do not fit the official solution's traced run, fails the check at
// its line, as `vkpuzzles walkthrough` would refuse it.
TEST(PackCheckCli, ABrokenWalkthroughFailsTheCheckAtItsLine) {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("vkp-pack-walk-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::copy(weakPack() + "/01-one-block", dir);
    auto check = [&](const std::string& walkthrough) {
        std::ofstream(dir / "walkthrough.toml") << walkthrough;
        return vkpuzzles("pack check " + dir.string() + " --no-mutants --color never");
    };
    const std::string head = "title = \"Adding ten\"\ncase = 1\n[[steps]]\ntitle = \"One add\"\n"
                             "text = \"Each thread adds ten to its element.\"\n";
    CliRun fine = check(head + "lines = [9]\nthreads = [[3]]\n");
    EXPECT_EQ(fine.exit, 0) << fine.out;
    CliRun pastTheEnd = check(head + "lines = [99]\n");
    EXPECT_EQ(pastTheEnd.exit, 1) << pastTheEnd.out;
    EXPECT_TRUE(has(pastTheEnd.out, "error: " + (dir / "walkthrough.toml").string() + ":"))
        << pastTheEnd.out;
    EXPECT_TRUE(has(pastTheEnd.out, "99")) << pastTheEnd.out;
    CliRun notToml = check("title = \"unfinished\nsteps");
    EXPECT_EQ(notToml.exit, 1) << notToml.out;
    EXPECT_TRUE(has(notToml.out, "walkthrough.toml:1:")) << notToml.out;
    fs::remove_all(dir);
}

// The official solution is shown to learners as the way to write it: a compiler warning in it
// fails the check. The starter must fail every case on its values: one that passes a case, or
// whose trace finds a hazard the learner did not write, fails the check with the case named.
TEST(PackCheckCli, TheSolutionAndTheStarterAreHeldToWhatLearnersSee) {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("vkp-pack-starter-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::copy(weakPack() + "/01-one-block", dir);
    const std::string solution = *readTextFile((dir / "solution.comp").string());
    auto write = [&](const std::string& file, const std::string& text) {
        std::ofstream(dir / file) << text;
    };
    auto check = [&] {
        return vkpuzzles("pack check " + dir.string() + " --no-mutants --color never");
    };
    auto replaced = [](std::string text, const std::string& from, const std::string& to) {
        text.replace(text.find(from), from.size(), to);
        return text;
    };

    write("solution.comp", replaced(solution, "#version 450\n",
                                    "#version 450\n#extension GL_VKP_no_such_thing : warn\n"));
    CliRun warned = check();
    EXPECT_EQ(warned.exit, 1) << warned.out;
    EXPECT_TRUE(has(warned.out, "error: the official solution compiles with a warning: "))
        << warned.out;
    EXPECT_TRUE(has(warned.out, "solution.comp:2:")) << warned.out;
    write("solution.comp", solution);
    EXPECT_EQ(check().exit, 0) << "the puzzle as it was passes";

    // A second case of two workgroups: a starter on the local id passes case 1 only.
    std::ofstream(dir / "puzzle.toml", std::ios::app)
        << "\n[[cases]]\nname = \"two workgroups\"\nworkgroup_size = [4]\nworkgroups = [2]\n"
           "inputs.a = { shape = [8], fill = \"iota\", start = 2, step = 5 }\n"
           "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 10 }\n";
    write("starter.comp", replaced(solution, "gl_GlobalInvocationID", "gl_LocalInvocationID"));
    CliRun passesOne = check();
    EXPECT_EQ(passesOne.exit, 1) << passesOne.out;
    EXPECT_TRUE(has(passesOne.out, "error: the starter passes case 1: a learner sees it pass "
                                   "before writing anything"))
        << passesOne.out;

    write("starter.comp", replaced(solution, "result[i] = a[i] + 10.0;", "result[i + 1] = a[i];"));
    CliRun hazard = check();
    EXPECT_EQ(hazard.exit, 1) << hazard.out;
    EXPECT_TRUE(has(hazard.out, "error: the starter's trace has a finding of its own in case 1: "
                                "out of bounds: thread 7 writes result[8]"))
        << hazard.out;

    write("starter.comp", solution);
    CliRun passesAll = check();
    EXPECT_EQ(passesAll.exit, 1) << passesAll.out;
    EXPECT_TRUE(has(passesAll.out, "the starter passes every case: a learner has nothing to do"))
        << passesAll.out;
    fs::remove_all(dir);
}

// A detective puzzle's starter is the bug of a report: it may pass a case and fail on a hazard of
// its own, and only a starter that passes every case leaves the learner nothing to find.
TEST(PackCheckCli, ADetectiveStarterIsTheBugItMayPassACaseOrFailOnAHazard) {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("vkp-pack-detective-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::copy(weakPack() + "/01-one-block", dir);
    const std::string solution = *readTextFile((dir / "solution.comp").string());
    std::string toml = *readTextFile((dir / "puzzle.toml").string());
    size_t track = toml.find("track = ");
    ASSERT_NE(track, std::string::npos);
    toml.replace(track, toml.find('\n', track) - track, "track = \"detective\"");
    std::ofstream(dir / "puzzle.toml")
        << toml
        << "\n[[cases]]\nname = \"two workgroups\"\nworkgroup_size = [4]\nworkgroups = [2]\n"
        << "inputs.a = { shape = [8], fill = \"iota\", start = 2, step = 5 }\n"
        << "expected.result = { op = \"add_scalar\", args = [\"a\"], scalar = 10 }\n";
    auto starter = [&](const std::string& from, const std::string& to) {
        std::string text = solution;
        text.replace(text.find(from), from.size(), to);
        std::ofstream(dir / "starter.comp") << text;
        return vkpuzzles("pack check " + dir.string() + " --no-mutants --color never");
    };
    CliRun passesOne = starter("gl_GlobalInvocationID", "gl_LocalInvocationID");
    EXPECT_EQ(passesOne.exit, 0) << passesOne.out;
    CliRun hazard = starter("result[i] = a[i] + 10.0;", "result[i + 1] = a[i];");
    EXPECT_EQ(hazard.exit, 0) << hazard.out;
    CliRun passesAll = starter("#version 450", "#version 450");
    EXPECT_EQ(passesAll.exit, 1) << passesAll.out;
    EXPECT_TRUE(has(passesAll.out, "the starter passes every case: a learner has nothing to do"))
        << passesAll.out;
    fs::remove_all(dir);
}

// What an author gets wrong in mutants.toml is named: a kernel the puzzle does not have (an
// error), a copy of an entry (a warning); and two survivors that make the same change on one
// line are told apart by the line after the change, with the `mutated` that lists one.
TEST(PackCheckCli, MutantsFileMistakesAndTwinSurvivorsAreNamed) {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("vkp-pack-twins-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::copy(weakPack() + "/01-one-block", dir);
    std::ofstream(dir / "solution.comp")
        << "#version 450\nlayout(local_size_x_id = 0) in;\n"
           "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
           "layout(set = 0, binding = 1) buffer Result { float result[]; };\n\n"
           "void main() {\n"
           "    uint i = gl_GlobalInvocationID.x + 0u * gl_GlobalInvocationID.y;\n"
           "    if (i < uint(a.length())) result[i] = a[i] + 10.0;\n}\n";
    const std::string entry = "[[equivalent]]\nkind = \"comparison\"\n"
                              "line = \"if (i < uint(a.length())) result[i] = a[i] + 10.0;\"\n"
                              "before = \"<\"\nafter = \"<=\"\nwhy = \"a test\"\n";
    std::ofstream(dir / "mutants.toml") << entry << "\n"
                                        << entry << "\n"
                                        << entry << "kernel = \"nope\"\n"; // lines 1, 8, 15
    CliRun r = vkpuzzles("pack check " + dir.string() + " --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "mutants.toml:15:1: no kernel named 'nope' (one-block's: kernel"))
        << r.out;
    EXPECT_TRUE(has(r.out, "mutants.toml:8:1: the same entry as line 1: remove one")) << r.out;
    EXPECT_TRUE(has(r.out, "-> uint i = gl_LocalInvocationID.x + 0u * gl_GlobalInvocationID.y;"))
        << r.out;
    EXPECT_TRUE(has(r.out, "add mutated = \"uint i = gl_GlobalInvocationID.x + 0u * "
                           "gl_LocalInvocationID.y;\""))
        << r.out;
    fs::remove_all(dir);
}

// An author hears that `vkpuzzles bench` times a puzzle only at one N (a grid written as numbers),
// or not at all (the case bench_case names is written out value by value): warnings, not failures.
TEST(PackCheckCli, APuzzleTheBenchmarkCannotScaleIsWarnedNotFailed) {
    std::string fixed = test::sourceDir() + "/tests/data/bench/02-fixed-grid";
    CliRun r = vkpuzzles("pack check " + fixed + " --no-mutants --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "02-fixed-grid/puzzle.toml:22:1: case 1 (the benchmark's) has workgroup "
                           "counts that do not follow N, so `vkpuzzles bench` times it only as it "
                           "is, at N = 20: write them as expressions of N"))
        << r.out;
    // The same puzzle naming a case whose input is written out: the benchmark cannot run.
    auto dir = std::filesystem::temp_directory_path() /
               ("vkp-bench-lint-" + std::to_string(getpid())) / "02-fixed-grid";
    std::filesystem::create_directories(dir.parent_path());
    std::filesystem::copy(fixed, dir, std::filesystem::copy_options::recursive);
    std::string toml = *readTextFile((dir / "puzzle.toml").string());
    toml.replace(toml.find("workgroups = [3]"), 16, "workgroups = [\"ceil_div(N, WG)\"]");
    toml.replace(toml.find("inputs.a = {"),
                 toml.find('\n', toml.find("inputs.a = {")) - toml.find("inputs.a = {"),
                 "inputs.a = { shape = [3], values = [1, 2, 3] }");
    std::ofstream(dir / "puzzle.toml") << "bench_case = 1\n" << toml;
    CliRun named = vkpuzzles("pack check " + dir.string() + " --no-mutants --color never");
    std::filesystem::remove_all(dir.parent_path());
    EXPECT_EQ(named.exit, 0) << named.out;
    EXPECT_TRUE(has(named.out, ": `vkpuzzles bench` cannot time this puzzle: case 1 of fixed-grid "
                               "cannot be generated at another N: 'a' is written out value by "
                               "value"))
        << named.out;
}

TEST(PackCheckCli, NotAFolderIsAUsageError) {
    CliRun r = vkpuzzles("pack check /nonexistent-pack-folder");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "is not a folder")) << r.out;
    r = vkpuzzles("pack lint " + weakPack());
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "vkpuzzles pack check DIR")) << r.out;
}

} // namespace
} // namespace vkp
