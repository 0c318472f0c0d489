// Runs kernels in a separate worker process (the same executable, started as
// `vkpuzzles --worker`), so an endless loop, a crash in a driver or a lost device costs a restart
// of the worker, never the app or the learner's text.
#pragma once

#include <atomic>

#include <memory>
#include <string>

#include "base/process.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "worker/protocol.h"

namespace vkp::worker {

class WorkerRunner : public DeviceRunner {
  public:
    // Starts the worker and waits for it to open its device.
    static Result<std::unique_ptr<WorkerRunner>> start(std::string executable,
                                                       ContextOptions options);
    ~WorkerRunner() override;

    const DeviceInfo& info() const override { return m_info; }
    // A timeout, a crash or a lost device is reported in the result and the worker is restarted
    // before the next job.
    Result<DeviceJobResult> run(const DeviceJob& job) override;
    // In the worker too: a benchmark that times out or loses the device restarts it.
    Result<BenchRun> bench(const BenchJob& job) override;
    Result<CopyBandwidth> copyBandwidth(const CopyJob& job) override;

    int pid() const { return m_worker.id(); }
    void interrupt() override; // kills the worker process (safe from another thread)
    int restarts() const { return m_restarts; }

  private:
    WorkerRunner(std::string executable, ContextOptions options)
        : m_exe(std::move(executable)), m_options(std::move(options)) {}
    Status spawn();
    void stop();            // kill and reap
    std::string exitText(); // how the stopped worker ended
    Result<DeviceJobResult> failAll(const DeviceJob& job, const Error& e);
    // Sends a frame and waits at most deadlineMs for the answer of kind `answer`. A timeout
    // (worded with budgetMs) or a dead worker stops it and is the error; the next call restarts it.
    Result<Bytes> exchange(FrameKind kind, const Encoder& e, FrameKind answer, uint64_t deadlineMs,
                           uint64_t budgetMs);
    Status send(FrameKind kind, const Encoder& e); // starts the worker first if it is not running
    // The worker's next frame, waited for at most deadlineMs; `late` is the error when none came.
    // A worker stopped (SIGSTOP, a debugger) for stoppedMs does not answer: that is the error, at
    // once, rather than the whole deadline. A dead one is WorkerCrashed. Each stops the worker.
    Result<FrameKind> receive(Bytes& payload, uint64_t deadlineMs, uint64_t stoppedMs,
                              const std::string& late, bool* wasLate = nullptr);
    Error crashed();                      // reaps a worker that went away; says how
    Error restartedAfter(const Error& e); // stops the worker; says so in the message
    // The answer decoded; garbled, it stops the worker; a timeout or a lost device restarts it.
    template <class T>
    Result<T> settle(Result<Bytes> payload, bool (*decode)(Decoder&, Result<T>&),
                     const std::string& what);

    std::string m_exe;
    ContextOptions m_options;
    DeviceInfo m_info;
    ChildProcess m_worker;          // the worker, and our ends of its pipes
    std::atomic<int> m_livePid{-1}; // m_worker.id(), for interrupt() from another thread
    int m_restarts = 0;
};

// The worker's side: opens the device, answers jobs until its input closes. Returns the exit code.
int runWorker(PipeEnd& in, PipeEnd& out, const ContextOptions& options);

// `vkpuzzles --worker [--device D] [--validation]`: the worker process's main.
int workerMain(int argc, char** argv);

// The path of the running executable (for starting workers).
std::string selfExecutable();

} // namespace vkp::worker
