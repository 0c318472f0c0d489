#include "gpu/kernel.h"

#include "trace/trace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace vkp {
namespace {

std::string dims(const std::array<uint32_t, 3>& d) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
           ")";
}

} // namespace

// Buffers created for one batch and destroyed when it ends (unless the device hangs).
struct BatchBuffers {
    std::vector<BufferObject> buffers;    // every item's buffers, item after item
    std::vector<uint64_t> offsets, sizes; // in the arena
    std::vector<size_t> first;            // per item: index of its first buffer
};

Result<std::unique_ptr<GpuKernel>> GpuKernel::create(GpuContext& ctx,
                                                     std::span<const uint32_t> spirv,
                                                     std::vector<uint32_t> bindings,
                                                     std::vector<BindingSlot> otherSets) {
    return create(ctx, std::vector<std::span<const uint32_t>>{spirv}, std::move(bindings),
                  std::move(otherSets), 0);
}

Result<std::unique_ptr<GpuKernel>> GpuKernel::create(GpuContext& ctx,
                                                     std::vector<std::span<const uint32_t>> modules,
                                                     std::vector<uint32_t> bindings,
                                                     std::vector<BindingSlot> otherSets,
                                                     uint32_t pushBytes) {
    auto res = ctx.runResources();
    if (!res) return res.error();
    std::unique_ptr<GpuKernel> k(new GpuKernel(ctx, **res));
    for (uint32_t b : bindings)
        k->m_bindings.push_back({0, b});
    k->m_bindings.insert(k->m_bindings.end(), otherSets.begin(), otherSets.end());
    if (auto s = k->createObjects(modules, pushBytes); !s) return s.error();
    return k;
}

Status GpuKernel::createObjects(const std::vector<std::span<const uint32_t>>& modules,
                                uint32_t pushBytes) {
    for (std::span<const uint32_t> spirv : modules) {
        auto module = m_res.store().module(spirv);
        if (!module) return module.error();
        m_modules.push_back(std::move(*module));
    }
    m_pushBytes = pushBytes;
    auto layout = m_res.store().layout(m_bindings, pushBytes);
    if (!layout) return layout.error();
    m_layout = std::move(*layout);
    return okStatus();
}

GpuKernel::PipelineKey GpuKernel::keyOf(uint32_t kernel, const LaunchSpec& launch) {
    PipelineKey key{kernel};
    key.insert(key.end(), launch.workgroupSize.begin(), launch.workgroupSize.end());
    for (const auto& [id, value] : launch.constants) {
        key.push_back(id);
        key.push_back(value);
    }
    return key;
}

PipelineStore::Key GpuKernel::storeKeyOf(uint32_t kernel, const LaunchSpec& launch) const {
    PipelineStore::Key key = keyOf(kernel, launch);
    key[0] = m_modules.at(kernel).id;
    key.insert(key.begin(), m_layout.id);
    return key;
}

Status GpuKernel::checkLimits(std::span<const LaunchSpec> launches) const {
    for (size_t i = 0; i < launches.size(); ++i)
        if (auto s = checkLaunchLimits(m_ctx.info(), launches[i], "case " + std::to_string(i + 1));
            !s)
            return s;
    return okStatus();
}

Status checkLaunchLimits(const DeviceInfo& d, const LaunchSpec& l, const std::string& name) {
    std::string where = name + ": ";
    uint64_t threads = uint64_t(l.workgroupSize[0]) * l.workgroupSize[1] * l.workgroupSize[2];
    for (int a = 0; a < 3; ++a) {
        if (l.workgroupSize[a] > d.maxWorkgroupSize[a])
            return Error{ErrorKind::Usage, where + "workgroup size " + dims(l.workgroupSize) +
                                               " is over " + d.name + "'s limit " +
                                               dims(d.maxWorkgroupSize)};
        if (l.workgroups[a] > d.maxWorkgroupCount[a])
            return Error{ErrorKind::Usage, where + "workgroup count " + dims(l.workgroups) +
                                               " is over " + d.name + "'s limit " +
                                               dims(d.maxWorkgroupCount)};
    }
    if (threads > d.maxWorkgroupInvocations)
        return Error{ErrorKind::Usage,
                     where + std::to_string(threads) + " threads per workgroup is over " + d.name +
                         "'s limit of " + std::to_string(d.maxWorkgroupInvocations)};
    return okStatus();
}

