// The learner's view of a hidden case (check/hidden_cases.h): the verdict and the kinds of
// failure stay, every number of the case goes.
#include <gtest/gtest.h>

#include "check/hidden_cases.h"

namespace vkp {
namespace {

Puzzle twoCasePuzzle() {
    Puzzle p;
    p.slug = "t";
    p.buffers.push_back({"a", 0, ElementKind::Uint, RoleKind::Input});
    p.buffers.push_back({"result", 1, ElementKind::Uint, RoleKind::Output});
    p.cases.resize(2);
    p.cases[1].hidden = true;
    return p;
}

BufferData uints(std::vector<uint32_t> words) {
    BufferData b;
    b.type = ElementKind::Uint;
    b.shape.dims = {words.size()};
    b.words = std::move(words);
    return b;
}

CaseOutcome failingOutcome(size_t index) {
    CaseOutcome c;
    c.index = index;
    c.gpuMs = 1.5;
    c.inputs = {uints({7777, 7778}), uints({0, 0})};
    BufferOutcome o;
    o.buffer = 1;
    o.expected = uints({7787, 7788});
    o.actual = uints({7788, 7789});
    o.comparison.pass = false;
    o.comparison.mismatchCount = 2;
    o.comparison.mismatches = {{0, 7787, 7788}, {1, 7788, 7789}};
    c.outputs.push_back(o);
    auto a = std::make_shared<TraceAnalysis>();
    Finding f;
    f.kind = FindingKind::OutOfBounds;
    f.message = "thread 419 wrote result[419], past its 419 elements";
    f.line = 12;
    f.threads = {419, 420};
    f.index = 419;
    a->findings = {f, f}; // the same place twice: told once
    c.analysis = a;
    c.trace = std::make_shared<Trace>();
    c.error = Error{ErrorKind::Timeout, "case 2 (448 threads) did not finish in 60 s"};
    c.scheduleTexts = {"held workgroup 6"};
    c.notes = {"you added 11"};
    return c;
}

TEST(HiddenCasesTest, TheViewKeepsTheVerdictAndTheKindsOfFailureOnly) {
    Puzzle p = twoCasePuzzle();
    CaseOutcome h = hiddenCaseView(p, failingOutcome(1));
    EXPECT_TRUE(h.hidden);
    EXPECT_EQ(h.index, 1u);
    EXPECT_FALSE(h.pass);
    EXPECT_TRUE(h.inputs.empty());
    EXPECT_EQ(h.gpuMs, -1);
    EXPECT_FALSE(h.trace);
    EXPECT_FALSE(h.analysis);
    EXPECT_TRUE(h.scheduleTexts.empty());
    EXPECT_EQ(h.notes, std::vector<std::string>{"you added 11"}) << "the puzzle's own words";
    ASSERT_EQ(h.outputs.size(), 1u);
    EXPECT_FALSE(h.outputs[0].comparison.pass);
    EXPECT_EQ(h.outputs[0].comparison.mismatchCount, 0u);
    EXPECT_TRUE(h.outputs[0].comparison.mismatches.empty());
    EXPECT_TRUE(h.outputs[0].expected.words.empty());
    EXPECT_TRUE(h.outputs[0].actual.words.empty());
    ASSERT_EQ(h.runFindings.size(), 1u);
    const Finding& f = h.runFindings[0];
    EXPECT_EQ(f.kind, FindingKind::OutOfBounds);
    EXPECT_EQ(f.line, 12u);
    EXPECT_TRUE(f.threads.empty());
    EXPECT_EQ(f.index, 0u);
    EXPECT_EQ(f.message.find("419"), std::string::npos) << f.message;
    ASSERT_TRUE(h.error);
    EXPECT_EQ(h.error->kind, ErrorKind::Timeout);
    EXPECT_EQ(h.error->message.find("448"), std::string::npos) << h.error->message;
}

TEST(HiddenCasesTest, OnlyTheHiddenCasesOfAReportAreHidden) {
    Puzzle p = twoCasePuzzle();
    CheckReport r;
    r.cases = {failingOutcome(0), failingOutcome(1)};
    hideHiddenCases(r, p);
    EXPECT_FALSE(r.cases[0].hidden);
    EXPECT_EQ(r.cases[0].inputs.size(), 2u) << "a visible case keeps its data";
    EXPECT_TRUE(r.cases[1].hidden);
    EXPECT_TRUE(r.cases[1].inputs.empty());
    EXPECT_TRUE(caseHidden(p, 1));
    EXPECT_FALSE(caseHidden(p, 0));
    EXPECT_FALSE(caseHidden(p, 7));
    CheckReport stopped;
    stopped.error = Error{ErrorKind::Usage, "case 2: workgroup size (2048) is over the limit"};
    hideHiddenCases(stopped, p);
    EXPECT_EQ(stopped.error->message.find("2048"), std::string::npos) << stopped.error->message;
    EXPECT_EQ(stopped.error->message.rfind("case 2 (hidden by your teacher)", 0), 0u);
    CheckReport visible;
    visible.error = Error{ErrorKind::Usage, "case 1: workgroup size (2048) is over the limit"};
    hideHiddenCases(visible, p);
    EXPECT_NE(visible.error->message.find("2048"), std::string::npos) << "case 1 is visible";
}

} // namespace
} // namespace vkp
