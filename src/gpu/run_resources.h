// Per-device objects every run reuses, whatever the kernel: host-visible memory for buffers, a
// command buffer, a fence, timestamp queries and a descriptor pool. Created once per context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "core/result.h"

namespace vkp {

class GpuContext;

class RunResources {
  public:
    static constexpr size_t kMaxBatch = 64; // dispatches per submission
    static constexpr uint32_t kMaxSets = 2;  // descriptor sets per dispatch (the kernel's, the trace's)
    static constexpr size_t kMaxSteps = 512; // dispatches per submission (multi-pass items have several)
    static Result<RunResources*> create(GpuContext& ctx); // owned by the caller
    ~RunResources();
    RunResources(const RunResources&) = delete;
    RunResources& operator=(const RunResources&) = delete;

    // Host-visible, coherent memory of at least `bytes`, mapped at arenaMap().
    Status ensureArena(uint64_t bytes);
    VkDeviceMemory arena() const { return m_arena; }
    uint8_t* arenaMap() const { return static_cast<uint8_t*>(m_arenaMap); }

    VkCommandBuffer commandBuffer() const { return m_cmd; }
    VkFence fence() const { return m_fence; }
    VkQueryPool queries() const { return m_queries; } // 2 per dispatch; null when unsupported
    VkDescriptorPool descriptorPool() const { return m_pool; } // kMaxSteps * kMaxSets sets, reset per batch
    VkEvent event(size_t item) const { return m_events[item]; } // set when dispatch `item` is done

  private:
    explicit RunResources(GpuContext& ctx) : m_ctx(ctx) {}
    Status createObjects();

    GpuContext& m_ctx;
    VkDescriptorPool m_pool = VK_NULL_HANDLE;
    VkCommandPool m_commandPool = VK_NULL_HANDLE;
    VkCommandBuffer m_cmd = VK_NULL_HANDLE;
    VkFence m_fence = VK_NULL_HANDLE;
    VkQueryPool m_queries = VK_NULL_HANDLE;
    std::vector<VkEvent> m_events;
    VkDeviceMemory m_arena = VK_NULL_HANDLE;
    uint64_t m_arenaBytes = 0;
    void* m_arenaMap = nullptr;
};

} // namespace vkp
