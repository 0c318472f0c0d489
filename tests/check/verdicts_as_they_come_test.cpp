// A check hands over each case as soon as it is decided (CheckOptions::onCase): in case order,
// one at a time, each with its whole verdict (values and what the trace found), and the report
// checkProgram returns is the same cases. Real lavapipe, real shaderc.
#include <gtest/gtest.h>

#include "check/check.h"
#include "check/kernel_text.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;

struct Seen {
    std::vector<CaseOutcome> cases; // each callback's newest case
    std::vector<size_t> sizes;      // how many cases each callback's report held
    std::vector<bool> done;         // whether it was already the whole report
};

CheckReport checkSeeing(const Puzzle& p, const std::string& file, Seen& seen) {
    CheckOptions o;
    o.trace = true;
    o.onCase = [&](const CheckReport& partial) {
        seen.cases.push_back(partial.cases.back());
        seen.sizes.push_back(partial.cases.size());
        seen.done.push_back(partial.reached == StageKind::Done);
    };
    auto text = readTextFile(file);
    return checkKernel(engines().compiler, *engines().gpu, p, text ? *text : "", file, o);
}

bool hasFinding(const CaseOutcome& c, FindingKind kind) {
    if (!c.analysis) return false;
    for (const Finding& f : c.analysis->findings)
        if (f.kind == kind && f.failsCase) return true;
    return false;
}

// The racy and the out-of-bounds kernel: every case handed over carries its finding, and the
// final report is exactly what was handed over.
TEST(VerdictsAsTheyCome, EachCaseComesOnceInOrderWithWhatTheTraceFound) {
    ASSERT_TRUE(engines().gpu);
    struct Kernel {
        const char* puzzle;
        const char* file;
        FindingKind kind;
    };
    for (const Kernel& k :
         {Kernel{"block-sum", "block-sum-missing-barrier.comp", FindingKind::SharedRace},
          Kernel{"guards", "map-no-guard.comp", FindingKind::OutOfBounds}}) {
        auto p = engines().set.find(k.puzzle);
        ASSERT_TRUE(p.ok()) << k.puzzle;
        Seen seen;
        CheckReport r = checkSeeing(**p, test::sourceDir() + "/tests/data/traced/" + k.file, seen);
        ASSERT_EQ(seen.cases.size(), (*p)->cases.size()) << k.file;
        ASSERT_EQ(r.cases.size(), seen.cases.size());
        size_t withFinding = 0;
        for (size_t i = 0; i < seen.cases.size(); ++i) {
            EXPECT_EQ(seen.sizes[i], i + 1) << k.file << ": one more case each time";
            EXPECT_EQ(seen.cases[i].index, i) << k.file << ": in case order";
            EXPECT_FALSE(seen.done[i]) << k.file << ": a case is handed over before the end";
            EXPECT_EQ(seen.cases[i].pass, r.cases[i].pass) << k.file << " case " << i + 1;
            EXPECT_EQ(seen.cases[i].outputsMatch, r.cases[i].outputsMatch);
            EXPECT_TRUE(seen.cases[i].analysis) << k.file << ": traced when handed over";
            bool found = hasFinding(seen.cases[i], k.kind);
            EXPECT_EQ(found, hasFinding(r.cases[i], k.kind));
            if (found) EXPECT_FALSE(seen.cases[i].pass) << k.file << " case " << i + 1;
            withFinding += found;
        }
        EXPECT_GT(withFinding, 0u) << k.file << ": the finding must come with the verdicts";
        EXPECT_FALSE(r.allPass());
        EXPECT_EQ(r.reached, StageKind::Done);
        EXPECT_GT(r.timing.firstVerdictMs, 0.0);
        EXPECT_LE(r.timing.firstVerdictMs, r.timing.totalMs);
    }
}

} // namespace
} // namespace vkp
