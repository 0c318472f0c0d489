// Every walkthrough.toml under puzzles/ loads, with a title and 4 to 8 steps, and every puzzle
// under puzzles/ has one. That each fits a real traced run of its official solution on its case
// (lines, rounds, workgroups, threads and cells) is `pack check`'s (classroom/pack_check.h), the
// content tier's one check of each puzzle.
#include <gtest/gtest.h>

#include <filesystem>

#include "check/check.h"
#include "check/dispatch_view.h"
#include "check/kernel_text.h"
#include "puzzle/walkthrough.h"
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

TEST_P(WalkthroughTest, LoadsWithATitleAndFourToEightSteps) { // three for a detective puzzle
    auto p = engines().set.find(GetParam());
    ASSERT_TRUE(p.ok()) << p.error().str();
    auto w = loadWalkthrough(**p);
    ASSERT_TRUE(w.ok()) << w.error().str();
    ASSERT_TRUE(w->has_value());
    const Walkthrough& walk = **w;
    EXPECT_FALSE(walk.title.empty());
    // A detective puzzle's walkthrough shows a fix of a few lines (the bug, where the views show
    // it, the fix): 3 steps can be enough there.
    size_t least = (*p)->starterIsTheBug() ? 3 : 4;
    EXPECT_GE(walk.steps.size(), least) << "a walkthrough should have " << least << " to 8 steps";
    EXPECT_LE(walk.steps.size(), 8u) << "a walkthrough should have " << least << " to 8 steps";
}

INSTANTIATE_TEST_SUITE_P(Puzzles, WalkthroughTest, ::testing::ValuesIn(foldersWithWalkthroughs()),
                         [](const auto& info) { return test::paramName(info.param); });

// Every official solution can be stepped through (pack check refuses a bundled puzzle without a
// walkthrough; this says which one, without running anything).
TEST(WalkthroughCoverage, EveryPuzzleHasOne) {
    std::vector<std::string> have = foldersWithWalkthroughs();
    std::vector<std::string> all = test::puzzleFolders();
    EXPECT_GE(all.size(), 54u);
    for (const std::string& f : all)
        EXPECT_NE(std::find(have.begin(), have.end(), f), have.end()) << f << " has none";
}

} // namespace
} // namespace vkp
