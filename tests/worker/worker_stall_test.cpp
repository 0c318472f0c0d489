// A worker that does not answer: stopped (SIGSTOP), or stuck building pipelines. The message says
// which, not "an endless loop?", and it comes after one timeout, not timeout x cases.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "check/check.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "start_worker.h"
#include "support/test_env.h"
#include "worker/worker_runner.h"

namespace vkp {
namespace {

using worker::WorkerRunner;

using test::startWorker;

const Puzzle& mapPuzzle() {
    static PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    return set.puzzles.at(0);
}

CheckReport checkMap(DeviceRunner& w, CheckOptions o) {
    static Compiler compiler;
    const Puzzle& p = mapPuzzle();
    return checkKernel(compiler, w, p, *readTextFile(p.dir + "/solution.comp"), "solution.comp", o);
}

TEST(WorkerStallTest, AStoppedWorkerIsNamedOnceAndTheRestAreNotWaitedFor) {
    auto w = startWorker();
    ASSERT_TRUE(w);
    ASSERT_EQ(::kill(w->pid(), SIGSTOP), 0);
    CheckOptions o;
    o.timeoutMs = 1000;
    o.trace = false;
    CheckReport r = checkMap(*w, o);
    ASSERT_EQ(r.cases.size(), mapPuzzle().cases.size());
    ASSERT_GE(r.cases.size(), 2u);
    for (const CaseOutcome& c : r.cases) {
        ASSERT_TRUE(c.error.has_value());
        EXPECT_FALSE(c.pass);
        EXPECT_EQ(c.error->message.find("endless loop"), std::string::npos) << c.error->message;
    }
    EXPECT_NE(r.cases[0].error->message.find("is stopped (by SIGSTOP, a debugger or the shell's "
                                             "job control) and did not answer for 1 s"),
              std::string::npos)
        << r.cases[0].error->message;
    EXPECT_NE(r.cases[1].error->message.find(
                  "was not run: the worker process did not answer (see the first case)"),
              std::string::npos)
        << r.cases[1].error->message;
    // The stopped worker was replaced: the official solution passes on the next check.
    CheckReport next = checkMap(*w, o);
    EXPECT_TRUE(next.allPass());
    EXPECT_EQ(w->restarts(), 1);
}

TEST(WorkerStallTest, PipelinesThatNeverGetBuiltAreNamedNotCalledAnEndlessLoop) {
    ::setenv("VKPUZZLES_TEST_WORKER", "stall-pipeline", 1); // the worker inherits it
    auto w = startWorker();
    ::unsetenv("VKPUZZLES_TEST_WORKER");
    ASSERT_TRUE(w);
    static Compiler compiler;
    CompileResult k =
        compiler.compile(*readTextFile(mapPuzzle().dir + "/solution.comp"), "solution.comp");
    ASSERT_TRUE(k.ok());
    std::vector<uint32_t> a(64, 1), result(64, 0);
    DeviceJob job;
    job.spirv = k.spirv;
    job.bindings = {0, 1};
    job.items.push_back({LaunchSpec{{64, 1, 1}, {1, 1, 1}, {}}, {{0, a}, {1, result, true}}, {}});
    job.timeoutMs = 1000;
    job.pipelineTimeoutMs = 500;
    auto r = w->run(job);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ErrorKind::Timeout);
    EXPECT_NE(r.error().message.find(
                  "building the kernel's pipelines (1 in all: one per launch shape of the case, "
                  "each compiled by the device) took longer than 500 ms ("),
              std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("so the case did not run (it is not to blame)"),
              std::string::npos)
        << r.error().message;
    EXPECT_NE(r.error().message.find("A kernel this small is not the likely cause"),
              std::string::npos)
        << r.error().message; // map: a few KiB
    EXPECT_EQ(r.error().message.find("endless loop"), std::string::npos) << r.error().message;
}

} // namespace
} // namespace vkp
