// An edit that changes no code (a comment, a blank line, inside main where learners type) builds
// no pipeline: the device gets the kernel without its debug information and the trace names
// sites, not lines, so the words are the same and the pipelines of the check before serve it.
// What the check says is the same, with the lines where the text now has them. Real lavapipe,
// real shaderc.
#include <gtest/gtest.h>

#include "check/check.h"
#include "check/kernel_text.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;

CheckReport checkText(const Puzzle& p, const std::string& text, bool trace) {
    CheckOptions o;
    o.trace = trace;
    return checkKernel(engines().compiler, *engines().gpu, p, text, "kernel.comp", o);
}

std::vector<uint32_t> raceLines(const CheckReport& r) {
    std::vector<uint32_t> lines;
    for (const CaseOutcome& c : r.cases)
        if (c.analysis)
            for (const Finding& f : c.analysis->findings)
                if (f.kind == FindingKind::SharedRace) lines.push_back(f.line);
    return lines;
}

TEST(UnchangedCode, ACommentAndABlankLineInsideMainBuildNothing) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find("block-sum");
    ASSERT_TRUE(p.ok());
    auto text =
        readTextFile(test::sourceDir() + "/tests/data/traced/block-sum-missing-barrier.comp");
    ASSERT_TRUE(text.ok());
    size_t body = text->find('{', text->find("void main()"));
    ASSERT_NE(body, std::string::npos);
    std::string edited = text->substr(0, body + 1) + "\n    // the sum of my block\n" +
                         text->substr(body + 1); // two lines more above every statement
    for (bool trace : {true, false}) {
        CheckReport before = checkText(**p, *text, trace);
        CheckReport after = checkText(**p, edited, trace);
        ASSERT_EQ(before.cases.size(), after.cases.size());
        EXPECT_EQ(after.timing.pipelines, 0u)
            << (trace ? "traced" : "untraced") << ": the same code builds nothing";
        for (size_t c = 0; c < before.cases.size(); ++c) {
            EXPECT_EQ(before.cases[c].pass, after.cases[c].pass) << "case " << c + 1;
            ASSERT_EQ(before.cases[c].outputs.size(), after.cases[c].outputs.size());
            for (size_t b = 0; b < before.cases[c].outputs.size(); ++b)
                EXPECT_EQ(before.cases[c].outputs[b].actual.words,
                          after.cases[c].outputs[b].actual.words);
        }
        if (!trace) continue;
        std::vector<uint32_t> was = raceLines(before), now = raceLines(after);
        ASSERT_FALSE(was.empty()) << "the missing barrier is found";
        ASSERT_EQ(was.size(), now.size());
        for (size_t i = 0; i < was.size(); ++i)
            EXPECT_EQ(now[i], was[i] + 2) << "the race is where the text now has it";
    }
    // A change of code is new words: its pipelines are built.
    std::string changed = edited;
    changed.replace(changed.find("// the sum of my block"), 22, "uint unused = 1u;");
    CheckReport other = checkText(**p, changed, true);
    EXPECT_GT(other.timing.pipelines, 0u);
}

} // namespace
} // namespace vkp
