// Fresh random inputs (check/fresh_inputs.h): the cases with random fills run again on data
// from another seed; a kernel that only knows the fixed data fails there, and the same seed
// draws the same data again.
#include <gtest/gtest.h>

#include "check/fresh_inputs.h"
#include "check/hidden_cases.h"
#include "gpu/device_runner.h"
#include "puzzle/puzzle_loader.h"
#include "support/engines.h"

namespace vkp {
namespace {

// tests/data/fresh-inputs: add ten; case 1 written out, case 2 random (seed 5).
Puzzle puzzle() {
    PuzzleSet set =
        loadPuzzleSet(test::puzzleDir(), {test::sourceDir() + "/tests/data/fresh-inputs"});
    auto p = set.find("fresh-inputs/add");
    if (!p) throw std::runtime_error(p.error().message);
    return **p;
}

std::string kernel(const std::string& body) {
    return R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
)" + body + "\n}\n";
}

// A kernel that knows the answers of the fixed data rather than computing them: right on case
// 1 (written out) and on case 2 (random, seed 5) only.
std::string memorisingKernel(const Puzzle& p) {
    auto fixed = materializeCase(p, 1);
    if (!fixed) throw std::runtime_error(fixed.error().message);
    std::string body = "const int known[8] = int[8](";
    for (uint64_t i = 0; i < 8; ++i)
        body += (i ? ", " : "") + std::to_string(int(fixed->initial[0].get(i)) + 10);
    body += ");\n    result[i] = a[0] == 1 ? a[i] + 10 : known[i];";
    return kernel(body);
}

CheckReport checkWithFresh(const Puzzle& p, const std::string& text, uint64_t seed) {
    InProcessRunner runner(*test::engines().gpu);
    std::vector<KernelSource> sources = {{"kernel", text, "k.comp"}};
    CheckReport r = checkProgram(test::engines().compiler, runner, p, sources, {});
    checkFreshInputs(test::engines().compiler, runner, p, sources, {}, seed, r);
    return r;
}

TEST(FreshInputsTest, AKernelThatKnowsOnlyTheFixedDataFailsOnFreshData) {
    ASSERT_TRUE(test::engines().gpu);
    Puzzle p = puzzle();
    CheckReport r = checkWithFresh(p, memorisingKernel(p), 12345);
    ASSERT_EQ(r.cases.size(), 2u);
    EXPECT_TRUE(r.cases[0].pass && r.cases[1].pass); // the fixed data: right
    ASSERT_TRUE(r.fresh);
    EXPECT_EQ(r.fresh->seed, 12345u);
    EXPECT_EQ(r.fresh->casesRun, 1u); // only the case with random inputs
    ASSERT_EQ(r.fresh->failures.size(), 1u);
    EXPECT_EQ(r.fresh->failures[0].index, 1u);
    EXPECT_NE(r.fresh->failures[0].detail.find("expected"), std::string::npos)
        << r.fresh->failures[0].detail;
    EXPECT_FALSE(r.allPass());
    // A hidden case's failure keeps no data.
    p.cases[1].hidden = true;
    hideHiddenCases(r, p);
    EXPECT_TRUE(r.fresh->failures[0].detail.empty());
}

TEST(FreshInputsTest, ARightKernelPassesAndTheSameSeedDrawsTheSameData) {
    ASSERT_TRUE(test::engines().gpu);
    Puzzle p = puzzle();
    CheckReport r = checkWithFresh(p, kernel("result[i] = a[i] + 10;"), freshSeed());
    ASSERT_TRUE(r.fresh);
    EXPECT_TRUE(r.fresh->pass());
    EXPECT_TRUE(r.allPass());
    TestCase a = p.cases[1], b = p.cases[1], c = p.cases[1];
    reseedRandomInputs(a, 777);
    reseedRandomInputs(b, 777);
    reseedRandomInputs(c, 778);
    EXPECT_EQ(a.data[0]->seed, b.data[0]->seed);
    EXPECT_NE(a.data[0]->seed, c.data[0]->seed);
    EXPECT_NE(a.data[0]->seed, p.cases[1].data[0]->seed);
    EXPECT_TRUE(hasRandomInputs(p.cases[1]));
    EXPECT_FALSE(hasRandomInputs(p.cases[0]));
}

TEST(FreshInputsTest, APuzzleWithoutRandomInputsRunsNothingMore) {
    ASSERT_TRUE(test::engines().gpu);
    Puzzle p = puzzle();
    p.cases.pop_back();
    CheckReport r = checkWithFresh(p, kernel("result[i] = a[i] + 10;"), 1);
    EXPECT_FALSE(freshInputsApply(p, r));
    EXPECT_FALSE(r.fresh);
    EXPECT_TRUE(r.allPass());
}

} // namespace
} // namespace vkp