Status GpuKernel::prepare(std::span<const LaunchSpec> launches, uint32_t kernel, bool warmNew) {
    if (kernel >= m_modules.size())
        return Error{ErrorKind::Internal,
                     "no kernel " + std::to_string(kernel) + " in this program"};
    std::vector<PipelineKey> keys;
    std::vector<const LaunchSpec*> launchOf;            // per key
    std::vector<std::unique_ptr<Specialization>> specs; // kept alive until the pipelines are made
    std::vector<const VkSpecializationInfo*> infos;
    for (const LaunchSpec& l : launches) {
        PipelineKey key = keyOf(kernel, l);
        if (m_pipelines.count(key) || std::find(keys.begin(), keys.end(), key) != keys.end())
            continue;
        // Built by an earlier job, or by a PipelineWarmer thread (waited for); else ours to build.
        if (auto kept = m_res.store().claim(storeKeyOf(kernel, l))) {
            m_pipelines.emplace(key, std::move(kept));
            continue;
        }
        keys.push_back(key);
        launchOf.push_back(&l);
        specs.push_back(std::make_unique<Specialization>(l.workgroupSize, l.constants));
        infos.push_back(specs.back()->info());
    }
    if (keys.empty()) return okStatus();
    auto releaseAll = [&] {
        for (const LaunchSpec* l : launchOf)
            m_res.store().release(storeKeyOf(kernel, *l));
    };
    auto made = createComputePipelines(m_ctx, m_layout.object->get(),
                                       m_modules[kernel].object->get(), infos);
    if (!made) {
        releaseAll();
        return made.error();
    }
    std::vector<VkPipeline> fresh;
    std::vector<std::shared_ptr<const Pipeline>> owned;
    for (size_t i = 0; i < made->size(); ++i) {
        fresh.push_back((*made)[i].get());
        owned.push_back(std::make_shared<const Pipeline>(std::move((*made)[i])));
        m_pipelines.emplace(keys[i], owned.back());
    }
    m_built += fresh.size();
    if (warmNew)
        if (auto s = warm(fresh); !s) {
            releaseAll();
            return s;
        }
    for (size_t i = 0; i < keys.size(); ++i)
        m_res.store().keep(storeKeyOf(kernel, *launchOf[i]), owned[i]);
    return okStatus();
}

