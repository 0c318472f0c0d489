// Atomics in reverse lane order (check/atomic_order.h): a kernel whose result depends on the
// order of a subgroup's atomics passes every case as lavapipe orders them and fails with them
// reversed; official solutions with atomics pass both ways; a kernel without atomics is not run
// again; the verdict is part of the report's.
#include <gtest/gtest.h>

#include "base/text_file.h"
#include "check/atomic_order.h"
#include "check/hidden_cases.h"
#include "gpu/device_runner.h"
#include "support/engines.h"

namespace vkp {
namespace {

CheckReport checkBothWays(const Puzzle& p, const std::vector<KernelSource>& sources) {
    InProcessRunner runner(*test::engines().gpu);
    CheckOptions options;
    options.trace = true;
    CheckReport r = checkProgram(test::engines().compiler, runner, p, sources, options);
    checkReversedOrder(test::engines().compiler, runner, p, sources, options, r);
    return r;
}

// Each kept element's slot from a shared atomicAdd rather than a scan: in lane order (lavapipe)
// the slots come out in the elements' order, and every case passes.
TEST(AtomicOrderTest, SlotsFromAnAtomicCounterFailInReverseOrder) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("compact");
    const std::string file =
        test::sourceDir() + "/tests/data/atomic-order/compact-by-atomic-slot.comp";
    auto text = readTextFile(file);
    ASSERT_TRUE(text.ok());
    CheckReport r = checkBothWays(p, {{"kernel", *text, file}});
    EXPECT_TRUE(r.usesAtomics);
    ASSERT_EQ(r.passCount(), p.cases.size()); // right as lavapipe orders the atomics
    ASSERT_TRUE(r.reversed);
    EXPECT_FALSE(r.reversed->error) << r.reversed->error->message;
    EXPECT_EQ(r.reversed->casesRun, p.cases.size());
    ASSERT_FALSE(r.reversed->failures.empty());
    EXPECT_NE(r.reversed->failures[0].detail.find("expected"), std::string::npos)
        << r.reversed->failures[0].detail;
    EXPECT_FALSE(r.allPass());
}

TEST(AtomicOrderTest, OfficialSolutionsWithAtomicsPassInReverseOrder) {
    ASSERT_TRUE(test::engines().gpu);
    for (const char* slug :
         {"histogram-shared", "histogram-items", "lost-update", "radix-sort", "bfs"}) {
        const Puzzle& p = test::puzzleNamed(slug);
        auto sources = readKernelSources(p, true);
        ASSERT_TRUE(sources) << sources.error().message;
        CheckReport r = checkBothWays(p, *sources);
        EXPECT_TRUE(r.usesAtomics) << slug;
        ASSERT_TRUE(r.reversed) << slug;
        EXPECT_TRUE(r.reversed->pass())
            << slug << ": " << (r.reversed->failures.empty() ? "" : r.reversed->failures[0].detail);
        EXPECT_EQ(r.reversed->casesRun, p.cases.size()) << slug;
        EXPECT_TRUE(r.allPass()) << slug;
    }
}

TEST(AtomicOrderTest, AKernelWithoutAtomicsIsNotRunAgain) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("block-sum");
    auto sources = readKernelSources(p, true);
    ASSERT_TRUE(sources) << sources.error().message;
    CheckReport r = checkBothWays(p, *sources);
    EXPECT_FALSE(r.usesAtomics);
    EXPECT_FALSE(reversedOrderApplies(r));
    EXPECT_FALSE(r.reversed);
    EXPECT_TRUE(r.allPass());
}

} // namespace
} // namespace vkp
