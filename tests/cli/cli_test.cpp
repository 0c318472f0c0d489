// The vkpuzzles binary end to end: commands, exit codes, text and JSON output.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "gpu/context.h"
#include "support/cli_run.h"
#include "support/crashing_kernel.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;
using test::vkpuzzlesStdout;

std::string wrong(const char* name) {
    return test::sourceDir() + "/tests/data/wrong/" + name;
}

std::string writeTemp(const std::string& name, const std::string& text) {
    std::string path = "/tmp/vkp-cli-test-" + std::to_string(getpid()) + "-" + name;
    std::ofstream(path) << text;
    return path;
}

TEST(CliTest, ListShowsTheClassicTrackInOrder) {
    CliRun r = vkpuzzles("list --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "classic track"));
    size_t map = r.out.find(" map "), matmul = r.out.find(" matmul ");
    ASSERT_NE(map, std::string::npos);
    ASSERT_NE(matmul, std::string::npos);
    EXPECT_LT(map, matmul);
}

// docs/platforms.md's matrix of what each puzzle needs of a device (the README's until issue 56)
// is the one `list --json` gives, from the official solutions' #extension lines; a puzzle that
// starts using a family shows in it.
TEST(CliTest, ThePlatformsNeedsMatrixIsTheList) {
    auto doc = nlohmann::json::parse(vkpuzzlesStdout("list --json").out);
    // Columns: the subgroup families, then the other needs (kinds of numbers, cooperative
    // matrices), each as `list --json` names it ("subgroup basic", "float16").
    const std::vector<std::string> families = {"basic",
                                               "vote",
                                               "arithmetic",
                                               "ballot",
                                               "shuffle",
                                               "shuffle relative",
                                               "clustered",
                                               "quad",
                                               "double",
                                               "int64",
                                               "int16",
                                               "float16",
                                               "int8",
                                               "16-bit storage",
                                               "8-bit storage",
                                               "int64 atomics",
                                               "cooperative matrix"};
    auto needs = [&](const nlohmann::json& p, const std::string& f) {
        bool subgroup =
            std::find(families.begin(), families.begin() + 8, f) != families.begin() + 8;
        for (const auto& n : p["needs"])
            if (n == (subgroup ? "subgroup " + f : f)) return true;
        return false;
    };
    std::vector<std::string> used;
    for (const std::string& f : families)
        if (std::any_of(doc["puzzles"].begin(), doc["puzzles"].end(),
                        [&](const nlohmann::json& p) { return needs(p, f); }))
            used.push_back(f);
    ASSERT_FALSE(used.empty()) << "some official solutions use subgroups";
    std::string table = "| puzzle |", rule = "|---|";
    for (const std::string& f : used)
        table += " " + f + " |", rule += "---|";
    table += "\n" + rule + "\n";
    for (const auto& p : doc["puzzles"]) {
        if (p["needs"].empty()) continue;
        table += "| " + std::to_string(p["number"].get<int>()) + " " +
                 p["slug"].get<std::string>() + " |";
        for (const std::string& f : used)
            table += needs(p, f) ? " x |" : "  |";
        table += "\n";
    }
    std::ifstream in(test::sourceDir() + "/docs/platforms.md");
    std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(has(page, "tests/cli/cli_test.cpp checks it against `vkpuzzles list --json` -->\n" +
                              table + "<!-- end of needs matrix -->"))
        << "docs/platforms.md's matrix should read:\n"
        << table;
}

TEST(CliTest, ShowPrintsStatementBuffersAndCases) {
    CliRun r = vkpuzzles("show 1 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "1. Map"));
    EXPECT_TRUE(has(r.out, "binding 1  result"));
    EXPECT_TRUE(has(r.out, "Test cases"));
    EXPECT_TRUE(has(r.out, "add_scalar(a, scalar = 10)")) << "the op with its parameter";
}

// A buffer name longer than the usual column (radix-sort-onesweep's `histograms`) widens it for
// every row: names never run into their type or their data.
TEST(CliTest, ShowWidensTheBufferColumnForLongNames) {
    CliRun r = vkpuzzles("show radix-sort-onesweep --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "binding 2  histograms uint  scratch 1D")) << r.out;
    EXPECT_TRUE(has(r.out, "binding 0  keys       uint  input   1D")) << r.out;
    EXPECT_TRUE(has(r.out, "       histograms [64] all 0")) << r.out;
    EXPECT_TRUE(has(r.out, "       sorted     expected [8] = sort(keys)")) << r.out;
}

TEST(CliTest, PuzzlesAreNamedByFolderSlugOrNumber) {
    for (const char* name : {"01-map", "map", "1"}) {
        CliRun r = vkpuzzles(std::string("show ") + name + " --json");
        ASSERT_EQ(r.exit, 0) << name << ": " << r.out;
        EXPECT_EQ(nlohmann::json::parse(r.out)["slug"], "map");
    }
}

TEST(CliTest, UsageErrorsExitTwoAndPointAtHelp) {
    for (const char* args : {"frobnicate", "list --no-such-option", "show no-such-puzzle",
                             "check map", "check map --case", "check map --solution --case 99",
                             "check map --solution --timeout x"}) {
        CliRun r = vkpuzzles(args);
        EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
        EXPECT_TRUE(has(r.out, "vkpuzzles")) << args << "\n" << r.out;
    }
    EXPECT_TRUE(has(vkpuzzles("frobnicate").out, "--help"));
    EXPECT_TRUE(has(vkpuzzles("show mapp").out, "did you mean: map"));
}

TEST(CliTest, HintsComeOneByOneAndTheLastSaysWhereTheSolutionIs) {
    CliRun first = vkpuzzles("hint dot --color never");
    EXPECT_EQ(first.exit, 0) << first.out;
    EXPECT_TRUE(has(first.out, "hint 1: ")) << first.out;
    EXPECT_FALSE(has(first.out, "hint 2: ")) << first.out;
    EXPECT_TRUE(has(first.out, "(next: vkpuzzles hint dot 2)")) << first.out;
    CliRun all = vkpuzzles("hint dot 99 --color never");
    EXPECT_EQ(all.exit, 0) << all.out;
    EXPECT_TRUE(has(all.out, "hint 3: ")) << all.out;
    EXPECT_TRUE(has(
        all.out,
        "that was the last hint; the official solution, step by step: vkpuzzles walkthrough dot"))
        << all.out;
    CliRun bad = vkpuzzles("hint dot two --color never");
    EXPECT_EQ(bad.exit, 2) << bad.out;
    EXPECT_TRUE(has(bad.out, "a whole number from 1, not 'two'")) << bad.out;
}

TEST(CliTest, CheckSolutionPassesAndStarterFails) {
    CliRun pass = vkpuzzles("check zip --solution --color never");
    EXPECT_EQ(pass.exit, 0) << pass.out;
    EXPECT_TRUE(has(pass.out, "8 of 8 cases pass")) << pass.out;
    EXPECT_TRUE(has(pass.out, "2. Zip  official solution on ")) << pass.out;
    CliRun fail = vkpuzzles("check zip --starter --color never");
    EXPECT_EQ(fail.exit, 1) << fail.out;
    EXPECT_TRUE(has(fail.out, "FAIL"));
    EXPECT_TRUE(has(fail.out, "cells wrong"));
}

// The whole check of each puzzle a `check --all` line fails, for the log of a failure that the
// one-line verdict does not explain.
std::string failingChecks(const std::string& allOut) {
    std::istringstream lines(allOut);
    std::string line, details;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string number, slug, verdict;
        if (words >> number >> slug >> verdict && verdict == "FAIL")
            details += vkpuzzles("check " + slug + " --solution --color never").out + "\n";
    }
    return details;
}

TEST(CliTest, CheckAllSolutionsOneLineEach) {
    CliRun r = vkpuzzles("check --all --solution --color never");
    EXPECT_EQ(r.exit, 0) << r.out << failingChecks(r.out);
    EXPECT_TRUE(has(r.out, "all pass"));
    EXPECT_TRUE(has(r.out, " 14  matmul"));
    // lavapipe has no cooperative matrices: the tensor-core puzzle is listed as not run, and
    // not counted as failed.
    EXPECT_TRUE(has(r.out, " 53  matmul-tensor-cores     not run  ")) << r.out;
    // A build with Vulkan headers older than VK_KHR_cooperative_matrix (Debian 12's) cannot even
    // ask: it says so, rather than blame the device.
    EXPECT_TRUE(has(r.out, builtWithCooperativeMatrix() ? "lacks cooperative matrix"
                                                        : "this vkpuzzles cannot ask llvmpipe"))
        << r.out;
    EXPECT_TRUE(has(r.out, "(2 not run: the device cannot give what they need)")) << r.out;
}

// Issue 19: glslang overflowed its stack inside the CLI (exit 139). It runs in a helper process:
// the crash is an error on the kernel, the CLI exits 1 like for any kernel that does not compile.
TEST(CliTest, AKernelThatCrashesTheCompilerIsAnErrorOnTheKernelNotACrash) {
    std::string k = writeTemp("crash.comp", test::crashingKernel());
    CliRun r = vkpuzzles("check map " + k + " --color never");
    EXPECT_EQ(r.exit, 1) << r.out.substr(0, 2000);
    std::string where = k + ":" + std::to_string(test::kCrashingLine) +
                        ":1: error: the compiler crashed on this kernel";
    EXPECT_TRUE(has(r.out, where)) << r.out.substr(0, 2000);
    EXPECT_TRUE(
        has(r.out, "simplify the expression at line " + std::to_string(test::kCrashingLine)))
        << r.out.substr(0, 2000);
    EXPECT_TRUE(has(r.out, "1. Map")) << "names the puzzle";
    // The 300 KB line is quoted in part, with its length, not whole.
    EXPECT_LT(r.out.size(), 4000u) << r.out.substr(0, 2000);
    EXPECT_TRUE(has(r.out, "characters on this line)")) << r.out.substr(0, 2000);
    CliRun j = vkpuzzlesStdout("check map " + k + " --json");
    EXPECT_EQ(j.exit, 1);
    auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["compiled"], false);
}

TEST(CliTest, CompileErrorPointsAtTheLineAndExitsOne) {
    std::string k =
        writeTemp("broken.comp", "#version 450\nlayout(local_size_x_id = 0) in;\n"
                                 "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
                                 "layout(set = 0, binding = 1) buffer Result { float result[]; };\n"
                                 "void main() {\n    result[0] = missing;\n}\n");
    CliRun r = vkpuzzles("check map " + k + " --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, k + ":6:17: error: 'missing': undeclared identifier")) << r.out;
    EXPECT_TRUE(has(r.out, "6 |     result[0] = missing;")) << r.out;
    CliRun j = vkpuzzlesStdout("check map " + k + " --json");
    auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["compiled"], false);
    EXPECT_EQ(doc["diagnostics"][0]["line"], 6);
    EXPECT_EQ(doc["diagnostics"][0]["column"], 17);
}

TEST(CliTest, MissingBindingIsNamed) {
    std::string k = writeTemp("nobinding.comp",
                              "#version 450\nlayout(local_size_x_id = 0) in;\n"
                              "layout(set = 0, binding = 1) buffer Result { float result[]; };\n"
                              "void main() { result[gl_GlobalInvocationID.x] = 1.0; }\n");
    CliRun r = vkpuzzles("check map " + k + " --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "does not declare the puzzle's input buffer 'a' (binding 0)")) << r.out;
}

TEST(CliTest, JsonCheckIsStable) {
    CliRun r = vkpuzzlesStdout("check broadcast " + wrong("broadcast-transposed.comp") +
                               " --json --timing");
    EXPECT_EQ(r.exit, 1);
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["version"], 1);
    EXPECT_EQ(doc["puzzle"], "broadcast");
    EXPECT_EQ(doc["pass"], false);
    EXPECT_EQ(doc["compiled"], true);
    EXPECT_EQ(doc["cases_total"], 6);
    EXPECT_LT(doc["cases_passed"].get<int>(), 6);
    const auto& c = doc["cases"][2];
    EXPECT_EQ(c["case"], 3);
    EXPECT_TRUE(c["workgroup_size"].is_array());
    EXPECT_GT(c["outputs"][0]["mismatch_count"].get<int>(), 0);
    EXPECT_TRUE(c["outputs"][0]["mismatches"][0].contains("expected"));
    EXPECT_TRUE(doc["timing_ms"].contains("compile"));
}

TEST(CliTest, RunShowsBuffersWithMismatchesMarked) {
    CliRun r =
        vkpuzzles("run blocks " + wrong("blocks-local-index.comp") + " --case 2 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "workgroup (4) x (3) = 12 threads")) << r.out;
    EXPECT_TRUE(has(r.out, "a (input) [10]"));
    EXPECT_TRUE(has(r.out, "result expected [10]"));
    EXPECT_TRUE(has(r.out, "result actual [10]"));
    EXPECT_TRUE(has(r.out, "unwritten* ")) << r.out; // cells the kernel never wrote
}

TEST(CliTest, RunDraws2DBuffersAsMatrices) {
    CliRun r = vkpuzzles("run map-2d --solution --case 2 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "result actual [3, 3]")) << r.out;
    EXPECT_TRUE(has(r.out, "10  11  12")) << r.out;
}

TEST(CliTest, DevicesListsSubgroupSize) {
    CliRun r = vkpuzzles("devices --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "subgroup size"));
    EXPECT_TRUE(has(r.out, "[default]"));
    CliRun j = vkpuzzlesStdout("devices --json");
    auto doc = nlohmann::json::parse(j.out);
    EXPECT_GE(doc["devices"].size(), 1u);
    EXPECT_GT(doc["devices"][0]["subgroup_size"].get<int>(), 0);
    // Whether `bench` can show registers: lavapipe's driver does not report on compiled kernels.
    ASSERT_TRUE(doc["devices"][0]["pipeline_statistics"].is_boolean()) << j.out;
    EXPECT_TRUE(
        has(r.out, std::string("kernel statistics (registers) in bench: ") +
                       (doc["devices"][0]["pipeline_statistics"].get<bool>() ? "yes" : "no")))
        << r.out;
}

TEST(CliTest, UnknownDeviceIsAClearError) {
    CliRun r = vkpuzzles("check map --solution --device no-such-gpu");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "no usable Vulkan device matches 'no-such-gpu'")) << r.out;
}

TEST(CliTest, AnotherPuzzlePackWithABadPuzzleStillLoadsTheGoodOnes) {
    std::string root = "/tmp/vkp-cli-pack-" + std::to_string(getpid());
    std::filesystem::create_directories(root + "/01-good");
    std::filesystem::create_directories(root + "/02-bad");
    std::filesystem::copy(test::puzzleDir() + "/01-map", root + "/01-good",
                          std::filesystem::copy_options::recursive);
    std::ofstream(root + "/02-bad/puzzle.toml") << "title = \"Bad\"\ntrack = 3\n";
    CliRun r = vkpuzzles("list --puzzles " + root + " --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "02-bad/puzzle.toml:2:9: 'track' must be a string")) << r.out;
    EXPECT_TRUE(has(r.out, "1  map"))
        << r.out; // the slug in its puzzle.toml wins over the folder name
    CliRun all = vkpuzzles("check --all --solution --puzzles " + root);
    EXPECT_EQ(all.exit, 2) << all.out; // a broken puzzle file is a teacher's error to fix
    std::filesystem::remove_all(root);
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

TEST(CliTraceTest, CheckReportsARaceWhoseOutputIsRight) {
    CliRun r = vkpuzzles("check pooling " + test::sourceDir() +
                         "/tests/data/traced/pooling-missing-barrier.comp --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "race: cache[")) << r.out;
    EXPECT_FALSE(has(r.out, "race: race")) << r.out; // the label is not repeated in the message
    EXPECT_TRUE(has(r.out, "a missing barrier()?")) << r.out;
    CliRun plain =
        vkpuzzles("check pooling " + test::sourceDir() +
                  "/tests/data/traced/pooling-missing-barrier.comp --no-trace --color never");
    EXPECT_FALSE(has(plain.out, "race:")) << plain.out;
    EXPECT_TRUE(has(plain.out, "7 of 7 cases pass")) << plain.out; // the output alone looks right
}

// `run` shows every buffer of a case, and also why it fails when the values are right.
TEST(CliTraceTest, RunNamesTheFindingsOfACaseWhoseValuesAreRight) {
    CliRun r = vkpuzzles("run guards " + test::sourceDir() +
                         "/tests/data/traced/map-no-guard.comp --case 1 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "the outputs are right, but what the threads did is not:")) << r.out;
    EXPECT_TRUE(has(r.out, "out of bounds: thread 6")) << r.out;
}

TEST(CliTraceTest, JsonCarriesFindings) {
    CliRun r = vkpuzzlesStdout("check dot " + test::sourceDir() +
                               "/tests/data/traced/dot-reads-twice.comp --json");
    auto doc = nlohmann::json::parse(r.out);
    const auto& c = doc["cases"][0];
    EXPECT_EQ(c["traced"], true);
    EXPECT_EQ(c["outputs_match"], true);
    EXPECT_EQ(c["pass"], false);
    ASSERT_GE(c["findings"].size(), 1u);
    EXPECT_EQ(c["findings"][0]["kind"], "read limit");
    EXPECT_GT(c["findings"][0]["line"].get<int>(), 0);
}

TEST(CliTraceTest, TraceShowsRoundsAndOneThread) {
    CliRun r = vkpuzzles("trace block-sum --solution --case 2 --thread 9 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "no findings")) << r.out;
    EXPECT_TRUE(has(r.out, "shared memory of workgroup 1 after each barrier round")) << r.out;
    EXPECT_TRUE(has(r.out, "thread 9 (local 1 of workgroup 1)")) << r.out;
    EXPECT_TRUE(has(r.out, "read  a[9] = 9")) << r.out;
    CliRun bad = vkpuzzles("trace block-sum --solution --case 2 --thread 99");
    EXPECT_EQ(bad.exit, 2) << bad.out;
    CliRun j = vkpuzzlesStdout("trace map-2d --solution --case 1 --thread 1,1 --json");
    auto doc = nlohmann::json::parse(j.out);
    ASSERT_EQ(doc["trace"]["threads"].size(), 1u);
    EXPECT_EQ(doc["trace"]["threads"][0]["global_id"], nlohmann::json::array({1, 1, 0}));
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

TEST(CliBenchTest, BenchmarksAScalablePuzzleAndChecksTheResult) {
    std::string pack = " --puzzles " + test::sourceDir() + "/tests/data/bench";
    CliRun r = vkpuzzlesStdout("bench add-ten --solution --n 2^16 --reps 3 --json" + pack);
    ASSERT_EQ(r.exit, 0) << r.out;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["n"], 65536);
    EXPECT_EQ(doc["pass"], true);
    EXPECT_EQ(doc["dispatch_ms"].size(), 3u);
    EXPECT_GT(doc["gb_per_s"].get<double>(), 0.0);
    EXPECT_GT(doc["copy_gb_per_s"].get<double>(), 0.0);
    EXPECT_GT(doc["ratio_to_copy"].get<double>(), 0.0);
    EXPECT_EQ(doc["bytes_moved"], 65536 * 8);
    std::vector<double> ms = doc["dispatch_ms"].get<std::vector<double>>();
    std::sort(ms.begin(), ms.end());
    EXPECT_EQ(doc["p10_ms"].get<double>(),
              ms[0]); // of 3 repetitions: the 10th percentile is the fastest
    EXPECT_EQ(doc["median_ms"].get<double>(), ms[1]);
    EXPECT_EQ(doc["p90_ms"].get<double>(), ms[2]);
    // What the driver says about the compiled kernel: nothing on lavapipe, registers and more on
    // drivers with VK_KHR_pipeline_executable_properties (NVIDIA's, RADV).
    ASSERT_TRUE(doc["compiled"].is_array()) << r.out;
    for (const auto& c : doc["compiled"]) {
        EXPECT_EQ(c["kernel"], "kernel");
        EXPECT_FALSE(c["statistics"].empty());
    }
    // Not --json: the steps of the run on stderr, the spread with the figures.
    CliRun text =
        vkpuzzles("bench add-ten --solution --n 2^12 --reps 2 --warmup 0 --color never" + pack);
    EXPECT_EQ(text.exit, 0) << text.out;
    EXPECT_TRUE(has(text.out, "warming up for 0 ms, timing 2 repetitions ...")) << text.out;
    EXPECT_TRUE(has(text.out, "measuring the device's copy bandwidth ...")) << text.out;
    EXPECT_TRUE(has(text.out, "10th to 90th percentile")) << text.out;
    CliRun badWarmup = vkpuzzles("bench add-ten --solution --warmup soon" + pack);
    EXPECT_EQ(badWarmup.exit, 2);
    EXPECT_TRUE(has(badWarmup.out, "--warmup needs a whole number from 0 to 60000, not 'soon'"))
        << badWarmup.out;
    CliRun wrong = vkpuzzles("bench add-ten --starter --n 2^12 --reps 2" + pack);
    EXPECT_EQ(wrong.exit, 1) << wrong.out;
    EXPECT_TRUE(has(wrong.out, "elements differ from the CPU reference")) << wrong.out;
    // A launch written as numbers does not follow N: its case runs as it is, and says so.
    CliRun fixed = vkpuzzles("bench fixed-grid --solution --n 2^12 --reps 2 --warmup 0 "
                             "--color never" +
                             pack);
    EXPECT_EQ(fixed.exit, 0) << fixed.out;
    EXPECT_TRUE(has(fixed.out, "benchmarking fixed-grid at N = 20 on ")) << fixed.out;
    EXPECT_TRUE(has(fixed.out, "fixed launch   fixed-grid launches a fixed grid of (3) workgroups "
                               "(case 1 as it is, 24 threads): timed at its own N = 20, not the "
                               "2^12 asked"))
        << fixed.out;
    CliRun badN = vkpuzzles("bench add-ten --solution --n 3^5" + pack);
    EXPECT_EQ(badN.exit, 2);
    EXPECT_TRUE(has(badN.out, "--n needs an element count")) << badN.out;
}

// A learner's kernel is timed beside the official solution in the same run, and beside the
// puzzle's peers: compared where the device and N are the peer's, named elsewhere.
TEST(CliBenchTest, ALearnersKernelIsTimedBesideTheOfficialSolutionAndThePeers) {
    // The official kernel's file, named as a learner's would be.
    std::string args = "bench add-ten " + test::sourceDir() +
                       "/tests/data/bench/01-add-ten/solution.comp --n 2^12 --reps 2 "
                       "--warmup 0 --puzzles " +
                       test::sourceDir() + "/tests/data/bench";
    CliRun r = vkpuzzlesStdout(args + " --json");
    ASSERT_EQ(r.exit, 0) << r.out;
    auto doc = nlohmann::json::parse(r.out);
    ASSERT_TRUE(doc.contains("official")) << r.out;
    EXPECT_EQ(doc["official"]["kernel"], "--solution");
    EXPECT_EQ(doc["official"]["pass"], true);
    EXPECT_EQ(doc["official"]["n"], 4096);
    EXPECT_TRUE(doc["steady"].is_boolean());
    EXPECT_EQ(doc["steady"].get<bool>(), doc["unsteady"].is_null()) << r.out;
    EXPECT_GT(doc["limit_ms"].get<double>(), 0.0);
    ASSERT_EQ(doc["peers"].size(), 2u) << r.out;
    EXPECT_EQ(doc["peers"][0]["name"], "a made-up peer");
    EXPECT_NEAR(doc["peers"][0]["ratio_to_peer"].get<double>(),
                doc["median_ms"].get<double>() / 0.5, 1e-9);
    EXPECT_TRUE(doc["peers"][1]["ratio_to_peer"].is_null()) << "another device: no ratio";
    CliRun text = vkpuzzles(args + " --color never");
    EXPECT_EQ(text.exit, 0) << text.out;
    for (const char* line :
         {"the official solution: uploading, warming up", "of the limit",
          "beside the official solution", "the official solution's time",
          "peer           a made-up peer: 0.500 ms on llvmpipe", "this kernel takes",
          "another made-up peer: 0.250 ms on A GPU this test never runs on", ", another device"})
        EXPECT_TRUE(has(text.out, line)) << line << "\n" << text.out;
    // The official solution alone is not compared with itself.
    CliRun official =
        vkpuzzlesStdout("bench add-ten --solution --n 2^12 --reps 2 --warmup 0 --json --puzzles " +
                        test::sourceDir() + "/tests/data/bench");
    ASSERT_EQ(official.exit, 0) << official.out;
    EXPECT_FALSE(nlohmann::json::parse(official.out).contains("official")) << official.out;
}

// A device without what the puzzle needs: `bench` says so at the solution's #extension line, in
// the words `check` uses, never with the compiler's "extension not supported".
TEST(CliBenchTest, WhatTheDeviceLacksIsSaidAsCheckSaysIt) {
    CliRun check = vkpuzzles("check matmul-tensor-cores --solution --color never");
    if (check.exit == 0) GTEST_SKIP() << "this device has cooperative matrices";
    CliRun r = vkpuzzles("bench matmul-tensor-cores --solution --n 2^12 --color never");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "solution.comp:4: error: uses cooperative matrices")) << r.out;
    EXPECT_TRUE(has(r.out, "Benchmark it on a device that has them (vkpuzzles devices)")) << r.out;
    EXPECT_FALSE(has(r.out, "extension not supported")) << r.out;
    EXPECT_TRUE(has(check.out, "Check it on a device that has them (vkpuzzles devices)"))
        << check.out;
}

// --workgroup-size and --set time both kernels at another launch shape: the benchmark's case with
// those threads per workgroup and constants (the launch line and the JSON say which), still
// checked against the CPU. Only they reshape a benchmark: --input is no bench option.
TEST(CliBenchTest, WorkgroupSizeAndSetTimeTheKernelsAtAnotherShape) {
    std::string args = "bench histogram-items --solution --n 2^14 --reps 2 --warmup 0";
    CliRun usual = vkpuzzlesStdout(args + " --json");
    ASSERT_EQ(usual.exit, 0) << usual.out;
    auto before = nlohmann::json::parse(usual.out);
    EXPECT_EQ(before["workgroup_size"], nlohmann::json::array({256, 1, 1})) << usual.out;
    EXPECT_TRUE(has(before["constants"].get<std::string>(), "ITEMS = 64")) << usual.out;
    CliRun shaped = vkpuzzlesStdout(args + " --workgroup-size 64 --set ITEMS=4 --json");
    ASSERT_EQ(shaped.exit, 0) << shaped.out;
    auto doc = nlohmann::json::parse(shaped.out);
    EXPECT_EQ(doc["workgroup_size"], nlohmann::json::array({64, 1, 1})) << shaped.out;
    EXPECT_TRUE(has(doc["constants"].get<std::string>(), "ITEMS = 4")) << shaped.out;
    EXPECT_EQ(doc["pass"], true) << shaped.out;
    CliRun text = vkpuzzles(args + " --workgroup-size 64 --set ITEMS=4 --color never");
    EXPECT_EQ(text.exit, 0) << text.out;
    EXPECT_TRUE(has(text.out, "launch         workgroups of (64) threads; ")) << text.out;
    EXPECT_TRUE(has(text.out, "ITEMS = 4")) << text.out;
    CliRun unknown = vkpuzzles(args + " --set NOPE=3 --color never");
    EXPECT_EQ(unknown.exit, 2) << unknown.out;
    EXPECT_TRUE(has(unknown.out, "NOPE")) << unknown.out;
    CliRun input = vkpuzzles(args + " --input a=1,2 --color never");
    EXPECT_EQ(input.exit, 2) << input.out;
}

// Sizes a --set gives are checked as a case's are: shared arrays past the device's limit are an
// error naming the benchmark's launch and each array's bytes, before anything runs (lavapipe ran
// them past its shared memory without a word).
TEST(CliBenchTest, SharedArraysPastTheDevicesLimitAtTheBenchmarksSizesAreRefused) {
    CliRun r = vkpuzzles("bench attention-tiled --solution --n 2^14 --reps 2 --warmup 0 --set "
                         "BR=512 --workgroup-size 8,128 --color never");
    EXPECT_NE(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "the benchmark's launch: the kernel's shared arrays need ")) << r.out;
    EXPECT_TRUE(has(r.out, "qTile ")) << r.out;
    EXPECT_TRUE(has(r.out, "'s limit of ")) << r.out;
}

// At N = 1 the kernel's buffers hold 1 element, as in a check: a.length() is 1. They were
// rounded up to 16 bytes, 3 cells of uninitialised memory that histogram-shared's official
// solution took for bin numbers (wrong counts, or a crash in lavapipe).
TEST(CliBenchTest, ABenchmarkOfOneElementGivesTheKernelOneElement) {
    std::string args = "bench add-ten " + test::sourceDir() +
                       "/tests/data/bench-kernels/add-ten-by-length.comp --n 1 --reps 2 "
                       "--warmup 0 --color never --puzzles " +
                       test::sourceDir() + "/tests/data/bench";
    for (const char* where : {"", " --in-process"}) {
        CliRun r = vkpuzzles(args + where);
        EXPECT_EQ(r.exit, 0) << where << r.out;
        EXPECT_TRUE(has(r.out, "matches the CPU reference")) << where << r.out;
    }
    CliRun histogram =
        vkpuzzles("bench histogram-shared --solution --n 3 --reps 2 --warmup 0 --color never");
    EXPECT_EQ(histogram.exit, 0) << histogram.out;
}

// `bench --all` with a pack: each of its puzzles, without --n at its own bench_n (add-ten's 2^14)
// or, for a fixed grid, at its case's N; with --n at that N.
TEST(CliBenchTest, AllBenchmarksEveryPuzzleOfThePackAtItsBenchN) {
    std::string args = "bench --all --reps 2 --warmup 0 --json --puzzles " + test::sourceDir() +
                       "/tests/data/bench";
    CliRun r = vkpuzzlesStdout(args);
    ASSERT_EQ(r.exit, 0) << r.out;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_TRUE(doc["n"].is_null()) << r.out;
    EXPECT_EQ(doc["pass"], true);
    ASSERT_EQ(doc["results"].size(), 2u) << r.out;
    EXPECT_EQ(doc["results"][0]["puzzle"], "add-ten");
    EXPECT_EQ(doc["results"][0]["n"], 16384);
    EXPECT_EQ(doc["results"][1]["puzzle"], "fixed-grid");
    EXPECT_EQ(doc["results"][1]["n"], 20);
    EXPECT_EQ(doc["results"][1]["n_asked"], 1u << 24) << "fixed-grid has no bench_n";
    CliRun given = vkpuzzlesStdout(args + " --n 2^12");
    ASSERT_EQ(given.exit, 0) << given.out;
    auto at = nlohmann::json::parse(given.out);
    EXPECT_EQ(at["n"], 4096);
    EXPECT_EQ(at["results"][0]["n"], 4096);
    EXPECT_EQ(at["results"][1]["n"], 20);
}

TEST(CliBenchTest, AKernelPastTheTimeoutIsStoppedWithAClearMessage) {
    // Seconds per dispatch on lavapipe; --timeout 1 gives each repetition a second.
    std::string args = "bench add-ten " + test::sourceDir() +
                       "/tests/data/bench-kernels/slow-add-ten.comp --n 2^16 --reps 2 --warmup 1 "
                       "--timeout 1 --puzzles " +
                       test::sourceDir() + "/tests/data/bench";
    CliRun worker = vkpuzzles(args);
    EXPECT_EQ(worker.exit, 1) << worker.out;
    EXPECT_TRUE(has(worker.out, "the benchmark did not finish within 1 s (an endless loop?); the "
                                "worker process was restarted"))
        << worker.out;
    CliRun here = vkpuzzles(args + " --in-process");
    EXPECT_EQ(here.exit, 1) << here.out;
    EXPECT_TRUE(has(here.out, "the benchmark did not finish within 1 s (an endless loop?)"))
        << here.out;
    EXPECT_FALSE(has(here.out, "worker")) << here.out;
    CliRun badTimeout = vkpuzzles("bench add-ten --solution --timeout never --puzzles " +
                                  test::sourceDir() + "/tests/data/bench");
    EXPECT_EQ(badTimeout.exit, 2);
    EXPECT_TRUE(has(badTimeout.out, "--timeout needs a whole number")) << badTimeout.out;
}

// Issue 18, item 6: --puzzles adds a pack beside the built-in puzzles, and every command the tool
// suggests for a pack's puzzle carries the --puzzles it needs.
TEST(CliTest, APackIsListedBesideTheBuiltInPuzzlesAndSuggestedCommandsReachIt) {
    std::string root = "/tmp/vkp-cli-course-" + std::to_string(getpid()) + "/my course";
    std::filesystem::create_directories(root);
    std::filesystem::copy(test::puzzleDir() + "/01-map", root + "/01-first",
                          std::filesystem::copy_options::recursive);
    std::string pack = "--puzzles '" + root + "' ";
    CliRun list = vkpuzzles(pack + "list --color never");
    EXPECT_EQ(list.exit, 0) << list.out;
    size_t builtinMatmul = list.out.find(" matmul "),
           heading = list.out.find("Pack my course  " + root);
    ASSERT_NE(builtinMatmul, std::string::npos)
        << "the built-in puzzles are still there: " << list.out;
    ASSERT_NE(heading, std::string::npos) << list.out;
    EXPECT_LT(builtinMatmul, heading) << "the pack comes after them";
    EXPECT_TRUE(has(list.out, "Start with: vkpuzzles --puzzles '" + root + "' show map"))
        << list.out;

    CliRun show = vkpuzzles(pack + "show map --color never");
    EXPECT_TRUE(has(show.out, root + "/01-first")) << "the pack's map comes first: " << show.out;
    EXPECT_TRUE(has(show.out, "hints: vkpuzzles --puzzles '" + root + "' hint map 1")) << show.out;
    CliRun builtin = vkpuzzles(pack + "show 01-map --json");
    EXPECT_EQ(nlohmann::json::parse(builtin.out)["pack"], nullptr)
        << "a name only the built-in puzzles have";
    CliRun qualified = vkpuzzles(pack + "show 'my course/1' --json");
    ASSERT_EQ(qualified.exit, 0) << qualified.out;
    EXPECT_EQ(nlohmann::json::parse(qualified.out)["pack"], "my course");
    EXPECT_EQ(nlohmann::json::parse(qualified.out)["pack_root"], root);

    CliRun starter = vkpuzzles(pack + "check map --starter --no-trace --color never");
    EXPECT_EQ(starter.exit, 1) << starter.out;
    EXPECT_TRUE(has(starter.out,
                    "all buffers: vkpuzzles --puzzles '" + root + "' run map --starter --case 1"))
        << starter.out;
    // The suggested command works as printed, pasted into a shell.
    size_t at =
        starter.out.find("all buffers: vkpuzzles ") + std::string("all buffers: vkpuzzles ").size();
    std::string suggested = starter.out.substr(at, starter.out.find('\n', at) - at);
    CliRun again =
        test::runCommand(test::binaryPath() + " " + suggested + " --no-trace --color never 2>&1");
    EXPECT_EQ(again.exit, 1) << suggested << "\n" << again.out;
    EXPECT_FALSE(has(again.out, "no puzzle named")) << again.out;
    CliRun all = vkpuzzles(pack + "check --all --solution --no-trace --color never");
    EXPECT_EQ(all.exit, 0) << all.out;
    EXPECT_TRUE(has(all.out, " map ")) << all.out;
    EXPECT_TRUE(has(all.out, "all pass")) << all.out;
    EXPECT_FALSE(has(all.out, "matmul")) << all.out;
    CliRun missing = vkpuzzles("--puzzles /no/such/pack list --color never");
    EXPECT_EQ(missing.exit, 2) << missing.out;
    EXPECT_TRUE(has(missing.out, "/no/such/pack")) << missing.out;
    std::filesystem::remove_all(std::filesystem::path(root).parent_path());
}

} // namespace
} // namespace vkp
