// Verdicts that hold at every subgroup size, end to end: `check` runs a kernel that uses
// subgroups on lavapipe at 4, 8 and 16 lanes and at 32 and 64 emulated (the device pinned at 8
// lanes here) and prints each
// size as it ends; grade takes the points of a case wrong at another size; pack check refuses an
// official solution that assumes a size. Real binary, real workers.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

// The device's own size pinned at lavapipe's usual 8 lanes, whatever this CPU's width.
CliRun vkpuzzles(const std::string& args, bool withStderr = true) {
    return test::runCommand("LP_NATIVE_VECTOR_WIDTH=256 " + test::binaryPath() + " " + args +
                            (withStderr ? " 2>&1" : " 2>/dev/null"));
}

// The same with more variables set (VAR=value ...).
CliRun vkpuzzlesWith(const std::string& env, const std::string& args) {
    return test::runCommand(env + " LP_NATIVE_VECTOR_WIDTH=256 " + test::binaryPath() + " " + args +
                            " 2>&1");
}

std::string kernel(const std::string& name) {
    return test::sourceDir() + "/tests/data/subgroup-sizes/" + name + ".comp";
}

// Each file's folders apart from the others'.
struct TempDir : test::TempDir {
    explicit TempDir(const std::string& name) : test::TempDir("sizes-cli-" + name) {}
};

TEST(CliSubgroupSizesTest, CheckNamesTheSizesAKernelIsRightAndWrongWith) {
    CliRun r =
        vkpuzzles("check reduce-subgroup " + kernel("reduce-assumes-8-lanes") + " --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "and on lavapipe with 4, 16, 32 and 64 lanes (32 and 64 emulated)"))
        << r.out; // said first
    EXPECT_TRUE(has(r.out, "  with 4 lanes")) << r.out;
    EXPECT_TRUE(has(r.out, "  with 16 lanes")) << r.out;
    EXPECT_TRUE(has(r.out, "  with 64 lanes (emulated)")) << r.out;
    EXPECT_TRUE(has(r.out, "0 of 5 cases pass on llvmpipe")) << r.out;
    EXPECT_TRUE(has(r.out, "case 1: result[0]: expected -5, got ")) << r.out;
    EXPECT_TRUE(has(r.out, "right with 8 lanes, wrong with 4, 16, 32 and 64 (32 and 64 emulated): "
                           "does the kernel assume a subgroup size?"))
        << r.out;
    // (With 16 lanes a case may pass by luck: the kernel then reads shared cells never written.)
    EXPECT_TRUE(has(r.out, "5 of 5 cases pass with 8 lanes; 0 of 5 with 4, ")) << r.out;
    // Asked for the device's own size only: it passes there.
    CliRun own = vkpuzzles("check reduce-subgroup " + kernel("reduce-assumes-8-lanes") +
                           " --own-subgroup-size --color never");
    EXPECT_EQ(own.exit, 0) << own.out;
    EXPECT_FALSE(has(own.out, "with 4 lanes")) << own.out;
    EXPECT_TRUE(has(own.out, "5 of 5 cases pass\n")) << own.out;
}

TEST(CliSubgroupSizesTest, JsonHasEverySizeAndTheVerdict) {
    CliRun r =
        vkpuzzles("check scan-subgroup " + kernel("scan-lane-from-local-id") + " --json", false);
    EXPECT_EQ(r.exit, 1) << r.out;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["pass"], false);
    EXPECT_EQ(doc["cases_passed"], 8);
    EXPECT_EQ(doc["lanes"], 8);
    ASSERT_EQ(doc["other_subgroup_sizes"].size(), 4u) << r.out;
    EXPECT_EQ(doc["other_subgroup_sizes"][0]["lanes"], 4);
    EXPECT_EQ(doc["other_subgroup_sizes"][1]["lanes"], 16);
    EXPECT_EQ(doc["other_subgroup_sizes"][2]["lanes"], 32);
    EXPECT_EQ(doc["other_subgroup_sizes"][3]["lanes"], 64);
    EXPECT_EQ(doc["other_subgroup_sizes"][1]["emulated"], false);
    EXPECT_EQ(doc["other_subgroup_sizes"][3]["emulated"], true);
    for (const auto& s : doc["other_subgroup_sizes"]) {
        EXPECT_EQ(s["pass"], false);
        EXPECT_EQ(s["cases_run"], 8);
        EXPECT_TRUE(s["error"].is_null());
        ASSERT_FALSE(s["failures"].empty());
        EXPECT_TRUE(s["failures"][0]["detail"].get<std::string>().find("expected") !=
                    std::string::npos);
    }
    EXPECT_EQ(doc["subgroup_size_verdict"],
              "right with 8 lanes, wrong with 4, 16, 32 and 64 (32 and 64 emulated): does the "
              "kernel assume a subgroup size?");
    // The official solution: every size passes, and no verdict to tell.
    CliRun solution = vkpuzzles("check scan-subgroup --solution --json", false);
    EXPECT_EQ(solution.exit, 0) << solution.out;
    auto ok = nlohmann::json::parse(solution.out);
    for (const auto& s : ok["other_subgroup_sizes"])
        EXPECT_EQ(s["pass"], true) << solution.out;
    EXPECT_EQ(ok["subgroup_size_verdict"], "");
}

