// The desktop app's live loop: edit -> (pause in typing) -> compile -> run every case -> check,
// on a worker thread with its own compiler and Vulkan device, published to the UI as snapshots.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"
#include "check/check.h"
#include "check/runner.h"
#include "check/subgroup_sizes.h"
#include "device/device_info.h"
#include "puzzle/puzzle.h"

namespace vkp {

enum class LiveStatusKind {
    Starting,  // the worker is creating its device and warming up the compiler
    Idle,      // no puzzle open
    Waiting,   // the text changed; the check starts after a short pause in typing
    Compiling, // shaderc is compiling the latest text
    Running,   // it compiled; the cases are running on the device
    Done,      // the report is about the latest text
    Held,      // the text is not checked until the learner asks (it crashed the compiler last time)
    DeviceError // no usable device: nothing can run (the text is kept)
};
const char* liveStatusName(LiveStatusKind status); // "compiling", ...

class DeviceRunner;

struct LiveOptions {
    std::string deviceSelector;              // as ContextOptions::deviceSelector
    std::chrono::milliseconds debounce{250}; // pause in typing before a check
    uint64_t timeoutMs = 0;                  // per case; 0: the device's default
    bool trace = true;                       // trace every check, as the CLI does
    std::string kernelFile = "kernel.comp";  // the kernel's name in diagnostics
    RunnerFactory runnerFactory;             // empty: a device in this process
    // Opens lavapipe at other subgroup sizes (check/subgroup_sizes.h: a worker process each),
    // where a kernel that uses subgroups is checked too; empty: only the device's own size.
    RunnerFactory subgroupSizeFactory;
};

// What the UI draws each frame: a copy taken under the session's lock (shared, immutable parts).
struct LiveSnapshot {
    LiveStatusKind status = LiveStatusKind::Starting;
    uint64_t revision = 0;                // of the latest text handed to the session
    uint64_t reportRevision = 0;          // of the text `report` is about (0: none)
    std::shared_ptr<const Puzzle> puzzle; // the open puzzle (null: none)
    // The latest check of this puzzle; while status is Running and current(), the one under
    // way, holding the cases decided so far (reached is not Done).
    std::shared_ptr<const CheckReport> report;
    std::shared_ptr<const std::string> reportSource; // the kernel text `report` checked
    // A check made aside (checkAside): e.g. the official solution for a walkthrough.
    std::shared_ptr<const CheckReport> aside;
    uint64_t asideKey = 0;            // the key of the request `aside` answers
    std::optional<DeviceInfo> device; // the device checks run on, once opened
    std::optional<Error> deviceError; // why there is no device
    std::vector<DeviceInfo> devices;  // every Vulkan device, for a picker
    // The other subgroup sizes `report` is being checked with (empty: none under way); their
    // runs join report->otherSizes as they end.
    std::vector<uint32_t> sizesDue;
    // `report` is being checked with atomics in reverse lane order (check/atomic_order.h); the
    // run becomes report->reversed when it ends.
    bool atomicOrderDue = false;
    // `report` is having the puzzle's searches run (check/case_search.h): report->search when
    // they end.
    bool searchDue = false;
    std::string notice;     // one-off news, e.g. "the device was restarted"
    uint64_t checksRun = 0; // finished checks since start (stale ones too)

    bool current() const { return report && reportRevision == revision; }
    // Runs beside the report's own are still under way (other subgroup sizes, atomic order): its
    // verdict may still turn.
    bool besideDue() const { return !sizesDue.empty() || atomicOrderDue || searchDue; }
    bool busy() const; // a check is due or under way
};

// "compiling", "running 4 cases", "3 of 4 cases pass", "does not compile: 2 errors", ...
std::string statusLine(const LiveSnapshot& s);

class Compiler;

class LiveSession {
  public:
    explicit LiveSession(LiveOptions options);
    ~LiveSession();
    LiveSession(const LiveSession&) = delete;
    LiveSession& operator=(const LiveSession&) = delete;

