#include "gpu/device_runner.h"

#include <chrono>
#include <cstdlib>

#include "gpu/pipeline_warmer.h"

namespace vkp {
namespace {

double msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

bool compilesAtCreation(const DeviceInfo& info) {
    return info.type != DeviceTypeKind::Cpu;
}

uint64_t defaultTimeoutMs(const DeviceInfo& info) {
    // VKPUZZLES_TIMEOUT (whole seconds, 1 to 3600) is for machines that are slow or busy, such as
    // a grading box or a loaded CI runner; other values are not a timeout and are passed over.
    if (const char* env = std::getenv("VKPUZZLES_TIMEOUT")) {
        char* end = nullptr;
        unsigned long seconds = std::strtoul(env, &end, 10);
        if (end != env && *end == '\0' && seconds >= 1 && seconds <= 3600) return seconds * 1000;
    }
    return info.type == DeviceTypeKind::Cpu ? 60000 : 2000; // why: docs/app.md, Timeouts
}

InProcessRunner::InProcessRunner(GpuContext& gpu) : m_gpu(gpu) {}

InProcessRunner::~InProcessRunner() = default;

void InProcessRunner::warmLater(const DeviceJob& job) {
    if (job.prebuild.empty() || !PipelineWarmer::helps(m_gpu)) return;
    if (!m_warmer) m_warmer = std::make_unique<PipelineWarmer>(m_gpu);
    WarmJob w{{}, job.bindings, job.otherSets, job.pushBytes, job.prebuild};
    w.modules.emplace_back(job.spirv.begin(), job.spirv.end());
    for (std::span<const uint32_t> k : job.moreKernels)
        w.modules.emplace_back(k.begin(), k.end());
    m_warmer->start(std::move(w));
}

Result<DeviceJobResult> InProcessRunner::run(const DeviceJob& job) {
    if (job.testCrash) std::abort(); // tests only; never set outside them
    auto t = std::chrono::steady_clock::now();
    DeviceJobResult out;
    std::vector<std::span<const uint32_t>> modules{job.spirv};
    modules.insert(modules.end(), job.moreKernels.begin(), job.moreKernels.end());
    auto kernel = GpuKernel::create(m_gpu, modules, job.bindings, job.otherSets, job.pushBytes);
    if (!kernel) return kernel.error();
    std::vector<LaunchSpec> launches;
    for (const RunItem& item : job.items) {
        launches.push_back(item.launch);
        for (const Dispatch& dispatch : item.dispatches) {
            if (dispatch.kernel >= modules.size())
                return Error{ErrorKind::Internal, "a dispatch names kernel " +
                                                      std::to_string(dispatch.kernel) +
                                                      ", which the job lacks"};
            launches.back().workgroups =
                dispatch.workgroups; // each dispatch's count is checked too
            if (&dispatch != &item.dispatches.back()) launches.push_back(item.launch);
        }
    }
    if (auto s = (*kernel)->checkLimits(launches); !s) return s.error();
    (*kernel)->setBuildBudget(job.pipelineTimeoutMs);
    warmLater(job); // after the kernel: the run resources it shares with the warmer exist
    if (m_warmer)
        for (const LaunchSpec& l : launches)
            m_warmer->await(l);
    for (uint32_t k = 0; k < modules.size(); ++k)
        if (auto s = (*kernel)->prepare(launches, k); !s) return s.error();
    out.pipelineMs = msSince(t);
    out.pipelinesBuilt = (*kernel)->pipelinesBuilt();
    if (m_pipelinesBuilt) m_pipelinesBuilt();
    t = std::chrono::steady_clock::now();
    auto ran =
        (*kernel)->runAll(job.items, job.timeoutMs ? job.timeoutMs : defaultTimeoutMs(info()));
    out.runMs = msSince(t);
    if (!ran) return ran.error();
    out.items = std::move(*ran);
    return out;
}

} // namespace vkp
