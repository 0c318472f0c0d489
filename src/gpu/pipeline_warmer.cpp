#include "gpu/pipeline_warmer.h"

#include <cstdlib>
#include <cstring>
#include <strings.h>

#include "gpu/context.h"

namespace vkp {

PipelineWarmer::PipelineWarmer(ContextOptions options, size_t helpers)
    : m_options(std::move(options)), m_helpers(helpers) {
    m_options.validation = false; // the helpers' pipelines are never run
}

PipelineWarmer::~PipelineWarmer() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
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
    {
        std::lock_guard lock(m_mutex);
        m_job = std::make_shared<const WarmJob>(std::move(job));
        m_next = 0;
        ++m_generation;
        while (m_threads.size() < m_helpers)
            m_threads.emplace_back([this] { helperMain(); });
    }
    m_wake.notify_all();
}

// One helper: its own device and kernel; it takes the launch nearest the end not yet begun,
// compiles it for every module (create, then an empty dispatch: lavapipe's compile), and goes on.
// Errors are left to the job that runs the case: a helper only saves time.
void PipelineWarmer::helperMain() {
    auto ctx = GpuContext::create(m_options);
    if (!ctx) return;
    std::shared_ptr<const WarmJob> job;
    uint64_t generation = 0;
    std::unique_ptr<GpuKernel> kernel;
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_stop || (m_job && m_next < m_job->launches.size()); });
        if (m_stop) return;
        if (generation != m_generation) {
            job = m_job;
            generation = m_generation;
            kernel.reset();
        }
        const LaunchSpec& launch = job->launches[job->launches.size() - 1 - m_next++];
        lock.unlock();
        if (!kernel) {
            std::vector<std::span<const uint32_t>> modules(job->modules.begin(),
                                                           job->modules.end());
            auto made =
                GpuKernel::create(**ctx, modules, job->bindings, job->otherSets, job->pushBytes);
            if (made) kernel = std::move(*made);
        }
        for (uint32_t k = 0; kernel && k < kernel->modules() && !(*ctx)->hung(); ++k)
            if (kernel->prepare(std::span(&launch, 1), k)) ++m_compiled;
        lock.lock();
    }
}

} // namespace vkp
