// Undefined values followed (rewrite/undefined_values_rewriter.h, judge/trace_analysis): on
// lavapipe, a butterfly whose lanes in a partly filled subgroup take a missing partner's value
// and drop it passes traced; the same kernel storing a value computed from it fails with the
// undefined shuffle and the line that uses it.
#include <gtest/gtest.h>

#include "base/text_file.h"
#include "check/check.h"
#include "gpu/device_runner.h"
#include "support/engines.h"

namespace vkp {
namespace {

CheckReport checkTraced(const std::string& name) {
    const Puzzle& p = test::puzzleNamed("butterfly");
    const std::string file = test::sourceDir() + "/tests/data/undefined-values/" + name + ".comp";
    auto text = readTextFile(file);
    if (!text) throw std::runtime_error(text.error().message);
    InProcessRunner runner(*test::engines().gpu);
    CheckOptions options;
    options.trace = true;
    return checkProgram(test::engines().compiler, runner, p, {{"kernel", *text, file}}, options);
}

// Case 3 has workgroups of 36: a last subgroup of 4 lanes at 8 or 16 lanes, none at 4.
bool partlyFilledSubgroups() {
    uint32_t lanes = test::engines().gpu->info().subgroupSize;
    return 36 % lanes != 0 && 36 % lanes <= 4;
}

TEST(UndefinedValuesTest, AMissingPartnersValueThatIsDroppedIsRight) {
    ASSERT_TRUE(test::engines().gpu);
    if (!partlyFilledSubgroups()) GTEST_SKIP() << "no partly filled subgroup at this width";
    CheckReport r = checkTraced("butterfly-drops-missing-partner");
    ASSERT_EQ(r.cases.size(), 5u);
    for (const CaseOutcome& c : r.cases) {
        EXPECT_TRUE(c.pass) << "case " << c.index + 1 << ": "
                            << caseFailureDetail(test::puzzleNamed("butterfly"), c);
        ASSERT_TRUE(c.analysis);
        for (const Finding& f : c.analysis->findings)
            EXPECT_NE(f.kind, FindingKind::UndefinedShuffle) << f.message;
    }
}

TEST(UndefinedValuesTest, AMissingPartnersValueThatReachesAStoreFails) {
    ASSERT_TRUE(test::engines().gpu);
    if (!partlyFilledSubgroups()) GTEST_SKIP() << "no partly filled subgroup at this width";
    CheckReport r = checkTraced("butterfly-stores-missing-partner");
    ASSERT_EQ(r.cases.size(), 5u);
    const CaseOutcome& c = r.cases[2];
    EXPECT_FALSE(c.pass);
    ASSERT_TRUE(c.analysis);
    bool found = false;
    for (const Finding& f : c.analysis->findings)
        if (f.kind == FindingKind::UndefinedShuffle) {
            found = true;
            EXPECT_NE(f.message.find("takes lane"), std::string::npos) << f.message;
            EXPECT_NE(f.message.find("the value is used (line 26)"), std::string::npos)
                << f.message;
        }
    EXPECT_TRUE(found);
    EXPECT_TRUE(r.cases[0].pass); // a whole subgroup: every partner is there
}

} // namespace
} // namespace vkp