Status GpuKernel::warm(std::span<const VkPipeline> pipelines) {
    if (m_ctx.hung())
        return Error{ErrorKind::Timeout,
                     "the device is still busy with an earlier run that did not finish"};
    // A dispatch of no workgroups runs nothing, but needs every binding described: one small
    // buffer stands in for all of them.
    constexpr uint64_t kStandInBytes = 4096;
    auto standIn = createBuffer(m_ctx, kStandInBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (!standIn) return standIn.error();
    if (auto s = m_res.ensureArena(kStandInBytes * 2); !s) return s;
    VkDevice dev = m_ctx.device();
    if (auto s = vkCheck(vkBindBufferMemory(dev, standIn->get(), m_res.arena(), 0),
                         "binding buffer memory");
        !s)
        return s;
    if (auto s = vkCheck(vkResetDescriptorPool(dev, m_res.descriptorPool(), 0),
                         "resetting the descriptor pool");
        !s)
        return s;
    auto sets =
        allocateDescriptorSets(m_ctx, m_res.descriptorPool(), m_layout.object->setLayouts());
    if (!sets) return sets.error();
    VkDescriptorBufferInfo dbi{standIn->get(), 0, kStandInBytes};
    std::vector<VkWriteDescriptorSet> writes;
    for (const BindingSlot& b : m_bindings)
        writes.push_back(storageBufferWrite(sets->at(b.set), b.binding, &dbi));
    vkUpdateDescriptorSets(dev, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
    auto cmd = m_res.commands(0).begin();
    if (!cmd) return cmd.error();
    std::vector<uint32_t> zeros(m_pushBytes / 4 + 1, 0);
    for (VkPipeline pipeline : pipelines) {
        vkCmdBindPipeline(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(*cmd, VK_PIPELINE_BIND_POINT_COMPUTE, m_layout.object->get(), 0,
                                static_cast<uint32_t>(sets->size()), sets->data(), 0, nullptr);
        if (m_pushBytes)
            vkCmdPushConstants(*cmd, m_layout.object->get(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                               m_pushBytes, zeros.data());
        vkCmdDispatch(*cmd, 0, 0, 0);
    }
    if (auto s = m_res.commands(0).submit(); !s) return s;
    uint64_t budgetMs = m_buildBudgetMs ? m_buildBudgetMs : buildBudgetMs(pipelines.size());
    auto finished = m_res.commands(0).wait(budgetMs * 1000000ull);
    if (!finished) return finished.error();
    if (*finished) return okStatus();
    m_ctx.markHung();
    return Error{ErrorKind::Timeout,
                 "compiling the kernel's pipelines (" + std::to_string(pipelines.size()) +
                     " in all) for the device took longer than " + std::to_string(budgetMs / 1000) +
                     " s, so the case did not run (it is not to blame). A kernel this slow to "
                     "compile is very large (long unrolled loops, big constant arrays), or the "
                     "driver or the machine was stuck or overloaded"};
}

Result<VkPipeline> GpuKernel::pipelineFor(uint32_t kernel, const LaunchSpec& launch) {
    if (auto s = prepare(std::span(&launch, 1), kernel); !s) return s.error();
    return m_pipelines.at(keyOf(kernel, launch))->get();
}

namespace {

std::vector<Dispatch> dispatchesOf(const RunItem& item) {
    if (!item.dispatches.empty()) return item.dispatches;
    return {Dispatch{0, item.launch.workgroups, {}, {}}};
}

} // namespace

size_t GpuKernel::pipelinesOf(std::span<const RunItem> items) {
    std::vector<PipelineKey> keys;
    for (const RunItem& item : items)
        for (const Dispatch& dispatch : dispatchesOf(item)) {
            PipelineKey key = keyOf(dispatch.kernel, item.launch);
            if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
        }
    return keys.size();
}

Status GpuKernel::recordItem(VkCommandBuffer cmd, uint32_t index, const RunItem& item,
                             const BatchBuffers& bb) {
    VkQueryPool queries = m_res.queries() ? m_res.queries()->get() : VK_NULL_HANDLE;
    if (queries) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 2 * index);
    std::vector<Dispatch> dispatches = dispatchesOf(item);
    for (size_t s = 0; s < dispatches.size(); ++s) {
        const Dispatch& dispatch = dispatches[s];
        auto pipeline = pipelineFor(dispatch.kernel, item.launch);
        if (!pipeline) return pipeline.error();
        auto sets = describe(item, dispatch, bb, bb.first[index]);
        if (!sets) return sets.error();
        if (s > 0) {
            // Each dispatch sees everything the dispatches before it wrote.
            VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0,
                                 nullptr);
        }
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, *pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, m_layout.object->get(), 0,
                                static_cast<uint32_t>(sets->size()), sets->data(), 0, nullptr);
        if (!dispatch.push.empty() && m_pushBytes) {
            uint32_t bytes =
                std::min<uint32_t>(m_pushBytes, static_cast<uint32_t>(dispatch.push.size() * 4));
            vkCmdPushConstants(cmd, m_layout.object->get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes,
                               dispatch.push.data());
        }
        vkCmdDispatch(cmd, dispatch.workgroups[0], dispatch.workgroups[1], dispatch.workgroups[2]);
    }
    if (queries)
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 2 * index + 1);
    // The item's own submission ends here: its fence tells the host it finished (which starts
    // the next item's deadline), and its writes are made visible to the host's read-back.
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                         1, &toHost, 0, nullptr, 0, nullptr);
    return okStatus();
}

