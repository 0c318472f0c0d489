// The small Vulkan objects both compute paths (checking a kernel, benchmarking it) are built of:
// owned handles, memory of a chosen kind, buffers, pipeline layouts, specialization data, compute
// pipelines, one-shot command buffers and timestamp queries. Every call that returns a VkResult is
// checked here and turned into an Error naming the call and the result (vkError).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpu/vulkan_api.h"

#include "base/result.h"

namespace vkp {

class GpuContext;

// Okay for VK_SUCCESS; otherwise vkError(what, result).
Status vkCheck(VkResult result, const char* what);
Status vkCheck(VkResult result, const std::string& what);

// Whether the context's device was given up on (a kernel never finished): its objects are then
// leaked, as destroying what a running kernel may use would block or crash.
bool deviceHung(const GpuContext& ctx);

// One Vulkan object of a context's device, destroyed with its owner unless the device hung.
// `Destroy` is the destroy function itself where the loader is linked, the variable volk loads it
// into otherwise (gpu/vulkan_api.h): a reference names either.
template <typename Handle, auto& Destroy> class DeviceObject {
  public:
    DeviceObject() = default;
    DeviceObject(const GpuContext& ctx, VkDevice device, Handle handle)
        : m_ctx(&ctx), m_device(device), m_handle(handle) {}
    DeviceObject(const DeviceObject&) = delete;
    DeviceObject& operator=(const DeviceObject&) = delete;
    DeviceObject(DeviceObject&& other) noexcept { swap(other); }
    DeviceObject& operator=(DeviceObject&& other) noexcept {
        DeviceObject old(std::move(*this));
        swap(other);
        return *this;
    }
    ~DeviceObject() {
        if (m_handle != VK_NULL_HANDLE && !deviceHung(*m_ctx)) Destroy(m_device, m_handle, nullptr);
    }
    Handle get() const { return m_handle; }
    explicit operator bool() const { return m_handle != VK_NULL_HANDLE; }

  private:
    void swap(DeviceObject& other) noexcept {
        std::swap(m_ctx, other.m_ctx);
        std::swap(m_device, other.m_device);
        std::swap(m_handle, other.m_handle);
    }
    const GpuContext* m_ctx = nullptr; // asked whether the device hung
    VkDevice m_device = VK_NULL_HANDLE;
    Handle m_handle = VK_NULL_HANDLE;
};

using BufferObject = DeviceObject<VkBuffer, vkDestroyBuffer>;
using MemoryObject = DeviceObject<VkDeviceMemory, vkFreeMemory>; // freeing also unmaps
using ShaderModule = DeviceObject<VkShaderModule, vkDestroyShaderModule>;
using DescriptorSetLayout = DeviceObject<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using PipelineLayoutObject = DeviceObject<VkPipelineLayout, vkDestroyPipelineLayout>;
using Pipeline = DeviceObject<VkPipeline, vkDestroyPipeline>;
using DescriptorPool = DeviceObject<VkDescriptorPool, vkDestroyDescriptorPool>;
using CommandPool = DeviceObject<VkCommandPool, vkDestroyCommandPool>;
using Fence = DeviceObject<VkFence, vkDestroyFence>;
using Event = DeviceObject<VkEvent, vkDestroyEvent>;
using QueryPool = DeviceObject<VkQueryPool, vkDestroyQueryPool>;

// What a memory type must have and which ones win: a type with all of `preferred`, then among
// those one with all of `thenPreferred`; the first such type of the device's list.
struct MemoryNeeds {
    VkMemoryPropertyFlags required = 0;      // every bit needed
    VkMemoryPropertyFlags preferred = 0;     // counts most
    VkMemoryPropertyFlags thenPreferred = 0; // breaks ties
};

// Index of the best memory type among `allowed` (a bit per type) for `needs`; -1: none fits.
int pickMemoryType(const VkPhysicalDeviceMemoryProperties& mem, uint32_t allowed,
                   const MemoryNeeds& needs);

// Allocated memory, mapped at map() when asked to be.
struct DeviceMemory {
    MemoryObject memory;
    void* map = nullptr; // host address of the whole allocation; null unless mapped
};

// Allocates `bytes` of memory type `type`; `what` names it in errors ("allocating " + what).
Result<DeviceMemory> allocateMemory(GpuContext& ctx, uint64_t bytes, uint32_t type, bool map,
                                    const std::string& what);

Result<BufferObject> createBuffer(GpuContext& ctx, uint64_t bytes, VkBufferUsageFlags usage);

// A buffer with its own memory, bound at offset 0.
struct DeviceBuffer {
    BufferObject buffer;
    DeviceMemory memory;
    uint64_t bytes = 0;
    VkBuffer get() const { return buffer.get(); }
    void* map() const { return memory.map; }
};

// `what` names the buffer in errors ("a benchmark buffer").
Result<DeviceBuffer> createDeviceBuffer(GpuContext& ctx, uint64_t bytes, VkBufferUsageFlags usage,
                                        const MemoryNeeds& needs, bool map,
                                        const std::string& what);

Result<ShaderModule> createShaderModule(GpuContext& ctx, std::span<const uint32_t> spirv);

struct BindingSlot {
    uint32_t set = 0;
    uint32_t binding = 0;
};

// Storage buffers at `bindings` (sets 0..max, each with its own layout) and a push-constant range
// of `pushBytes` from offset 0 (0: none).
class PipelineLayout {
  public:
    static Result<PipelineLayout> create(GpuContext& ctx, std::span<const BindingSlot> bindings,
                                         uint32_t pushBytes);
    VkPipelineLayout get() const { return m_layout.get(); }
    const std::vector<VkDescriptorSetLayout>& setLayouts() const {
        return m_setHandles;
    } // set 0, 1, ...

