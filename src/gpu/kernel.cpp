#include "gpu/kernel.h"

#include <algorithm>
#include <cstring>

namespace vkp {
namespace {

std::string dims(const std::array<uint32_t, 3>& d) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

// Buffers created for one run and destroyed when it ends.
struct RunBuffers {
    VkDevice device;
    std::vector<VkBuffer> buffers;
    std::vector<uint64_t> offsets, sizes;
    ~RunBuffers() {
        for (VkBuffer b : buffers) vkDestroyBuffer(device, b, nullptr);
    }
};

} // namespace

Result<std::unique_ptr<GpuKernel>> GpuKernel::create(GpuContext& ctx, std::span<const uint32_t> spirv,
                                                     std::vector<uint32_t> bindings) {
    auto res = ctx.runResources();
    if (!res) return res.error();
    std::unique_ptr<GpuKernel> k(new GpuKernel(ctx, **res));
    k->m_bindings = std::move(bindings);
    if (auto s = k->createObjects(spirv); !s) return s.error();
    return k;
}

Status GpuKernel::createObjects(std::span<const uint32_t> spirv) {
    VkDevice dev = m_ctx.device();
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv.size_bytes();
    smci.pCode = spirv.data();
    if (VkResult r = vkCreateShaderModule(dev, &smci, nullptr, &m_module); r != VK_SUCCESS)
        return vkError("creating the shader module", r);
    std::vector<VkDescriptorSetLayoutBinding> lb;
    for (uint32_t b : m_bindings)
        lb.push_back({b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dslci.bindingCount = static_cast<uint32_t>(lb.size());
    dslci.pBindings = lb.data();
    if (VkResult r = vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &m_setLayout); r != VK_SUCCESS)
        return vkError("creating the descriptor set layout", r);
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &m_setLayout;
    if (VkResult r = vkCreatePipelineLayout(dev, &plci, nullptr, &m_layout); r != VK_SUCCESS)
        return vkError("creating the pipeline layout", r);
    return okStatus();
}

GpuKernel::~GpuKernel() {
    if (m_ctx.hung()) return; // destroying objects of a busy device would block
    VkDevice dev = m_ctx.device();
    vkDeviceWaitIdle(dev);
    for (auto& [key, p] : m_pipelines) vkDestroyPipeline(dev, p, nullptr);
    vkDestroyPipelineLayout(dev, m_layout, nullptr);
    vkDestroyDescriptorSetLayout(dev, m_setLayout, nullptr);
    vkDestroyShaderModule(dev, m_module, nullptr);
}

GpuKernel::PipelineKey GpuKernel::keyOf(const LaunchSpec& launch) {
    PipelineKey key(launch.workgroupSize.begin(), launch.workgroupSize.end());
    for (const auto& [id, value] : launch.constants) {
        key.push_back(id);
        key.push_back(value);
    }
    return key;
}

Status GpuKernel::checkLimits(std::span<const LaunchSpec> launches) const {
    const DeviceInfo& d = m_ctx.info();
    for (size_t i = 0; i < launches.size(); ++i) {
        const LaunchSpec& l = launches[i];
        std::string where = "case " + std::to_string(i + 1) + ": ";
        uint64_t threads = uint64_t(l.workgroupSize[0]) * l.workgroupSize[1] * l.workgroupSize[2];
        for (int a = 0; a < 3; ++a) {
            if (l.workgroupSize[a] > d.maxWorkgroupSize[a])
                return Error{ErrorKind::Usage, where + "workgroup size " + dims(l.workgroupSize) + " is over " + d.name + "'s limit " + dims(d.maxWorkgroupSize)};
            if (l.workgroups[a] > d.maxWorkgroupCount[a])
                return Error{ErrorKind::Usage, where + "workgroup count " + dims(l.workgroups) + " is over " + d.name + "'s limit " + dims(d.maxWorkgroupCount)};
        }
        if (threads > d.maxWorkgroupInvocations)
            return Error{ErrorKind::Usage, where + std::to_string(threads) + " threads per workgroup is over " + d.name + "'s limit of " + std::to_string(d.maxWorkgroupInvocations)};
    }
    return okStatus();
}

Status GpuKernel::prepare(std::span<const LaunchSpec> launches) {
    // Specialization data of every new launch, kept alive until the create call returns.
    struct Spec {
        std::vector<VkSpecializationMapEntry> entries;
        std::vector<uint32_t> data;
        VkSpecializationInfo info{};
    };
    std::vector<PipelineKey> keys;
    std::vector<Spec> specs;
    specs.reserve(launches.size());
    for (const LaunchSpec& l : launches) {
        PipelineKey key = keyOf(l);
        if (m_pipelines.count(key) || std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        keys.push_back(key);
        Spec& s = specs.emplace_back();
        for (uint32_t a = 0; a < 3; ++a) s.data.push_back(l.workgroupSize[a]);
        for (const auto& [id, value] : l.constants) s.data.push_back(value);
        std::vector<uint32_t> ids = {0, 1, 2};
        for (const auto& [id, value] : l.constants) ids.push_back(id);
        for (uint32_t i = 0; i < ids.size(); ++i) s.entries.push_back({ids[i], i * 4u, 4});
    }
    if (keys.empty()) return okStatus();
    std::vector<VkComputePipelineCreateInfo> infos;
    for (Spec& s : specs) {
        s.info = {static_cast<uint32_t>(s.entries.size()), s.entries.data(), s.data.size() * 4, s.data.data()};
        VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        ci.stage.module = m_module;
        ci.stage.pName = "main";
        ci.stage.pSpecializationInfo = &s.info;
        ci.layout = m_layout;
        infos.push_back(ci);
    }
    std::vector<VkPipeline> made(infos.size(), VK_NULL_HANDLE);
    VkResult r = vkCreateComputePipelines(m_ctx.device(), VK_NULL_HANDLE, static_cast<uint32_t>(infos.size()),
                                          infos.data(), nullptr, made.data());
    for (size_t i = 0; i < made.size(); ++i)
        if (made[i]) m_pipelines[keys[i]] = made[i];
    if (r != VK_SUCCESS) return vkError("creating the compute pipeline", r);
    return okStatus();
}

Result<VkPipeline> GpuKernel::pipelineFor(const LaunchSpec& launch) {
    if (auto s = prepare(std::span(&launch, 1)); !s) return s.error();
    return m_pipelines.at(keyOf(launch));
}

Status GpuKernel::record(VkPipeline pipeline, const LaunchSpec& launch, VkDescriptorSet set) {
    VkCommandBuffer cmd = m_res.commandBuffer();
    VkQueryPool queries = m_res.queries();
    vkResetCommandBuffer(cmd, 0);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &bi);
    if (queries) {
        vkCmdResetQueryPool(cmd, queries, 0, 2);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0);
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, m_layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cmd, launch.workgroups[0], launch.workgroups[1], launch.workgroups[2]);
    if (queries) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 1);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                         nullptr, 0, nullptr);
    if (VkResult r = vkEndCommandBuffer(cmd); r != VK_SUCCESS) return vkError("recording commands", r);
    return okStatus();
}