Status GpuKernel::placeBuffers(std::span<const RunItem> items, BatchBuffers& bb) {
    VkDevice dev = m_ctx.device();
    uint64_t total = 0;
    for (const RunItem& item : items) {
        bb.first.push_back(bb.buffers.size());
        for (const RunBuffer& b : item.buffers) {
            VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
            bci.size = std::max<uint64_t>(4, std::max<uint64_t>(b.initial.size(), b.sizeWords) * 4);
            bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
            if (bci.size > m_ctx.info().maxStorageBufferRange)
                return Error{ErrorKind::Usage,
                             "binding " + std::to_string(b.binding) +
                                 (b.set ? " of set " + std::to_string(b.set) : "") + " needs " +
                                 std::to_string(bci.size) + " bytes, over " + m_ctx.info().name +
                                 "'s storage buffer limit of " +
                                 std::to_string(m_ctx.info().maxStorageBufferRange)};
            auto buf = createBuffer(m_ctx, bci.size, bci.usage);
            if (!buf) return buf.error();
            VkMemoryRequirements req;
            vkGetBufferMemoryRequirements(dev, buf->get(), &req);
            bb.buffers.push_back(std::move(*buf));
            uint64_t align = std::max<uint64_t>(req.alignment, m_ctx.storageOffsetAlignment());
            total = (total + align - 1) / align * align;
            bb.offsets.push_back(total);
            bb.sizes.push_back(bci.size);
            total += req.size;
        }
    }
    if (auto s = m_res.ensureArena(total); !s) return s.error();
    uint8_t* base = m_res.arenaMap();
    size_t k = 0;
    for (const RunItem& item : items)
        for (const RunBuffer& b : item.buffers) {
            if (b.initial.empty()) std::memset(base + bb.offsets[k], 0, 4);
            std::memcpy(base + bb.offsets[k], b.initial.data(), b.initial.size_bytes());
            if (auto s = vkCheck(
                    vkBindBufferMemory(dev, bb.buffers[k].get(), m_res.arena(), bb.offsets[k]),
                    "binding buffer memory");
                !s)
                return s;
            ++k;
        }
    return okStatus();
}

Result<std::vector<VkDescriptorSet>> GpuKernel::describe(const RunItem& item,
                                                         const Dispatch& dispatch,
                                                         const BatchBuffers& bb, size_t first) {
    auto allocated =
        allocateDescriptorSets(m_ctx, m_res.descriptorPool(), m_layout.object->setLayouts());
    if (!allocated) return allocated.error();
    std::vector<VkDescriptorSet>& sets = *allocated;
    std::vector<VkDescriptorBufferInfo> dbi;
    for (size_t i = 0; i < item.buffers.size(); ++i) {
        int from = dispatch.bind.empty() ? static_cast<int>(i) : dispatch.bind.at(i);
        size_t k = first + static_cast<size_t>(std::max(from, 0));
        dbi.push_back({bb.buffers[k].get(), 0, bb.sizes[k]});
    }
    std::vector<VkWriteDescriptorSet> writes;
    for (size_t i = 0; i < item.buffers.size(); ++i) {
        if (!dispatch.bind.empty() && dispatch.bind[i] < 0) continue;
        writes.push_back(
            storageBufferWrite(sets.at(item.buffers[i].set), item.buffers[i].binding, &dbi[i]));
    }
    vkUpdateDescriptorSets(m_ctx.device(), static_cast<uint32_t>(writes.size()), writes.data(), 0,
                           nullptr);
    return sets;
}

