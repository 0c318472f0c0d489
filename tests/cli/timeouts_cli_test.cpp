// Issue 19 items 9 and 10 end to end: what the command line says when a worker does not answer or
// crashes, when a case or its trace is too large for the device, and when a loop never ends
// untraced. Real worker processes ($VKPUZZLES_TEST_WORKER makes the worker misbehave), real
// lavapipe; no test depends on the machine's speed: the kernels never finish and the workers never
// answer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;

std::string slow() {
    return "--puzzles " + test::sourceDir() + "/tests/data/slow ";
}
std::string slowKernel(const std::string& name) {
    return test::sourceDir() + "/tests/data/slow/01-slow/" + name;
}

TEST(CliTimeoutsTest, AnEndlessLoopFailsUntracedWithTheLoopBudgetFinding) {
    // lavapipe cuts the loop off after 65535 back-edges and the write after it goes through:
    // without the loop guard this kernel passed every case untraced.
    std::string endless = test::sourceDir() + "/tests/data/wrong/map-endless-loop.comp";
    CliRun r = vkpuzzles("check map " + endless + " --no-trace --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(
        r.out,
        "endless loop?: thread 0 was stopped after 60000 loop iterations in the loop at line 10"))
        << r.out;
    EXPECT_TRUE(has(r.out, "0 of 8 cases pass")) << r.out;
    // Traced, the same finding.
    CliRun traced = vkpuzzles("check map " + endless + " --color never");
    EXPECT_EQ(traced.exit, 1) << traced.out;
    EXPECT_TRUE(has(traced.out, "stopped after 60000 loop iterations in the loop at line 10"))
        << traced.out;
}

// A loop that never ends, whose inner loop is longest on a different lane each round. lavapipe
// runs a subgroup as one SIMD vector and counts the vector's passes through every loop, the last
// pass of each loop too: 10 a round here, where each lane takes 10 only one round in eight. It
// cut the loops off long before any lane had counted 60000, and the check saw a kernel that
// finished: traced it failed only on its reads, untraced it passed every case. Counted per
// subgroup, as lavapipe counts, the loop budget stops it first.
// (tests/data/wrong/map-endless-divergent-loop.comp)
TEST(CliTimeoutsTest, ALoopWhoseLanesTakeTurnsIsStoppedBeforeTheDriverCutsItOff) {
    std::string endless = test::sourceDir() + "/tests/data/wrong/map-endless-divergent-loop.comp";
    CliRun traced = vkpuzzles("check map " + endless + " --color never");
    EXPECT_EQ(traced.exit, 1) << traced.out;
    size_t stopped = 0;
    for (size_t at = traced.out.find("endless loop?"); at != std::string::npos;
         at = traced.out.find("endless loop?", at + 1))
        ++stopped;
    EXPECT_GE(stopped, 7u) << traced.out; // every case
    EXPECT_TRUE(has(traced.out, "was stopped after")) << traced.out;
    // Untraced too, in every case: workgroups of 6, 7 and 4 threads leave lanes of lavapipe's
    // 8-lane vectors empty, and those lanes pass through the loops as well unless the guard
    // sends them out (docs/app.md).
    CliRun plain = vkpuzzles("check map " + endless + " --no-trace --color never");
    EXPECT_EQ(plain.exit, 1) << plain.out;
    EXPECT_TRUE(has(plain.out, "0 of 8 cases pass")) << plain.out;
    for (int c = 1; c <= 7; ++c) {
        CliRun one = vkpuzzles("check map " + endless + " --no-trace --case " + std::to_string(c) +
                               " --color never");
        EXPECT_TRUE(has(one.out, "endless loop?")) << "case " << c << "\n" << one.out;
    }
}

// Counted as lavapipe counts, the end of a loop adds one to the count without a check: there the
// count could pass the budget, and the next back-edge then stopped its loop without the report,
// which only the back-edge that goes one past the budget made. Here a workgroup in three reaches
// the budget at its inner loop's end: before, 16 of case 5's 24 threads and 12 of case 7's 20
// were reported, traced and untraced; now the end of a loop stops counting at the budget.
// (tests/data/wrong/map-endless-loop-around-a-loop.comp; the count per subgroup is lavapipe's.)
TEST(CliTimeoutsTest, ALoopBudgetSpentAtALoopsEndStillReportsEveryThread) {
    std::string endless =
        test::sourceDir() + "/tests/data/wrong/map-endless-loop-around-a-loop.comp";
    for (const char* mode : {"", " --no-trace"}) {
        CliRun r = vkpuzzles("check map " + endless + mode + " --color never");
        EXPECT_EQ(r.exit, 1) << r.out;
        EXPECT_TRUE(has(r.out, "0 of 8 cases pass")) << mode << "\n" << r.out;
        if (*mode) { // untraced, the summary names the first case only: ask for each
            for (const char* c : {"5", "7"})
                r.out +=
                    vkpuzzles("check map " + endless + mode + " --case " + c + " --color never")
                        .out;
        }
        EXPECT_TRUE(has(r.out, "(24 threads ran out)")) << mode << "\n" << r.out; // case 5
        EXPECT_TRUE(has(r.out, "(20 threads ran out)")) << mode << "\n" << r.out; // case 7
    }
}

