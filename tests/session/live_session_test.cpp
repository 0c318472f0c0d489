// The app's live loop, headless: real shaderc, real device (lavapipe on CI), real threads.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "puzzle/puzzle_loader.h"
#include "session/live_session.h"
#include "support/crashing_kernel.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using namespace std::chrono_literals;

const char* kPuzzle = R"(
title = "Scale"
track = "test"
order = 1
statement = "result[i] = a[i] + 10"
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
[[cases]]
workgroup_size = [4]
workgroups = [2]
inputs.a = { shape = [7], values = [3, -1, 4, 1, -5, 9, 2] }
expected.result = { op = "add_scalar", args = ["a"], scalar = 10 }
[[cases]]
workgroup_size = [64]
workgroups = [16]
inputs.a = { shape = [1024], fill = "iota", start = -2 }
expected.result = { op = "add_scalar", args = ["a"], scalar = 10 }
)";

// The same puzzle with a third case of 131072 threads over 1024 elements: a guarded kernel runs it
// in milliseconds, kSlow in seconds to tens of seconds on lavapipe.
const char* kBigLaunchCase = R"(
[[cases]]
workgroup_size = [256]
workgroups = [512]
inputs.a = { shape = [1024], fill = "iota", start = 5 }
expected.result = { op = "add_scalar", args = ["a"], scalar = 10 }
)";

const char* kGood = R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(a.length())) result[i] = a[i] + 10;
}
)";

const char* kOffByOne = R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(a.length())) result[i] = a[i] + 11;
}
)";

const char* kBroken = R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };
void main() {
    result[gl_GlobalInvocationID.x] = a[gl_GlobalInvocationID.x] + undefinedName;
}
)";

// Finite but slow on a CPU device: 60000 rounds of trigonometry per thread (lavapipe stops any
// loop at 65535 iterations, so only a big launch makes it take long).
const char* kSlow = R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(a.length());
    float x = float(i);
    for (uint k = 0; k < 60000u; ++k) x = sin(x) * 1.0001 + cos(x * 0.5) + float(a[(i * 7u + k * 13u) % n]);
    if (i < n) result[i] = int(x);
}
)";

// Right, and each thread reads its element `reads` times first: more records than the default
// room of a traced thread (1024) holds, in both cases.
std::string manyReads(int reads) {
    return R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer Result { int result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(a.length())) return;
    int s = 0;
    for (int k = 0; k < )" +
           std::to_string(reads) + R"(; ++k) s += a[i];
    result[i] = a[i] + 10 + (s - )" +
           std::to_string(reads) + R"( * a[i]);
}
)";
}

class LiveSessionTest : public ::testing::Test {
  protected:
    void SetUp() override {
        auto p = parsePuzzle(kPuzzle, "scale.toml", "/tmp/01-scale");
        ASSERT_TRUE(p.ok()) << p.error().str();
        m_puzzle = *p;
    }
    LiveOptions options(std::chrono::milliseconds debounce = 50ms) {
        LiveOptions o;
        o.deviceSelector = test::deviceOptions().deviceSelector;
        o.debounce = debounce;
        return o;
    }
    Puzzle m_puzzle;
};

TEST_F(LiveSessionTest, OpeningAPuzzleChecksItsKernel) {
    LiveSession session(options());
    session.open(m_puzzle, kGood);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    LiveSnapshot s = session.snapshot();
    ASSERT_EQ(s.status, LiveStatusKind::Done) << statusLine(s);
    ASSERT_TRUE(s.current());
    EXPECT_TRUE(s.report->allPass());
    EXPECT_EQ(s.report->cases.size(), 2u);
    ASSERT_TRUE(s.device.has_value());
    EXPECT_GT(s.device->subgroupSize, 0u);
    EXPECT_FALSE(s.devices.empty());
    EXPECT_EQ(statusLine(s), "all 2 cases pass");
}