Result<RunOutput> GpuKernel::run(const LaunchSpec& launch, std::span<const RunBuffer> buffers,
                                 uint64_t timeoutMs) {
    RunItem item{launch, {buffers.begin(), buffers.end()}, {}};
    auto all = runAll(std::span(&item, 1), timeoutMs);
    if (!all) return all.error();
    return std::move(all->front());
}

Result<std::vector<Result<RunOutput>>> GpuKernel::runAll(std::span<const RunItem> items,
                                                         uint64_t timeoutMs) {
    std::vector<Result<RunOutput>> out;
    for (size_t at = 0; at < items.size();) {
        // A batch holds at most kMaxBatch items and kMaxDispatches dispatches (descriptor sets).
        size_t n = 0, dispatches = 0;
        while (at + n < items.size() && n < RunResources::kMaxBatch) {
            size_t more = std::max<size_t>(1, items[at + n].dispatches.size());
            if (n > 0 && dispatches + more > RunResources::kMaxDispatches) break;
            dispatches += more;
            ++n;
        }
        if (dispatches > RunResources::kMaxDispatches)
            return Error{ErrorKind::Usage, "a case runs " + std::to_string(dispatches) +
                                               " dispatches; the limit is " +
                                               std::to_string(RunResources::kMaxDispatches)};
        auto part = runBatch(items.subspan(at, n), timeoutMs);
        if (!part) return part.error();
        for (auto& r : *part)
            out.push_back(std::move(r));
        at += n;
        if (m_ctx.hung()) break; // a case never finished: keep what ran, run nothing more
    }
    while (out.size() < items.size())
        out.push_back(Error{ErrorKind::Timeout, "did not run: an earlier case never finished"});
    return out;
}

Result<std::vector<Result<RunOutput>>> GpuKernel::runBatch(std::span<const RunItem> items,
                                                           uint64_t timeoutMs) {
    if (m_ctx.hung())
        return Error{ErrorKind::Timeout,
                     "the device is still busy with an earlier run that did not finish"};
    for (const RunItem& item : items)
        for (const Dispatch& dispatch : dispatchesOf(item))
            if (auto p = pipelineFor(dispatch.kernel, item.launch); !p) return p.error();
    VkDevice dev = m_ctx.device();
    BatchBuffers bb;
    if (auto s = placeBuffers(items, bb); !s) return s.error();
    if (auto s = vkCheck(vkResetDescriptorPool(dev, m_res.descriptorPool(), 0),
                         "resetting the descriptor pool");
        !s)
        return s.error();
    // One submission per item, all made before any is waited for, so the device runs them back
    // to back; the host then waits for each item's fence in turn, blocked rather than polling.
    for (uint32_t i = 0; i < items.size(); ++i) {
        auto begun = m_res.commands(i).begin();
        if (!begun) return abandon(i, begun.error(), bb, timeoutMs);
        if (i == 0 && m_res.queries())
            vkCmdResetQueryPool(*begun, m_res.queries()->get(), 0,
                                static_cast<uint32_t>(2 * items.size()));
        if (auto s = recordItem(*begun, i, items[i], bb); !s)
            return abandon(i, s.error(), bb, timeoutMs);
        if (auto s = m_res.commands(i).submit(); !s) return abandon(i, s.error(), bb, timeoutMs);
    }
    auto waited = waitPerItem(items.size(), timeoutMs);
    if (!waited) return waited.error();
    if (waited->finished < items.size()) return timedOut(items, *waited, timeoutMs, bb);
    return readBack(items, bb, true);
}

Error GpuKernel::abandon(size_t submitted, Error e, BatchBuffers& bb, uint64_t timeoutMs) {
    auto waited = waitPerItem(submitted, timeoutMs);
    if (waited && waited->finished == submitted) return e;
    // An item submitted before the failure did not finish: its buffers cannot be freed under it,
    // nor the device torn down.
    m_ctx.markHung();
    bb.buffers.clear();
    return e;
}

