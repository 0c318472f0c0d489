// The isolated worker process: kernels run there, and an endless loop, a crash or a garbled frame
// costs a restart of the worker, never the caller. Real processes, real lavapipe.
#include <gtest/gtest.h>

#include <csignal>

#include "core/puzzle_loader.h"
#include "session/check.h"
#include "shader/compiler.h"
#include "support/test_env.h"
#include "worker/protocol.h"
#include "worker/worker_runner.h"

namespace vkp {
namespace {

using worker::WorkerRunner;

std::unique_ptr<WorkerRunner> startWorker() {
    auto w = WorkerRunner::start(VKPUZZLES_BINARY_PATH, test::deviceOptions());
    EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().str());
    return w.ok() ? std::move(*w) : nullptr;
}

const Puzzle& slowPuzzle() {
    static PuzzleSet set = loadPuzzleSet(test::sourceDir() + "/tests/data/slow");
    return set.puzzles.at(0);
}

std::string kernel(const std::string& name) {
    return *readTextFile(test::sourceDir() + "/tests/data/slow/01-slow/" + name);
}

CheckReport check(WorkerRunner& w, const std::string& source, CheckOptions o = {}) {
    static Compiler compiler;
    return checkKernel(compiler, w, slowPuzzle(), source, "k.comp", o);
}

TEST(WorkerTest, RunsACheckInAnotherProcess) {
    auto w = startWorker();
    ASSERT_TRUE(w);
    EXPECT_GT(w->pid(), 0);
    EXPECT_NE(w->pid(), getpid());
    EXPECT_FALSE(w->info().name.empty());
    CheckReport r = check(*w, kernel("solution.comp"));
    EXPECT_TRUE(r.allPass());
    CheckReport starter = check(*w, kernel("starter.comp"));
    EXPECT_EQ(starter.reached, StageKind::Done);
    EXPECT_FALSE(starter.allPass());
    EXPECT_EQ(w->restarts(), 0);
}

TEST(WorkerTest, ASlowKernelHitsTheBudgetAndTheNextRunSucceeds) {
    auto w = startWorker();
    ASSERT_TRUE(w);
    pid_t first = w->pid();
    CheckOptions o;
    o.timeoutMs = 300; // the slow kernel takes seconds on a CPU
    o.trace = false;
    CheckReport slow = check(*w, kernel("slow.comp"), o);
    ASSERT_EQ(slow.cases.size(), 1u);
    ASSERT_TRUE(slow.cases[0].error.has_value());
    EXPECT_EQ(slow.cases[0].error->kind, ErrorKind::Timeout);
    EXPECT_NE(slow.cases[0].error->message.find("did not finish within 300 ms (an endless loop?)"), std::string::npos)
        << slow.cases[0].error->message;
    EXPECT_NE(slow.cases[0].error->message.find("restarted"), std::string::npos);
    CheckReport next = check(*w, kernel("solution.comp"));
    EXPECT_TRUE(next.allPass());
    EXPECT_EQ(w->restarts(), 1);
    EXPECT_NE(w->pid(), first);
}

TEST(WorkerTest, ACrashedWorkerIsReportedAndRestarted) {
    auto w = startWorker();
    ASSERT_TRUE(w);
    CheckOptions o;
    o.testCrashWorker = true;
    CheckReport crashed = check(*w, kernel("solution.comp"), o);
    ASSERT_EQ(crashed.cases.size(), 1u);
    ASSERT_TRUE(crashed.cases[0].error.has_value());
    EXPECT_EQ(crashed.cases[0].error->kind, ErrorKind::WorkerCrashed);
    EXPECT_NE(crashed.cases[0].error->message.find("signal 11"), std::string::npos) << crashed.cases[0].error->message;
    CheckReport next = check(*w, kernel("solution.comp"));
    EXPECT_TRUE(next.allPass());
    EXPECT_EQ(w->restarts(), 1);
}

TEST(WorkerTest, AMissingExecutableIsAClearError) {
    auto w = WorkerRunner::start("/nonexistent/vkpuzzles", test::deviceOptions());
    ASSERT_FALSE(w.ok());
    EXPECT_NE(w.error().message.find("could not be executed"), std::string::npos) << w.error().message;
}

TEST(WorkerTest, AnUnknownDeviceIsReportedFromTheWorker) {
    auto w = WorkerRunner::start(VKPUZZLES_BINARY_PATH, {"no-such-device-xyz"});
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.error().kind, ErrorKind::Device);
    EXPECT_NE(w.error().message.find("no-such-device-xyz"), std::string::npos) << w.error().message;
}

