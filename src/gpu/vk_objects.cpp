#include "gpu/vk_objects.h"

#include <algorithm>

#include "base/parallel.h"
#include "gpu/context.h"

namespace vkp {

Status vkCheck(VkResult result, const char* what) {
    if (result == VK_SUCCESS) return okStatus();
    return vkError(what, result);
}

Status vkCheck(VkResult result, const std::string& what) {
    return vkCheck(result, what.c_str());
}

bool deviceHung(const GpuContext& ctx) {
    return ctx.hung();
}

int pickMemoryType(const VkPhysicalDeviceMemoryProperties& mem, uint32_t allowed,
                   const MemoryNeeds& needs) {
    auto has = [](VkMemoryPropertyFlags flags, VkMemoryPropertyFlags want) {
        return (flags & want) == want;
    };
    int best = -1;
    int bestScore = -1;
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
        if (!(allowed & (1u << i)) || !has(f, needs.required)) continue;
        int score = (has(f, needs.preferred) ? 2 : 0) + (has(f, needs.thenPreferred) ? 1 : 0);
        if (score > bestScore) best = static_cast<int>(i), bestScore = score;
    }
    return best;
}

Result<DeviceMemory> allocateMemory(GpuContext& ctx, uint64_t bytes, uint32_t type, bool map,
                                    const std::string& what) {
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = bytes;
    mai.memoryTypeIndex = type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (auto s =
            vkCheck(vkAllocateMemory(ctx.device(), &mai, nullptr, &memory), "allocating " + what);
        !s)
        return s.error();
    DeviceMemory out{MemoryObject(ctx, ctx.device(), memory)};
    if (map)
        if (auto s = vkCheck(vkMapMemory(ctx.device(), memory, 0, VK_WHOLE_SIZE, 0, &out.map),
                             "mapping " + what);
            !s)
            return s.error();
    return out;
}

Result<BufferObject> createBuffer(GpuContext& ctx, uint64_t bytes, VkBufferUsageFlags usage) {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = bytes;
    bci.usage = usage;
    VkBuffer buffer = VK_NULL_HANDLE;
    if (auto s = vkCheck(vkCreateBuffer(ctx.device(), &bci, nullptr, &buffer), "creating a buffer");
        !s)
        return s.error();
    return BufferObject(ctx, ctx.device(), buffer);
}

Result<DeviceBuffer> createDeviceBuffer(GpuContext& ctx, uint64_t bytes, VkBufferUsageFlags usage,
                                        const MemoryNeeds& needs, bool map,
                                        const std::string& what) {
    DeviceBuffer b;
    b.bytes = bytes;
    auto buffer = createBuffer(ctx, bytes, usage);
    if (!buffer) return buffer.error();
    b.buffer = std::move(*buffer);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx.device(), b.get(), &req);
    int type = pickMemoryType(ctx.memoryProperties(), req.memoryTypeBits, needs);
    if (type < 0) return Error{ErrorKind::Device, "no suitable memory for " + what};
    auto memory = allocateMemory(ctx, req.size, static_cast<uint32_t>(type), map,
                                 std::to_string(bytes >> 20) + " MiB for " + what);
    if (!memory) return memory.error();
    b.memory = std::move(*memory);
    if (auto s = vkCheck(vkBindBufferMemory(ctx.device(), b.get(), b.memory.memory.get(), 0),
                         "binding memory to " + what);
        !s)
        return s.error();
    return b;
}

Result<ShaderModule> createShaderModule(GpuContext& ctx, std::span<const uint32_t> spirv) {
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv.size_bytes();
    smci.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (auto s = vkCheck(vkCreateShaderModule(ctx.device(), &smci, nullptr, &module),
                         "creating the shader module");
        !s)
        return s.error();
    return ShaderModule(ctx, ctx.device(), module);
}

