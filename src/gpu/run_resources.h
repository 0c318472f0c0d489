// Per-device objects every run reuses, whatever the kernel: host-visible memory for buffers, a
// command buffer and fence per item of a batch, timestamp queries, a descriptor pool and the
// pipelines of earlier runs (gpu/pipeline_store.h). Created once per context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "gpu/vulkan_api.h"

#include "base/result.h"
#include "gpu/pipeline_store.h"
#include "gpu/vk_objects.h"

namespace vkp {

class GpuContext;

class RunResources {
  public:
    static constexpr size_t kMaxBatch = 64; // items per batch (each its own submission)
    static constexpr uint32_t kMaxSets =
        2; // descriptor sets per dispatch (the kernel's, the trace's)
    static constexpr size_t kMaxDispatches =
        512; // dispatches per submission (multi-pass items have several)
    static Result<RunResources*> create(GpuContext& ctx); // owned by the caller
    RunResources(const RunResources&) = delete;
    RunResources& operator=(const RunResources&) = delete;

    // Host-visible, coherent memory of at least `bytes`, mapped at arenaMap().
    Status ensureArena(uint64_t bytes);
    VkDeviceMemory arena() const { return m_arena.memory.get(); }
    uint8_t* arenaMap() const { return static_cast<uint8_t*>(m_arena.map); }
    uint64_t arenaBytes() const { return m_arenaBytes; }

    // Item `item` of a batch: its own command buffer and fence, so the host can wait for each
    // item in turn (its own deadline) without polling the device.
    OneShotCommands& commands(size_t item) { return m_commands.at(item); }
    const TimestampQueries* queries() const {
        return m_queries ? &*m_queries : nullptr;
    } // 2 per dispatch; null when unsupported
    VkDescriptorPool descriptorPool() const {
        return m_pool.get();
    } // kMaxDispatches * kMaxSets sets, reset per batch
    PipelineStore& store() { return m_store; }

  private:
    explicit RunResources(GpuContext& ctx) : m_ctx(ctx), m_store(ctx) {}
    Status createObjects();

    GpuContext& m_ctx;
    DescriptorPool m_pool;
    std::vector<OneShotCommands> m_commands; // kMaxBatch
    std::optional<TimestampQueries> m_queries;
    DeviceMemory m_arena;
    uint64_t m_arenaBytes = 0;
    PipelineStore m_store;
};

} // namespace vkp
