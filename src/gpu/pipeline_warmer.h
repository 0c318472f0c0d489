// Compiles the pipelines of a check's later cases on other devices of this process while the
// first cases run, for drivers that compile a pipeline at its first dispatch on their one queue
// thread (lavapipe): there one device compiles one pipeline after another, whatever the cores.
// What a helper device compiles goes into Mesa's shader cache, where the device that runs the
// case finds it when that case's job builds its pipeline. Without a shader cache
// (MESA_SHADER_CACHE_DISABLE) the helpers' work could not be shared, so there are none.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/device_options.h"
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
    // `helpers` devices opened with `options` (validation off) when the first job comes.
    PipelineWarmer(ContextOptions options, size_t helpers);
    ~PipelineWarmer(); // waits for the pipelines under way, starts no other
    PipelineWarmer(const PipelineWarmer&) = delete;
    PipelineWarmer& operator=(const PipelineWarmer&) = delete;

    // Replaces the launches not yet begun of any earlier job by these.
    void start(WarmJob job);
    // Pipelines the helpers compiled since they were made (tests).
    size_t compiled() const { return m_compiled; }
    // Whether a shader cache lets helpers' work be shared: Mesa's, unless the environment turns
    // it off.
    static bool cacheShared();

  private:
    void helperMain();

    ContextOptions m_options;
    size_t m_helpers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::shared_ptr<const WarmJob> m_job; // guarded
    size_t m_next = 0;                    // launches of m_job begun, counted from its end
    uint64_t m_generation = 0;            // bumped by start()
    bool m_stop = false;
    std::atomic<size_t> m_compiled{0};
    std::vector<std::thread> m_threads;
};

} // namespace vkp
