// The isolated worker process: kernels run there, and an endless loop, a crash or a garbled frame
// costs a restart of the worker, never the caller. Real processes, real lavapipe.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>

#include "bench/bench.h"
#include "check/check.h"
#include "puzzle/puzzle_loader.h"
#include "session/live_session.h"
#include "shader/compiler.h"
#include "start_worker.h"
#include "support/test_env.h"
#include "worker/protocol.h"
#include "worker/worker_runner.h"

namespace vkp {
namespace {

using worker::WorkerRunner;

using test::startWorker;

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

// GALLIVM_PERF as a worker process sees it ("" when unset): /proc/PID/environ.
std::string gallivmPerfOf(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
    std::string entry;
    while (std::getline(in, entry, '\0'))
        if (entry.rfind("GALLIVM_PERF=", 0) == 0) return entry.substr(13);
    return "";
}

// A worker that checks asks lavapipe to compile fast (ContextOptions::quickCompile), one that
// benchmarks does not, and a GALLIVM_PERF the user set is theirs either way.
TEST(WorkerTest, ACheckingWorkerCompilesFastABenchmarkingOneAsWellAsItCan) {
    const char* mine = std::getenv("GALLIVM_PERF");
    std::string before = mine ? mine : "";
    ::unsetenv("GALLIVM_PERF");
    ContextOptions checking = test::deviceOptions(), timing = test::deviceOptions();
    checking.quickCompile = true;
    {
        auto w = WorkerRunner::start(VKPUZZLES_BINARY_PATH, checking);
        ASSERT_TRUE(w.ok()) << w.error().str();
        EXPECT_EQ(gallivmPerfOf((*w)->pid()), "nopt");
        EXPECT_TRUE(check(**w, kernel("solution.comp")).allPass());
        auto t = WorkerRunner::start(VKPUZZLES_BINARY_PATH, timing);
        ASSERT_TRUE(t.ok()) << t.error().str();
        EXPECT_EQ(gallivmPerfOf((*t)->pid()), "");
    }
    ::setenv("GALLIVM_PERF", "no_quad_lod", 1);
    {
        auto w = WorkerRunner::start(VKPUZZLES_BINARY_PATH, checking);
        ASSERT_TRUE(w.ok()) << w.error().str();
        EXPECT_EQ(gallivmPerfOf((*w)->pid()), "no_quad_lod");
    }
    if (before.empty())
        ::unsetenv("GALLIVM_PERF");
    else
        ::setenv("GALLIVM_PERF", before.c_str(), 1);
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
    o.timeoutMs = 3000; // generous for any real kernel; the slow one needs minutes to hours
    o.trace = false;
    CheckReport slow = check(*w, kernel("slow.comp"), o);
    ASSERT_EQ(slow.cases.size(), 1u);
    ASSERT_TRUE(slow.cases[0].error.has_value());
    EXPECT_EQ(slow.cases[0].error->kind, ErrorKind::Timeout);
    EXPECT_NE(slow.cases[0].error->message.find(
                  "case 1 did not finish within 3 s: it was given up after running "),
              std::string::npos)
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
    EXPECT_NE(crashed.cases[0].error->message.find("signal 11"), std::string::npos)
        << crashed.cases[0].error->message;
    CheckReport next = check(*w, kernel("solution.comp"));
    EXPECT_TRUE(next.allPass());
    EXPECT_EQ(w->restarts(), 1);
}

// Quitting the app destroys its live session: a check under way in the worker (a traced
// multi-pass check on a software device can take minutes) is interrupted, not waited for. The
// slow kernel needs hours here and its budget is ten minutes, so without the interrupt the
// session would stay for ten minutes.
TEST(WorkerTest, ALiveSessionEndsAtOnceWhileACheckRuns) {
    LiveOptions o;
    o.deviceSelector = test::deviceOptions().deviceSelector;
    o.debounce = std::chrono::milliseconds(0);
    o.timeoutMs = 600000;
    o.trace = false;
    o.runnerFactory = [](const ContextOptions& c) -> Result<std::unique_ptr<DeviceRunner>> {
        auto w = WorkerRunner::start(VKPUZZLES_BINARY_PATH, c);
        if (!w) return w.error();
        return std::unique_ptr<DeviceRunner>(std::move(*w));
    };
    auto session = std::make_unique<LiveSession>(o);
    session->open(slowPuzzle(), kernel("slow.comp"));
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (session->snapshot().status != LiveStatusKind::Running &&
           std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(session->snapshot().status, LiveStatusKind::Running)
        << statusLine(session->snapshot());
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // the dispatch is under way
    auto started = std::chrono::steady_clock::now();
    session.reset();
    auto took = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                                 started);
    EXPECT_LT(took.count(), 300) << "the session waited for the check (its budget: 600 s)";
}

const Puzzle& benchPuzzle() {
    static PuzzleSet set = loadPuzzleSet(test::sourceDir() + "/tests/data/bench");
    return set.puzzles.at(0);
}

Result<BenchReport> bench(DeviceRunner& runner, const std::string& file, uint64_t timeoutMs,
                          uint64_t n = 1u << 16) {
    static Compiler compiler;
    std::string path = test::sourceDir() + "/tests/data/" + file;
    BenchOptions o;
    o.n = n;
    o.reps = 2;
    o.warmupMs = 1;
    o.timeoutMs = timeoutMs;
    return benchProgram(compiler, runner, benchPuzzle(), {{"kernel", *readTextFile(path), path}},
                        *readTextFile(test::sourceDir() + "/shaders/copy.comp"), o);
}

TEST(WorkerTest, BenchmarksRunInTheWorkerAndAnEndlessOneCostsARestart) {
    auto w = startWorker();
    ASSERT_TRUE(w);
    auto first = bench(*w, "bench/01-add-ten/solution.comp", 60000);
    ASSERT_TRUE(first.ok()) << first.error().str();
    EXPECT_TRUE(first->pass);
    EXPECT_EQ(first->repetitionMs.size(), 2u);
    EXPECT_GT(first->shaderCopyGbPerS, 0.0);
    EXPECT_EQ(first->device, w->info().name);
    // The same benchmark in this process gives the same verdict: the worker only moves where it
    // runs.
    auto gpu = GpuContext::create(test::deviceOptions());
    ASSERT_TRUE(gpu.ok());
    InProcessRunner here(**gpu);
    auto local = bench(here, "bench/01-add-ten/solution.comp", 60000);
    ASSERT_TRUE(local.ok());
    EXPECT_EQ(local->pass, first->pass);
    EXPECT_EQ(local->bytesMoved, first->bytesMoved);
    // 4M threads x 60000 rounds of trigonometry: minutes on a 2-core CPU device, far past a 3 s
    // budget on any machine; the worker is stopped, and the next benchmark gets a fresh one.
    pid_t before = w->pid();
    auto slow = bench(*w, "bench-kernels/slow-add-ten.comp", 3000, 1u << 22);
    ASSERT_FALSE(slow.ok());
    EXPECT_EQ(slow.error().kind, ErrorKind::Timeout);
    EXPECT_NE(slow.error().message.find("did not finish within 3 s (an endless loop?)"),
              std::string::npos)
        << slow.error().message;
    EXPECT_NE(slow.error().message.find("restarted"), std::string::npos) << slow.error().message;
    auto again = bench(*w, "bench/01-add-ten/solution.comp", 60000);
    ASSERT_TRUE(again.ok()) << again.error().str();
    EXPECT_TRUE(again->pass);
    EXPECT_EQ(w->restarts(), 1);
    EXPECT_NE(w->pid(), before);
}

TEST(WorkerTest, AMissingExecutableIsAClearError) {
    auto w = WorkerRunner::start("/nonexistent/vkpuzzles", test::deviceOptions());
    ASSERT_FALSE(w.ok());
    EXPECT_NE(w.error().message.find("could not be executed"), std::string::npos)
        << w.error().message;
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
    job.items.push_back(
        {{{4, 2, 1}, {3, 1, 1}, {{3, 9}, {4, 10}}},
         {{0, a, false, 0, 0}, {1, out, true, 0, 16}, {0, out, true, 1, 64, true}}});
    job.prebuild.push_back({{8, 1, 1}, {2, 1, 1}, {{3, 4}, {0x10000, 0x80000002u}}});
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
    ASSERT_EQ(item.buffers.size(), 3u);
    EXPECT_EQ(std::vector<uint32_t>(item.buffers[0].initial.begin(), item.buffers[0].initial.end()),
              a);
    EXPECT_TRUE(item.buffers[1].readBack);
    EXPECT_FALSE(item.buffers[1].packTrace);
    EXPECT_EQ(item.buffers[1].sizeWords, 16u);
    EXPECT_TRUE(item.buffers[2].readBack); // a trace buffer: read back packed
    EXPECT_TRUE(item.buffers[2].packTrace);
    EXPECT_EQ(item.buffers[2].set, 1u);
    EXPECT_FALSE(item.buffers[0].packTrace);
    ASSERT_EQ(back.job.prebuild.size(), 1u); // the later cases' launches
    EXPECT_EQ(back.job.prebuild[0].workgroupSize, (std::array<uint32_t, 3>{8, 1, 1}));
    EXPECT_EQ(back.job.prebuild[0].constants.at(0x10000), 0x80000002u);

    DeviceJobResult r;
    r.pipelineMs = 1.5;
    r.pipelinesBuilt = 7;
    r.items.push_back(RunOutput{{{}, {1, 2, 3}}, 0.25});
    r.items.push_back(Error{ErrorKind::Timeout, "did not finish"});
    worker::Encoder e2;
    worker::encodeJobResult(e2, r);
    Result<DeviceJobResult> got = Error{};
    worker::Decoder d2(e2.bytes());
    ASSERT_TRUE(worker::decodeJobResult(d2, got));
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->pipelineMs, 1.5);
    EXPECT_EQ(got->pipelinesBuilt, 7u);
    EXPECT_EQ(got->items[0]->buffers[1], (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(got->items[1].error().kind, ErrorKind::Timeout);
}

TEST(ProtocolTest, BenchmarksAndTheirRunsRoundTrip) {
    std::vector<uint32_t> k0 = {0x07230203, 9}, k1 = {0x07230203, 8}, a = {1, 2, 3, 4};
    BenchJob job;
    job.kernels = {k0, k1};
    job.pushBytes = 8;
    job.launch = {{256, 1, 1}, {4, 1, 1}, {{3, 8}}};
    job.buffers = {{0, a, 4, false, true, false},
                   {1, {}, 4, false, false, true},
                   {2, {}, 1, true, false, false}};
    job.dispatches = {{1, {2, 1, 1}, {7}, {0, -1, 2}}};
    job.warmups = 3;
    job.warmupMs = 12.5;
    job.reps = 7;
    job.timeoutMs = 900;
    worker::Encoder e;
    worker::encodeBenchJob(e, job);
    worker::OwnedBenchJob back;
    worker::Decoder d(e.bytes());
    ASSERT_TRUE(worker::decodeBenchJob(d, back));
    ASSERT_EQ(back.job.kernels.size(), 2u);
    EXPECT_EQ(std::vector<uint32_t>(back.job.kernels[1].begin(), back.job.kernels[1].end()), k1);
    EXPECT_EQ(back.job.pushBytes, 8u);
    EXPECT_EQ(back.job.launch.constants.at(3), 8u);
    ASSERT_EQ(back.job.buffers.size(), 3u);
    EXPECT_EQ(std::vector<uint32_t>(back.job.buffers[0].initial.begin(),
                                    back.job.buffers[0].initial.end()),
              a);
    EXPECT_TRUE(back.job.buffers[0].restoreEachRep);
    EXPECT_TRUE(back.job.buffers[1].initial.empty());
    EXPECT_TRUE(back.job.buffers[1].readBack);
    EXPECT_TRUE(back.job.buffers[2].zeroEachRep);
    ASSERT_EQ(back.job.dispatches.size(), 1u);
    EXPECT_EQ(back.job.dispatches[0].kernel, 1u);
    EXPECT_EQ(back.job.dispatches[0].bind, (std::vector<int>{0, -1, 2}));
    EXPECT_EQ(back.job.warmups, 3);
    EXPECT_EQ(back.job.warmupMs, 12.5);
    EXPECT_EQ(back.job.reps, 7);
    EXPECT_EQ(back.job.timeoutMs, 900u);

    BenchRun run;
    run.repetitionMs = {1.25, 1.5};
    run.perDispatchMs = {{0.5, 0.75}};
    run.readBack = {{}, {5, 6, 7, 8}, {}};
    run.kernelStats = {{{"Register Count", "46", 46.0, "registers per thread"}}, {}};
    worker::Encoder e2;
    worker::encodeBenchRun(e2, run);
    Result<BenchRun> got = Error{};
    worker::Decoder d2(e2.bytes());
    ASSERT_TRUE(worker::decodeBenchRun(d2, got));
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->repetitionMs, run.repetitionMs);
    EXPECT_EQ(got->perDispatchMs, run.perDispatchMs);
    EXPECT_EQ(got->readBack, run.readBack);
    ASSERT_EQ(got->kernelStats.size(), 2u);
    EXPECT_EQ(got->kernelStats[0][0].value, "46");
    EXPECT_EQ(got->kernelStats[0][0].number, 46.0);
    EXPECT_TRUE(got->kernelStats[1].empty());
    worker::Encoder e3;
    worker::encodeBenchRun(e3, Error{ErrorKind::Timeout, "did not finish"});
    worker::Decoder d3(e3.bytes());
    ASSERT_TRUE(worker::decodeBenchRun(d3, got));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().kind, ErrorKind::Timeout);