Result<PipelineLayout>
PipelineLayout::create(GpuContext& ctx, std::span<const BindingSlot> bindings, uint32_t pushBytes) {
    VkDevice dev = ctx.device();
    PipelineLayout out;
    uint32_t sets = 1;
    for (const BindingSlot& b : bindings)
        sets = std::max(sets, b.set + 1);
    for (uint32_t set = 0; set < sets; ++set) {
        std::vector<VkDescriptorSetLayoutBinding> lb;
        for (const BindingSlot& b : bindings)
            if (b.set == set)
                lb.push_back({b.binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                              VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
        VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        dslci.bindingCount = static_cast<uint32_t>(lb.size());
        dslci.pBindings = lb.data();
        VkDescriptorSetLayout layout = VK_NULL_HANDLE;
        if (auto s = vkCheck(vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &layout),
                             "creating the descriptor set layout");
            !s)
            return s.error();
        out.m_sets.emplace_back(ctx, dev, layout);
        out.m_setHandles.push_back(layout);
    }
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = static_cast<uint32_t>(out.m_setHandles.size());
    plci.pSetLayouts = out.m_setHandles.data();
    plci.pushConstantRangeCount = pushBytes ? 1 : 0;
    plci.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    if (auto s = vkCheck(vkCreatePipelineLayout(dev, &plci, nullptr, &layout),
                         "creating the pipeline layout");
        !s)
        return s.error();
    out.m_layout = PipelineLayoutObject(ctx, dev, layout);
    return out;
}

Specialization::Specialization(const std::array<uint32_t, 3>& workgroupSize,
                               const std::map<uint32_t, uint32_t>& constants) {
    std::vector<uint32_t> ids = {0, 1, 2};
    m_data.assign(workgroupSize.begin(), workgroupSize.end());
    for (const auto& [id, value] : constants) {
        ids.push_back(id);
        m_data.push_back(value);
    }
    for (uint32_t i = 0; i < ids.size(); ++i)
        m_entries.push_back({ids[i], i * 4u, 4});
    m_info = {static_cast<uint32_t>(m_entries.size()), m_entries.data(), m_data.size() * 4,
              m_data.data()};
}

Result<std::vector<Pipeline>>
createComputePipelines(GpuContext& ctx, VkPipelineLayout layout, VkShaderModule module,
                       std::span<const VkSpecializationInfo* const> specializations,
                       bool captureStatistics) {
    std::vector<VkComputePipelineCreateInfo> infos;
    for (const VkSpecializationInfo* spec : specializations) {
        VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    nullptr,
                    0,
                    VK_SHADER_STAGE_COMPUTE_BIT,
                    module,
                    "main",
                    spec};
        ci.layout = layout;
        if (captureStatistics) ci.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
        infos.push_back(ci);
    }
    // One call per pipeline on threads of their own: a driver builds the pipelines of one call
    // one after another (measured on an H200: 15 of 16 cores waited).
    std::vector<VkPipeline> made(infos.size(), VK_NULL_HANDLE);
    std::vector<VkResult> results(infos.size(), VK_SUCCESS);
    parallelFor(infos.size(), [&](size_t i) {
        results[i] =
            vkCreateComputePipelines(ctx.device(), VK_NULL_HANDLE, 1, &infos[i], nullptr, &made[i]);
    });
    std::vector<Pipeline> out;
    for (VkPipeline p : made)
        out.emplace_back(ctx, ctx.device(), p); // owned even on failure: some may have been made
    for (VkResult r : results)
        if (auto s = vkCheck(r, "creating the compute pipeline"); !s) return s.error();
    return out;
}

Result<DescriptorPool> createDescriptorPool(GpuContext& ctx, uint32_t maxSets,
                                            uint32_t storageBuffers) {
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storageBuffers};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = maxSets;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &ps;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    if (auto s = vkCheck(vkCreateDescriptorPool(ctx.device(), &dpci, nullptr, &pool),
                         "creating the descriptor pool");
        !s)
        return s.error();
    return DescriptorPool(ctx, ctx.device(), pool);
}

VkWriteDescriptorSet storageBufferWrite(VkDescriptorSet set, uint32_t binding,
                                        const VkDescriptorBufferInfo* info) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = binding;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = info;
    return w;
}

