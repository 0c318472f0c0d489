#include "gpu/bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>

namespace vkp {
namespace {

int findMemory(const VkPhysicalDeviceMemoryProperties& mem, uint32_t allowed, VkMemoryPropertyFlags need, VkMemoryPropertyFlags prefer) {
    int best = -1;
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
        if (!(allowed & (1u << i)) || (f & need) != need) continue;
        if (best < 0 || ((f & prefer) == prefer && (mem.memoryTypes[best].propertyFlags & prefer) != prefer)) best = static_cast<int>(i);
    }
    return best;
}

// A buffer with its own memory: device-local for the data, host-visible for staging.
struct Buffer {
    const GpuContext* ctx = nullptr;
    VkDevice dev = VK_NULL_HANDLE;
    VkBuffer buf = VK_NULL_HANDLE;
    VkDeviceMemory mem = VK_NULL_HANDLE;
    void* map = nullptr;
    uint64_t bytes = 0;
    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer(Buffer&& o) noexcept { *this = std::move(o); }
    Buffer& operator=(Buffer&& o) noexcept {
        std::swap(ctx, o.ctx), std::swap(dev, o.dev), std::swap(buf, o.buf), std::swap(mem, o.mem), std::swap(map, o.map), std::swap(bytes, o.bytes);
        return *this;
    }
    ~Buffer() {
        // A kernel that did not finish may still use the memory: leak it rather than pull it away.
        if (!dev || ctx->hung()) return;
        if (map) vkUnmapMemory(dev, mem);
        vkDestroyBuffer(dev, buf, nullptr);
        vkFreeMemory(dev, mem, nullptr);
    }
};

Result<Buffer> makeBuffer(GpuContext& gpu, uint64_t bytes, bool staging) {
    Buffer b;
    b.ctx = &gpu;
    b.dev = gpu.device();
    b.bytes = std::max<uint64_t>(bytes, 16);
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = b.bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (VkResult r = vkCreateBuffer(b.dev, &bci, nullptr, &b.buf); r != VK_SUCCESS) return vkError("creating a benchmark buffer", r);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(b.dev, b.buf, &req);
    VkMemoryPropertyFlags need = staging ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT : 0;
    VkMemoryPropertyFlags prefer = staging ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    int type = findMemory(gpu.memoryProperties(), req.memoryTypeBits, need, prefer);
    if (type < 0) return Error{ErrorKind::Device, "no suitable memory for a benchmark buffer"};
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = static_cast<uint32_t>(type);
    if (VkResult r = vkAllocateMemory(b.dev, &mai, nullptr, &b.mem); r != VK_SUCCESS)
        return vkError(("allocating " + std::to_string(b.bytes >> 20) + " MiB for a benchmark buffer").c_str(), r);
    vkBindBufferMemory(b.dev, b.buf, b.mem, 0);
    if (staging) vkMapMemory(b.dev, b.mem, 0, VK_WHOLE_SIZE, 0, &b.map);
    return b;
}

std::string durationText(uint64_t ms) {
    if (ms < 1000 || ms % 1000 != 0) return std::to_string(ms) + " ms";
    return std::to_string(ms / 1000) + " s";
}

// One command buffer, recorded by `fill`, submitted, and waited for.
class OneShot {
  public:
    explicit OneShot(GpuContext& gpu) : m_gpu(gpu) {
        VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        cpci.queueFamilyIndex = gpu.queueFamily();
        vkCreateCommandPool(gpu.device(), &cpci, nullptr, &m_pool);
        VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        cbai.commandPool = m_pool;
        cbai.commandBufferCount = 1;
        vkAllocateCommandBuffers(gpu.device(), &cbai, &m_cmd);
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        vkCreateFence(gpu.device(), &fci, nullptr, &m_fence);
    }
    ~OneShot() {
        if (m_gpu.hung()) return;
        vkDestroyFence(m_gpu.device(), m_fence, nullptr);
        vkDestroyCommandPool(m_gpu.device(), m_pool, nullptr);
    }
    VkCommandBuffer begin() {
        vkResetCommandPool(m_gpu.device(), m_pool, 0);
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkBeginCommandBuffer(m_cmd, &bi);
        return m_cmd;
    }
    // Waits at most timeoutMs for each of `reps` repetitions recorded.
    Status submit(uint64_t timeoutMs, uint32_t reps = 1) {
        vkEndCommandBuffer(m_cmd);
        vkResetFences(m_gpu.device(), 1, &m_fence);
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &m_cmd;
        if (VkResult r = vkQueueSubmit(m_gpu.queue(), 1, &si, m_fence); r != VK_SUCCESS) return vkError("submitting", r);
        VkResult w = vkWaitForFences(m_gpu.device(), 1, &m_fence, VK_TRUE, timeoutMs * reps * 1000000ull);
        if (w == VK_TIMEOUT) {
            m_gpu.markHung();
            if (reps == 1) return Error{ErrorKind::Timeout, "the benchmark did not finish within " + durationText(timeoutMs) + " (an endless loop?)"};
            return Error{ErrorKind::Timeout, std::to_string(reps) + " repetitions of the benchmark did not finish within " + durationText(timeoutMs * reps) +
                                                 " (" + durationText(timeoutMs) + " each; an endless loop?)"};
        }
        if (w != VK_SUCCESS) return vkError("waiting for the benchmark", w);
        return okStatus();
    }