// Cases whose workgroups are one subgroup where they ran and at a larger size are not run there
// again: the line says so, and --json lists them with the size they ran at.
TEST(CliSubgroupSizesTest, CasesCarriedFromTheSizeTheyRanAtAreNamed) {
    CliRun r = vkpuzzles("check scan-subgroup " + kernel("scan-without-size") + " --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "8 of 8 cases pass on llvmpipe")) << r.out;
    EXPECT_TRUE(has(r.out, "; case 8 as with 8 lanes (a workgroup is one subgroup at both sizes)"))
        << r.out; // at 4 lanes
    EXPECT_TRUE(has(r.out, "; cases 1, 2 and 8 as with 8 lanes (a workgroup is one subgroup at "
                           "both sizes)"))
        << r.out; // at 16, 32 and 64
    CliRun json =
        vkpuzzles("check scan-subgroup " + kernel("scan-without-size") + " --json", false);
    auto doc = nlohmann::json::parse(json.out);
    ASSERT_EQ(doc["other_subgroup_sizes"].size(), 4u) << json.out;
    const auto& at4 = doc["other_subgroup_sizes"][0];
    EXPECT_EQ(at4["lanes"], 4);
    EXPECT_EQ(at4["cases_run"], 8);
    EXPECT_EQ(at4["cases_carried"], nlohmann::json::parse(R"([{"case": 8, "lanes": 8}])"));
    EXPECT_EQ(doc["other_subgroup_sizes"][3]["cases_carried"].size(), 3u) << json.out;
}

// A worker process that dies at another size has not answered: the cases it took run once more in
// a new one, and only a case that crashes that one too is named, as not judged there, never as a
// size the kernel is wrong with. ($VKPUZZLES_TEST_WORKER=crash-at-4 crashes every worker with 4
// lanes, the emulated sizes' included; with a mark file, only the first job.)
TEST(CliSubgroupSizesTest, AWorkerCrashAtASizeIsRunAgainAndNeverCalledWrong) {
    TempDir dir("crash");
    const std::string solution = test::puzzleDir() + "/27-reduce-subgroup/solution.comp";
    const fs::path mark = dir.path / "crashed-once";
    CliRun once = vkpuzzlesWith("VKPUZZLES_TEST_WORKER=crash-at-4 VKPUZZLES_TEST_WORKER_MARK=" +
                                    mark.string(),
                                "check reduce-subgroup " + solution + " --color never");
    EXPECT_TRUE(fs::exists(mark)) << once.out; // it did crash
    EXPECT_EQ(once.exit, 0) << once.out;
    EXPECT_TRUE(has(once.out, "5 of 5 cases pass with 8 lanes; 5 of 5 with 4, 5 of 5 with 16, "))
        << once.out;

    CliRun always = vkpuzzlesWith("VKPUZZLES_TEST_WORKER=crash-at-4",
                                  "check reduce-subgroup " + solution + " --color never");
    EXPECT_EQ(always.exit, 1) << always.out; // no verdict at 4 lanes: no pass either
    // The emulated sizes run on 4-lane workers, so the hook crashes them too.
    EXPECT_TRUE(has(always.out, "right with 8 and 16 lanes; not judged with 4, 32 and 64 lanes (32 "
                                "and 64 emulated): case 1 the worker process running the kernel "
                                "crashed"))
        << always.out;
    EXPECT_TRUE(has(always.out, "crashed again when run a second time in a new one")) << always.out;
    EXPECT_FALSE(has(always.out, "does the kernel assume")) << always.out;
    EXPECT_FALSE(has(always.out, "case 1: case 1")) << always.out; // the error names its case
}

TEST(CliSubgroupSizesTest, GradeTakesThePointsOfACaseWrongAtAnotherSize) {
    TempDir dir("grade");
    fs::copy_file(test::puzzleDir() + "/27-reduce-subgroup/solution.comp", dir.path / "alice.comp");
    fs::copy_file(kernel("reduce-assumes-8-lanes"), dir.path / "bob.comp");
    CliRun r = vkpuzzles("grade reduce-subgroup " + dir.path.string() + " --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "alice  5/5")) << r.out;
    EXPECT_TRUE(has(r.out, "bob    0/5")) << r.out;
    EXPECT_TRUE(has(r.out, "right with 8 lanes, wrong with 4 lanes: result[0]")) << r.out;
    CliRun own = vkpuzzles("grade reduce-subgroup " + dir.path.string() +
                           " --own-subgroup-size --color never");
    EXPECT_TRUE(has(own.out, "bob    5/5")) << own.out;
}

TEST(CliSubgroupSizesTest, PackCheckRefusesAnOfficialSolutionThatAssumesASize) {
    TempDir dir("pack");
    fs::path folder = dir.path / "27-reduce-subgroup";
    fs::copy(test::puzzleDir() + "/27-reduce-subgroup", folder, fs::copy_options::recursive);
    fs::remove(folder / "walkthrough.toml"); // its lines are the real solution's
    fs::copy_file(kernel("reduce-assumes-8-lanes"), folder / "solution.comp",
                  fs::copy_options::overwrite_existing);
    CliRun r = vkpuzzles("pack check " + dir.path.string() + " --no-mutants --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "the official solution is right with 8 lanes, wrong with 4, 16, 32 "
                           "and 64 (32 and 64 emulated): does the kernel assume a subgroup size? "
                           "(with 4 lanes, case 1: "))
        << r.out;
}

} // namespace
} // namespace vkp
