#include "gpu/bench.h"

#include "gpu/context.h"
#include "gpu/vk_objects.h"

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

constexpr VkBufferUsageFlags kBenchUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                           VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                           VK_BUFFER_USAGE_TRANSFER_DST_BIT;
constexpr MemoryNeeds kDataMemory{0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
constexpr MemoryNeeds kStagingMemory{VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                     VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0};

// A buffer with its own memory: device-local for the data, host-visible (mapped) for staging.
// A data buffer has exactly its words (at least one): the kernel's a.length() is its size, as in
// a check. (Rounded up to 16 bytes, a 1-element input had 3 more cells of uninitialised memory,
// which histogram-shared took for bin numbers at N = 1 to 3: a crash in lavapipe.)
Result<DeviceBuffer> makeBuffer(GpuContext& gpu, uint64_t bytes, bool staging) {
    return createDeviceBuffer(gpu, std::max<uint64_t>(bytes, staging ? 16 : 4), kBenchUsage,
                              staging ? kStagingMemory : kDataMemory, staging,
                              "a benchmark buffer");
}

std::string durationText(uint64_t ms) {
    if (ms < 1000 || ms % 1000 != 0) return std::to_string(ms) + " ms";
    return std::to_string(ms / 1000) + " s";
}

Error timeoutError(uint64_t timeoutMs, uint32_t reps) {
    if (reps == 1)
        return Error{ErrorKind::Timeout, "the benchmark did not finish within " +
                                             durationText(timeoutMs) + " (an endless loop?)"};
    return Error{ErrorKind::Timeout, std::to_string(reps) +
                                         " repetitions of the benchmark did not finish within " +
                                         durationText(timeoutMs * reps) + " (" +
                                         durationText(timeoutMs) + " each; an endless loop?)"};
}

// Submits what `shot` recorded and waits at most timeoutMs for each of the `reps` repetitions in
// it.
Status submitAndWait(GpuContext& gpu, OneShotCommands& shot, uint64_t timeoutMs,
                     uint32_t reps = 1) {
    if (auto s = shot.submit(); !s) return s;
    auto finished = shot.wait(timeoutMs * reps * 1000000ull);
    if (!finished) return finished.error();
    if (*finished) return okStatus();
    gpu.markHung();
    return timeoutError(timeoutMs, reps);
}

void barrier(VkCommandBuffer cmd) {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    VkPipelineStageFlags stages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

// One statistic as the driver gave it, its value as text (a count with every digit).
PipelineStat statOf(const VkPipelineExecutableStatisticKHR& st) {
    PipelineStat stat{st.name, "", std::nullopt, st.description};
    switch (st.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        stat.value = st.value.b32 ? "true" : "false";
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        stat.number = double(st.value.i64);
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        stat.number = double(st.value.u64);
        break;
    default:
        stat.number = st.value.f64;
    }
    if (stat.number) {
        char buf[32];
        double v = *stat.number;
        if (v == std::floor(v) && std::fabs(v) < 1e15)
            std::snprintf(buf, sizeof buf, "%.0f", v); // a count: every digit
        else
            std::snprintf(buf, sizeof buf, "%g", v);
        stat.value = buf;
    }
    return stat;
}

// What the driver reports about a compiled kernel; nothing where it does not (a failing query
// included: the figures are an extra, not what the benchmark measures).
std::vector<PipelineStat> pipelineStatistics(GpuContext& gpu, VkPipeline pipeline) {
    std::vector<PipelineStat> out;
    if (!gpu.info().pipelineStatistics) return out;
    VkDevice d = gpu.device();
    auto executables = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(d, "vkGetPipelineExecutablePropertiesKHR"));
    auto statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(d, "vkGetPipelineExecutableStatisticsKHR"));
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
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (statistics(d, &exec, &n, stats.data()) != VK_SUCCESS) return out;
    for (const auto& st : stats)
        out.push_back(statOf(st));
    return out;
}

// A compute pipeline over storage buffers of set 0, with an optional uint push constant, and its
// own descriptor set.
struct BenchPipeline {
    ShaderModule module;
    PipelineLayout layout;
    Pipeline pipeline;
    DescriptorPool pool;
    VkDescriptorSet set = VK_NULL_HANDLE; // freed with the pool

