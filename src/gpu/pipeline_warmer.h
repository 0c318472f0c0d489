// Compiles the pipelines of a check's later cases while the first cases run, on threads of its
// own, the last case first (the runner takes the first first).
// - A GPU's driver compiles a pipeline when it is created: helper threads create them on the
//   runner's own device and keep them in its PipelineStore, where the case's job finds them (or
//   waits for one under way).
// - Lavapipe compiles at a pipeline's first dispatch, on the device's one queue thread, one
//   pipeline after another whatever the cores: helper devices of this process compile them, and
//   what they compile goes into Mesa's shader cache, where the runner's device finds it when the
//   case's job builds its pipeline. Without a shader cache (MESA_SHADER_CACHE_DISABLE) their work
//   could not be shared, so there are none.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "gpu/kernel.h"

namespace vkp {

// What to compile: the kernels (every module of a multi-pass program) and their launches.
struct WarmJob {
    std::vector<std::vector<uint32_t>> modules;
    std::vector<uint32_t> bindings;     // set 0
    std::vector<BindingSlot> otherSets; // the trace or loop-guard buffer
    uint32_t pushBytes = 0;
    std::vector<LaunchSpec> launches; // compiled from the last: the runner takes the first first
};

class PipelineWarmer {
  public:
    // Threads that build on `device` (a GPU), or helper devices opened like it (a CPU device),
    // started with the first job.
    explicit PipelineWarmer(GpuContext& device);
    ~PipelineWarmer(); // waits for the pipelines under way, starts no other
    PipelineWarmer(const PipelineWarmer&) = delete;
    PipelineWarmer& operator=(const PipelineWarmer&) = delete;

    // Replaces the launches not yet begun of any earlier job by these (each distinct
    // specialization once).
    void start(WarmJob job);
    // Before the runner builds `launch`'s pipelines itself: a launch no helper has begun is
    // taken off the helpers' list (the runner compiles it), one under way is waited for (the
    // runner then finds it compiled). Nothing is ever compiled twice.
    void await(const LaunchSpec& launch);
    // Pipelines the helpers compiled since they were made (tests).
    size_t compiled() const { return m_compiled; }
    // Whether a shader cache lets helper devices' work be shared: Mesa's, unless the environment
    // turns it off.
    static bool cacheShared();
    // Whether a warmer would do anything for `device` on this machine.
    static bool helps(const GpuContext& device);

  private:
    enum class StateKind { Waiting, Compiling, Done, Taken }; // a launch's, in the current job
    void helperMain();
    // The index of `launch`'s specialization in the current job; npos: not in it.
    size_t indexOf(const LaunchSpec& launch) const;

    GpuContext& m_device;
    bool m_sameDevice; // a GPU: build on m_device itself
    size_t m_helpers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;       // a launch was compiled
    std::shared_ptr<const WarmJob> m_job; // guarded
    std::vector<StateKind> m_states;      // per launch of m_job
    uint64_t m_generation = 0;            // bumped by start()
    bool m_stop = false;
    std::atomic<size_t> m_compiled{0};
    std::vector<std::thread> m_threads;
};

} // namespace vkp
