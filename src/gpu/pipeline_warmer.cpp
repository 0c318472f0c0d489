#include "gpu/pipeline_warmer.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <strings.h>

#include "gpu/context.h"
#include "gpu/device_runner.h"

namespace vkp {

namespace {

size_t cores() {
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace

// A GPU: a thread per core (the driver compiles each pipeline on the thread that creates it). A
// CPU device: one core stays with the runner's device; at most 3 helper devices (a check has 4 to
// 12 cases, and each helper is a device).
PipelineWarmer::PipelineWarmer(GpuContext& device)
    : m_device(device), m_sameDevice(compilesAtCreation(device.info())),
      m_helpers(m_sameDevice ? std::min<size_t>(8, cores()) : std::min<size_t>(3, cores() - 1)) {}

bool PipelineWarmer::helps(const GpuContext& device) {
    if (compilesAtCreation(device.info())) return true;
    return cores() > 1 && cacheShared();
}

PipelineWarmer::~PipelineWarmer() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_done.notify_all();
    for (std::thread& t : m_threads)
        t.join();
}

bool PipelineWarmer::cacheShared() {
    auto on = [](const char* name) {
        const char* v = std::getenv(name);
        return v && (std::strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 ||
                     strcasecmp(v, "yes") == 0);
    };
    return !on("MESA_SHADER_CACHE_DISABLE") && !on("MESA_GLSL_CACHE_DISABLE");
}

void PipelineWarmer::start(WarmJob job) {
    std::vector<LaunchSpec> distinct;
    for (const LaunchSpec& l : job.launches)
        if (std::none_of(distinct.begin(), distinct.end(),
                         [&](const LaunchSpec& d) { return sameSpecialization(d, l); }))
            distinct.push_back(l);
    job.launches = std::move(distinct);
    {
        std::lock_guard lock(m_mutex);
        m_job = std::make_shared<const WarmJob>(std::move(job));
        m_states.assign(m_job->launches.size(), StateKind::Waiting);
        ++m_generation;
        while (m_threads.size() < m_helpers)
            m_threads.emplace_back([this] { helperMain(); });
    }
    m_wake.notify_all();
}

size_t PipelineWarmer::indexOf(const LaunchSpec& launch) const {
    if (!m_job) return std::string::npos;
    for (size_t i = 0; i < m_job->launches.size(); ++i)
        if (sameSpecialization(m_job->launches[i], launch)) return i;
    return std::string::npos;
}

void PipelineWarmer::await(const LaunchSpec& launch) {
    std::unique_lock lock(m_mutex);
    size_t i = indexOf(launch);
    if (i == std::string::npos) return;
    if (m_states[i] == StateKind::Waiting) m_states[i] = StateKind::Taken;
    uint64_t generation = m_generation;
    m_done.wait(lock, [&] {
        return m_stop || m_generation != generation || m_states[i] != StateKind::Compiling;
    });
}

// One helper: its own device and kernel; it takes the launch nearest the end not yet begun,
// compiles it for every module (create, then an empty dispatch: lavapipe's compile), and goes on.
// Errors are left to the job that runs the case: a helper only saves time.
void PipelineWarmer::helperMain() {
    std::unique_ptr<GpuContext> own;
    if (!m_sameDevice) {
        ContextOptions options = m_device.options();
        options.validation = false; // its pipelines are never run
        auto made = GpuContext::create(options);
        if (!made) return;
        own = std::move(*made);
    }
    GpuContext& ctx = own ? *own : m_device;
    std::shared_ptr<const WarmJob> job;
    uint64_t generation = 0;
    std::unique_ptr<GpuKernel> kernel;
    auto waiting = [&] {
        for (size_t i = m_states.size(); i-- > 0;)
            if (m_states[i] == StateKind::Waiting) return i;
        return std::string::npos;
    };
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_stop || waiting() != std::string::npos; });
        if (m_stop) return;
        if (generation != m_generation) {
            job = m_job;
            generation = m_generation;
            kernel.reset();
        }
        size_t at = waiting();
        m_states[at] = StateKind::Compiling;
        const LaunchSpec& launch = job->launches[at];
        lock.unlock();
        if (!kernel) {
            std::vector<std::span<const uint32_t>> modules(job->modules.begin(),
                                                           job->modules.end());
            auto made =
                GpuKernel::create(ctx, modules, job->bindings, job->otherSets, job->pushBytes);
            if (made) kernel = std::move(*made);
        }
        // The runner's own device is never warmed from here: its command buffer is the runner's,
        // and a GPU has compiled the pipeline when it is created. A launch over the device's
        // limits is left to its own job, which says so.
        bool fits = checkLaunchLimits(ctx.info(), launch, "").ok();
        for (uint32_t k = 0; fits && kernel && k < kernel->modules() && !ctx.hung(); ++k)
            if (kernel->prepare(std::span(&launch, 1), k, !m_sameDevice)) ++m_compiled;
        lock.lock();
        if (generation == m_generation) m_states[at] = StateKind::Done;
        m_done.notify_all();
    }
}

} // namespace vkp