    void bind(VkCommandBuffer cmd) const {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout.get(), 0, 1, &set, 0,
                                nullptr);
    }
};

// `buffers`: the buffer at each binding. `launch`: its workgroup size and constants as
// specialization constants (null: none).
Result<std::unique_ptr<BenchPipeline>>
createBenchPipeline(GpuContext& gpu, std::span<const uint32_t> spirv,
                    const std::vector<std::pair<uint32_t, VkBuffer>>& buffers,
                    const LaunchSpec* launch, uint32_t pushBytes) {
    auto p = std::make_unique<BenchPipeline>();
    auto module = createShaderModule(gpu, spirv);
    if (!module) return module.error();
    p->module = std::move(*module);
    std::vector<BindingSlot> slots;
    for (const auto& [binding, buf] : buffers)
        slots.push_back({0, binding});
    auto layout = PipelineLayout::create(gpu, slots, pushBytes);
    if (!layout) return layout.error();
    p->layout = std::move(*layout);
    std::optional<Specialization> spec;
    if (launch) spec.emplace(launch->workgroupSize, launch->constants);
    const VkSpecializationInfo* info = spec ? spec->info() : nullptr;
    auto made = createComputePipelines(gpu, p->layout.get(), p->module.get(), std::span(&info, 1),
                                       gpu.info().pipelineStatistics);
    if (!made) return made.error();
    p->pipeline = std::move(made->front());
    auto pool =
        createDescriptorPool(gpu, 1, static_cast<uint32_t>(std::max<size_t>(1, buffers.size())));
    if (!pool) return pool.error();
    p->pool = std::move(*pool);
    auto sets = allocateDescriptorSets(gpu, p->pool.get(), p->layout.setLayouts());
    if (!sets) return sets.error();
    p->set = sets->front();
    std::vector<VkDescriptorBufferInfo> infos;
    for (const auto& [binding, buf] : buffers)
        infos.push_back({buf, 0, VK_WHOLE_SIZE});
    std::vector<VkWriteDescriptorSet> writes;
    for (size_t i = 0; i < buffers.size(); ++i)
        writes.push_back(storageBufferWrite(p->set, buffers[i].first, &infos[i]));
    vkUpdateDescriptorSets(gpu.device(), static_cast<uint32_t>(writes.size()), writes.data(), 0,
                           nullptr);
    return p;
}

// One repetition of a benchmark, recorded into the command buffer; timed from query `q` on when
// `q` is given.
using RecordRep = std::function<void(VkCommandBuffer, std::optional<uint32_t> q)>;

// Keeps the device busy with untimed repetitions for at least `ms` of wall time. GPUs idle at a low
// clock and take a while to reach full speed: on an H100 the first ~100 ms of dispatches after
// the data upload ran up to 4x slower, and a handful of warm-up dispatches did not cover that.
Status warmUp(GpuContext& gpu, OneShotCommands& shot, const RecordRep& recordRep, double ms,
              uint64_t timeoutMs) {
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    auto since = [](Clock::time_point t) {
        return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    };
    uint32_t batch = 1;
    while (since(start) < ms) {
        auto t = Clock::now();
        auto cmd = shot.begin();
        if (!cmd) return cmd.error();
        for (uint32_t i = 0; i < batch; ++i)
            recordRep(*cmd, std::nullopt);
        if (auto s = submitAndWait(gpu, shot, timeoutMs, batch); !s) return s;
        if (since(t) < 25 && batch < 4096)
            batch *= 2; // batches of ~25 ms: few gaps for the clock to drop in
    }
    return okStatus();
}

