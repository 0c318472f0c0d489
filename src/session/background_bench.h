// `vkpuzzles bench` from the app: one benchmark on a thread of its own, with its own compiler and
// device (a worker process in the app), so that the window and the live checks go on meanwhile.
// It can be cancelled: a worker process is killed (in this process, the run is left to finish
// and its result dropped).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "base/result.h"
#include "bench/bench.h"
#include "puzzle/puzzle.h"
#include "session/live_session.h"

namespace vkp {

enum class BackgroundBenchState { Idle, Running, Done, Failed, Cancelled };

struct BackgroundBenchView {
    BackgroundBenchState state = BackgroundBenchState::Idle;
    std::string puzzle;                // the key of the puzzle benchmarked (Puzzle::key)
    uint64_t n = 0;                    // elements asked for
    std::string step;                  // what it is doing now ("warming up", ...)
    std::optional<BenchReport> report; // Done
    // Done: the official solution at the same N on the same device, timed after the editor's
    // kernel (none when the editor holds the official text, or it could not run).
    std::optional<BenchReport> official;
    std::optional<Error> error; // Failed
};

class BackgroundBench {
  public:
    // `factory` and `deviceSelector` as the live session's: the benchmark runs on the same kind of
    // device.
    BackgroundBench(RunnerFactory factory, std::string deviceSelector);
    ~BackgroundBench(); // cancels a running benchmark and waits for its thread
    BackgroundBench(const BackgroundBench&) = delete;
    BackgroundBench& operator=(const BackgroundBench&) = delete;

    // Benchmarks the editor's `text` (a multi-pass puzzle's kernels joined) on `puzzle` as
    // `vkpuzzles bench` does; a benchmark still running is cancelled first.
    void start(const Puzzle& puzzle, std::string text, BenchOptions options);
    void cancel();
    BackgroundBenchView view() const;
    void setDevice(std::string selector);

  private:
    void run(std::shared_ptr<const Puzzle> puzzle, std::string text, BenchOptions options);
    void finish(BackgroundBenchState state, std::optional<BenchReport> report,
                std::optional<Error> error, std::optional<BenchReport> official = std::nullopt);
    void stopThread();

    RunnerFactory m_factory;
    std::string m_selector;
    mutable std::mutex m_mutex;
    BackgroundBenchView m_view;       // guarded by m_mutex
    DeviceRunner* m_runner = nullptr; // the running job's device, guarded (for cancel)
    std::atomic<bool> m_cancelled{false};
    std::thread m_thread;
};

} // namespace vkp
