#include "worker/worker_runner.h"

#include <csignal>
#include <cstdlib>
#include <cstring>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>
#include <thread>

#include "base/os.h"
#include "base/process.h"
#include "gpu/context.h"
#include "worker/protocol.h"

namespace vkp::worker {
namespace {

constexpr int kStartupMs = 30000; // opening a device (lavapipe: ~0.1 s)
constexpr int kMarginMs = 10000;  // pipelines and read-back beyond the dispatches

std::string seconds(uint64_t ms) {
    if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
    return std::to_string(ms) + " ms";
}

enum class WaitKind { Ready, Late, Stopped };

// Waits until the worker's answer is readable, at most deadlineMs; gives up once the worker has
// been stopped for stoppedMs (a stopped worker would otherwise cost the whole deadline, timeout x
// cases).
WaitKind waitForWorker(ChildProcess& worker, uint64_t deadlineMs, uint64_t stoppedMs) {
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    std::optional<Clock::time_point> stoppedSince;
    auto msSince = [](Clock::time_point t) {
        return static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count());
    };
    for (;;) {
        uint64_t elapsed = msSince(start);
        // A worker stopped at the deadline is stopped, not late (a case's budget may be as short
        // as the time a stopped worker is given).
        if (elapsed >= deadlineMs) return worker.isStopped() ? WaitKind::Stopped : WaitKind::Late;
        if (worker.answers().waitReadable(
                static_cast<int>(std::min<uint64_t>(200, deadlineMs - elapsed))))
            return WaitKind::Ready;
        if (!worker.isStopped()) {
            stoppedSince.reset();
            continue;
        }
        if (!stoppedSince) stoppedSince = Clock::now();
        if (msSince(*stoppedSince) >= stoppedMs) return WaitKind::Stopped;
    }
}

// Why a job's pipelines did not come: the case's budget, if it was that, or the kernel's size says
// whether it is the likely cause.
std::string pipelineLateText(const DeviceJob& job, size_t pipelines, uint64_t pipelineMs) {
    constexpr uint64_t kLargeKernelBytes = 256 * 1024; // puzzle kernels are a few KiB
    uint64_t bytes = job.spirv.size_bytes();
    for (std::span<const uint32_t> k : job.moreKernels)
        bytes += k.size_bytes();
    std::string text =
        "building the kernel's pipelines (" + std::to_string(pipelines) +
        " in all: one per launch shape of the case, each compiled by the device) took longer "
        "than " +
        seconds(pipelineMs) +
        (job.compileInCaseBudget ? ", the case's budget, which includes compiling" : "") +
        " (its SPIR-V is " + std::to_string(bytes / 1024) +
        " KiB), so the case did not run (it is not to blame); the worker was restarted. ";
    if (job.compileInCaseBudget)
        return text + "Give the cases more time (--timeout), or make the kernel smaller (long "
                      "unrolled loops and big constant arrays take the driver long to compile)";
    if (bytes >= kLargeKernelBytes)
        return text + "A kernel that large (long unrolled loops, big constant arrays) takes the "
                      "driver too long to compile: make it smaller";
    return text + "A kernel this small is not the likely cause: the driver or the machine was "
                  "stuck or overloaded; check again";
}

bool anyItemFailed(const Result<DeviceJobResult>& r, ErrorKind kind) {
    if (!r) return r.error().kind == kind;
    for (const auto& item : r->items)
        if (!item && item.error().kind == kind) return true;
    return false;
}

} // namespace

std::string selfExecutable() {
    std::string self = os::executablePath();
    return self.empty() ? std::string("vkpuzzles") : self;
}

Result<std::unique_ptr<WorkerRunner>> WorkerRunner::start(std::string executable,
                                                          ContextOptions options) {
    std::unique_ptr<WorkerRunner> w(new WorkerRunner(std::move(executable), std::move(options)));
    if (auto s = w->spawn(); !s) return s.error();
    return w;
}

WorkerRunner::~WorkerRunner() {
    stop();
}

