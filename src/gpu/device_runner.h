// Where a check's dispatches run: in this process (InProcessRunner) or in an isolated worker
// process (worker/worker_runner.h). The session talks only to this interface.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "base/result.h"
#include "device/device_info.h"
#include "gpu/bench.h"
#include "gpu/context.h"
#include "gpu/kernel.h"

namespace vkp {

// One kernel (or the kernels of a multi-pass puzzle) and its dispatches: the SPIR-V, the
// storage-buffer bindings, and one item per case.
struct DeviceJob {
    std::span<const uint32_t> spirv; // kernel 0
    std::vector<std::span<const uint32_t>>
        moreKernels;                    // kernels 1, 2, ... (RunItem dispatches name them)
    uint32_t pushBytes = 0;             // push-constant range shared by the kernels
    std::vector<uint32_t> bindings;     // set 0
    std::vector<BindingSlot> otherSets; // e.g. the trace buffer
    std::vector<RunItem> items;         // buffers point into the caller's memory
    // Launches of later jobs of the same kernels (the other cases of a check): their pipelines
    // are compiled in the background (gpu/pipeline_warmer.h) while this job builds and runs its
    // own, so that its answer waits for its own pipelines only.
    std::vector<LaunchSpec> prebuild;
    uint64_t timeoutMs = 0; // per item; 0: the device's default (defaultTimeoutMs)
    // Building the modules and pipelines; 0: GpuKernel::buildBudgetMs. A check given a budget
    // (--timeout, the app's) gives it to the compile too (compileInCaseBudget), so a kernel that
    // takes minutes to compile is stopped as one that takes minutes to run.
    uint64_t pipelineTimeoutMs = 0;
    bool compileInCaseBudget = false;
    bool testCrash = false; // tests only: the worker process crashes on this job
};

struct DeviceJobResult {
    double pipelineMs = 0;                // shader module + pipelines
    size_t pipelinesBuilt = 0;            // by the driver (the others were kept from earlier jobs)
    double runMs = 0;                     // upload, dispatch, wait, read back
    std::vector<Result<RunOutput>> items; // per DeviceJob::items
};

// Whether pipelines of `info`'s device are compiled when they are created (a GPU's driver), not
// at their first dispatch (lavapipe, a CPU device: its pipelines are built one after another).
bool compilesAtCreation(const DeviceInfo& info);

// Milliseconds a dispatch may take before it is called endless when no --timeout is given:
// $VKPUZZLES_TIMEOUT seconds when set, else 2 s on a GPU and 60 s on a CPU device (lavapipe).
uint64_t defaultTimeoutMs(const DeviceInfo& info);

class DeviceRunner {
  public:
    virtual ~DeviceRunner() = default;
    virtual const DeviceInfo& info() const = 0;
    // A setup failure (no device, limits, pipeline) is the error; per-case failures (timeout,
    // device lost) are in the items.
    virtual Result<DeviceJobResult> run(const DeviceJob& job) = 0;
    // `vkpuzzles bench`: timed repetitions (gpu/bench.h). A timeout or a lost device is the error.
    virtual Result<BenchRun> bench(const BenchJob& job) = 0;
    // The device's copy bandwidth over `bytes`, with shaders/copy.comp compiled (measureCopy).
    virtual Result<CopyBandwidth> copyBandwidth(const CopyJob& job) = 0;
    // True when a timed-out dispatch left this process's device busy: it cannot be torn down, and
    // the process should end with _exit (platform.md). A worker-backed runner never is.
    virtual bool wedged() const { return false; }
    // From another thread: stops the job under way, which then returns an error (a worker
    // process is killed and restarted by the next job). In this process nothing can stop a
    // dispatch, so it does nothing there.
    virtual void interrupt() {}
};

class PipelineWarmer;

class InProcessRunner : public DeviceRunner {
  public:
    explicit InProcessRunner(GpuContext& gpu);
    ~InProcessRunner() override;
    const DeviceInfo& info() const override { return m_gpu.info(); }
    Result<DeviceJobResult> run(const DeviceJob& job) override;
    Result<BenchRun> bench(const BenchJob& job) override { return runBench(m_gpu, job); }
    Result<CopyBandwidth> copyBandwidth(const CopyJob& job) override {
        return measureCopy(m_gpu, job);
    }
    bool wedged() const override { return m_gpu.hung(); }
    // Called when a job's pipelines are built and its dispatches start (the worker tells its app).
    void onPipelinesBuilt(std::function<void()> f) { m_pipelinesBuilt = std::move(f); }
    // The helper devices that compile later cases' pipelines on a CPU device (null: none yet).
    const PipelineWarmer* warmer() const { return m_warmer.get(); }

  private:
    // A CPU device compiles at the first dispatch, one pipeline after another: other devices of
    // this process compile the job's later launches meanwhile (gpu/pipeline_warmer.h).
    void warmLater(const DeviceJob& job);

    GpuContext& m_gpu;
    std::function<void()> m_pipelinesBuilt;
    std::unique_ptr<PipelineWarmer> m_warmer;
};

} // namespace vkp
