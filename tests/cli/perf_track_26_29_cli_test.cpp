// The performance track's puzzles 26-29 end to end (issue 23; 23-25 are in
// perf_track_cli_test.cpp): each official solution passes its efficiency limits, and each naive
// kernel of tests/data/perf-track/SLUG/ computes the right values yet fails with the efficiency
// finding the puzzle teaches, at the line that causes it.
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::vkpuzzlesStdout;

std::string naive(const std::string& slug, const std::string& file) {
    return test::sourceDir() + "/tests/data/perf-track/" + slug + "/" + file;
}

// The 1-based number of the first line of `path` that holds `text`; 0 when none does.
int lineOf(const std::string& path, const std::string& text) {
    std::ifstream in(path);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(text) != std::string::npos) return n;
    return 0;
}

nlohmann::json checkJson(const std::string& args, int wantExit) {
    CliRun r = vkpuzzlesStdout("check " + args + " --json");
    EXPECT_EQ(r.exit, wantExit) << args << "\n" << r.out;
    return nlohmann::json::parse(r.out, nullptr, false);
}

struct Naive {
    const char* slug;
    const char* file;
    const char* kind;        // the finding that fails it
    const char* line;        // text of the line the finding names
    const char* orLine = ""; // or of this one (a read limit names where the thread went over)
};

// How a case is named in test lists (CTest shows GetParam()).
void PrintTo(const Naive& n, std::ostream* os) {
    *os << n.slug << "/" << n.file;
}

class PerfTrack2629NaiveTest : public testing::TestWithParam<Naive> {};

TEST_P(PerfTrack2629NaiveTest, RightValuesButFailsWithTheEfficiencyFinding) {
    const Naive& n = GetParam();
    std::string kernel = naive(n.slug, n.file);
    int line = lineOf(kernel, n.line);
    ASSERT_GT(line, 0) << n.line << " is not in " << kernel;
    int orLine = *n.orLine ? lineOf(kernel, n.orLine) : line;
    ASSERT_GT(orLine, 0) << n.orLine << " is not in " << kernel;
    nlohmann::json doc = checkJson(std::string(n.slug) + " " + kernel, 1);
    ASSERT_TRUE(doc.is_object());
    ASSERT_FALSE(doc["cases"].empty());
    int failing = 0;
    for (const nlohmann::json& c : doc["cases"]) {
        EXPECT_TRUE(c["outputs_match"].get<bool>()) << n.file << ", case " << c["case"];
        bool found = false;
        for (const nlohmann::json& f : c["findings"]) {
            if (f["kind"] == n.kind && f["fails_case"] == true) {
                found = true;
                EXPECT_TRUE(f["line"] == line || f["line"] == orLine)
                    << n.file << ", case " << c["case"] << ": " << f.dump();
            }
        }
        if (!c["pass"].get<bool>()) {
            EXPECT_TRUE(found) << n.file << ", case " << c["case"] << " fails without a '" << n.kind
                               << "' finding: " << c["findings"].dump();
            ++failing;
        }
    }
    EXPECT_GT(failing, 0) << n.file;
}

INSTANTIATE_TEST_SUITE_P(Naive, PerfTrack2629NaiveTest,
                         testing::Values(Naive{"reduce-sequential", "interleaved.comp",
                                               "divergence", "cache[t] += cache[t + s];"},
                                         Naive{"reduce-subgroup", "shared-tree.comp", "divergence",
                                               "cache[t] += cache[t + s];"},
                                         Naive{"histogram-shared", "global-atomics.comp",
                                               "global atomics", "atomicAdd(result[a[i]], 1u);"},
                                         Naive{"matmul-register-tiling", "one-output-tiles.comp",
                                               "read limit",
                                               "tileA[ly][lx] = ", "tileB[ly][lx] = "}),
                         [](const testing::TestParamInfo<Naive>& info) {
                             std::string name = info.param.slug;
                             for (char& ch : name)
                                 if (ch == '-') ch = '_';
                             return name;
                         });

TEST(PerfTrack2629CliTest, OfficialSolutionsPassTheirLimitsAndStartersFail) {
    for (const char* slug :
         {"reduce-sequential", "reduce-subgroup", "histogram-shared", "matmul-register-tiling"}) {
        nlohmann::json ok = checkJson(std::string(slug) + " --solution", 0);
        ASSERT_TRUE(ok.is_object()) << slug;
        EXPECT_EQ(ok["cases_passed"], ok["cases_total"]) << slug;
        for (const nlohmann::json& c : ok["cases"])
            for (const nlohmann::json& f : c["findings"])
                EXPECT_FALSE(f["fails_case"].get<bool>()) << slug << ": " << f.dump();
        checkJson(std::string(slug) + " --starter", 1);
    }
}

// The histogram adds into its output with atomics: the benchmark must clear the output before each
// repetition, as a check starts it at zero, or the counts of every repetition add up.
TEST(PerfTrack2629CliTest, BenchClearsTheOutputThatAKernelAddsInto) {
    CliRun r = vkpuzzlesStdout("bench histogram-shared --solution --n 100000 --json");
    ASSERT_EQ(r.exit, 0) << r.out;
    nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["n"], 100000);
    EXPECT_EQ(doc["mismatches"], 0) << r.out;
    EXPECT_EQ(doc["pass"], true) << r.out;
}

} // namespace
} // namespace vkp
