#include "gpu/device_runner.h"

#include <chrono>
#include <cstdlib>

namespace vkp {
namespace {

double msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

uint64_t defaultTimeoutMs(const DeviceInfo& info) {
    return info.type == DeviceTypeKind::Cpu ? 10000 : 2000;
}

Result<DeviceJobResult> InProcessRunner::run(const DeviceJob& job) {
    if (job.testCrash) std::abort(); // tests only; never set outside them
    auto t = std::chrono::steady_clock::now();
    DeviceJobResult out;
    auto kernel = GpuKernel::create(m_gpu, job.spirv, job.bindings, job.otherSets);
    if (!kernel) return kernel.error();
    std::vector<LaunchSpec> launches;
    for (const RunItem& item : job.items) launches.push_back(item.launch);
    if (auto s = (*kernel)->checkLimits(launches); !s) return s.error();
    if (auto s = (*kernel)->prepare(launches); !s) return s.error();
    out.pipelineMs = msSince(t);
    t = std::chrono::steady_clock::now();
    auto ran = (*kernel)->runAll(job.items, job.timeoutMs ? job.timeoutMs : defaultTimeoutMs(info()));
    out.runMs = msSince(t);
    if (!ran) return ran.error();
    out.items = std::move(*ran);
    return out;
}

} // namespace vkp