Result<GpuKernel::Waited> GpuKernel::waitPerItem(size_t count, uint64_t timeoutMs) {
    // Item i's deadline starts when the host sees item i-1's fence signalled, which is when item
    // i starts on a device that runs submissions in order (the host is blocked in the wait and
    // wakes at once). Item 0's starts after every submission was made, when it is already
    // running: it gets at least its budget too.
    using Clock = std::chrono::steady_clock;
    for (size_t i = 0; i < count; ++i) {
        auto since = Clock::now();
        auto finished = m_res.commands(i).wait(timeoutMs * 1000000ull);
        if (!finished) return finished.error();
        if (!*finished)
            return Waited{i,
                          std::chrono::duration<double, std::milli>(Clock::now() - since).count()};
    }
    return Waited{count, 0};
}

std::string GpuKernel::timeoutText(uint64_t timeoutMs, double waitedMs) {
    std::string budget = timeoutMs % 1000 ? std::to_string(timeoutMs) + " ms"
                                          : std::to_string(timeoutMs / 1000) + " s";
    char waited[32];
    std::snprintf(waited, sizeof waited, "%.1f s", waitedMs / 1000);
    return "did not finish within " + budget + ": it was given up after running " + waited +
           " (a loop that never ends, or more work than fits in that time? On a slow or busy "
           "machine, give it a longer --timeout)";
}

std::vector<Result<RunOutput>> GpuKernel::timedOut(std::span<const RunItem> items, Waited waited,
                                                   uint64_t timeoutMs, BatchBuffers& bb) {
    m_ctx.markHung();
    // The items before the stuck one finished (their fences say so): their results are read now;
    // the buffers stay (leaked, never destroyed) as the device is still busy.
    std::vector<Result<RunOutput>> out = readBack(items.first(waited.finished), bb, false);
    bb.buffers.clear();
    out.push_back(Error{ErrorKind::Timeout, timeoutText(timeoutMs, waited.stuckMs)});
    while (out.size() < items.size())
        out.push_back(Error{ErrorKind::Timeout, "did not run: an earlier case never finished"});
    return out;
}

// Reads back the first items.size() items of the batch, all finished; their timestamps only when
// the whole batch is (`withTimes`): lavapipe's vkGetQueryPoolResults waits for its busy queue,
// forever when a later item never ends.
std::vector<Result<RunOutput>> GpuKernel::readBack(std::span<const RunItem> items,
                                                   const BatchBuffers& bb, bool withTimes) {
    std::vector<uint64_t> ts;
    if (withTimes && m_res.queries() &&
        !items.empty()) // times are a bonus: a failed read leaves them out
        if (auto read = m_res.queries()->read(0, static_cast<uint32_t>(2 * items.size())))
            ts = std::move(*read);
    bool haveTimes = !ts.empty();
    const uint8_t* base = m_res.arenaMap();
    std::vector<Result<RunOutput>> out;
    for (size_t i = 0; i < items.size(); ++i) {
        RunOutput o;
        o.buffers.resize(items[i].buffers.size());
        for (size_t b = 0; b < items[i].buffers.size(); ++b) {
            const RunBuffer& rb = items[i].buffers[b];
            if (!rb.readBack) continue;
            uint64_t words = std::max<uint64_t>(rb.initial.size(), rb.sizeWords);
            const uint8_t* at = base + bb.offsets[bb.first[i] + b];
            if (rb.packTrace) {
                o.buffers[b] = packTraceBuffer({reinterpret_cast<const uint32_t*>(at), words});
                continue;
            }
            o.buffers[b].resize(words);
            std::memcpy(o.buffers[b].data(), at, words * 4);
        }
        if (haveTimes)
            o.gpuMs = double(ts[2 * i + 1] - ts[2 * i]) * m_ctx.info().timestampPeriodNs / 1e6;
        out.push_back(std::move(o));
    }
    return out;
}

} // namespace vkp