Status WorkerRunner::spawn() {
    std::vector<std::string> args = {"--worker"};
    if (!m_options.deviceSelector.empty())
        args.insert(args.end(), {"--device", m_options.deviceSelector});
    if (m_options.validation) args.push_back("--validation");
    // Its environment: ours, and what asks the driver to compile fast where it checks.
    // A worker at other subgroup lanes: lavapipe's width and a shader cache of its own replace
    // what we have.
    std::vector<std::string> ours = os::environmentEntries();
    std::vector<std::string> lanes;
    if (m_options.subgroupLanes) lanes = cpuLanesEnvironment(m_options.subgroupLanes, ours);
    const std::string cacheDir = "MESA_SHADER_CACHE_DIR=";
    for (const std::string& l : lanes)
        if (l.rfind(cacheDir, 0) == 0) { // Mesa makes the last folder only; without it, no cache
            std::error_code ec;
            std::filesystem::create_directories(os::toPath(l.substr(cacheDir.size())), ec);
        }
    auto replaced = [&](std::string_view entry) {
        for (const std::string& l : lanes)
            if (entry.substr(0, entry.find('=')) == std::string_view(l).substr(0, l.find('=')))
                return true;
        return false;
    };
    std::vector<std::string> environment;
    for (const std::string& e : ours)
        if (!replaced(e)) environment.push_back(e);
    environment.insert(environment.end(), lanes.begin(), lanes.end());
    if (m_options.quickCompile)
        for (const EnvironmentSetting& s : kQuickCompileEnvironment)
            if (os::environmentVariable(s.name).empty())
                environment.push_back(std::string(s.name) + "=" + s.value);
    if (auto s = m_worker.start(m_exe, args, environment); !s)
        return Error{ErrorKind::Device, "the worker process (" + m_exe +
                                            " --worker) did not start: " + s.error().message};
    m_livePid = m_worker.id();
    FrameKind kind;
    Bytes payload;
    if (!m_worker.answers().waitReadable(kStartupMs) ||
        !readFrame(m_worker.answers(), kind, payload) || kind != FrameKind::Hello) {
        stop();
        return Error{ErrorKind::Device,
                     "the worker process (" + m_exe + " --worker) did not start: " + exitText()};
    }
    Decoder d(payload);
    uint32_t ok = 0;
    if (!d.u32(ok)) return Error{ErrorKind::Internal, "garbled greeting from the worker process"};
    if (!ok) {
        Error e;
        decodeError(d, e);
        stop();
        return e;
    }
    if (!decodeDeviceInfo(d, m_info))
        return Error{ErrorKind::Internal, "garbled device info from the worker process"};
    return okStatus();
}

void WorkerRunner::interrupt() {
    killProcess(m_livePid.load());
}

void WorkerRunner::stop() {
    m_livePid = -1;
    m_worker.kill();
}

std::string WorkerRunner::exitText() {
    return m_worker.endText();
}

Result<DeviceJobResult> WorkerRunner::failAll(const DeviceJob& job, const Error& e) {
    // The first case gets the reason; the rest were never tried (nor waited for again).
    DeviceJobResult r;
    for (size_t i = 0; i < job.items.size(); ++i)
        r.items.push_back(
            i == 0 ? e
                   : Error{e.kind, "was not run: " +
                                       std::string(e.kind == ErrorKind::WorkerCrashed
                                                       ? "the worker process crashed"
                                                       : "the worker process did not answer") +
                                       " (see the first case)"});
    return r;
}

Status WorkerRunner::send(FrameKind kind, const Encoder& e) {
    if (m_worker.id() < 0) {
        if (auto s = spawn(); !s) return s.error();
        ++m_restarts;
    }
    if (!writeFrame(m_worker.requests(), kind, e.bytes())) return crashed();
    return okStatus();
}

Error WorkerRunner::crashed() {
    // The worker is gone: reap it to learn how, then report; the next job starts a new one.
    m_worker.hasEnded();
    stop();
    return Error{ErrorKind::WorkerCrashed, "the worker process running the kernel crashed (" +
                                               exitText() + "); it was restarted"};
}

Result<FrameKind> WorkerRunner::receive(Bytes& payload, uint64_t deadlineMs, uint64_t stoppedMs,
                                        const std::string& late, bool* wasLate) {
    int pid = m_worker.id();
    WaitKind waited = waitForWorker(m_worker, deadlineMs, stoppedMs);
    if (waited == WaitKind::Stopped) {
        stop();
        return Error{ErrorKind::Timeout, "was not run: the worker process (pid " +
                                             std::to_string(pid) +
                                             ") is stopped (by SIGSTOP, a debugger or the shell's "
                                             "job control) and did not answer for " +
                                             seconds(stoppedMs) +
                                             "; it was restarted, so the next check runs normally"};
    }
    if (waited == WaitKind::Late) {
        stop();
        if (wasLate) *wasLate = true;
        return Error{ErrorKind::Timeout, late};
    }
    FrameKind got;
    if (!readFrame(m_worker.answers(), got, payload)) return crashed();
    return got;
}

Result<Bytes> WorkerRunner::exchange(FrameKind kind, const Encoder& e, FrameKind answer,
                                     uint64_t deadlineMs, uint64_t budgetMs) {
    if (auto s = send(kind, e); !s) return s.error();
    Bytes payload;
    // The worker times its own dispatches; not answering past that is a hung driver.
    auto got =
        receive(payload, deadlineMs, budgetMs,
                "did not finish: the worker process did not answer within " + seconds(deadlineMs) +
                    ", though it gives up on a dispatch after " + seconds(budgetMs) +
                    " itself (a hung driver?); the worker was restarted");
    if (!got) return got.error();
    if (*got != answer) return crashed();
    return payload;
}

