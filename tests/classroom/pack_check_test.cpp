// `pack check` of one puzzle (classroom/pack_check.h) on lavapipe: a weak puzzle's survivors are
// named with their line and counted against it; a puzzle the device cannot run is loaded and
// linted but neither run nor failed, and the others still run. (Every bundled puzzle's full
// check, mutants and all, is the content tier, pack_check_FOLDER; the command's output is
// tests/cli/pack_check_cli_test.cpp's.)
#include <gtest/gtest.h>

#include "classroom/pack_check.h"
#include "gpu/device_runner.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;
using test::puzzleNamed;

// The deliberately weak puzzle of tests/data/packcheck: one case of one workgroup as wide as the
// array, so a kernel that uses the local id for the global one passes it.
TEST(PackCheck, AWeakPuzzlesSurvivorsAreNamedAndFailTheCheck) {
    ASSERT_TRUE(engines().gpu);
    PuzzleSet set = loadPuzzleSet(test::sourceDir() + "/tests/data/packcheck/weak");
    auto found = set.find("one-block");
    ASSERT_TRUE(found.ok()) << found.error().message;
    InProcessRunner runner(*engines().gpu);
    size_t calls = 0, lastTotal = 0;
    PuzzleCheckOutcome o =
        packCheckPuzzle(engines().compiler, runner, **found, {}, [&](size_t done, size_t total) {
            EXPECT_LE(done, total);
            ++calls;
            lastTotal = total;
        });
    EXPECT_FALSE(o.solutionProblem) << *o.solutionProblem;
    EXPECT_FALSE(o.starterProblem) << *o.starterProblem;
    EXPECT_TRUE(o.skipped.empty()) << o.skipped;
    EXPECT_GT(calls, 0u) << "progress is told for each mutant";
    EXPECT_GT(o.count(MutantFateKind::Killed), 0u);
    bool localForGlobal = false;
    for (const MutantOutcome& m : o.mutants) {
        if (m.fate != MutantFateKind::Survived) continue;
        EXPECT_TRUE(m.killedBy.empty()) << m.killedBy;
        localForGlobal =
            localForGlobal || (m.mutant.line == 7 && m.mutant.before == "gl_GlobalInvocationID" &&
                               m.mutant.after == "gl_LocalInvocationID");
    }
    EXPECT_TRUE(localForGlobal) << "the local id for the global one survives the one workgroup";
    EXPECT_LT(o.killRate(), 1.0);
    EXPECT_FALSE(o.ok()) << "a survivor fails the check";
    EXPECT_EQ(lastTotal, o.mutants.size()) << "the last call says every mutant is done";
}

TEST(PackCheck, APuzzleTheDeviceCannotRunIsSkippedNotFailed) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = puzzleNamed("matmul-tensor-cores");
    InProcessRunner runner(*engines().gpu);
    PuzzleCheckOutcome o = packCheckPuzzle(engines().compiler, runner, p, {});
    EXPECT_NE(o.skipped.find("lacks cooperative matrix"), std::string::npos) << o.skipped;
    EXPECT_TRUE(o.ok()) << "a puzzle the device cannot run is not failed";
    EXPECT_FALSE(o.solutionProblem);
    EXPECT_FALSE(o.starterProblem);
    EXPECT_TRUE(o.mutants.empty());
    for (const Diagnostic& d : o.lint)
        EXPECT_NE(d.severity, SeverityKind::Error) << d.str();
    // Another puzzle still runs.
    PackCheckOptions quick;
    quick.mutants = false;
    PuzzleCheckOutcome map = packCheckPuzzle(engines().compiler, runner, puzzleNamed("map"), quick);
    EXPECT_TRUE(map.skipped.empty()) << map.skipped;
    EXPECT_TRUE(map.ok());
}

} // namespace
} // namespace vkp