// The live loop keeps the room each case's trace needed (CheckOptions::traceRoom): after the
// first check overflows and runs both cases again, an edit that makes as many records is checked
// without running any case again, its traces whole. A puzzle opened anew starts from the default.
TEST_F(LiveSessionTest, AnEditStartsWithTheTraceRoomTheLastCheckNeeded) {
    LiveSession session(options());
    auto settled = [&](const char* what) {
        EXPECT_TRUE(session.waitUntilSettled(120s)) << what;
        LiveSnapshot s = session.snapshot();
        EXPECT_TRUE(s.current() && s.report->allPass()) << what << ": " << statusLine(s);
        return s;
    };
    session.open(m_puzzle, manyReads(1500));
    LiveSnapshot first = settled("first");
    ASSERT_TRUE(first.report);
    EXPECT_EQ(first.report->timing.traceReruns, 2u) << "both cases overflow the default room";
    session.edit(manyReads(1499));
    LiveSnapshot edited = settled("edited");
    ASSERT_TRUE(edited.report);
    EXPECT_EQ(edited.report->timing.traceReruns, 0u);
    for (const CaseOutcome& c : edited.report->cases) {
        ASSERT_TRUE(c.trace);
        EXPECT_EQ(c.trace->dropped, 0u);
        EXPECT_GT(c.trace->mostRecordsWanted, 1024u);
    }
    session.open(m_puzzle, manyReads(1500));
    LiveSnapshot reopened = settled("reopened");
    ASSERT_TRUE(reopened.report);
    EXPECT_EQ(reopened.report->timing.traceReruns, 2u);
}

TEST_F(LiveSessionTest, AKernelThatCrashesTheCompilerIsReportedAndTheSessionGoesOn) {
    LiveSession session(options());
    session.open(m_puzzle, test::crashingKernel());
    ASSERT_TRUE(session.waitUntilSettled(120s));
    LiveSnapshot s = session.snapshot();
    ASSERT_EQ(s.status, LiveStatusKind::Done) << statusLine(s);
    ASSERT_TRUE(s.current());
    EXPECT_TRUE(s.report->compilerCrashed);
    EXPECT_FALSE(s.report->compiled());
    ASSERT_EQ(s.report->diagnostics.size(), 1u);
    EXPECT_EQ(s.report->diagnostics[0].line, test::kCrashingLine);
    EXPECT_NE(s.report->diagnostics[0].message.find("the compiler crashed on this kernel"),
              std::string::npos);
    EXPECT_EQ(statusLine(s).rfind("the compiler crashed on this text", 0), 0u) << statusLine(s);
    EXPECT_EQ(*s.reportSource, test::crashingKernel()) << "the text is kept";

    session.edit(kGood);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    s = session.snapshot();
    EXPECT_FALSE(s.report->compilerCrashed);
    EXPECT_TRUE(s.report->allPass()) << statusLine(s);
}

TEST_F(LiveSessionTest, AHeldTextIsCheckedOnlyWhenAskedFor) {
    LiveSession session(options());
    session.open(m_puzzle, kGood, /*check=*/false);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    LiveSnapshot s = session.snapshot();
    EXPECT_EQ(s.status, LiveStatusKind::Held) << statusLine(s);
    EXPECT_FALSE(s.report);
    EXPECT_EQ(s.checksRun, 0u);
    EXPECT_FALSE(s.busy());
    EXPECT_NE(statusLine(s).find("not compiled"), std::string::npos) << statusLine(s);

    session.recheck(); // "Compile anyway"
    ASSERT_TRUE(session.waitUntilSettled(60s));
    s = session.snapshot();
    ASSERT_EQ(s.status, LiveStatusKind::Done) << statusLine(s);
    EXPECT_TRUE(s.report->allPass());
}

TEST_F(LiveSessionTest, WrongAndBrokenKernelsAreReported) {
    LiveSession session(options());
    session.open(m_puzzle, kOffByOne);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    LiveSnapshot s = session.snapshot();
    EXPECT_EQ(statusLine(s), "0 of 2 cases pass");
    ASSERT_EQ(s.report->cases.size(), 2u);
    EXPECT_EQ(s.report->cases[0].outputs[0].comparison.mismatchCount, 7u);

    session.edit(kBroken);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    s = session.snapshot();
    EXPECT_FALSE(s.report->compiled());
    EXPECT_EQ(statusLine(s).rfind("does not compile: ", 0), 0u) << statusLine(s);
    ASSERT_FALSE(s.report->diagnostics.empty());
    EXPECT_EQ(s.report->diagnostics[0].line, 6);
    EXPECT_NE(s.report->diagnostics[0].message.find("undefinedName"), std::string::npos);
}