    worker::Encoder e4;
    worker::encodeCopyJob(e4, {1u << 20, 5, k0, 250});
    worker::OwnedCopyJob copy;
    worker::Decoder d4(e4.bytes());
    ASSERT_TRUE(worker::decodeCopyJob(d4, copy));
    EXPECT_EQ(copy.job.bytes, 1u << 20);
    EXPECT_EQ(copy.job.reps, 5);
    EXPECT_EQ(std::vector<uint32_t>(copy.job.copyShader.begin(), copy.job.copyShader.end()), k0);
    worker::Encoder e5;
    worker::encodeCopyBandwidth(e5, CopyBandwidth{{0.5, 0.25}, {0.125}});
    Result<CopyBandwidth> bw = Error{};
    worker::Decoder d5(e5.bytes());
    ASSERT_TRUE(worker::decodeCopyBandwidth(d5, bw));
    ASSERT_TRUE(bw.ok());
    EXPECT_EQ(bw->transferMs, (std::vector<double>{0.5, 0.25}));
    EXPECT_EQ(bw->shaderMs, (std::vector<double>{0.125}));
}

TEST(ProtocolTest, GarbledBenchmarksAreRejected) {
    std::vector<uint32_t> k0 = {0x07230203, 9}, a(64, 3);
    BenchJob job;
    job.kernels = {k0};
    job.buffers = {{0, a, 64, false, false, false}};
    job.dispatches = {{0, {1, 1, 1}, {}, {0}}};
    worker::Encoder e;
    worker::encodeBenchJob(e, job);
    const auto& full = e.bytes();
    for (size_t cut : {size_t(0), size_t(5), full.size() / 2, full.size() - 1}) {
        std::vector<uint8_t> part(full.begin(), full.begin() + cut);
        worker::OwnedBenchJob back;
        worker::Decoder d(part);
        EXPECT_FALSE(worker::decodeBenchJob(d, back)) << "cut at " << cut;
    }
    job.dispatches = {{3, {1, 1, 1}, {}, {0}}}; // names a kernel the job lacks
    worker::Encoder bad;
    worker::encodeBenchJob(bad, job);
    worker::OwnedBenchJob back;
    worker::Decoder d(bad.bytes());
    EXPECT_FALSE(worker::decodeBenchJob(d, back));
    job.dispatches.clear();
    job.buffers[0].words = 65; // initial data of another size than the buffer
    worker::Encoder mismatch;
    worker::encodeBenchJob(mismatch, job);
    worker::OwnedBenchJob back2;
    worker::Decoder d2(mismatch.bytes());
    EXPECT_FALSE(worker::decodeBenchJob(d2, back2));
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
    std::vector<uint8_t> huge(full.begin(), full.end());
    huge[0] = huge[1] = huge[2] = huge[3] = 0xff; // a word count far past the payload
    worker::OwnedJob back;
    worker::Decoder d(huge);
    EXPECT_FALSE(worker::decodeJob(d, back));
}

// Each message is described once for both sides (worker/protocol.cpp): every field of a job
// arrives, the compile budget too (it once was left out, and the worker built pipelines with its
// default budget); a device's every fact does; and a cut at any byte is an error, never a crash.
TEST(ProtocolTest, EveryFieldOfAJobAndADeviceArrivesAndEveryCutIsRejected) {
    std::vector<uint32_t> k0 = {0x07230203, 1}, k1 = {0x07230203, 2}, a = {5, 6};
    DeviceJob job;
    job.spirv = k0;
    job.moreKernels = {k1};
    job.pushBytes = 8;
    job.bindings = {0, 1};
    job.otherSets = {{1, 0}};
    job.timeoutMs = 1234;
    job.pipelineTimeoutMs = 5678;
    job.compileInCaseBudget = true;
    job.items.push_back({{{4, 1, 1}, {2, 1, 1}, {{3, 9}}},
                         {{0, a, false, 0, 0}, {1, a, true, 0, 8}},
                         {{1, {2, 1, 1}, {7, 8}, {1, 0}}, {0, {1, 1, 1}, {}, {}}}});
    worker::Encoder e;
    worker::encodeJob(e, job);
    worker::OwnedJob back;
    worker::Decoder d(e.bytes());
    ASSERT_TRUE(worker::decodeJob(d, back));
    const DeviceJob& got = back.job;
    EXPECT_EQ(got.pipelineTimeoutMs, 5678u);
    EXPECT_TRUE(got.compileInCaseBudget);
    EXPECT_EQ(got.pushBytes, 8u);
    ASSERT_EQ(got.moreKernels.size(), 1u);
    EXPECT_EQ(std::vector<uint32_t>(got.moreKernels[0].begin(), got.moreKernels[0].end()), k1);
    ASSERT_EQ(got.items[0].dispatches.size(), 2u);
    EXPECT_EQ(got.items[0].dispatches[0].kernel, 1u);
    EXPECT_EQ(got.items[0].dispatches[0].push, (std::vector<uint32_t>{7, 8}));
    EXPECT_EQ(got.items[0].dispatches[0].bind, (std::vector<int>{1, 0}));
    EXPECT_TRUE(got.items[0].dispatches[1].bind.empty());
    const auto& full = e.bytes();
    for (size_t cut = 0; cut < full.size(); ++cut) {
        std::vector<uint8_t> part(full.begin(), full.begin() + cut);
        worker::OwnedJob partial;
        worker::Decoder pd(part);
        EXPECT_FALSE(worker::decodeJob(pd, partial)) << "cut at " << cut;
    }
    // A dispatch binding some buffers but not all, or naming a kernel past the job's: refused.
    for (auto broken : {std::vector<int>{0}, std::vector<int>{0, 2}}) {
        DeviceJob bad = job;
        bad.items[0].dispatches[0].bind = broken;
        worker::Encoder be;
        worker::encodeJob(be, bad);
        worker::OwnedJob out;
        worker::Decoder bd(be.bytes());
        EXPECT_FALSE(worker::decodeJob(bd, out)) << broken.size();
    }

    DeviceInfo info;
    info.index = 3;
    info.name = "NVIDIA H200";
    info.type = DeviceTypeKind::Discrete;
    info.apiVersion = "1.4.312";
    info.driver = "580";
    info.usable = true;
    info.subgroupSize = 32;
    info.subgroupOperations = 0xff;
    info.shaderFeatures = 7;
    info.maxWorkgroupInvocations = 1024;
    info.maxWorkgroupSize = {1024, 1024, 64};
    info.maxWorkgroupCount = {65535, 65535, 65535};
    info.maxSharedMemoryBytes = 49152;
    info.maxStorageBufferRange = 1ull << 32;
    info.timestampPeriodNs = 1.0f;
    info.robustBufferAccess = true;
    info.pipelineStatistics = true;
    info.lockstepSubgroups = false;
    worker::Encoder ie;
    worker::encodeDeviceInfo(ie, info);
    DeviceInfo same;
    worker::Decoder id(ie.bytes());
    ASSERT_TRUE(worker::decodeDeviceInfo(id, same));
    EXPECT_EQ(same.name, info.name);
    EXPECT_EQ(same.type, info.type);
    EXPECT_EQ(same.subgroupOperations, 0xffu);
    EXPECT_EQ(same.shaderFeatures, 7u);
    EXPECT_EQ(same.maxWorkgroupSize, info.maxWorkgroupSize);
    EXPECT_EQ(same.maxStorageBufferRange, 1ull << 32);
    EXPECT_TRUE(same.pipelineStatistics);
    EXPECT_FALSE(same.lockstepSubgroups);
    std::vector<uint8_t> wrongKind(ie.bytes().begin(), ie.bytes().end());
    // The type follows the index and the name (8 bytes of length, then 12): 99 is no kind.
    wrongKind[4 + 8 + 12] = 99;
    DeviceInfo none;
    worker::Decoder wd(wrongKind);
    EXPECT_FALSE(worker::decodeDeviceInfo(wd, none));
}

} // namespace
} // namespace vkp
