// Case files of real traced checks on a device: what the views derive from the opened file (the
// shared memory per barrier round, each thread's traffic, the efficiency lens, the findings) is
// what they derived from the check itself, for a kernel with a race (a detective starter) and for
// every dispatch of a multi-pass case.
#include <gtest/gtest.h>

#include "check/check.h"
#include "puzzle/kernel_sections.h"
#include "report/case_file.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;
using test::puzzleNamed;

CheckReport traced(const Puzzle& p, bool solution, size_t onlyCase) {
    auto sources = readKernelSources(p, solution);
    EXPECT_TRUE(sources.ok());
    CheckOptions o;
    o.trace = true;
    o.onlyCase = onlyCase;
    return checkProgram(engines().compiler, *engines().gpu, p, *sources, o);
}

void expectSameAnalysis(const TraceAnalysis& a, const TraceAnalysis& b, const std::string& what) {
    SCOPED_TRACE(what);
    EXPECT_EQ(a.events, b.events);
    ASSERT_EQ(a.traffic.size(), b.traffic.size());
    for (size_t t = 0; t < a.traffic.size(); ++t)
        EXPECT_TRUE(a.traffic[t].globalReads == b.traffic[t].globalReads &&
                    a.traffic[t].globalWrites == b.traffic[t].globalWrites)
            << "thread " << t;
    ASSERT_EQ(a.rounds.size(), b.rounds.size());
    for (size_t g = 0; g < a.rounds.size(); ++g) {
        ASSERT_EQ(a.rounds[g].size(), b.rounds[g].size()) << "workgroup " << g;
        for (size_t r = 0; r < a.rounds[g].size(); ++r)
            EXPECT_TRUE(a.rounds[g][r].values == b.rounds[g][r].values &&
                        a.rounds[g][r].written == b.rounds[g][r].written)
                << "workgroup " << g << " round " << r;
    }
    ASSERT_EQ(a.findings.size(), b.findings.size());
    for (size_t f = 0; f < a.findings.size(); ++f)
        EXPECT_EQ(a.findings[f].message, b.findings[f].message);
    EXPECT_EQ(a.efficiency.lines.size(), b.efficiency.lines.size());
    EXPECT_EQ(a.efficiency.sites.size(), b.efficiency.sites.size());
    EXPECT_DOUBLE_EQ(a.efficiency.globalEfficiency, b.efficiency.globalEfficiency);
    EXPECT_EQ(a.efficiency.worstBankWays, b.efficiency.worstBankWays);
}

OpenedCaseFile roundTrip(const Puzzle& p, const CheckReport& r, size_t index,
                         const std::string& text) {
    auto file = makeCaseFile(p, r, index, text, engines().gpu->info());
    EXPECT_TRUE(file.ok()) << (file ? "" : file.error().str());
    auto opened = decodeCaseFile(encodeCaseFile(*file), "check.vkpcase");
    EXPECT_TRUE(opened.ok()) << (opened ? "" : opened.error().str());
    return *opened;
}

TEST(CaseFileOfACheck, ARaceReadsTheSameOnOpening) {
    const Puzzle& p = puzzleNamed("missing-barrier");
    CheckReport r = traced(p, false, 0);
    ASSERT_EQ(r.cases.size(), 1u);
    const CaseOutcome& was = r.cases[0];
    ASSERT_TRUE(was.analysis) << "traced";
    ASSERT_TRUE(was.analysis->failsCase()) << "the starter's race is found";
    auto text = readKernelTexts(p, false);
    OpenedCaseFile opened = roundTrip(p, r, 0, *text);
    const CaseOutcome& c = opened.report->cases[0];
    EXPECT_EQ(c.pass, was.pass);
    EXPECT_EQ(opened.file.kernelText, *text);
    EXPECT_EQ(opened.file.device.name, engines().gpu->info().name);
    ASSERT_TRUE(c.analysis);
    expectSameAnalysis(*c.analysis, *was.analysis, "the starter's one dispatch");
}

TEST(CaseFileOfACheck, EveryDispatchOfAMultiPassCase) {
    const Puzzle& p = puzzleNamed("scan-blocks");
    CheckReport r = traced(p, true, 1);
    ASSERT_EQ(r.cases.size(), 1u);
    const CaseOutcome& was = r.cases[0];
    ASSERT_GT(was.dispatches.size(), 1u);
    OpenedCaseFile opened = roundTrip(p, r, 1, *readKernelTexts(p, true));
    const CaseOutcome& c = opened.report->cases[0];
    EXPECT_TRUE(c.pass);
    ASSERT_EQ(c.dispatches.size(), was.dispatches.size());
    for (size_t d = 0; d < c.dispatches.size(); ++d) {
        EXPECT_EQ(c.dispatches[d].label, was.dispatches[d].label);
        EXPECT_EQ(c.dispatches[d].kernel, was.dispatches[d].kernel);
        expectSameAnalysis(*c.dispatches[d].analysis, *was.dispatches[d].analysis,
                           "dispatch " + was.dispatches[d].label);
    }
    // The dispatch on show is the one the check showed, shared with its entry in the list.
    size_t shown = 0;
    while (shown < was.dispatches.size() && was.dispatches[shown].trace != was.trace)
        ++shown;
    ASSERT_LT(shown, c.dispatches.size());
    EXPECT_EQ(c.trace, c.dispatches[shown].trace);
}

} // namespace
} // namespace vkp