TEST_F(LiveSessionTest, ChecksWaitForAPauseInTyping) {
    LiveSession session(options(300ms));
    session.open(m_puzzle, kOffByOne);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    uint64_t before = session.snapshot().checksRun;
    // Ten keystrokes 20 ms apart, each changing the text: none of them is checked on its own.
    std::string text = kBroken;
    for (int i = 0; i < 10; ++i) {
        text += "// " + std::to_string(i) + "\n";
        session.edit(text);
        EXPECT_EQ(session.snapshot().status, LiveStatusKind::Waiting);
        std::this_thread::sleep_for(20ms);
    }
    session.edit(kGood);
    auto edited = std::chrono::steady_clock::now();
    ASSERT_TRUE(session.waitUntilSettled(60s));
    auto waited = std::chrono::steady_clock::now() - edited;
    LiveSnapshot s = session.snapshot();
    EXPECT_EQ(s.checksRun, before + 1) << "only the text after the pause is checked";
    EXPECT_TRUE(s.report->allPass());
    EXPECT_GE(waited, 250ms);
}

TEST_F(LiveSessionTest, AReportAboutOlderTextIsDropped) {
    LiveSession session(options(0ms));
    session.open(m_puzzle, kGood);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    // The slow kernel is being checked when the text changes again: its result must not show.
    session.edit(kSlow);
    while (session.snapshot().status == LiveStatusKind::Waiting)
        std::this_thread::sleep_for(1ms);
    session.edit(kOffByOne);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    LiveSnapshot s = session.snapshot();
    EXPECT_TRUE(s.current());
    EXPECT_EQ(statusLine(s), "0 of 2 cases pass");
    EXPECT_EQ(s.report->cases[0].outputs[0].actual.get(0), 14)
        << "the off-by-one kernel's result, not the slow one's";
}

TEST_F(LiveSessionTest, SnapshotsStayCheapWhileACheckRuns) {
    LiveSession session(options(0ms));
    session.open(m_puzzle, kGood);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    session.edit(kSlow);
    auto worst = std::chrono::nanoseconds(0);
    bool sawRunning = false;
    for (int i = 0; i < 2000 && !session.snapshot().current(); ++i) {
        auto t = std::chrono::steady_clock::now();
        LiveSnapshot s = session.snapshot();
        worst = std::max(worst, std::chrono::steady_clock::now() - t);
        sawRunning = sawRunning || s.status == LiveStatusKind::Running;
        std::this_thread::sleep_for(1ms);
    }
    EXPECT_TRUE(sawRunning);
    EXPECT_LT(worst, 20ms) << "the UI thread must never wait for a check";
}

TEST_F(LiveSessionTest, AnUnknownDeviceIsAnErrorAndTheTextSurvives) {
    LiveSession session(options());
    session.open(m_puzzle, kGood);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    session.selectDevice("no-such-device-anywhere");
    ASSERT_TRUE(session.waitUntilSettled(60s));
    LiveSnapshot s = session.snapshot();
    EXPECT_EQ(s.status, LiveStatusKind::DeviceError);
    ASSERT_TRUE(s.deviceError.has_value());
    EXPECT_NE(statusLine(s).find("no device"), std::string::npos);
    session.edit(kOffByOne); // typing goes on without a device
    session.selectDevice(test::deviceOptions().deviceSelector);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    s = session.snapshot();
    EXPECT_EQ(s.status, LiveStatusKind::Done);
    EXPECT_EQ(statusLine(s), "0 of 2 cases pass")
        << "the text typed meanwhile is what gets checked";
}

