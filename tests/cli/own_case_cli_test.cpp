// `vkpuzzles run PUZZLE K.comp --input ...`: a learner's own case, on the real device (lavapipe).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "puzzle/puzzle_loader.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;
using test::vkpuzzlesStdout;

std::string solution(const std::string& folder) {
    return test::puzzleDir() + "/" + folder + "/solution.comp";
}
std::string wrong(const char* name) {
    return test::sourceDir() + "/tests/data/wrong/" + name;
}

TEST(OwnCaseCli, ACorrectKernelPassesTheLearnersCase) {
    CliRun r = vkpuzzles("run zip " + solution("02-zip") +
                         " --input a=1,2,3 --input 'b=10 20 30' --workgroup-size 3 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "your case, from case 1")) << r.out;
    EXPECT_TRUE(has(r.out, "(3) x (1) = 3 threads")) << r.out;
    EXPECT_TRUE(has(r.out, "result expected [3]")) << r.out;
    EXPECT_TRUE(has(r.out, "11  22  33")) << r.out;
    EXPECT_TRUE(has(r.out, "  pass")) << r.out;
}

TEST(OwnCaseCli, AWrongKernelShowsItsMismatches) {
    CliRun r =
        vkpuzzles("run zip " + wrong("zip-index-off-by-one.comp") +
                  " --input a=1,2,3,4 --input b=10,20,30,40 --workgroup-size 4 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "result actual [4]")) << r.out;
    EXPECT_TRUE(has(r.out, "21* ")) << r.out; // a[0] + b[1]
    EXPECT_TRUE(has(r.out, "FAIL")) << r.out;
}

TEST(OwnCaseCli, SizesFollowTheInputAndTheJsonMarksTheCase) {
    // scan-blocks' workgroup counts and scratch are expressions of N: 100 elements need 13 tiles
    // of 8.
    CliRun r = vkpuzzlesStdout("run scan-blocks --solution --input 'a={ shape = [100], fill = "
                               "\"random\", seed = 5, min = 0, max = 9 }' --json");
    EXPECT_EQ(r.exit, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    const auto& c = j["cases"][0];
    EXPECT_TRUE(c["own"].get<bool>());
    EXPECT_TRUE(c["pass"].get<bool>());
    EXPECT_EQ(c["outputs"][0]["checked"], true);
    EXPECT_EQ(c["outputs"][0]["actual"]["shape"][0], 100);
}

// An input the learner leaves alone whose size follows the first input's (segmented-scan's
// flags, shape ["N"]) follows the learner's input: 3 elements give 3 flags, not case 2's 150.
TEST(OwnCaseCli, InputsWhoseSizeFollowsNFollowTheLearnersInput) {
    CliRun r = vkpuzzlesStdout("run segmented-scan --solution --input a=1,2,3 --case 2 --json");
    EXPECT_EQ(r.exit, 0) << r.out;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r.out;
    EXPECT_TRUE(j["cases"][0]["pass"].get<bool>()) << r.out;
    EXPECT_EQ(j["cases"][0]["outputs"][0]["actual"]["shape"][0], 3);
}

TEST(OwnCaseCli, HandWrittenExpectedValuesAreNotInventedForALearnersCase) {
    CliRun r =
        vkpuzzles("run compact " + solution("22-compact") + " --input a=5,6,7,8 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "result expected: none")) << r.out;
    EXPECT_TRUE(has(r.out, "so your own case has no expected output")) << r.out;
    EXPECT_TRUE(has(r.out, "result actual [4]")) << r.out;
    EXPECT_TRUE(has(r.out, "ran, not checked")) << r.out;
}

TEST(OwnCaseCli, BadOptionsAreNamedWithWhatIsExpected) {
    auto error = [](const std::string& args) {
        CliRun r = vkpuzzles("run zip " + solution("02-zip") + " " + args + " --color never");
        EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
        return r.out;
    };
    EXPECT_TRUE(
        has(error("--input c=1"), "--input c: no buffer named 'c' in zip (its inputs: a, b)"));
    EXPECT_TRUE(has(error("--input result=1,2"), "--input result: 'result' is an output"));
    EXPECT_TRUE(has(error("--input a=1,two"), "--input a: 'two' (value 2) is not a float"));
    EXPECT_TRUE(has(error("--input a"), "--input needs NAME=VALUE, e.g. --input a=1,2,3, not 'a'"));
    EXPECT_TRUE(
        has(error("--input a=1,2 --input b=1,2,3"), "these inputs do not fit 'result' = add"));
    EXPECT_TRUE(
        has(error("--workgroups 70000"),
            "--workgroups needs X, X,Y or X,Y,Z, whole numbers from 1 to 65535, not '70000'"));
    EXPECT_TRUE(has(error("--workgroup-size 64,32"),
                    "--workgroup-size: a workgroup of 2048 threads is over the limit of 1024"));
    EXPECT_TRUE(
        has(error("--set SIZE=3"), "--set SIZE: 'SIZE' is not a constant of zip (it has none)"));
    size_t zipCases = loadPuzzleSet(test::puzzleDir()).find("zip").value()->cases.size();
    std::string past = std::to_string(zipCases + 1);
    EXPECT_TRUE(has(error("--input a=1 --case " + past), "--case needs a whole number from 1 to " +
                                                             std::to_string(zipCases) + ", not '" +
                                                             past + "'"));
    CliRun other = vkpuzzles("check zip --solution --input a=1");
    EXPECT_EQ(other.exit, 2);
    EXPECT_TRUE(
        has(other.out, "--input is not an option of `vkpuzzles check`; it is for vkpuzzles run"))
        << other.out;
}

TEST(OwnCaseCli, ConstantsAndTwoDimensionalInputs) {
    CliRun r = vkpuzzles(
        "run map-2d " + solution("04-map-2d") +
        " --input 'a=1 2 3; 4 5 6; 7 8 9' --set SIZE=3 --workgroup-size 3,3 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "SIZE = 3")) << r.out;
    EXPECT_TRUE(has(r.out, "result actual [3, 3]")) << r.out;
    EXPECT_TRUE(has(r.out, "17  18  19")) << r.out;
}

} // namespace
} // namespace vkp