  private:
    GpuContext& m_gpu;
    VkCommandPool m_pool = VK_NULL_HANDLE;
    VkCommandBuffer m_cmd = VK_NULL_HANDLE;
    VkFence m_fence = VK_NULL_HANDLE;
};

void barrier(VkCommandBuffer cmd) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

// A compute pipeline over storage buffers at bindings 0..n-1 of set 0, with an optional uint
// push constant; owns its Vulkan objects.
struct Pipeline {
    GpuContext& gpu;
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
    explicit Pipeline(GpuContext& g) : gpu(g) {}
    ~Pipeline() {
        if (gpu.hung()) return;
        VkDevice d = gpu.device();
        vkDestroyDescriptorPool(d, pool, nullptr);
        vkDestroyPipeline(d, pipeline, nullptr);
        vkDestroyPipelineLayout(d, layout, nullptr);
        vkDestroyDescriptorSetLayout(d, setLayout, nullptr);
        vkDestroyShaderModule(d, module, nullptr);
    }
    Status create(std::span<const uint32_t> spirv, const std::vector<std::pair<uint32_t, VkBuffer>>& buffers,
                  const LaunchSpec* launch, uint32_t pushBytes) {
        VkDevice d = gpu.device();
        VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smci.codeSize = spirv.size_bytes();
        smci.pCode = spirv.data();
        if (VkResult r = vkCreateShaderModule(d, &smci, nullptr, &module); r != VK_SUCCESS) return vkError("creating a shader module", r);
        std::vector<VkDescriptorSetLayoutBinding> lb;
        for (const auto& [binding, buf] : buffers) lb.push_back({binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
        VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        dslci.bindingCount = static_cast<uint32_t>(lb.size());
        dslci.pBindings = lb.data();
        vkCreateDescriptorSetLayout(d, &dslci, nullptr, &setLayout);
        VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
        VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        plci.setLayoutCount = 1;
        plci.pSetLayouts = &setLayout;
        plci.pushConstantRangeCount = pushBytes ? 1 : 0;
        plci.pPushConstantRanges = &range;
        vkCreatePipelineLayout(d, &plci, nullptr, &layout);
        std::vector<VkSpecializationMapEntry> entries;
        std::vector<uint32_t> data;
        if (launch) {
            for (uint32_t a = 0; a < 3; ++a) data.push_back(launch->workgroupSize[a]);
            for (const auto& [id, v] : launch->constants) data.push_back(v);
            std::vector<uint32_t> ids = {0, 1, 2};
            for (const auto& [id, v] : launch->constants) ids.push_back(id);
            for (uint32_t i = 0; i < ids.size(); ++i) entries.push_back({ids[i], i * 4u, 4});
        }
        VkSpecializationInfo si{static_cast<uint32_t>(entries.size()), entries.data(), data.size() * 4, data.data()};
        VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", launch ? &si : nullptr};
        ci.layout = layout;
        if (gpu.info().pipelineStatistics) ci.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
        if (VkResult r = vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline); r != VK_SUCCESS)
            return vkError("creating the benchmark pipeline", r);
        VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<uint32_t>(std::max<size_t>(1, buffers.size()))};
        VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        dpci.maxSets = 1;
        dpci.poolSizeCount = 1;
        dpci.pPoolSizes = &ps;
        vkCreateDescriptorPool(d, &dpci, nullptr, &pool);
        VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        dsai.descriptorPool = pool;
        dsai.descriptorSetCount = 1;
        dsai.pSetLayouts = &setLayout;
        vkAllocateDescriptorSets(d, &dsai, &set);
        std::vector<VkDescriptorBufferInfo> infos;
        for (const auto& [binding, buf] : buffers) infos.push_back({buf, 0, VK_WHOLE_SIZE});
        std::vector<VkWriteDescriptorSet> writes;
        for (size_t i = 0; i < buffers.size(); ++i) {
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = buffers[i].first;
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w.pBufferInfo = &infos[i];
            writes.push_back(w);
        }
        vkUpdateDescriptorSets(d, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
        return okStatus();
    }
    // What the driver reports about the compiled kernel; nothing where it does not.
    std::vector<PipelineStat> statistics() const {
        std::vector<PipelineStat> out;
        if (!gpu.info().pipelineStatistics) return out;
        VkDevice d = gpu.device();
        auto executables = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(vkGetDeviceProcAddr(d, "vkGetPipelineExecutablePropertiesKHR"));
        auto statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(vkGetDeviceProcAddr(d, "vkGetPipelineExecutableStatisticsKHR"));
        if (!executables || !statistics) return out;
        VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
        info.pipeline = pipeline;
        uint32_t count = 0;
        if (executables(d, &info, &count, nullptr) != VK_SUCCESS || count == 0) return out;
        VkPipelineExecutableInfoKHR exec{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        exec.pipeline = pipeline;
        exec.executableIndex = 0; // a compute pipeline has one stage
        uint32_t n = 0;
        if (statistics(d, &exec, &n, nullptr) != VK_SUCCESS) return out;
        std::vector<VkPipelineExecutableStatisticKHR> stats(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
        if (statistics(d, &exec, &n, stats.data()) != VK_SUCCESS) return out;
        for (const auto& st : stats) {
            PipelineStat stat{st.name, "", std::nullopt, st.description};
            switch (st.format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: stat.value = st.value.b32 ? "true" : "false"; break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: stat.number = double(st.value.i64); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: stat.number = double(st.value.u64); break;
            default: stat.number = st.value.f64;
            }
            if (stat.number) {
                char buf[32];
                double v = *stat.number;
                if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v); // a count: every digit
                else std::snprintf(buf, sizeof buf, "%g", v);
                stat.value = buf;
            }
            out.push_back(std::move(stat));
        }
        return out;
    }
    void bind(VkCommandBuffer cmd) const {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    }
};

class Timestamps {
  public:
    Timestamps(GpuContext& gpu, uint32_t count) : m_gpu(gpu), m_count(count) {
        VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        q.queryType = VK_QUERY_TYPE_TIMESTAMP;
        q.queryCount = count;
        vkCreateQueryPool(gpu.device(), &q, nullptr, &m_pool);
    }
    ~Timestamps() {
        if (!m_gpu.hung()) vkDestroyQueryPool(m_gpu.device(), m_pool, nullptr);
    }
    VkQueryPool pool() const { return m_pool; }
    // Durations of pairs (2k, 2k+1) from `firstPair` on.
    std::vector<double> pairs(uint32_t firstPair) const {
        std::vector<uint64_t> ts(m_count);
        vkGetQueryPoolResults(m_gpu.device(), m_pool, 0, m_count, ts.size() * 8, ts.data(), 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        std::vector<double> out;
        for (uint32_t k = firstPair; 2 * k + 1 < m_count; ++k) out.push_back(double(ts[2 * k + 1] - ts[2 * k]) * m_gpu.info().timestampPeriodNs / 1e6);
        return out;
    }

  private:
    GpuContext& m_gpu;
    uint32_t m_count;
    VkQueryPool m_pool = VK_NULL_HANDLE;
};

// One repetition of a benchmark, recorded into the command buffer; timed from query `q` on when
// `q` is given.
using RecordRep = std::function<void(VkCommandBuffer, std::optional<uint32_t> q)>;

// Keeps the device busy with untimed repetitions for at least `ms` of wall time. GPUs idle at a low
// clock and take a while to reach full speed: on an H100 the first ~100 ms of dispatches after
// the data upload ran up to 4x slower, and a handful of warm-up dispatches did not cover that.
Status warmUp(OneShot& shot, const RecordRep& recordRep, double ms, uint64_t timeoutMs) {
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    auto since = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
    uint32_t batch = 1;
    while (since(start) < ms) {
        auto t = Clock::now();
        VkCommandBuffer cmd = shot.begin();
        for (uint32_t i = 0; i < batch; ++i) recordRep(cmd, std::nullopt);
        if (auto s = shot.submit(timeoutMs, batch); !s) return s;
        if (since(t) < 25 && batch < 4096) batch *= 2; // batches of ~25 ms: few gaps for the clock to drop in
    }
    return okStatus();
}

} // namespace

double medianOf(std::vector<double> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

Result<BenchRun> runBench(GpuContext& gpu, const BenchJob& job) {
    if (gpu.info().timestampPeriodNs <= 0) return Error{ErrorKind::Device, gpu.info().name + " has no compute timestamps to time a benchmark with"};
    std::vector<Buffer> buffers;
    uint64_t stagingBytes = 16;
    for (const BenchBuffer& b : job.buffers) {
        auto buf = makeBuffer(gpu, b.words * 4, false);
        if (!buf) return buf.error();
        buffers.push_back(std::move(*buf));
        stagingBytes = std::max<uint64_t>(stagingBytes, b.words * 4);
    }
    auto staging = makeBuffer(gpu, stagingBytes, true);
    if (!staging) return staging.error();
    std::vector<std::optional<Buffer>> pristine(job.buffers.size());
    for (size_t i = 0; i < job.buffers.size(); ++i) {
        if (!job.buffers[i].restoreEachRep) continue;
        auto buf = makeBuffer(gpu, job.buffers[i].words * 4, false);
        if (!buf) return buf.error();
        pristine[i] = std::move(*buf);
    }
    OneShot shot(gpu);
    for (size_t i = 0; i < job.buffers.size(); ++i) { // upload, one buffer at a time through staging
        VkCommandBuffer cmd = shot.begin();
        if (job.buffers[i].initial.empty()) {
            vkCmdFillBuffer(cmd, buffers[i].buf, 0, VK_WHOLE_SIZE, 0);
        } else {
            std::memcpy(staging->map, job.buffers[i].initial.data(), job.buffers[i].initial.size_bytes());
            VkBufferCopy region{0, 0, job.buffers[i].initial.size_bytes()};
            vkCmdCopyBuffer(cmd, staging->buf, buffers[i].buf, 1, &region);
        }
        if (pristine[i]) {
            VkBufferCopy all{0, 0, job.buffers[i].words * 4};
            barrier(cmd);
            vkCmdCopyBuffer(cmd, buffers[i].buf, pristine[i]->buf, 1, &all);
        }
        if (auto s = shot.submit(job.timeoutMs); !s) return s.error();
    }
    // One pipeline (and descriptor set) per step: a step's bindings may differ from the last one's.
    std::vector<BenchStep> steps = job.steps;
    if (steps.empty()) steps.push_back({0, job.launch.workgroups, {}, {}});
    std::vector<std::unique_ptr<Pipeline>> pipes;
    for (const BenchStep& step : steps) {
        std::vector<std::pair<uint32_t, VkBuffer>> bindings;
        for (size_t i = 0; i < job.buffers.size(); ++i) {
            int from = step.bind.empty() ? static_cast<int>(i) : step.bind[i];
            if (from >= 0) bindings.push_back({job.buffers[i].binding, buffers[from].buf});
        }
        pipes.push_back(std::make_unique<Pipeline>(gpu));
        if (auto s = pipes.back()->create(job.kernels.at(step.kernel), bindings, &job.launch, job.pushBytes); !s) return s.error();
    }
    uint32_t total = static_cast<uint32_t>(job.warmups + job.reps);
    uint32_t perRep = static_cast<uint32_t>(steps.size()) + 1;
    Timestamps ts(gpu, 2 * total * perRep);
    // One repetition: scratch cleared, overwritten inputs restored, then every step; timed when
    // `q` (its first query) is given. Every stamp waits for the work before it (BOTTOM_OF_PIPE):
    // a TOP_OF_PIPE stamp may be written while earlier commands still run.
    RecordRep recordRep = [&](VkCommandBuffer cmd, std::optional<uint32_t> q) {
        for (size_t i = 0; i < job.buffers.size(); ++i) {
            if (job.buffers[i].zeroEachRep) vkCmdFillBuffer(cmd, buffers[i].buf, 0, VK_WHOLE_SIZE, 0);
            VkBufferCopy all{0, 0, job.buffers[i].words * 4};
            if (pristine[i]) vkCmdCopyBuffer(cmd, pristine[i]->buf, buffers[i].buf, 1, &all);
        }
        barrier(cmd);
        if (q) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts.pool(), *q);
        for (size_t k = 0; k < steps.size(); ++k) {
            if (q) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts.pool(), *q + 2 + 2 * uint32_t(k));
            pipes[k]->bind(cmd);
            if (!steps[k].push.empty())
                vkCmdPushConstants(cmd, pipes[k]->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                   std::min<uint32_t>(job.pushBytes, static_cast<uint32_t>(steps[k].push.size() * 4)), steps[k].push.data());
            vkCmdDispatch(cmd, steps[k].workgroups[0], steps[k].workgroups[1], steps[k].workgroups[2]);
            if (q) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts.pool(), *q + 3 + 2 * uint32_t(k));
            barrier(cmd);
        }
        if (q) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts.pool(), *q + 1);
        barrier(cmd);
    };
    if (auto s = warmUp(shot, recordRep, job.warmupMs, job.timeoutMs); !s) return s.error();
    VkCommandBuffer cmd = shot.begin();
    vkCmdResetQueryPool(cmd, ts.pool(), 0, 2 * total * perRep);
    for (uint32_t r = 0; r < total; ++r) recordRep(cmd, 2 * r * perRep);
    if (auto s = shot.submit(job.timeoutMs, total); !s) return s.error();
    BenchRun run;
    run.kernelStats.resize(job.kernels.size());
    for (size_t k = 0; k < steps.size(); ++k) // each kernel's first step: later ones run the same code
        if (run.kernelStats.at(steps[k].kernel).empty()) run.kernelStats[steps[k].kernel] = pipes[k]->statistics();
    std::vector<double> pairs = ts.pairs(0);
    run.stepMs.resize(steps.size());
    for (uint32_t r = static_cast<uint32_t>(job.warmups); r < total; ++r) {
        run.dispatchMs.push_back(pairs[r * perRep]);
        for (size_t k = 0; k < steps.size(); ++k) run.stepMs[k].push_back(pairs[r * perRep + 1 + k]);
    }
    run.readBack.resize(job.buffers.size());
    for (size_t i = 0; i < job.buffers.size(); ++i) {
        if (!job.buffers[i].readBack) continue;
        VkCommandBuffer c = shot.begin();
        VkBufferCopy region{0, 0, job.buffers[i].words * 4};
        vkCmdCopyBuffer(c, buffers[i].buf, staging->buf, 1, &region);
        if (auto s = shot.submit(job.timeoutMs); !s) return s.error();
        run.readBack[i].resize(job.buffers[i].words);
        std::memcpy(run.readBack[i].data(), staging->map, job.buffers[i].words * 4);
    }
    return run;
}