    // Opens a puzzle with this kernel text and checks it at once (no pause); with check = false
    // the text is held, not checked, until edit() or recheck() (a draft that crashed the compiler).
    void open(const Puzzle& puzzle, std::string text, bool check = true);
    // The learner changed the text: checked after `debounce` without further edits.
    void edit(std::string text);
    // Checks the current text again now (e.g. after a device change).
    void recheck();
    // Replaces the device (selector as ContextOptions); the current text is checked on it.
    void selectDevice(std::string selector);
    // Checks another text of the open puzzle (traced, one case) without touching the learner's
    // text or report; the result comes as LiveSnapshot::aside with this key. A newer request
    // replaces one not yet started. The learner's own checks go first.
    void checkAside(uint64_t key, std::string text, size_t caseIndex);

    LiveSnapshot snapshot() const;
    // Blocks until the latest text has a report (or the device failed); false on timeout.
    bool waitUntilSettled(std::chrono::milliseconds timeout) const;
    // True when a kernel never finished on an in-process device that then had to be abandoned
    // (leaked, not destroyed); a worker process is simply restarted instead.
    bool abandonedDevice() const;

  private:
    using Clock = std::chrono::steady_clock;
    struct Job {
        std::shared_ptr<const Puzzle> puzzle;
        std::string text;
        uint64_t revision = 0;
        std::optional<uint64_t> asideKey; // set for checkAside() jobs
        size_t caseIndex = 0;             // aside jobs: the one case
    };

    void workerMain();
    void startDevice(const std::string& selector);
    Result<std::unique_ptr<DeviceRunner>> openRunner(const std::string& selector);
    void abandon();
    bool nextJob(std::unique_lock<std::mutex>& lock, Job& job);
    void runJob(const Job& job);
    void publish(const Job& job, CheckReport report, std::vector<uint32_t> sizesDue = {},
                 bool atomicOrderDue = false, bool searchDue = false);
    // The check's cases at the other subgroup sizes, published as each size ends.
    void checkSizes(const Job& job, CheckReport& report);
    void runBeside(const Job& job, CheckReport& report, bool& due,
                   const std::function<void(const std::vector<KernelSource>&, CheckOptions&)>& run);
    void publishSizes(const Job& job, const CheckReport& sofar, uint32_t lanes);
    bool stale(const Job& job) const; // a newer text or puzzle replaced the job's, or quitting
    void publishPartial(const Job& job, const CheckReport& partial);
    LiveStatusKind waitingStatus() const {
        return m_held ? LiveStatusKind::Held : LiveStatusKind::Waiting;
    }
    void publishAside(const Job& job, CheckReport report);
    void setStatus(uint64_t revision, LiveStatusKind status);

    const LiveOptions m_options;
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_wake;      // the worker waits for work
    mutable std::condition_variable m_published; // waitUntilSettled waits for reports
    LiveSnapshot m_state;                        // guarded by m_mutex
    std::string m_text;                          // latest text, guarded
    Clock::time_point m_due;                     // when the pending check may start
    uint64_t m_checkedRevision = 0;              // the last revision the worker took
    std::optional<std::string> m_deviceRequest;  // a device change to make
    std::optional<Job> m_aside;                  // a checkAside() request not yet started
    bool m_stop = false;
    bool m_inJob = false; // runJob is under way: quitting interrupts its worker rather than waiting
    bool m_abandoned = false;
    bool m_held = false; // open(check = false) until edit() or recheck()

    // Worker-thread only (m_runner is also interrupted, under m_mutex, while m_inJob holds).
    std::unique_ptr<Compiler> m_compiler;
    std::unique_ptr<DeviceRunner> m_runner;
    std::string m_selector;
    std::unique_ptr<SubgroupSizeDevices> m_sizes; // null: subgroupSizeFactory is empty
    // The trace room the cases of m_roomPuzzle needed, so that an edit does not overflow and
    // re-run them again (CheckOptions::traceRoom); forgotten when another puzzle is checked.
    std::shared_ptr<const Puzzle> m_roomPuzzle;
    TraceRoomMemory m_traceRoom;
    std::thread m_worker;
};

} // namespace vkp
