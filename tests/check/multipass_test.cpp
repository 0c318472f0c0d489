// Multi-pass checks on lavapipe: every dispatch traced on its own, push constants and ping-pong
// swaps reaching the kernel, known wrong answers named, and the errors of a kernel that does not
// fit its pass.
#include <gtest/gtest.h>

#include "check/check.h"
#include "puzzle/puzzle_loader.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;

const Puzzle& hillisSteele() {
    auto p = engines().set.find("scan-hillis-steele");
    EXPECT_TRUE(p.ok());
    return **p;
}

std::string read(const std::string& path) {
    auto t = readTextFile(path);
    return t ? *t : std::string();
}

CheckReport check(const Puzzle& p, const std::string& text, bool trace = true) {
    CheckOptions o;
    o.trace = trace;
    return checkProgram(engines().compiler, *engines().gpu, p,
                        {{p.kernels[0].name, text, "step.comp"}}, o);
}

TEST(MultipassTest, EachDispatchIsTracedWithItsLabel) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = hillisSteele();
    CheckReport r = check(p, read(p.kernels[0].solutionPath));
    ASSERT_TRUE(r.allPass());
    const CaseOutcome& c = r.cases[1]; // 13 elements: 4 steps
    ASSERT_EQ(c.dispatches.size(), 4u);
    EXPECT_EQ(c.dispatches[0].label, "step (1 of 4)");
    EXPECT_EQ(c.dispatches[3].label, "step (4 of 4)");
    // Step 3 reads 4 back (offset 4): thread 5 reads src[5] and src[1], and writes dst[5].
    const Trace& t = *c.dispatches[2].trace;
    ASSERT_GT(t.threads.size(), 5u);
    std::vector<uint32_t> reads;
    for (const TraceEvent& e : t.threads[5])
        if (e.kind == TraceEventKind::Read) reads.push_back(e.index);
    EXPECT_EQ(reads, (std::vector<uint32_t>{5, 1}));
}

TEST(MultipassTest, APushConstantThatIsIgnoredGivesAWrongScan) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = hillisSteele();
    std::string text = read(p.kernels[0].solutionPath);
    // Always reading one back: every step adds the left neighbour, whatever the offset.
    std::string wrong = text;
    wrong.replace(wrong.find("if (i >= offset) sum += src[i - offset];"), 41,
                  "if (i >= 1u) sum += src[i - 1u];        ");
    CheckReport r = check(p, wrong, false);
    EXPECT_TRUE(r.compiled());
    EXPECT_FALSE(r.allPass());
    EXPECT_TRUE(r.cases[2].pass); // one element: nothing to add
    EXPECT_FALSE(r.cases[0].pass);
}

TEST(MultipassTest, ACopyThatSkipsTheFinalCellsIsCaught) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = hillisSteele();
    std::string text = read(p.kernels[0].solutionPath);
    // Writing only the cells that change: the ping-pong buffer keeps values from two steps ago.
    std::string wrong = text;
    wrong.replace(wrong.find("    dst[i] = sum;"), 17, "    if (i >= offset) dst[i] = sum;");
    CheckReport r = check(p, wrong, false);
    EXPECT_FALSE(r.allPass());
}

TEST(MultipassTest, AMissingPushBlockIsAnInterfaceError) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = hillisSteele();
    std::string text = read(p.kernels[0].solutionPath);
    text.replace(text.find("layout(push_constant) uniform Step { uint offset; };"), 52,
                 "const uint offset = 1u;");
    CheckReport r = check(p, text, false);
    ASSERT_TRUE(hasErrors(r.diagnostics));
    EXPECT_NE(r.diagnostics[0].message.find(
                  "sets the push constant 'offset', but the kernel does not declare it"),
              std::string::npos)
        << r.diagnostics[0].message;
    EXPECT_EQ(r.reached, StageKind::Interface);
}

TEST(MultipassTest, AKernelOfAnotherNameIsNamed) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = hillisSteele();
    std::string text = read(p.kernels[0].solutionPath);
    CheckReport r = checkProgram(engines().compiler, *engines().gpu, p,
                                 {{"step", text, "a.comp"}, {"other", text, "b.comp"}});
    ASSERT_TRUE(r.error.has_value());
    EXPECT_NE(r.error->message.find("'other' is not a kernel of scan-hillis-steele"),
              std::string::npos)
        << r.error->message;
}

TEST(MultipassTest, AKnownWrongAnswerIsExplained) {
    ASSERT_TRUE(engines().gpu);
    PuzzleSet set = loadPuzzleSet(test::sourceDir() + "/tests/data/multipass");
    ASSERT_TRUE(set.errors.empty()) << set.errors[0].str();
    auto p = set.find("tiles");
    ASSERT_TRUE(p.ok());
    const Puzzle& puzzle = **p;
    CheckReport r = checkProgram(engines().compiler, *engines().gpu, puzzle,
                                 {{"tiles", read(puzzle.kernels[0].solutionPath), "tiles.comp"}});
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_FALSE(r.cases[0].pass);
    ASSERT_EQ(r.cases[0].notes.size(), 1u);
    EXPECT_EQ(r.cases[0].notes[0], "each tile of WG elements was scanned on its own");
}

} // namespace
} // namespace vkp