Result<CopyBandwidth> measureCopy(GpuContext& gpu, const CopyJob& job) {
    uint64_t bytes = (job.bytes + 15) / 16 * 16;
    auto src = makeBuffer(gpu, bytes, false);
    if (!src) return src.error();
    auto dst = makeBuffer(gpu, bytes, false);
    if (!dst) return dst.error();
    Pipeline p(gpu);
    if (auto s = p.create(job.copyShader, {{0, src->buf}, {1, dst->buf}}, nullptr, 4); !s) return s.error();
    uint32_t count = static_cast<uint32_t>(bytes / 16);
    uint32_t groups = (count + 255) / 256;
    uint32_t gx = std::min(groups, gpu.info().maxWorkgroupCount[0]), gy = (groups + gx - 1) / gx;
    uint32_t total = static_cast<uint32_t>(job.reps + 1); // one warm-up of each
    Timestamps ts(gpu, 4 * total);
    OneShot shot(gpu);
    VkCommandBuffer cmd = shot.begin();
    vkCmdFillBuffer(cmd, src->buf, 0, VK_WHOLE_SIZE, 0x01020304);
    barrier(cmd);
    if (auto s = shot.submit(120000); !s) return s.error();
    VkBufferCopy region{0, 0, bytes};
    RecordRep recordRep = [&](VkCommandBuffer c, std::optional<uint32_t> q) {
        if (q) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts.pool(), *q);
        vkCmdCopyBuffer(c, src->buf, dst->buf, 1, &region);
        if (q) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts.pool(), *q + 1);
        barrier(c);
        if (q) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts.pool(), *q + 2);
        p.bind(c);
        vkCmdPushConstants(c, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
        vkCmdDispatch(c, gx, gy, 1);
        if (q) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts.pool(), *q + 3);
        barrier(c);
    };
    if (auto s = warmUp(shot, recordRep, job.warmupMs, 120000); !s) return s.error();
    cmd = shot.begin();
    vkCmdResetQueryPool(cmd, ts.pool(), 0, 4 * total);
    for (uint32_t r = 0; r < total; ++r) recordRep(cmd, 4 * r);
    if (auto s = shot.submit(120000); !s) return s.error();
    std::vector<double> all = ts.pairs(0);
    CopyBandwidth out;
    for (size_t k = 2; k < all.size(); ++k) (k % 2 ? out.shaderMs : out.transferMs).push_back(all[k]); // skip the warm-up pair
    return out;
}

} // namespace vkp
