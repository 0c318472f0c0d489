// A compiled kernel on a device: shader module, pipeline layout, and one pipeline per launch
// shape (workgroup size and constants are specialization constants, so each case has its own).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpu/vulkan_api.h"

#include "base/result.h"
#include "gpu/context.h"
#include "gpu/pipeline_store.h"
#include "gpu/run_resources.h"
#include "gpu/vk_objects.h"

namespace vkp {

struct LaunchSpec {
    std::array<uint32_t, 3> workgroupSize{1, 1, 1}; // spec constants 0, 1, 2
    std::array<uint32_t, 3> workgroups{1, 1, 1};    // vkCmdDispatch counts
    std::map<uint32_t, uint32_t> constants;         // further spec constants: id -> bits
};

// Whether two launches need the same pipeline of a module (workgroup counts aside).
inline bool sameSpecialization(const LaunchSpec& a, const LaunchSpec& b) {
    return a.workgroupSize == b.workgroupSize && a.constants == b.constants;
}

// One storage buffer of a run: its binding, initial contents, and whether to read it back.
struct RunBuffer {
    uint32_t binding = 0;
    std::span<const uint32_t> initial; // element words; an empty buffer is padded to one word
    bool readBack = false;
    uint32_t set = 0;
    uint64_t sizeWords =
        0; // when larger than `initial`: the buffer's size; the rest is uninitialised
    bool packTrace = false; // a trace buffer: read back only what was written (packTraceBuffer)
};

// One dispatch of a multi-pass run: which module, how many workgroups, its push constants and
// which buffer's memory sits at each buffer's slot (ping-pong passes swap them).
struct Dispatch {
    uint32_t kernel = 0; // index into the modules given to create()
    std::array<uint32_t, 3> workgroups{1, 1, 1};
    std::vector<uint32_t> push; // push-constant words from offset 0
    std::vector<int> bind;      // per RunBuffer: whose memory is bound at its (set,
                                // binding); -1: none. Empty: every buffer its own.
};

// One item of a batch (a test case): its launch shape, buffers, and dispatches. With none it
// is one dispatch of module 0 with `launch.workgroups`; they run in order, each seeing the
// writes of the ones before.
struct RunItem {
    LaunchSpec launch;
    std::vector<RunBuffer> buffers;
    std::vector<Dispatch> dispatches;
};

struct RunOutput {
    std::vector<std::vector<uint32_t>> buffers; // per RunBuffer; empty unless readBack
    double gpuMs = -1;                          // from timestamps; -1 when unsupported
};

// A launch against the device's limits on workgroup size, count and threads; a Usage error
// begins with `name` ("case 3").
Status checkLaunchLimits(const DeviceInfo& device, const LaunchSpec& launch,
                         const std::string& name);

struct BatchBuffers; // the buffers of one submission (kernel.cpp)

class GpuKernel {
  public:
    // `bindings`: the storage-buffer bindings of set 0 the kernel uses; `otherSets`: any in
    // further sets (the trace buffer of an instrumented kernel).
    static Result<std::unique_ptr<GpuKernel>> create(GpuContext& ctx,
                                                     std::span<const uint32_t> spirv,
                                                     std::vector<uint32_t> bindings,
                                                     std::vector<BindingSlot> otherSets = {});
    // Several modules sharing one pipeline layout (the union of their bindings) and a push-constant
    // range of `pushBytes` (0: none): the kernels of a multi-pass puzzle.
    static Result<std::unique_ptr<GpuKernel>>
    create(GpuContext& ctx, std::vector<std::span<const uint32_t>> modules,
           std::vector<uint32_t> bindings, std::vector<BindingSlot> otherSets, uint32_t pushBytes);
    GpuKernel(const GpuKernel&) = delete;
    GpuKernel& operator=(const GpuKernel&) = delete;

