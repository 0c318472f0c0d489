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
constexpr MemoryNeeds kArenaMemory{
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
    VK_MEMORY_PROPERTY_HOST_CACHED_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT};

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
    auto pool = createDescriptorPool(m_ctx, kMaxDispatches * kMaxSets,
                                     kMaxBindings * uint32_t(kMaxDispatches));
    if (!pool) return pool.error();
    m_pool = std::move(*pool);
    for (size_t i = 0; i < kMaxBatch; ++i) {
        auto commands = OneShotCommands::create(m_ctx, "a case's dispatches");
        if (!commands) return commands.error();
        m_commands.push_back(std::move(*commands));
    }
    if (m_ctx.info().timestampPeriodNs > 0) {
        auto queries = TimestampQueries::create(m_ctx, 2 * kMaxBatch);
        if (!queries) return queries.error();
        m_queries.emplace(std::move(*queries));
    }
    return okStatus();
}

Status RunResources::ensureArena(uint64_t bytes) {
    if (bytes <= m_arenaBytes) return okStatus();
    m_arena = DeviceMemory{};
    m_arenaBytes = 0;
    // The memory type must suit storage buffers: ask a throwaway buffer which types do.
    auto probe = createBuffer(m_ctx, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (!probe) return probe.error();
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(m_ctx.device(), probe->get(), &req);
    int type = pickMemoryType(m_ctx.memoryProperties(), req.memoryTypeBits, kArenaMemory);
    if (type < 0)
        return Error{ErrorKind::Device,
                     "the device has no host-visible memory for storage buffers"};
    uint64_t size = std::max<uint64_t>(bytes, 1 << 20);
    auto arena = allocateMemory(m_ctx, size, static_cast<uint32_t>(type), true, "buffer memory");
    if (!arena) return arena.error();
    m_arena = std::move(*arena);
    m_arenaBytes = size;
    return okStatus();
}

} // namespace vkp