TEST(CliTimeoutsTest, ACaseOverTheDeviceLimitIsRefusedBeforeAnyDataIsGenerated) {
    // 2^28 floats: 1 GiB, over lavapipe's 128 MiB per storage buffer. Generating the inputs would
    // take gigabytes; the message says nothing was generated.
    CliRun r = vkpuzzles("--puzzles " + test::sourceDir() +
                         "/tests/data/huge check huge --solution --no-trace --color never");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(
        has(r.out, "case 1: buffer 'a' (binding 0) holds 268435456 elements, 1073741824 bytes"))
        << r.out;
    EXPECT_TRUE(has(r.out, "maxStorageBufferRange); nothing was generated or run")) << r.out;
    EXPECT_TRUE(has(r.out, "use a smaller case")) << r.out;
}

TEST(CliTimeoutsTest, ATraceTooLargeNamesTheTraceBufferAndWhatToDo) {
    // 16.7M threads need gigabytes of trace, whatever the device; the puzzle's buffers are small.
    CliRun r = vkpuzzles(slow() + "trace slow " + slowKernel("solution.comp") + " --color never");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(has(r.out, "the trace buffer (not a buffer of the puzzle) would need")) << r.out;
    EXPECT_TRUE(has(r.out, "for 16776960 threads")) << r.out;
    EXPECT_TRUE(has(r.out, "--no-trace")) << r.out;
    EXPECT_FALSE(has(r.out, "binding 0 needs")) << r.out;
}

TEST(CliTimeoutsTest, TraceSaysWhyNoTraceCameBackWhenTheWorkerDoesNotAnswer) {
    CliRun r =
        vkpuzzles("trace map " + test::sourceDir() + "/puzzles/01-map/solution.comp --color never");
    ASSERT_EQ(r.exit, 0) << r.out; // the plain trace works
    CliRun stopped = test::runCommand(
        "VKPUZZLES_TEST_WORKER=stop " + test::binaryPath() + " trace map " + test::sourceDir() +
        "/puzzles/01-map/solution.comp --timeout 1 --color never 2>&1");
    EXPECT_EQ(stopped.exit, 1) << stopped.out;
    EXPECT_TRUE(has(stopped.out, "error: case 1 was not run: the worker process (pid "))
        << stopped.out;
    EXPECT_TRUE(has(stopped.out, "is stopped (by SIGSTOP, a debugger or the shell's job control) "
                                 "and did not answer for 1 s"))
        << stopped.out;
    EXPECT_FALSE(has(stopped.out, "endless loop")) << stopped.out;
}

// --timeout bounds a case's compiling too: pipelines that never get built (the worker's test
// hook) are given up after the case's budget, named as the compile, not after the minutes the
// driver is allowed otherwise (a minute and 30 s a pipeline).
TEST(CliTimeoutsTest, TheCasesBudgetBoundsTheirCompileToo) {
    CliRun r = test::runCommand("VKPUZZLES_TEST_WORKER=stall-pipeline " + test::binaryPath() +
                                " check map --solution --timeout 2 --color never 2>&1");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "error: building the kernel's pipelines (1 in all: one per launch "
                           "shape of the case, each compiled by the device) took longer than 2 s, "
                           "the case's budget, which includes compiling"))
        << r.out;
    EXPECT_TRUE(has(r.out, "Give the cases more time (--timeout)")) << r.out;
    EXPECT_FALSE(has(r.out, "endless loop")) << r.out;
    EXPECT_FALSE(has(r.out, "cases pass")) << r.out;
}

// A budget is spent once: a case that never finished is not run again on fresh random inputs nor
// at the other subgroup sizes, each of which would wait out the budget again (a kernel that uses
// subgroups, on a case with random inputs: before, three more budgets). No timing is asserted:
// what ran is read from the report.
TEST(CliTimeoutsTest, ACaseThatNeverFinishedIsNotRunAgain) {
    std::string dir = test::sourceDir() + "/tests/data/slow-random";
    CliRun r = vkpuzzles("--puzzles " + dir + " check slow-random " + dir +
                         "/01-slow-random/slow.comp --no-trace --timeout 2 --json");
    EXPECT_EQ(r.exit, 1) << r.out;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    ASSERT_EQ(j["cases"].size(), 1u) << r.out;
    EXPECT_EQ(j["cases"][0]["error"]["kind"], "timeout") << r.out;
    EXPECT_FALSE(j.contains("fresh_inputs")) << "run again on fresh inputs: " << r.out;
    EXPECT_FALSE(j.contains("other_subgroup_sizes")) << "run again at other sizes: " << r.out;
}

TEST(CliTimeoutsTest, CheckAllSaysWhyWhenTheWorkerCrashes) {
    CliRun r = test::runCommand("VKPUZZLES_TEST_WORKER=crash " + test::binaryPath() + " " + slow() +
                                "check --all --solution --no-trace --color never 2>&1");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "slow  FAIL  0/1 cases  case 1 the worker process running the kernel "
                           "crashed (it was killed by signal 11"))
        << r.out;
}

} // namespace
} // namespace vkp
