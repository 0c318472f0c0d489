// What buffers hold when a kernel starts (issue 37, adversarial inputs): an output starts poisoned
// unless its puzzle says it starts as zeros, so a kernel that skips cells expected to be 0, or
// adds to an output it never set, fails; a kernel that changes an input fails, traced or not.
#include <gtest/gtest.h>

#include "check/check.h"
#include "puzzle/puzzle_loader.h"
#include "support/engines.h"

namespace vkp {
namespace {

// Keep the non-zero elements in place: result[i] = a[i], and 0 where a[i] is 0.
std::string puzzleText(bool zeroed) {
    return std::string(R"(
title = "Keep"
track = "test"
order = 1
statement = "result[i] = a[i]"
hints = ["one"]
[[buffers]]
name = "a"
binding = 0
type = "int"
role = "input"
[[buffers]]
name = "result"
binding = 1
type = "int"
role = "output"
)") + (zeroed ? "zeroed = true\n" : "") +
           R"([[cases]]
workgroup_size = [8]
workgroups = [1]
inputs.a = { shape = [8], values = [0, 5, 0, 7, -3, 0, 0, 2] }
expected.result = { each = "a[i]" }
)";
}

Puzzle keepPuzzle(bool zeroed) {
    auto p = parsePuzzle(puzzleText(zeroed), "keep.toml", "/tmp/01-keep");
    if (!p) throw std::runtime_error(p.error().str());
    return *p;
}

std::string kernel(const std::string& body) {
    return R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
)" + body + "\n}\n";
}

CheckReport check(const Puzzle& p, const std::string& body, bool trace) {
    CheckOptions o;
    o.trace = trace;
    return checkKernel(test::engines().compiler, *test::engines().gpu, p, kernel(body), "k.comp",
                       o);
}

const BufferOutcome& result(const CheckReport& r) {
    return r.cases.at(0).outputs.at(0);
}

TEST(InitialDataTest, AnOutputStartsPoisonedSoASkippedCellIsWrong) {
    ASSERT_TRUE(test::engines().gpu);
    Puzzle p = keepPuzzle(false);
    for (bool trace : {false, true}) {
        CheckReport skips = check(p, "if (a[i] != 0) result[i] = a[i];", trace);
        ASSERT_EQ(skips.cases.size(), 1u);
        EXPECT_FALSE(skips.allPass()) << "traced " << trace;
        const BufferOutcome& b = result(skips);
        EXPECT_EQ(b.comparison.mismatchCount, 4u); // the four cells expected to be 0
        EXPECT_EQ(b.actual.format(0), "unwritten");
        EXPECT_EQ(b.actual.words[0], poisonWord(ElementKind::Int));
        // Adding to a cell never set: the poison plus the value.
        CheckReport adds = check(p, "result[i] += a[i];", trace);
        EXPECT_FALSE(adds.allPass()) << "traced " << trace;
        // Every cell written: right.
        EXPECT_TRUE(check(p, "result[i] = a[i];", trace).allPass()) << "traced " << trace;
    }
}

TEST(InitialDataTest, AnOutputTheStatementZeroesStartsAsZeros) {
    ASSERT_TRUE(test::engines().gpu);
    Puzzle p = keepPuzzle(true);
    EXPECT_TRUE(p.buffers[1].zeroed);
    EXPECT_TRUE(check(p, "if (a[i] != 0) result[i] = a[i];", false).allPass());
    EXPECT_TRUE(check(p, "result[i] += a[i];", true).allPass());
}

TEST(InitialDataTest, AKernelThatChangesItsInputFailsTracedOrNot) {
    ASSERT_TRUE(test::engines().gpu);
    Puzzle p = keepPuzzle(false);
    for (bool trace : {false, true}) {
        // Right values, but a is used as scratch space on the way.
        CheckReport r = check(p, "a[i] = a[i] * 2; result[i] = a[i] / 2;", trace);
        ASSERT_EQ(r.cases.size(), 1u);
        const CaseOutcome& c = r.cases[0];
        EXPECT_TRUE(c.outputsMatch) << "traced " << trace;
        EXPECT_FALSE(c.pass) << "traced " << trace;
        ASSERT_EQ(c.runFindings.size(), 1u) << "traced " << trace;
        const Finding& f = c.runFindings[0];
        EXPECT_EQ(f.kind, FindingKind::InputWritten);
        EXPECT_EQ(f.index, 1u); // a[0] is 0: doubled, unchanged
        EXPECT_EQ(f.message,
                  "the kernel changed its input 'a': a[1] was 5, and is 10 after the run "
                  "(4 cells changed). Inputs are read-only: keep what you compute in an "
                  "output or in shared memory");
    }
    // Writing an input's cell with the value it had changes nothing: no finding.
    CheckReport same = check(p, "a[i] = a[i]; result[i] = a[i];", false);
    EXPECT_TRUE(same.allPass());
}

} // namespace
} // namespace vkp