  private:
    std::vector<DescriptorSetLayout> m_sets;
    std::vector<VkDescriptorSetLayout> m_setHandles; // m_sets' handles, for allocation
    PipelineLayoutObject m_layout;
};

// Specialization constants of one launch: workgroup size as ids 0, 1, 2, then the further ones.
class Specialization {
  public:
    Specialization(const std::array<uint32_t, 3>& workgroupSize,
                   const std::map<uint32_t, uint32_t>& constants);
    Specialization(const Specialization&) = delete;
    Specialization& operator=(const Specialization&) = delete;
    const VkSpecializationInfo* info() const { return &m_info; }

  private:
    std::vector<VkSpecializationMapEntry> m_entries;
    std::vector<uint32_t> m_data;
    VkSpecializationInfo m_info{}; // points into the two above
};

// One compute pipeline of `module` per specialization (null: none), built in parallel on the
// machine's cores (drivers that compile when a pipeline is created compile them side by side). With
// `captureStatistics` the driver keeps what pipelineStatistics() reads.
Result<std::vector<Pipeline>>
createComputePipelines(GpuContext& ctx, VkPipelineLayout layout, VkShaderModule module,
                       std::span<const VkSpecializationInfo* const> specializations,
                       bool captureStatistics = false);

// A pool of `maxSets` sets holding `storageBuffers` storage-buffer descriptors in all.
Result<DescriptorPool> createDescriptorPool(GpuContext& ctx, uint32_t maxSets,
                                            uint32_t storageBuffers);
Result<std::vector<VkDescriptorSet>>
allocateDescriptorSets(GpuContext& ctx, VkDescriptorPool pool,
                       const std::vector<VkDescriptorSetLayout>& layouts);

// The write that binds storage buffer `info` at (`set`, `binding`); `info` must outlive the update.
VkWriteDescriptorSet storageBufferWrite(VkDescriptorSet set, uint32_t binding,
                                        const VkDescriptorBufferInfo* info);

// One command buffer recorded, submitted and waited for, again and again. `purpose` names the
// work in errors ("the dispatch": "submitting the dispatch failed: ...").
class OneShotCommands {
  public:
    static Result<OneShotCommands> create(GpuContext& ctx, std::string purpose);
    Result<VkCommandBuffer> begin(); // the buffer, reset and begun
    Status submit();                 // ends and submits the buffer begun last
    // Waits at most timeoutNs for the last submission: false when it has not finished by then.
    Result<bool> wait(uint64_t timeoutNs);

  private:
    explicit OneShotCommands(GpuContext& ctx) : m_ctx(&ctx) {}
    GpuContext* m_ctx;
    std::string m_purpose;
    CommandPool m_pool;
    VkCommandBuffer m_cmd = VK_NULL_HANDLE; // freed with the pool
    Fence m_fence;
};

// A pool of `count` timestamp queries.
class TimestampQueries {
  public:
    static Result<TimestampQueries> create(GpuContext& ctx, uint32_t count);
    VkQueryPool get() const { return m_pool.get(); }
    // The raw ticks of queries [first, first + count), waiting for them to be written.
    Result<std::vector<uint64_t>> read(uint32_t first, uint32_t count) const;
    // Milliseconds between queries 2k and 2k+1, for every pair k of the pool.
    Result<std::vector<double>> pairMs() const;

  private:
    explicit TimestampQueries(GpuContext& ctx) : m_ctx(&ctx) {}
    GpuContext* m_ctx;
    uint32_t m_count = 0;
    QueryPool m_pool;
};

} // namespace vkp
