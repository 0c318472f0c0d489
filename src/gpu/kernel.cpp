#include "gpu/kernel.h"

#include <algorithm>
#include <cstring>

namespace vkp {
namespace {

constexpr uint32_t kMaxBindings = 32;

std::string dims(const std::array<uint32_t, 3>& d) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
}

int pickMemoryType(const VkPhysicalDeviceMemoryProperties& mem, uint32_t allowed) {
    const VkMemoryPropertyFlags need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int best = -1;
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
        if (!(allowed & (1u << i)) || (f & need) != need) continue;
        if (best < 0 || (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) best = static_cast<int>(i);
        if (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) break;
    }
    return best;
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
    std::unique_ptr<GpuKernel> k(new GpuKernel(ctx));
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
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kMaxBindings};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &ps;
    if (VkResult r = vkCreateDescriptorPool(dev, &dpci, nullptr, &m_pool); r != VK_SUCCESS)
        return vkError("creating the descriptor pool", r);
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpci.queueFamilyIndex = m_ctx.queueFamily();
    if (VkResult r = vkCreateCommandPool(dev, &cpci, nullptr, &m_commandPool); r != VK_SUCCESS)
        return vkError("creating the command pool", r);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = m_commandPool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    if (VkResult r = vkAllocateCommandBuffers(dev, &cbai, &m_cmd); r != VK_SUCCESS)
        return vkError("allocating a command buffer", r);
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (VkResult r = vkCreateFence(dev, &fci, nullptr, &m_fence); r != VK_SUCCESS) return vkError("creating a fence", r);
    if (m_ctx.info().timestampPeriodNs > 0) {
        VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpci.queryCount = 2;
        if (VkResult r = vkCreateQueryPool(dev, &qpci, nullptr, &m_queries); r != VK_SUCCESS)
            return vkError("creating a timestamp query pool", r);
    }
    return okStatus();
}

GpuKernel::~GpuKernel() {
    if (m_ctx.hung()) return; // destroying objects of a busy device would block
    VkDevice dev = m_ctx.device();
    vkDeviceWaitIdle(dev);
    for (auto& [key, p] : m_pipelines) vkDestroyPipeline(dev, p, nullptr);
    if (m_arenaMap) vkUnmapMemory(dev, m_arena);
    vkFreeMemory(dev, m_arena, nullptr);
    vkDestroyQueryPool(dev, m_queries, nullptr);
    vkDestroyFence(dev, m_fence, nullptr);
    vkDestroyCommandPool(dev, m_commandPool, nullptr);
    vkDestroyDescriptorPool(dev, m_pool, nullptr);
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

Status GpuKernel::ensureArena(uint64_t bytes) {
    if (bytes <= m_arenaBytes) return okStatus();
    VkDevice dev = m_ctx.device();
    if (m_arena) {
        vkUnmapMemory(dev, m_arena);
        vkFreeMemory(dev, m_arena, nullptr);
        m_arena = VK_NULL_HANDLE;
        m_arenaBytes = 0;
    }
    // The memory type must suit storage buffers: ask a throwaway buffer which types do.
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = 256;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer probe;
    if (VkResult r = vkCreateBuffer(dev, &bci, nullptr, &probe); r != VK_SUCCESS) return vkError("creating a buffer", r);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, probe, &req);
    vkDestroyBuffer(dev, probe, nullptr);
    int type = pickMemoryType(m_ctx.memoryProperties(), req.memoryTypeBits);
    if (type < 0) return Error{ErrorKind::Device, "the device has no host-visible memory for storage buffers"};
    uint64_t size = std::max<uint64_t>(bytes, 1 << 20);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = size;
    mai.memoryTypeIndex = static_cast<uint32_t>(type);
    if (VkResult r = vkAllocateMemory(dev, &mai, nullptr, &m_arena); r != VK_SUCCESS)
        return vkError("allocating buffer memory", r);
    if (VkResult r = vkMapMemory(dev, m_arena, 0, VK_WHOLE_SIZE, 0, &m_arenaMap); r != VK_SUCCESS)
        return vkError("mapping buffer memory", r);
    m_arenaBytes = size;
    return okStatus();
}

Status GpuKernel::record(VkPipeline pipeline, const LaunchSpec& launch, VkDescriptorSet set) {
    vkResetCommandBuffer(m_cmd, 0);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(m_cmd, &bi);
    if (m_queries) {
        vkCmdResetQueryPool(m_cmd, m_queries, 0, 2);
        vkCmdWriteTimestamp(m_cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, m_queries, 0);
    }
    vkCmdBindPipeline(m_cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(m_cmd, VK_PIPELINE_BIND_POINT_COMPUTE, m_layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(m_cmd, launch.workgroups[0], launch.workgroups[1], launch.workgroups[2]);
    if (m_queries) vkCmdWriteTimestamp(m_cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m_queries, 1);
    VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(m_cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                         nullptr, 0, nullptr);
    if (VkResult r = vkEndCommandBuffer(m_cmd); r != VK_SUCCESS) return vkError("recording commands", r);
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
    if (auto s = ensureArena(total); !s) return s.error();
    auto* base = static_cast<uint8_t*>(m_arenaMap);
    std::vector<VkDescriptorBufferInfo> dbi;
    for (size_t i = 0; i < buffers.size(); ++i) {
        std::memset(base + rb.offsets[i], 0, rb.sizes[i]);
        std::memcpy(base + rb.offsets[i], buffers[i].initial.data(), buffers[i].initial.size_bytes());
        if (VkResult r = vkBindBufferMemory(dev, rb.buffers[i], m_arena, rb.offsets[i]); r != VK_SUCCESS)
            return vkError("binding buffer memory", r);
        dbi.push_back({rb.buffers[i], 0, rb.sizes[i]});
    }
    vkResetDescriptorPool(dev, m_pool, 0);
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = m_pool;
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
    vkResetFences(dev, 1, &m_fence);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &m_cmd;
    if (VkResult r = vkQueueSubmit(m_ctx.queue(), 1, &si, m_fence); r != VK_SUCCESS) return vkError("submitting the dispatch", r);
    VkResult waited = vkWaitForFences(dev, 1, &m_fence, VK_TRUE, timeoutMs * 1000000ull);
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
    if (m_queries) {
        uint64_t ts[2] = {};
        if (vkGetQueryPoolResults(dev, m_queries, 0, 2, sizeof ts, ts, sizeof(uint64_t),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS)
            out.gpuMs = double(ts[1] - ts[0]) * m_ctx.info().timestampPeriodNs / 1e6;
    }
    return out;
}

} // namespace vkp