Error WorkerRunner::restartedAfter(const Error& e) {
    stop();
    return Error{e.kind, e.message + "; the worker process was restarted", e.where, e.vkResult};
}

Result<DeviceJobResult> WorkerRunner::run(const DeviceJob& job) {
    Encoder e;
    encodeJob(e, job);
    uint64_t perItem = job.timeoutMs ? job.timeoutMs : defaultTimeoutMs(m_info);
    size_t pipelines = GpuKernel::pipelinesOf(job.items);
    uint64_t pipelineMs =
        job.pipelineTimeoutMs ? job.pipelineTimeoutMs : GpuKernel::buildBudgetMs(pipelines);
    if (auto s = send(FrameKind::Job, e); !s) return failAll(job, s.error());
    // First the pipelines (Progress), then the dispatches (Result); a setup error skips Progress.
    Bytes payload;
    bool late = false;
    auto got =
        receive(payload, pipelineMs, perItem, pipelineLateText(job, pipelines, pipelineMs), &late);
    if (got && *got == FrameKind::Progress) {
        // The worker gives a case up one budget after the case before it finished
        // (GpuKernel::runAll), so the cases take at most one budget each; one more is slack.
        uint64_t deadline = perItem * (std::max<size_t>(1, job.items.size()) + 1) + kMarginMs;
        got = receive(payload, deadline, perItem,
                      "did not finish: the worker process did not answer within " +
                          seconds(deadline) + ", though it gives up on a dispatch after " +
                          seconds(perItem) + " itself (a hung driver?); the worker was restarted");
    }
    if (got && *got != FrameKind::Result) got = crashed();
    if (!got) return late ? Result<DeviceJobResult>(got.error()) : failAll(job, got.error());
    Decoder d(payload);
    Result<DeviceJobResult> r =
        Error{ErrorKind::Internal, "garbled result from the worker process"};
    if (!decodeJobResult(d, r)) {
        stop();
        return Error{ErrorKind::Internal, "garbled result from the worker process"};
    }
    // After a timeout or a lost device the worker's device is unusable: start afresh next time.
    if (anyItemFailed(r, ErrorKind::Timeout) || anyItemFailed(r, ErrorKind::DeviceLost)) {
        stop();
        if (r)
            for (auto& item : r->items)
                if (!item)
                    item = Error{item.error().kind,
                                 item.error().message + "; the worker process was restarted",
                                 item.error().where, item.error().vkResult};
    }
    return r;
}

template <class T>
Result<T> WorkerRunner::settle(Result<Bytes> payload, bool (*decode)(Decoder&, Result<T>&),
                               const std::string& what) {
    if (!payload) return payload.error();
    Decoder d(*payload);
    Result<T> r = Error{ErrorKind::Internal, "garbled " + what + " from the worker process"};
    if (!decode(d, r)) {
        stop();
        return Error{ErrorKind::Internal, "garbled " + what + " from the worker process"};
    }
    if (!r && (r.error().kind == ErrorKind::Timeout || r.error().kind == ErrorKind::DeviceLost))
        return restartedAfter(r.error());
    return r;
}

Result<BenchRun> WorkerRunner::bench(const BenchJob& job) {
    Encoder e;
    encodeBenchJob(e, job);
    // The worker times every submission itself; this only catches a driver that hangs anyway.
    uint64_t budget = job.timeoutMs *
                      static_cast<uint64_t>(2 * (job.warmups + job.reps) + job.buffers.size() + 8);
    auto payload =
        exchange(FrameKind::Bench, e, FrameKind::BenchResult,
                 static_cast<uint64_t>(job.warmupMs) + budget + kMarginMs, job.timeoutMs);
    return settle(std::move(payload), decodeBenchRun, "benchmark result");
}

Result<CopyBandwidth> WorkerRunner::copyBandwidth(const CopyJob& job) {
    Encoder e;
    encodeCopyJob(e, job);
    constexpr uint64_t kCopyBudgetMs = 3 * 120000; // measureCopy's three submissions
    auto payload =
        exchange(FrameKind::Copy, e, FrameKind::CopyResult,
                 static_cast<uint64_t>(job.warmupMs) + kCopyBudgetMs + kMarginMs, kCopyBudgetMs);
    return settle(std::move(payload), decodeCopyBandwidth, "copy measurement");
}