    // Checks launches against the device's limits; a Usage error names the case (1-based).
    Status checkLimits(std::span<const LaunchSpec> launches) const;
    // Creates the pipelines of these launches of module `kernel` (in parallel), and has the device
    // finish building them (warm, unless `warmNew` is false: a driver that compiles at creation
    // has nothing left to do) before any case runs.
    Status prepare(std::span<const LaunchSpec> launches, uint32_t kernel = 0, bool warmNew = true);
    // How long the device may take to compile one pipeline: Mesa 25's lavapipe (LLVM 19) took
    // 4 s a pipeline on average, 59 s for scan-levels' 14, on a loaded 2-core machine.
    static constexpr uint64_t kCompileMsPerPipeline = 30000;
    // The time allowed to build and warm `pipelines` pipelines: a minute, and the above for each.
    static uint64_t buildBudgetMs(size_t pipelines) {
        return 60000 + kCompileMsPerPipeline * pipelines;
    }
    // The time allowed to build and warm the pipelines of one prepare(); 0: buildBudgetMs.
    void setBuildBudget(uint64_t ms) { m_buildBudgetMs = ms; }
    // Distinct pipelines (kernel, workgroup size, constants) that running `items` needs.
    static size_t pipelinesOf(std::span<const RunItem> items);
    size_t modules() const { return m_modules.size(); }
    // Pipelines this kernel had the driver build (not found in the context's store).
    size_t pipelinesBuilt() const { return m_built; }
    // Uploads, dispatches once, waits at most timeoutMs, and reads back.
    Result<RunOutput> run(const LaunchSpec& launch, std::span<const RunBuffer> buffers,
                          uint64_t timeoutMs);
    // Every item, each in its own submission, all submitted at once; each has its own deadline:
    // it may run timeoutMs from when the item before it finished. The outer error is a setup
    // failure; the item that overran gets a Timeout error with the time it ran, those after it
    // one saying they never started, and those before it keep their results.
    Result<std::vector<Result<RunOutput>>> runAll(std::span<const RunItem> items,
                                                  uint64_t timeoutMs);

  private:
    GpuKernel(GpuContext& ctx, RunResources& res) : m_ctx(ctx), m_res(res) {}
    Status createObjects(const std::vector<std::span<const uint32_t>>& modules, uint32_t pushBytes);
    Result<VkPipeline> pipelineFor(uint32_t kernel, const LaunchSpec& launch);
    Result<std::vector<Result<RunOutput>>> runBatch(std::span<const RunItem> items,
                                                    uint64_t timeoutMs);
    Status placeBuffers(std::span<const RunItem> items, BatchBuffers& bb);
    Result<std::vector<VkDescriptorSet>> describe(const RunItem& item, const Dispatch& dispatch,
                                                  const BatchBuffers& bb, size_t first);
    Status recordItem(VkCommandBuffer cmd, uint32_t index, const RunItem& item,
                      const BatchBuffers& bb);
    // Lavapipe compiles a pipeline's machine code on its first dispatch, not when it is created
    // (measured: docs/app.md, Timeouts): an empty dispatch of each new pipeline makes that part
    // of building the pipelines, never of a case's deadline.
    Status warm(std::span<const VkPipeline> pipelines);
    struct Waited {
        size_t finished = 0; // items that finished; the next one overran
        double stuckMs = 0;  // how long the host waited for the one that overran
    };
    // Waits for a submitted batch's items in turn, each at most timeoutMs from when the one
    // before it finished.
    Result<Waited> waitPerItem(size_t count, uint64_t timeoutMs);
    // After the first `submitted` items of a batch were submitted and the next failed to: waits
    // for them (each its deadline), so the buffers can go, and returns `e`.
    Error abandon(size_t submitted, Error e, BatchBuffers& bb, uint64_t timeoutMs);
    // The finished items' results (without their GPU times), then the stuck item's timeout and the
    // unstarted ones'.
    std::vector<Result<RunOutput>> timedOut(std::span<const RunItem> items, Waited waited,
                                            uint64_t timeoutMs, BatchBuffers& bb);
    // What a case that overran is told: its budget and the time it really ran.
    static std::string timeoutText(uint64_t timeoutMs, double waitedMs);
    std::vector<Result<RunOutput>> readBack(std::span<const RunItem> items, const BatchBuffers& bb,
                                            bool withTimes);

    using PipelineKey = std::vector<uint32_t>;
    static PipelineKey keyOf(uint32_t kernel, const LaunchSpec& launch);
    // The key of module `kernel`'s pipeline for `launch` in the context's store.
    PipelineStore::Key storeKeyOf(uint32_t kernel, const LaunchSpec& launch) const;

    GpuContext& m_ctx;
    RunResources& m_res; // the context's, shared by every kernel
    std::vector<BindingSlot> m_bindings;
    // Made by createObjects, or kept from an earlier kernel of the same words (m_res.store()).
    std::vector<PipelineStore::Kept<ShaderModule>> m_modules;
    uint32_t m_pushBytes = 0;
    size_t m_built = 0;
    uint64_t m_buildBudgetMs = 0;
    PipelineStore::Kept<PipelineLayout> m_layout;
    std::map<PipelineKey, std::shared_ptr<const Pipeline>> m_pipelines;
};

} // namespace vkp