TEST_F(LiveSessionTest, AKernelThatTakesTooLongCostsTheDeviceNotTheSession) {
    auto p = parsePuzzle(std::string(kPuzzle) + kBigLaunchCase, "scale.toml", "/tmp/01-scale");
    ASSERT_TRUE(p.ok()) << p.error().str();
    LiveOptions o = options(0ms);
    // A budget of 1.5 s: far more than the good kernel needs on a fresh device even on a loaded
    // machine (its first dispatch includes lavapipe's JIT, tens of milliseconds), far less than
    // kSlow over the big case. A device that runs kSlow within it skips the test. An abandoned
    // lavapipe device still finishes its dispatch before the fresh one runs (they share the CPU's
    // threads), hence the long waits.
    o.timeoutMs = 1500;
    o.trace = false;
    LiveSession session(o);
    session.open(*p, kSlow);
    ASSERT_TRUE(session.waitUntilSettled(300s));
    LiveSnapshot s = session.snapshot();
    ASSERT_TRUE(s.report);
    bool timedOut = s.report->error.has_value() ||
                    std::any_of(s.report->cases.begin(), s.report->cases.end(),
                                [](const CaseOutcome& c) { return c.error.has_value(); });
    if (!timedOut) GTEST_SKIP() << "this device ran 131072 threads x 60000 iterations within 1.5 s";
    EXPECT_TRUE(session.abandonedDevice());
    EXPECT_FALSE(s.notice.empty());
    session.edit(kGood);
    ASSERT_TRUE(session.waitUntilSettled(300s));
    LiveSnapshot next = session.snapshot();
    EXPECT_TRUE(next.report->allPass())
        << "a fresh device runs the next text: " << statusLine(next)
        << (next.report->error ? "; " + next.report->error->message : "")
        << (next.report->cases.size() > 2 && next.report->cases[2].error
                ? "; case 3: " + next.report->cases[2].error->message
                : "");
}

// A gate the test opens: shut, it holds whoever waits on it (at most five minutes, so a failed
// test cannot hang the session's thread for good).
struct Gate {
    std::mutex mutex;
    std::condition_variable opened;
    bool open = false;
    void wait() {
        std::unique_lock lock(mutex);
        opened.wait_for(lock, 300s, [this] { return open; });
    }
    void release() {
        {
            std::lock_guard lock(mutex);
            open = true;
        }
        opened.notify_all();
    }
};

// A device of this process whose third job (a check runs one job per case) waits for the gate.
class GatedRunner : public DeviceRunner {
  public:
    GatedRunner(std::unique_ptr<GpuContext> gpu, std::shared_ptr<Gate> gate)
        : m_gpu(std::move(gpu)), m_inner(*m_gpu), m_gate(std::move(gate)) {}
    const DeviceInfo& info() const override { return m_inner.info(); }
    Result<DeviceJobResult> run(const DeviceJob& job) override {
        if (++m_jobs == 3) m_gate->wait();
        return m_inner.run(job);
    }
    Result<BenchRun> bench(const BenchJob& job) override { return m_inner.bench(job); }
    Result<CopyBandwidth> copyBandwidth(const CopyJob& job) override {
        return m_inner.copyBandwidth(job);
    }

  private:
    std::unique_ptr<GpuContext> m_gpu;
    InProcessRunner m_inner;
    std::shared_ptr<Gate> m_gate;
    int m_jobs = 0;
};

// While a check runs, the cases decided so far are in the snapshot and the status line counts
// them; the puzzle is not passed until the last case is in. The third case is held by the test,
// not by the machine's speed.
TEST_F(LiveSessionTest, CasesAreShownAsTheyAreDecided) {
    auto p = parsePuzzle(std::string(kPuzzle) + kBigLaunchCase, "scale.toml", "/tmp/01-scale");
    ASSERT_TRUE(p.ok()) << p.error().str();
    auto gate = std::make_shared<Gate>();
    LiveOptions o = options(0ms);
    o.runnerFactory = [gate](const ContextOptions& c) -> Result<std::unique_ptr<DeviceRunner>> {
        auto gpu = GpuContext::create(c);
        if (!gpu) return gpu.error();
        return std::unique_ptr<DeviceRunner>(new GatedRunner(std::move(*gpu), gate));
    };
    LiveSession session(o);
    session.open(*p, kGood);
    LiveSnapshot s;
    for (int i = 0; i < 300000; ++i) { // up to five minutes for two cases on a loaded machine
        s = session.snapshot();
        if (s.current() && s.report->cases.size() == 2) break;
        std::this_thread::sleep_for(1ms);
    }
    ASSERT_TRUE(s.current());
    ASSERT_EQ(s.report->cases.size(), 2u);
    EXPECT_EQ(s.status, LiveStatusKind::Running);
    EXPECT_TRUE(s.busy());
    EXPECT_TRUE(s.report->cases[0].pass);
    EXPECT_TRUE(s.report->cases[1].pass);
    EXPECT_NE(s.report->reached, StageKind::Done) << "the third case is still running";
    EXPECT_FALSE(s.report->allPass());
    EXPECT_EQ(statusLine(s), "checking: 2 of 3 cases checked");
    gate->release();
    ASSERT_TRUE(session.waitUntilSettled(300s));
    s = session.snapshot();
    EXPECT_EQ(s.status, LiveStatusKind::Done);
    ASSERT_EQ(s.report->cases.size(), 3u);
    EXPECT_TRUE(s.report->allPass());
    EXPECT_EQ(statusLine(s), "all 3 cases pass");
}