// Warms up, then records `total` timed repetitions (`queriesPerRep` queries each) in one
// submission and waits for them.
Status timeRepetitions(GpuContext& gpu, OneShotCommands& shot, const TimestampQueries& ts,
                       const RecordRep& recordRep, double warmupMs, uint64_t timeoutMs,
                       uint32_t total, uint32_t queriesPerRep, uint32_t waitReps) {
    if (auto s = warmUp(gpu, shot, recordRep, warmupMs, timeoutMs); !s) return s;
    auto cmd = shot.begin();
    if (!cmd) return cmd.error();
    vkCmdResetQueryPool(*cmd, ts.get(), 0, total * queriesPerRep);
    for (uint32_t r = 0; r < total; ++r)
        recordRep(*cmd, r * queriesPerRep);
    return submitAndWait(gpu, shot, timeoutMs, waitReps);
}

// The device buffers of a benchmark, one staging buffer for uploads and read-backs, and pristine
// copies of the inputs a pass overwrites.
struct BenchMemory {
    std::vector<DeviceBuffer> buffers; // per BenchBuffer
    DeviceBuffer staging;              // as large as the largest buffer
    std::vector<std::optional<DeviceBuffer>>
        pristine; // per BenchBuffer: its initial contents, where restored each repetition
};

Result<BenchMemory> createBenchMemory(GpuContext& gpu, const BenchJob& job) {
    BenchMemory m;
    uint64_t stagingBytes = 16;
    for (const BenchBuffer& b : job.buffers) {
        auto buf = makeBuffer(gpu, b.words * 4, false);
        if (!buf) return buf.error();
        m.buffers.push_back(std::move(*buf));
        stagingBytes = std::max<uint64_t>(stagingBytes, b.words * 4);
    }
    auto staging = makeBuffer(gpu, stagingBytes, true);
    if (!staging) return staging.error();
    m.staging = std::move(*staging);
    m.pristine.resize(job.buffers.size());
    for (size_t i = 0; i < job.buffers.size(); ++i) {
        if (!job.buffers[i].restoreEachRep) continue;
        auto buf = makeBuffer(gpu, job.buffers[i].words * 4, false);
        if (!buf) return buf.error();
        m.pristine[i] = std::move(*buf);
    }
    return m;
}

// Fills every buffer (its initial words, or zeros), one at a time through staging, and its
// pristine copy.
Status upload(GpuContext& gpu, OneShotCommands& shot, const BenchJob& job, BenchMemory& m) {
    for (size_t i = 0; i < job.buffers.size(); ++i) {
        auto cmd = shot.begin();
        if (!cmd) return cmd.error();
        if (job.buffers[i].initial.empty()) {
            vkCmdFillBuffer(*cmd, m.buffers[i].get(), 0, VK_WHOLE_SIZE, 0);
        } else {
            std::memcpy(m.staging.map(), job.buffers[i].initial.data(),
                        job.buffers[i].initial.size_bytes());
            VkBufferCopy region{0, 0, job.buffers[i].initial.size_bytes()};
            vkCmdCopyBuffer(*cmd, m.staging.get(), m.buffers[i].get(), 1, &region);
        }
        if (m.pristine[i]) {
            VkBufferCopy all{0, 0, job.buffers[i].words * 4};
            barrier(*cmd);
            vkCmdCopyBuffer(*cmd, m.buffers[i].get(), m.pristine[i]->get(), 1, &all);
        }
        if (auto s = submitAndWait(gpu, shot, job.timeoutMs); !s) return s;
    }
    return okStatus();
}

// One pipeline (and descriptor set) per step: a step's bindings may differ from the last one's.
Result<std::vector<std::unique_ptr<BenchPipeline>>>
createDispatchPipelines(GpuContext& gpu, const BenchJob& job, const std::vector<Dispatch>& steps,
                        const BenchMemory& m) {
    std::vector<std::unique_ptr<BenchPipeline>> pipes;
    for (const Dispatch& step : steps) {
        std::vector<std::pair<uint32_t, VkBuffer>> bindings;
        for (size_t i = 0; i < job.buffers.size(); ++i) {
            int from = step.bind.empty() ? static_cast<int>(i) : step.bind[i];
            if (from >= 0) bindings.push_back({job.buffers[i].binding, m.buffers[from].get()});
        }
        auto pipe = createBenchPipeline(gpu, job.kernels.at(step.kernel), bindings, &job.launch,
                                        job.pushBytes);
        if (!pipe) return pipe.error();
        pipes.push_back(std::move(*pipe));
    }
    return pipes;
}