namespace {

// Tests only: $VKPUZZLES_TEST_WORKER makes the worker misbehave on every job (crash, stop,
// stall-pipeline), so the command line's reports of a lost worker can be tested end to end.
bool testHook(const char* what) {
    const char* hook = std::getenv("VKPUZZLES_TEST_WORKER");
    return hook && std::strcmp(hook, what) == 0;
}

// Tests only: "crash-at-N" crashes a worker whose device has N lanes on every job (the runs at
// other subgroup sizes), or only on the first where $VKPUZZLES_TEST_WORKER_MARK names a file
// (made then: a crash the machine caused once).
bool crashesHere(const DeviceInfo& device) {
    const char* hook = std::getenv("VKPUZZLES_TEST_WORKER");
    if (!hook || hook != "crash-at-" + std::to_string(device.subgroupSize)) return false;
    const char* mark = std::getenv("VKPUZZLES_TEST_WORKER_MARK");
    if (!mark) return true;
    if (std::filesystem::exists(mark)) return false;
    std::ofstream(mark) << "crashed\n";
    return true;
}

// A benchmark's or copy measurement's answer: decoded, run, encoded; `lost` when the device was.
template <class Owned, class Out, class Run>
void serve(Decoder& d, Encoder& e, bool (*decode)(Decoder&, Owned&), Run run,
           void (*encode)(Encoder&, const Result<Out>&), const std::string& what, bool& lost) {
    Owned job;
    Result<Out> r = Error{ErrorKind::Internal, "garbled " + what + " sent to the worker process"};
    if (decode(d, job)) r = run(job.job);
    encode(e, r);
    lost = !r && r.error().kind == ErrorKind::DeviceLost;
}

// The worker's answer to one frame: the frame kind of the answer and its payload.
std::pair<FrameKind, Encoder> answer(InProcessRunner& runner, FrameKind kind, const Bytes& payload,
                                     bool& mustLeave) {
    Decoder d(payload);
    Encoder e;
    if (kind == FrameKind::Bench) {
        serve(
            d, e, decodeBenchJob, [&](const BenchJob& j) { return runner.bench(j); },
            encodeBenchRun, "benchmark", mustLeave);
        return {FrameKind::BenchResult, std::move(e)};
    }
    if (kind == FrameKind::Copy) {
        serve(
            d, e, decodeCopyJob, [&](const CopyJob& j) { return runner.copyBandwidth(j); },
            encodeCopyBandwidth, "copy measurement", mustLeave);
        return {FrameKind::CopyResult, std::move(e)};
    }
    OwnedJob job;
    Result<DeviceJobResult> r =
        Error{ErrorKind::Internal, "garbled job sent to the worker process"};
    if (decodeJob(d, job)) {
        if (job.job.testCrash || testHook("crash") || crashesHere(runner.info()))
            std::raise(SIGSEGV);                     // tests only: a crash of the process
        if (testHook("stop")) os::stopThisProcess(); // tests only: a worker that does not answer
        while (testHook("stall-pipeline"))           // tests only: pipelines never built
            std::this_thread::sleep_for(std::chrono::hours(1));
        r = runner.run(job.job);
    }
    encodeJobResult(e, r);
    mustLeave = anyItemFailed(r, ErrorKind::DeviceLost);
    return {FrameKind::Result, std::move(e)};
}

} // namespace

int runWorker(PipeEnd& in, PipeEnd& out, const ContextOptions& options) {
    auto gpu = GpuContext::create(options);
    Encoder hello;
    hello.u32(gpu.ok());
    if (!gpu)
        encodeError(hello, gpu.error());
    else
        encodeDeviceInfo(hello, (*gpu)->info());
    if (!writeFrame(out, FrameKind::Hello, hello.bytes()) || !gpu) return gpu ? 1 : 2;
    InProcessRunner runner(**gpu);
    // The app gives pipelines and dispatches separate deadlines: say when one ends and the other
    // starts.
    runner.onPipelinesBuilt([&out] { writeFrame(out, FrameKind::Progress, {}); });
    FrameKind kind;
    Bytes payload;
    while (readFrame(in, kind, payload)) {
        if (kind != FrameKind::Job && kind != FrameKind::Bench && kind != FrameKind::Copy) return 3;
        bool lost = false;
        auto [answerKind, e] = answer(runner, kind, payload, lost);
        payload = {}; // a benchmark's inputs: up to gigabytes, no longer needed
        if (!writeFrame(out, answerKind, e.bytes())) return 4;
        // A timed-out dispatch may still be running: the device cannot be torn down; leave now.
        if (runner.wedged() || lost) std::_Exit(5);
    }
    return 0;
}

int workerMain(int argc, char** argv) {
    ContextOptions options;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--device" && i + 1 < argc)
            options.deviceSelector = argv[++i];
        else if (a == "--validation")
            options.validation = true;
    }
    ParentPipes pipes = inheritedPipes();
    int code = runWorker(pipes.requests, pipes.answers, options);
    std::_Exit(code); // skip static destructors: the device may be wedged
}

} // namespace vkp::worker
