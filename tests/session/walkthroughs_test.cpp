// Every walkthrough.toml under puzzles/ loads, and fits a real traced run of its official
// solution on its case: its lines, rounds, workgroups, threads and cells all exist there.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/walkthrough.h"
#include "session/check.h"
#include "session/dispatch_trace.h"
#include "session/kernel_text.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;

std::vector<std::string> foldersWithWalkthroughs() {
    std::vector<std::string> out;
    for (const std::string& f : test::puzzleFolders())
        if (std::filesystem::exists(test::puzzleDir() + "/" + f + "/" + kWalkthroughFile))
            out.push_back(f);
    return out;
}

class WalkthroughTest : public ::testing::TestWithParam<std::string> {};

TEST_P(WalkthroughTest, FitsATraceOfTheOfficialSolution) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find(GetParam());
    ASSERT_TRUE(p.ok()) << p.error().str();
    auto w = loadWalkthrough(**p);
    ASSERT_TRUE(w.ok()) << w.error().str();
    ASSERT_TRUE(w->has_value());
    const Walkthrough& walk = **w;
    EXPECT_FALSE(walk.title.empty());
    EXPECT_GE(walk.steps.size(), 4u) << "a walkthrough should have 4 to 8 steps";
    EXPECT_LE(walk.steps.size(), 8u) << "a walkthrough should have 4 to 8 steps";

    auto sources = readKernelSources(**p, true);
    ASSERT_TRUE(sources.ok()) << sources.error().str();
    CheckOptions o;
    o.trace = true;
    o.onlyCase = walk.caseIndex;
    CheckReport r = checkProgram(engines().compiler, *engines().gpu, **p, *sources, o);
    ASSERT_EQ(r.cases.size(), 1u);
    ASSERT_TRUE(r.cases[0].pass);
    ASSERT_TRUE(r.cases[0].trace);

    std::string problems;
    for (const Diagnostic& d :
         validateWalkthrough(walk, **p, walkthroughSubjects(r.cases[0], *sources)))
        problems += d.str() + "\n";
    EXPECT_EQ(problems, "");

    // Every step a player shows resolves to something to look at, in the dispatch it names.
    for (const WalkthroughStep& s : walk.steps) {
        DispatchTrace d = dispatchTrace(r.cases[0], s.focus.dispatch);
        ASSERT_NE(d.trace, nullptr) << s.title;
        WalkthroughStepState state = resolveStep(s.focus, *d.trace, *d.analysis);
        EXPECT_EQ(state.invocations.size(), s.focus.threads.size()) << s.title;
        EXPECT_EQ(state.cells.size(), s.focus.cells.size()) << s.title;
        if (s.focus.round) EXPECT_NE(state.shared, nullptr) << s.title;
    }
}

INSTANTIATE_TEST_SUITE_P(Puzzles, WalkthroughTest, ::testing::ValuesIn(foldersWithWalkthroughs()),
                         [](const auto& info) { return test::paramName(info.param); });

// The issue asks for these at least: the shared-memory puzzles and the first scans.
TEST(WalkthroughCoverage, SharedMemoryPuzzlesAndFirstScansHaveOne) {
    std::vector<std::string> have = foldersWithWalkthroughs();
    for (const char* f : {"08-shared", "09-pooling", "10-dot", "11-conv1d", "12-block-sum",
                          "13-row-sum", "14-matmul", "16-scan-workgroup", "20-scan-subgroup"})
        EXPECT_NE(std::find(have.begin(), have.end(), f), have.end()) << f;
}

} // namespace
} // namespace vkp
