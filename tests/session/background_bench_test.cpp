// The app's benchmark (session/background_bench.h): the editor's kernel on a thread of its own,
// then the official solution at the same N on the same device, unless the editor holds it. Real
// shaderc, real lavapipe (in this process), small N.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "base/text_file.h"
#include "puzzle/puzzle_loader.h"
#include "session/background_bench.h"
#include "support/test_env.h"

namespace vkp {
namespace {

// The view once the benchmark has ended (up to five minutes on a loaded machine).
BackgroundBenchView ended(const BackgroundBench& bench) {
    BackgroundBenchView v = bench.view();
    for (int i = 0; i < 3000 && v.state == BackgroundBenchState::Running; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        v = bench.view();
    }
    return v;
}

TEST(BackgroundBenchTest, TheEditorsKernelIsTimedBesideTheOfficialSolution) {
    PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    auto found = set.find("coalesced");
    ASSERT_TRUE(found.ok());
    const Puzzle& p = **found;
    auto official = readTextFile(p.solutionPath);
    ASSERT_TRUE(official.ok());
    BenchOptions o;
    o.n = 1u << 12;
    o.reps = 2;
    o.warmupMs = 1;
    o.templateCase = p.benchCase;
    BackgroundBench bench({}, test::deviceOptions().deviceSelector);

    bench.start(p, *official + "\n// my copy of it\n", o);
    BackgroundBenchView mine = ended(bench);
    ASSERT_EQ(mine.state, BackgroundBenchState::Done) << (mine.error ? mine.error->str() : "");
    ASSERT_TRUE(mine.report && mine.official);
    EXPECT_EQ(mine.official->n, mine.report->n);
    EXPECT_TRUE(mine.official->pass);
    auto lines = benchComparisonLines(*mine.report, *mine.official);
    EXPECT_NE(lines.back().find("the official solution's time"), std::string::npos);

    bench.start(p, *official, o); // the official text itself: nothing to set it beside
    BackgroundBenchView same = ended(bench);
    ASSERT_EQ(same.state, BackgroundBenchState::Done);
    EXPECT_TRUE(same.report.has_value());
    EXPECT_FALSE(same.official.has_value());
}

} // namespace
} // namespace vkp
