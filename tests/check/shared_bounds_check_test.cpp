// A kernel that writes far past a shared array (tests/data/traced/shared-write-far-past.comp) is
// checked traced and untraced in this process, on lavapipe, whose workgroup memory is on the
// heap: the write lands inside the array (rewrite/shared_bounds_rewriter.h), so the process lives,
// every case runs, and the traced check reports the write past the end as the kernel wrote it.
// Real lavapipe, real shaderc.
#include <gtest/gtest.h>

#include "check/check.h"
#include "check/kernel_text.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;

CheckReport checkFarPast(bool trace) {
    auto p = engines().set.find("shared");
    EXPECT_TRUE(p.ok());
    if (!p.ok()) return {};
    std::string file = test::sourceDir() + "/tests/data/traced/shared-write-far-past.comp";
    auto text = readTextFile(file);
    CheckOptions o;
    o.trace = trace;
    return checkKernel(engines().compiler, *engines().gpu, **p, text ? *text : "", file, o);
}

TEST(SharedBoundsCheck, AWriteFarPastASharedArrayIsReportedAndHarmsNothing) {
    ASSERT_TRUE(engines().gpu);
    CheckReport traced = checkFarPast(true);
    ASSERT_EQ(traced.reached, StageKind::Done) << (traced.error ? traced.error->message : "");
    ASSERT_FALSE(traced.cases.empty());
    for (const CaseOutcome& c : traced.cases) {
        ASSERT_FALSE(c.error) << "case " << c.index + 1 << ": " << c.error->message;
        EXPECT_FALSE(c.pass) << "case " << c.index + 1;
        ASSERT_TRUE(c.analysis);
        bool reported = false;
        for (const Finding& f : c.analysis->findings)
            if (f.kind == FindingKind::OutOfBounds && f.failsCase &&
                f.message.find("past the end of cache") != std::string::npos &&
                f.message.find("writes") != std::string::npos)
                reported = true;
        EXPECT_TRUE(reported) << "case " << c.index + 1 << ": the write past cache is named";
    }
    CheckReport untraced = checkFarPast(false);
    ASSERT_EQ(untraced.reached, StageKind::Done) << (untraced.error ? untraced.error->message : "");
    for (const CaseOutcome& c : untraced.cases)
        EXPECT_FALSE(c.error) << "case " << c.index + 1 << ": " << c.error->message;
    // The official solution, checked after it by the same device, still passes every case.
    auto p = engines().set.find("shared");
    ASSERT_TRUE(p.ok());
    auto solution = readTextFile(test::sourceDir() + "/puzzles/08-shared/solution.comp");
    ASSERT_TRUE(solution.ok());
    CheckOptions o;
    CheckReport official =
        checkKernel(engines().compiler, *engines().gpu, **p, *solution, "solution.comp", o);
    EXPECT_TRUE(official.allPass());
}

} // namespace
} // namespace vkp
