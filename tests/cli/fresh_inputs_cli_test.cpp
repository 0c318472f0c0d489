// Fresh random inputs, end to end: `check` runs the cases with random fills again on data from a
// fresh seed and prints it; `--seed N` draws the same data again; a kernel that only knows the
// fixed data's answers fails there. A pack of one puzzle written for the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;
using test::vkpuzzlesStdout;

std::string kernel(const std::string& body) {
    return "#version 450\nlayout(local_size_x_id = 0) in;\n"
           "layout(set = 0, binding = 0) readonly buffer A { int a[]; };\n"
           "layout(set = 0, binding = 1) buffer Result { int result[]; };\n"
           "void main() {\n    uint i = gl_GlobalInvocationID.x;\n    " +
           body + "\n}\n";
}

// tests/data/fresh-inputs: add ten; case 1 written out, case 2 random (seed 5). Kernels a test
// writes go to a folder of its own.
struct Pack {
    fs::path dir = fs::temp_directory_path() / ("vkp-fresh-" + std::to_string(getpid()));
    Pack() {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Pack() { fs::remove_all(dir); }
    std::string args() const {
        return "--puzzles " + test::sourceDir() + "/tests/data/fresh-inputs ";
    }
    std::string file(const std::string& name, const std::string& text) const {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
};

TEST(CliFreshInputsTest, TheSeedIsPrintedAndReplaysTheSameData) {
    Pack pack;
    CliRun r = vkpuzzles(pack.args() + "check add --solution --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "with fresh random inputs (--seed ")) << r.out;
    EXPECT_TRUE(has(r.out, "): 1 case passes")) << r.out;
    CliRun a = vkpuzzlesStdout(pack.args() + "check add --solution --seed 31 --json");
    CliRun b = vkpuzzlesStdout(pack.args() + "check add --solution --seed 31 --json");
    auto da = nlohmann::json::parse(a.out), db = nlohmann::json::parse(b.out);
    EXPECT_EQ(da["fresh_inputs"]["seed"], 31);
    EXPECT_EQ(da["fresh_inputs"]["pass"], true);
    EXPECT_EQ(da["fresh_inputs"]["cases_run"], 1);
    EXPECT_EQ(da["fresh_inputs"], db["fresh_inputs"]);
}

// The memorised answers of the fixed random data, read from `run --json`.
TEST(CliFreshInputsTest, AKernelThatKnowsOnlyTheFixedAnswersFails) {
    Pack pack;
    auto fixed = nlohmann::json::parse(
        vkpuzzlesStdout(pack.args() + "run add --solution --case 2 --no-trace --json").out);
    std::string known;
    for (const auto& v : fixed["cases"][0]["outputs"][0]["expected"]["values"])
        known += (known.empty() ? "" : ", ") + std::to_string(v.get<int>());
    std::string memo =
        pack.file("memo.comp", kernel("const int known[8] = int[8](" + known +
                                      ");\n    result[i] = a[0] == 1 ? a[i] + 10 : known[i];"));
    CliRun r = vkpuzzles(pack.args() + "check add " + memo + " --seed 4242 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "  case 2  ")) << r.out;
    EXPECT_TRUE(has(r.out, "with fresh random inputs (--seed 4242)")) << r.out;
    EXPECT_TRUE(has(r.out, "case 2: result[0]: expected ")) << r.out;
    EXPECT_TRUE(has(r.out, "right on the puzzle's fixed data, wrong on other random data: --seed "
                           "4242 draws the same data again"))
        << r.out;
    EXPECT_TRUE(has(r.out, "2 of 2 cases pass; 0 of 1 with fresh random inputs")) << r.out;
}

// A kernel wrong on the fixed cases is not "right on the puzzle's fixed data".
TEST(CliFreshInputsTest, AKernelWrongEverywhereIsNotCalledRightOnTheFixedData) {
    Pack pack;
    std::string wrong = pack.file("wrong.comp", kernel("result[i] = a[i] + 9;"));
    CliRun r = vkpuzzles(pack.args() + "check add " + wrong + " --seed 4242 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "wrong on other random data too: --seed 4242 draws the same data again"))
        << r.out;
    EXPECT_FALSE(has(r.out, "right on the puzzle's fixed data")) << r.out;
}

} // namespace
} // namespace vkp
