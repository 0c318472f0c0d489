#include "gpu/run_resources.h"

#include <algorithm>

#include "gpu/context.h"

namespace vkp {
namespace {

constexpr uint32_t kMaxBindings = 32;

// Host-visible and coherent memory for every puzzle buffer. Reads back are what the host does
// most (outputs, traces), and reading uncached memory is slow (device-local host-visible memory on
// a discrete GPU reads at PCIe-uncached speed: 150 ms for a 28 MB trace on an H100), so prefer a
// HOST_CACHED type; puzzle-sized buffers lose nothing by living in system memory.
int pickMemoryType(const VkPhysicalDeviceMemoryProperties& mem, uint32_t allowed) {
    const VkMemoryPropertyFlags need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int best = -1;
    int bestScore = -1;
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
        if (!(allowed & (1u << i)) || (f & need) != need) continue;
        int score = (f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) ? 2 : 0;
        score += (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) ? 1 : 0;
        if (score > bestScore) best = static_cast<int>(i), bestScore = score;
    }
    return best;
}

} // namespace

Result<RunResources*> RunResources::create(GpuContext& ctx) {
    auto* r = new RunResources(ctx);
    if (auto s = r->createObjects(); !s) {
        delete r;
        return s.error();
    }
    return r;
}

Status RunResources::createObjects() {
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kMaxBindings * uint32_t(kMaxSteps)};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = kMaxSteps * kMaxSets;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &ps;
    if (VkResult r = vkCreateDescriptorPool(m_ctx.device(), &dpci, nullptr, &m_pool); r != VK_SUCCESS)
        return vkError("creating the descriptor pool", r);
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpci.queueFamilyIndex = m_ctx.queueFamily();
    if (VkResult r = vkCreateCommandPool(m_ctx.device(), &cpci, nullptr, &m_commandPool); r != VK_SUCCESS)
        return vkError("creating the command pool", r);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = m_commandPool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    if (VkResult r = vkAllocateCommandBuffers(m_ctx.device(), &cbai, &m_cmd); r != VK_SUCCESS)
        return vkError("allocating a command buffer", r);
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (VkResult r = vkCreateFence(m_ctx.device(), &fci, nullptr, &m_fence); r != VK_SUCCESS) return vkError("creating a fence", r);
    VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    m_events.assign(kMaxBatch, VK_NULL_HANDLE);
    for (VkEvent& e : m_events)
        if (VkResult r = vkCreateEvent(m_ctx.device(), &eci, nullptr, &e); r != VK_SUCCESS) return vkError("creating an event", r);
    if (m_ctx.info().timestampPeriodNs > 0) {
        VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qpci.queryCount = 2 * kMaxBatch;
        if (VkResult r = vkCreateQueryPool(m_ctx.device(), &qpci, nullptr, &m_queries); r != VK_SUCCESS)
            return vkError("creating a timestamp query pool", r);
    }
    return okStatus();
}

RunResources::~RunResources() {
    VkDevice dev = m_ctx.device();
    if (m_arenaMap) vkUnmapMemory(dev, m_arena);
    vkFreeMemory(dev, m_arena, nullptr);
    for (VkEvent e : m_events) vkDestroyEvent(dev, e, nullptr);
    vkDestroyQueryPool(dev, m_queries, nullptr);
    vkDestroyFence(dev, m_fence, nullptr);
    vkDestroyCommandPool(dev, m_commandPool, nullptr);
    vkDestroyDescriptorPool(dev, m_pool, nullptr);
}

Status RunResources::ensureArena(uint64_t bytes) {
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

} // namespace vkp