TEST_F(LiveSessionTest, TheRunnerFactoryDecidesWhereKernelsRun) {
    LiveOptions o = options();
    int opened = 0;
    o.runnerFactory = [&opened](const ContextOptions&) -> Result<std::unique_ptr<DeviceRunner>> {
        ++opened;
        return Error{ErrorKind::Device, "the worker could not start (test)"};
    };
    LiveSession session(o);
    session.open(m_puzzle, kGood);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    LiveSnapshot s = session.snapshot();
    EXPECT_EQ(opened, 1);
    EXPECT_EQ(s.status, LiveStatusKind::DeviceError);
    EXPECT_NE(statusLine(s).find("the worker could not start (test)"), std::string::npos)
        << statusLine(s);
}

TEST_F(LiveSessionTest, ChecksAreTracedLikeTheCommandLine) {
    LiveSession session(options());
    session.open(m_puzzle, kGood);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    LiveSnapshot s = session.snapshot();
    ASSERT_EQ(s.report->cases.size(), 2u);
    ASSERT_TRUE(s.report->cases[0].trace)
        << "the thread grid shows each thread's reads and writes from the trace";
    ASSERT_TRUE(s.report->cases[0].analysis);
    EXPECT_TRUE(s.report->cases[0].analysis->findings.empty());
}

TEST_F(LiveSessionTest, AnAsideCheckLeavesTheLearnersTextAndReportAlone) {
    LiveSession session(options());
    session.open(m_puzzle, kBroken);
    ASSERT_TRUE(session.waitUntilSettled(60s));
    auto mine = session.snapshot().report;
    ASSERT_TRUE(mine);
    ASSERT_TRUE(session.snapshot().reportSource);
    EXPECT_EQ(*session.snapshot().reportSource, kBroken) << "the report names the text it checked";
    session.checkAside(7, kGood, 1);
    auto until = std::chrono::steady_clock::now() + test::kPatience;
    while (session.snapshot().asideKey != 7 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(5ms);
    LiveSnapshot s = session.snapshot();
    ASSERT_EQ(s.asideKey, 7u);
    ASSERT_TRUE(s.aside);
    ASSERT_EQ(s.aside->cases.size(), 1u) << "only the case asked for";
    EXPECT_EQ(s.aside->cases[0].index, 1u);
    EXPECT_TRUE(s.aside->cases[0].pass);
    EXPECT_TRUE(s.aside->cases[0].trace)
        << "aside checks are traced (walkthroughs step through them)";
    EXPECT_EQ(s.report, mine) << "the learner's report is untouched";
    EXPECT_EQ(s.status, LiveStatusKind::Done);
}

TEST(LiveStatusTest, ACheckStoppedBeforeCompilingSaysWhy) {
    LiveSnapshot s;
    s.status = LiveStatusKind::Done;
    auto r = std::make_shared<CheckReport>();
    r->error = Error{ErrorKind::Usage, "this puzzle has 3 kernels"};
    s.report = r;
    EXPECT_EQ(statusLine(s), "cannot check: this puzzle has 3 kernels");
    r->diagnostics.push_back({"k.comp", 3, 1, SeverityKind::Error, "syntax error"});
    EXPECT_EQ(statusLine(s), "does not compile: 1 error");
}

TEST(LiveStatusTest, EveryStatusHasWords) {
    LiveSnapshot s;
    for (LiveStatusKind k :
         {LiveStatusKind::Starting, LiveStatusKind::Idle, LiveStatusKind::Waiting,
          LiveStatusKind::Compiling, LiveStatusKind::Running, LiveStatusKind::Done,
          LiveStatusKind::DeviceError}) {
        s.status = k;
        EXPECT_FALSE(statusLine(s).empty()) << liveStatusName(k);
    }
}

} // namespace
} // namespace vkp