// One repetition: scratch cleared, overwritten inputs restored, then every step; timed when
// `q` (its first query) is given. Every stamp waits for the work before it (BOTTOM_OF_PIPE):
// a TOP_OF_PIPE stamp may be written while earlier commands still run.
RecordRep benchRepetition(const BenchJob& job, const std::vector<Dispatch>& steps,
                          const BenchMemory& m,
                          const std::vector<std::unique_ptr<BenchPipeline>>& pipes,
                          VkQueryPool queries) {
    return [&job, &steps, &m, &pipes, queries](VkCommandBuffer cmd, std::optional<uint32_t> q) {
        for (size_t i = 0; i < job.buffers.size(); ++i) {
            if (job.buffers[i].zeroEachRep)
                vkCmdFillBuffer(cmd, m.buffers[i].get(), 0, VK_WHOLE_SIZE, 0);
            VkBufferCopy all{0, 0, job.buffers[i].words * 4};
            if (m.pristine[i])
                vkCmdCopyBuffer(cmd, m.pristine[i]->get(), m.buffers[i].get(), 1, &all);
        }
        barrier(cmd);
        if (q) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, *q);
        for (size_t k = 0; k < steps.size(); ++k) {
            if (q)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries,
                                    *q + 2 + 2 * uint32_t(k));
            pipes[k]->bind(cmd);
            if (!steps[k].push.empty())
                vkCmdPushConstants(cmd, pipes[k]->layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                   std::min<uint32_t>(job.pushBytes, static_cast<uint32_t>(
                                                                         steps[k].push.size() * 4)),
                                   steps[k].push.data());
            vkCmdDispatch(cmd, steps[k].workgroups[0], steps[k].workgroups[1],
                          steps[k].workgroups[2]);
            if (q)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries,
                                    *q + 3 + 2 * uint32_t(k));
            barrier(cmd);
        }
        if (q) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, *q + 1);
        barrier(cmd);
    };
}

// The timed repetitions' figures, from pairs of queries: per repetition its whole time (pair 0)
// and then each step's.
void collectTimes(BenchRun& run, const std::vector<double>& pairs, uint32_t warmups, uint32_t total,
                  size_t steps) {
    uint32_t perRep = static_cast<uint32_t>(steps) + 1;
    run.perDispatchMs.resize(steps);
    for (uint32_t r = warmups; r < total; ++r) {
        run.repetitionMs.push_back(pairs[r * perRep]);
        for (size_t k = 0; k < steps; ++k)
            run.perDispatchMs[k].push_back(pairs[r * perRep + 1 + k]);
    }
}

