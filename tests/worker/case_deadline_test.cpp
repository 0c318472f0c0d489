// Each case of a check has its own deadline: a case that never finishes is named with the time it
// really ran, the cases before it keep their results, and the wait is one timeout, not timeout x
// cases. Real worker process, real lavapipe; the stuck case never finishes on any machine.
#include <gtest/gtest.h>

#include <string>

#include "check/check.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "start_worker.h"
#include "support/test_env.h"

namespace vkp {
namespace {

const Puzzle& stuckPuzzle() {
    static PuzzleSet set = loadPuzzleSet(test::sourceDir() + "/tests/data/stuck");
    return set.puzzles.at(0);
}

CheckReport checkStuck(DeviceRunner& runner, const std::string& file) {
    static Compiler compiler;
    CheckOptions o;
    o.timeoutMs = 3000; // generous for the finishing cases; the stuck one needs days
    o.trace = false;
    o.loopGuard = false; // nothing but the deadline stops the stuck case
    return checkKernel(compiler, runner, stuckPuzzle(),
                       *readTextFile(stuckPuzzle().dir + "/" + file), file, o);
}

TEST(CaseDeadlineTest, FinishedCasesKeepTheirResultsAndTheStuckOneIsNamedWithItsOwnDeadline) {
    auto w = test::startWorker();
    ASSERT_TRUE(w);
    CheckReport r = checkStuck(*w, "stuck.comp");
    ASSERT_EQ(r.cases.size(), 4u);
    for (size_t c : {0u, 1u}) {
        EXPECT_FALSE(r.cases[c].error.has_value()) << r.cases[c].error->message;
        EXPECT_TRUE(r.cases[c].pass)
            << "case " << c + 1 << " finished before the stuck one: its results count";
    }
    ASSERT_TRUE(r.cases[2].error.has_value())
        << "pass " << r.cases[2].pass << " gpu ms " << r.cases[2].gpuMs << " run ms "
        << r.timing.runMs
        << (r.cases[2].outputs.empty() ? "" : " " + r.cases[2].outputs[0].actual.format(0));
    EXPECT_EQ(r.cases[2].error->kind, ErrorKind::Timeout);
    const std::string& stuck = r.cases[2].error->message;
    const std::string given = "case 3 did not finish within 3 s: it was given up after running ";
    size_t at = stuck.find(given);
    ASSERT_NE(at, std::string::npos) << stuck;
    double ran = std::stod(stuck.substr(at + given.size()));
    EXPECT_GE(ran, 3.0) << stuck;  // its own whole budget, from when case 2 finished
    EXPECT_LT(ran, 12.0) << stuck; // not the batch's 3 s x 4 cases
    ASSERT_TRUE(r.cases[3].error.has_value());
    EXPECT_NE(r.cases[3].error->message.find("case 4 did not run: an earlier case never finished"),
              std::string::npos)
        << r.cases[3].error->message;
    EXPECT_FALSE(r.allPass());
    EXPECT_EQ(r.passCount(), 2u);
    EXPECT_GE(r.timing.runMs, 3000.0);
    // The worker was restarted: the solution passes every case next.
    CheckReport next = checkStuck(*w, "solution.comp");
    EXPECT_TRUE(next.allPass());
    EXPECT_EQ(w->restarts(), 1);
}

} // namespace
} // namespace vkp