TEST(ProtocolTest, JobsAndResultsRoundTrip) {
    std::vector<uint32_t> spirv = {0x07230203, 1, 2, 3}, a = {5, 6, 7}, out(3, 0);
    DeviceJob job;
    job.spirv = spirv;
    job.bindings = {0, 1};
    job.otherSets = {{1, 0}};
    job.timeoutMs = 1234;
    job.items.push_back({{{4, 2, 1}, {3, 1, 1}, {{3, 9}, {4, 10}}}, {{0, a, false, 0, 0}, {1, out, true, 0, 16}}});
    worker::Encoder e;
    worker::encodeJob(e, job);
    worker::OwnedJob back;
    worker::Decoder d(e.bytes());
    ASSERT_TRUE(worker::decodeJob(d, back));
    EXPECT_EQ(std::vector<uint32_t>(back.job.spirv.begin(), back.job.spirv.end()), spirv);
    EXPECT_EQ(back.job.bindings, job.bindings);
    EXPECT_EQ(back.job.otherSets[0].set, 1u);
    EXPECT_EQ(back.job.timeoutMs, 1234u);
    ASSERT_EQ(back.job.items.size(), 1u);
    const RunItem& item = back.job.items[0];
    EXPECT_EQ(item.launch.workgroupSize, (std::array<uint32_t, 3>{4, 2, 1}));
    EXPECT_EQ(item.launch.constants.at(4), 10u);
    ASSERT_EQ(item.buffers.size(), 2u);
    EXPECT_EQ(std::vector<uint32_t>(item.buffers[0].initial.begin(), item.buffers[0].initial.end()), a);
    EXPECT_TRUE(item.buffers[1].readBack);
    EXPECT_EQ(item.buffers[1].sizeWords, 16u);

    DeviceJobResult r;
    r.pipelineMs = 1.5;
    r.items.push_back(RunOutput{{{}, {1, 2, 3}}, 0.25});
    r.items.push_back(Error{ErrorKind::Timeout, "did not finish"});
    worker::Encoder e2;
    worker::encodeJobResult(e2, r);
    Result<DeviceJobResult> got = Error{};
    worker::Decoder d2(e2.bytes());
    ASSERT_TRUE(worker::decodeJobResult(d2, got));
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->pipelineMs, 1.5);
    EXPECT_EQ(got->items[0]->buffers[1], (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(got->items[1].error().kind, ErrorKind::Timeout);
}

TEST(ProtocolTest, GarbledPayloadsAreRejectedNotOverrun) {
    std::vector<uint32_t> spirv = {1, 2, 3}, a(100, 7);
    DeviceJob job;
    job.spirv = spirv;
    job.items.push_back({{}, {{0, a, true, 0, 0}}});
    worker::Encoder e;
    worker::encodeJob(e, job);
    const auto& full = e.bytes();
    for (size_t cut : {size_t(0), size_t(3), full.size() / 2, full.size() - 1}) {
        std::vector<uint8_t> part(full.begin(), full.begin() + cut);
        worker::OwnedJob back;
        worker::Decoder d(part);
        EXPECT_FALSE(worker::decodeJob(d, back)) << "cut at " << cut;
    }
    std::vector<uint8_t> huge = full;
    huge[0] = huge[1] = huge[2] = huge[3] = 0xff; // a word count far past the payload
    worker::OwnedJob back;
    worker::Decoder d(huge);
    EXPECT_FALSE(worker::decodeJob(d, back));
}

} // namespace
} // namespace vkp
