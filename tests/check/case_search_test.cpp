// Cases that search for the bug (check/case_search.h): segmented-scan's search finds the rounds
// that stop at WG / 2 at a block its cases do not have, shrinks the case to a few elements and
// keeps its inputs; the same seed makes the same search; the official solution passes every
// generated case; a puzzle without a search runs none.
#include <gtest/gtest.h>

#include "base/text_file.h"
#include "check/case_search.h"
#include "check/check.h"
#include "gpu/device_runner.h"
#include "puzzle/kernel_sections.h"
#include "support/engines.h"

namespace vkp {
namespace {

CheckReport checkAndSearch(const Puzzle& p, const std::vector<KernelSource>& sources,
                           uint64_t seed) {
    InProcessRunner runner(*test::engines().gpu);
    CheckReport r = checkProgram(test::engines().compiler, runner, p, sources, {});
    searchCases(test::engines().compiler, runner, p, sources, {}, seed, r);
    return r;
}

std::vector<KernelSource> wrongKernel() {
    const std::string file =
        test::sourceDir() + "/tests/data/wrong/segmented-scan-rounds-to-half.comp";
    auto text = readTextFile(file);
    if (!text) throw std::runtime_error(text.error().message);
    return {{"kernel", *text, file}};
}

TEST(CaseSearchTest, RoundsThatStopAtHalfTheBlockAreFoundAndShrunk) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("segmented-scan");
    ASSERT_FALSE(p.searches.empty());
    // Its cases without case 8 (the one built to catch it): the search alone finds it.
    Puzzle without = p;
    without.cases.erase(without.cases.begin() + 7, without.cases.end());
    without.searches[0].templateCase = 4; // case 5: block-long segments, generated
    CheckReport r = checkAndSearch(without, wrongKernel(), 7);
    EXPECT_EQ(r.passCount(), without.cases.size()); // every case of its own passes
    ASSERT_TRUE(r.search);
    ASSERT_FALSE(r.search->error) << r.search->error->message;
    ASSERT_TRUE(r.search->found);
    const FoundCase& f = *r.search->found;
    EXPECT_LE(f.n, f.foundN);
    EXPECT_LE(f.workgroupSize[0], f.foundWorkgroupSize[0]);
    EXPECT_NE(f.workgroupSize[0] & (f.workgroupSize[0] - 1), 0u) << "a power of two is right";
    EXPECT_NE(f.detail.find("expected"), std::string::npos) << f.detail;
    EXPECT_FALSE(r.allPass());
    ASSERT_EQ(f.inputs.size(), 2u) << "a and flags, small enough to print";
    EXPECT_EQ(f.inputs[0].first, "a");
    std::string cmd = foundCaseCommand(f, "vkpuzzles run segmented-scan k.comp");
    EXPECT_NE(cmd.find("--case 5 --input 'a="), std::string::npos) << cmd;
    EXPECT_NE(cmd.find("--workgroup-size " + std::to_string(f.workgroupSize[0])), std::string::npos)
        << cmd;

    CheckReport again = checkAndSearch(without, wrongKernel(), 7);
    ASSERT_TRUE(again.search && again.search->found);
    EXPECT_EQ(again.search->found->n, f.n);
    EXPECT_EQ(again.search->found->inputs, f.inputs);
}

TEST(CaseSearchTest, TheOfficialSolutionPassesEveryGeneratedCase) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("segmented-scan");
    auto sources = readKernelSources(p, true);
    ASSERT_TRUE(sources) << sources.error().message;
    for (uint64_t seed : {11u, 12u}) {
        CheckReport r = checkAndSearch(p, *sources, seed);
        ASSERT_TRUE(r.search);
        EXPECT_TRUE(r.search->pass()) << (r.search->found ? r.search->found->detail : "");
        EXPECT_EQ(r.search->casesRun, p.searches[0].tries);
        EXPECT_TRUE(r.allPass());
    }
}

TEST(CaseSearchTest, APuzzleWithoutASearchRunsNone) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("block-sum");
    auto sources = readKernelSources(p, true);
    ASSERT_TRUE(sources) << sources.error().message;
    CheckReport r = checkAndSearch(p, *sources, 3);
    EXPECT_FALSE(caseSearchApplies(p, r));
    EXPECT_FALSE(r.search);
}

} // namespace
} // namespace vkp