Result<std::vector<VkDescriptorSet>>
allocateDescriptorSets(GpuContext& ctx, VkDescriptorPool pool,
                       const std::vector<VkDescriptorSetLayout>& layouts) {
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = static_cast<uint32_t>(layouts.size());
    dsai.pSetLayouts = layouts.data();
    std::vector<VkDescriptorSet> sets(layouts.size());
    if (auto s = vkCheck(vkAllocateDescriptorSets(ctx.device(), &dsai, sets.data()),
                         "allocating a descriptor set");
        !s)
        return s.error();
    return sets;
}

Result<OneShotCommands> OneShotCommands::create(GpuContext& ctx, std::string purpose) {
    VkDevice dev = ctx.device();
    OneShotCommands out(ctx);
    out.m_purpose = std::move(purpose);
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.queueFamilyIndex = ctx.queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    if (auto s =
            vkCheck(vkCreateCommandPool(dev, &cpci, nullptr, &pool), "creating the command pool");
        !s)
        return s.error();
    out.m_pool = CommandPool(ctx, dev, pool);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = pool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    if (auto s = vkCheck(vkAllocateCommandBuffers(dev, &cbai, &out.m_cmd),
                         "allocating a command buffer");
        !s)
        return s.error();
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    if (auto s = vkCheck(vkCreateFence(dev, &fci, nullptr, &fence), "creating a fence"); !s)
        return s.error();
    out.m_fence = Fence(ctx, dev, fence);
    return out;
}

Result<VkCommandBuffer> OneShotCommands::begin() {
    // One buffer per pool: resetting the pool resets it, with no per-buffer reset flag needed.
    if (auto s = vkCheck(vkResetCommandPool(m_ctx->device(), m_pool.get(), 0),
                         "resetting the command pool");
        !s)
        return s.error();
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (auto s = vkCheck(vkBeginCommandBuffer(m_cmd, &bi), "beginning a command buffer"); !s)
        return s.error();
    return m_cmd;
}

Status OneShotCommands::submit() {
    if (auto s = vkCheck(vkEndCommandBuffer(m_cmd), "recording " + m_purpose); !s) return s;
    VkFence fence = m_fence.get();
    if (auto s = vkCheck(vkResetFences(m_ctx->device(), 1, &fence), "resetting a fence"); !s)
        return s;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &m_cmd;
    return vkCheck(vkQueueSubmit(m_ctx->queue(), 1, &si, fence), "submitting " + m_purpose);
}

Result<bool> OneShotCommands::wait(uint64_t timeoutNs) {
    VkFence fence = m_fence.get();
    VkResult r = vkWaitForFences(m_ctx->device(), 1, &fence, VK_TRUE, timeoutNs);
    if (r == VK_TIMEOUT) return false;
    if (auto s = vkCheck(r, "waiting for " + m_purpose); !s) return s.error();
    return true;
}

Result<TimestampQueries> TimestampQueries::create(GpuContext& ctx, uint32_t count) {
    TimestampQueries out(ctx);
    out.m_count = count;
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = count;
    VkQueryPool pool = VK_NULL_HANDLE;
    if (auto s = vkCheck(vkCreateQueryPool(ctx.device(), &qpci, nullptr, &pool),
                         "creating a timestamp query pool");
        !s)
        return s.error();
    out.m_pool = QueryPool(ctx, ctx.device(), pool);
    return out;
}

Result<std::vector<uint64_t>> TimestampQueries::read(uint32_t first, uint32_t count) const {
    std::vector<uint64_t> ticks(count, 0);
    VkResult r = vkGetQueryPoolResults(
        m_ctx->device(), m_pool.get(), first, count, ticks.size() * sizeof(uint64_t), ticks.data(),
        sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (auto s = vkCheck(r, "reading timestamps"); !s) return s.error();
    return ticks;
}

Result<std::vector<double>> TimestampQueries::pairMs() const {
    auto ticks = read(0, m_count);
    if (!ticks) return ticks.error();
    std::vector<double> out;
    for (uint32_t k = 0; 2 * k + 1 < m_count; ++k)
        out.push_back(double((*ticks)[2 * k + 1] - (*ticks)[2 * k]) *
                      m_ctx->info().timestampPeriodNs / 1e6);
    return out;
}

} // namespace vkp