// The buffers marked readBack, through staging.
Status readBackOutputs(GpuContext& gpu, OneShotCommands& shot, const BenchJob& job,
                       const BenchMemory& m, BenchRun& run) {
    run.readBack.resize(job.buffers.size());
    for (size_t i = 0; i < job.buffers.size(); ++i) {
        if (!job.buffers[i].readBack) continue;
        auto cmd = shot.begin();
        if (!cmd) return cmd.error();
        VkBufferCopy region{0, 0, job.buffers[i].words * 4};
        vkCmdCopyBuffer(*cmd, m.buffers[i].get(), m.staging.get(), 1, &region);
        if (auto s = submitAndWait(gpu, shot, job.timeoutMs); !s) return s;
        run.readBack[i].resize(job.buffers[i].words);
        std::memcpy(run.readBack[i].data(), m.staging.map(), job.buffers[i].words * 4);
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
    if (gpu.info().timestampPeriodNs <= 0)
        return Error{ErrorKind::Device,
                     gpu.info().name + " has no compute timestamps to time a benchmark with"};
    auto memory = createBenchMemory(gpu, job);
    if (!memory) return memory.error();
    auto shot = OneShotCommands::create(gpu, "the benchmark");
    if (!shot) return shot.error();
    if (auto s = upload(gpu, *shot, job, *memory); !s) return s.error();
    std::vector<Dispatch> steps = job.dispatches;
    if (steps.empty()) steps.push_back({0, job.launch.workgroups, {}, {}});
    auto pipes = createDispatchPipelines(gpu, job, steps, *memory);
    if (!pipes) return pipes.error();
    uint32_t total = static_cast<uint32_t>(job.warmups + job.reps);
    uint32_t perRep = static_cast<uint32_t>(steps.size()) + 1;
    auto ts = TimestampQueries::create(gpu, 2 * total * perRep);
    if (!ts) return ts.error();
    RecordRep recordRep = benchRepetition(job, steps, *memory, *pipes, ts->get());
    if (auto s = timeRepetitions(gpu, *shot, *ts, recordRep, job.warmupMs, job.timeoutMs, total,
                                 2 * perRep, total);
        !s)
        return s.error();
    BenchRun run;
    run.kernelStats.resize(job.kernels.size());
    for (size_t k = 0; k < steps.size();
         ++k) // each kernel's first step: later ones run the same code
        if (run.kernelStats.at(steps[k].kernel).empty())
            run.kernelStats[steps[k].kernel] = pipelineStatistics(gpu, (*pipes)[k]->pipeline.get());
    auto pairs = ts->pairMs();
    if (!pairs) return pairs.error();
    collectTimes(run, *pairs, static_cast<uint32_t>(job.warmups), total, steps.size());
    if (auto s = readBackOutputs(gpu, *shot, job, *memory, run); !s) return s.error();
    return run;
}

Result<CopyBandwidth> measureCopy(GpuContext& gpu, const CopyJob& job) {
    constexpr uint64_t kCopyTimeoutMs = 120000;
    uint64_t bytes = (job.bytes + 15) / 16 * 16;
    auto src = makeBuffer(gpu, bytes, false);
    if (!src) return src.error();
    auto dst = makeBuffer(gpu, bytes, false);
    if (!dst) return dst.error();
    auto p =
        createBenchPipeline(gpu, job.copyShader, {{0, src->get()}, {1, dst->get()}}, nullptr, 4);
    if (!p) return p.error();
    uint32_t count = static_cast<uint32_t>(bytes / 16);
    uint32_t groups = (count + 255) / 256;
    uint32_t gx = std::min(groups, gpu.info().maxWorkgroupCount[0]), gy = (groups + gx - 1) / gx;
    uint32_t total = static_cast<uint32_t>(job.reps + 1); // one warm-up of each
    auto ts = TimestampQueries::create(gpu, 4 * total);
    if (!ts) return ts.error();
    auto shot = OneShotCommands::create(gpu, "the copy benchmark");
    if (!shot) return shot.error();
    auto cmd = shot->begin();
    if (!cmd) return cmd.error();
    vkCmdFillBuffer(*cmd, src->get(), 0, VK_WHOLE_SIZE, 0x01020304);
    barrier(*cmd);
    if (auto s = submitAndWait(gpu, *shot, kCopyTimeoutMs); !s) return s.error();
    VkBufferCopy region{0, 0, bytes};
    VkQueryPool queries = ts->get();
    const BenchPipeline& pipe = **p;
    RecordRep recordRep = [&](VkCommandBuffer c, std::optional<uint32_t> q) {
        if (q) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, *q);
        vkCmdCopyBuffer(c, src->get(), dst->get(), 1, &region);
        if (q) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, *q + 1);
        barrier(c);
        if (q) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, *q + 2);
        pipe.bind(c);
        vkCmdPushConstants(c, pipe.layout.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
        vkCmdDispatch(c, gx, gy, 1);
        if (q) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, *q + 3);
        barrier(c);
    };
    // The whole timed batch has one timeout (not one per repetition), as it always had.
    if (auto s =
            timeRepetitions(gpu, *shot, *ts, recordRep, job.warmupMs, kCopyTimeoutMs, total, 4, 1);
        !s)
        return s.error();
    auto all = ts->pairMs();
    if (!all) return all.error();
    CopyBandwidth out;
    for (size_t k = 2; k < all->size(); ++k)
        (k % 2 ? out.shaderMs : out.transferMs).push_back((*all)[k]); // skip the warm-up pair
    return out;
}

} // namespace vkp
