#include "check/runner.h"

#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "worker/worker_runner.h"

namespace vkp {
namespace {

// A device of this process that the runner owns.
class OwnedInProcessRunner : public DeviceRunner {
  public:
    explicit OwnedInProcessRunner(std::unique_ptr<GpuContext> gpu)
        : m_gpu(std::move(gpu)), m_inner(*m_gpu) {}
    ~OwnedInProcessRunner() override {
        // A device still running an endless kernel would block its destruction forever: leak it.
        if (m_gpu->hung()) (void)m_gpu.release();
    }
    const DeviceInfo& info() const override { return m_inner.info(); }
    Result<DeviceJobResult> run(const DeviceJob& job) override { return m_inner.run(job); }
    Result<BenchRun> bench(const BenchJob& job) override { return m_inner.bench(job); }
    Result<CopyBandwidth> copyBandwidth(const CopyJob& job) override {
        return m_inner.copyBandwidth(job);
    }
    bool wedged() const override { return m_inner.wedged(); }
    GpuContext& gpu() { return *m_gpu; }

  private:
    std::unique_ptr<GpuContext> m_gpu;
    InProcessRunner m_inner;
};

Result<OpenedRunner> openWorker(const ContextOptions& options) {
    auto started = worker::WorkerRunner::start(worker::selfExecutable(), options);
    if (!started) return started.error();
    return OpenedRunner{std::move(*started), nullptr};
}

Result<OpenedRunner> openInProcess(const ContextOptions& options) {
    // The driver read its width when this process first opened it.
    if (options.subgroupLanes)
        return Error{ErrorKind::Device, "a device with " + std::to_string(options.subgroupLanes) +
                                            " subgroup lanes needs a worker process of its own"};
    auto gpu = GpuContext::create(options);
    if (!gpu) return gpu.error();
    auto runner = std::make_unique<OwnedInProcessRunner>(std::move(*gpu));
    GpuContext* own = &runner->gpu();
    return OpenedRunner{std::move(runner), own};
}

} // namespace

Result<OpenedRunner> openRunner(const RunnerOptions& options) {
    if (options.place == RunnerPlaceKind::Worker) return openWorker(options.context);
    return openInProcess(options.context);
}

RunnerFactory runnerFactory(RunnerPlaceKind place) {
    return [place](const ContextOptions& context) -> Result<std::unique_ptr<DeviceRunner>> {
        auto opened = openRunner({context, place});
        if (!opened) return opened.error();
        return std::move(opened->runner);
    };
}

Result<std::unique_ptr<DeviceRunner>> openDeviceRunner(const RunnerFactory& factory,
                                                       const ContextOptions& options) {
    if (factory) return factory(options);
    return runnerFactory(RunnerPlaceKind::InProcess)(options);
}

} // namespace vkp