Result<RunOutput> GpuKernel::run(const LaunchSpec& launch, std::span<const RunBuffer> buffers, uint64_t timeoutMs) {
    if (m_ctx.hung()) return Error{ErrorKind::Timeout, "the device is still busy with an earlier run that did not finish"};
    auto pipeline = pipelineFor(launch);
    if (!pipeline) return pipeline.error();
    VkDevice dev = m_ctx.device();
    RunBuffers rb{dev};
    uint64_t total = 0;
    for (const RunBuffer& b : buffers) {
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = std::max<uint64_t>(4, b.initial.size_bytes());
        bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        if (bci.size > m_ctx.info().maxStorageBufferRange)
            return Error{ErrorKind::Usage, "binding " + std::to_string(b.binding) + " needs " + std::to_string(bci.size) +
                                               " bytes, over " + m_ctx.info().name + "'s storage buffer limit of " +
                                               std::to_string(m_ctx.info().maxStorageBufferRange)};
        VkBuffer buf;
        if (VkResult r = vkCreateBuffer(dev, &bci, nullptr, &buf); r != VK_SUCCESS) return vkError("creating a buffer", r);
        rb.buffers.push_back(buf);
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(dev, buf, &req);
        uint64_t align = std::max<uint64_t>(req.alignment, m_ctx.storageOffsetAlignment());
        total = (total + align - 1) / align * align;
        rb.offsets.push_back(total);
        rb.sizes.push_back(bci.size);
        total += req.size;
    }
    if (auto s = m_res.ensureArena(total); !s) return s.error();
    auto* base = m_res.arenaMap();
    std::vector<VkDescriptorBufferInfo> dbi;
    for (size_t i = 0; i < buffers.size(); ++i) {
        std::memset(base + rb.offsets[i], 0, rb.sizes[i]);
        std::memcpy(base + rb.offsets[i], buffers[i].initial.data(), buffers[i].initial.size_bytes());
        if (VkResult r = vkBindBufferMemory(dev, rb.buffers[i], m_res.arena(), rb.offsets[i]); r != VK_SUCCESS)
            return vkError("binding buffer memory", r);
        dbi.push_back({rb.buffers[i], 0, rb.sizes[i]});
    }
    vkResetDescriptorPool(dev, m_res.descriptorPool(), 0);
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = m_res.descriptorPool();
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &m_setLayout;
    VkDescriptorSet set;
    if (VkResult r = vkAllocateDescriptorSets(dev, &dsai, &set); r != VK_SUCCESS) return vkError("allocating a descriptor set", r);
    std::vector<VkWriteDescriptorSet> writes;
    for (size_t i = 0; i < buffers.size(); ++i) {
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = buffers[i].binding;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &dbi[i];
        writes.push_back(w);
    }
    vkUpdateDescriptorSets(dev, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
    if (auto s = record(*pipeline, launch, set); !s) return s.error();
    VkFence fence = m_res.fence();
    VkCommandBuffer cmd = m_res.commandBuffer();
    vkResetFences(dev, 1, &fence);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    if (VkResult r = vkQueueSubmit(m_ctx.queue(), 1, &si, fence); r != VK_SUCCESS) return vkError("submitting the dispatch", r);
    VkResult waited = vkWaitForFences(dev, 1, &fence, VK_TRUE, timeoutMs * 1000000ull);
    if (waited == VK_TIMEOUT) {
        m_ctx.markHung();
        rb.buffers.clear(); // still in use by the device: leak them
        return Error{ErrorKind::Timeout, "did not finish within " + std::to_string(timeoutMs) + " ms (an endless loop?)"};
    }
    if (waited != VK_SUCCESS) return vkError("waiting for the dispatch", waited);
    RunOutput out;
    out.buffers.resize(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
        if (!buffers[i].readBack) continue;
        out.buffers[i].resize(buffers[i].initial.size());
        std::memcpy(out.buffers[i].data(), base + rb.offsets[i], buffers[i].initial.size_bytes());
    }
    if (m_res.queries()) {
        uint64_t ts[2] = {};
        if (vkGetQueryPoolResults(dev, m_res.queries(), 0, 2, sizeof ts, ts, sizeof(uint64_t),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS)
            out.gpuMs = double(ts[1] - ts[0]) * m_ctx.info().timestampPeriodNs / 1e6;
    }
    return out;
}

} // namespace vkp
