// The shader modules, pipeline layouts and compute pipelines of earlier jobs, kept by what makes
// them (the SPIR-V words; the bindings and push range; module, layout and specialization), so a
// job that runs what an earlier one ran skips the driver's compile. Pack check's mutants of a
// multi-pass puzzle change one kernel and share the others, and a mutant that passes untraced is
// traced case by case with the same words each time. The least recently used go past the limits.
// Thread-safe: a pipeline another thread is building (PipelineWarmer on a GPU) is waited for,
// never built twice.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <vector>

#include "base/result.h"
#include "gpu/vk_objects.h"

namespace vkp {

class GpuContext;

class PipelineStore {
  public:
    static constexpr size_t kMaxPipelines = 512, kMaxModules = 128, kMaxLayouts = 16;
    explicit PipelineStore(GpuContext& ctx, size_t maxPipelines = kMaxPipelines)
        : m_ctx(ctx), m_maxPipelines(maxPipelines) {}
    PipelineStore(const PipelineStore&) = delete;
    PipelineStore& operator=(const PipelineStore&) = delete;

    template <class T> struct Kept {
        uint32_t id = 0; // names it in pipeline keys; never reused
        std::shared_ptr<const T> object;
    };
    // The module of these words, made now or kept from before.
    Result<Kept<ShaderModule>> module(std::span<const uint32_t> spirv);
    Result<Kept<PipelineLayout>> layout(std::span<const BindingSlot> bindings, uint32_t pushBytes);

    // A pipeline's key: the ids of its layout and module, then its specialization words.
    using Key = std::vector<uint32_t>;
    std::shared_ptr<const Pipeline> pipeline(const Key& key); // null when none is kept
    void keep(const Key& key, std::shared_ptr<const Pipeline> pipeline);
    // The kept pipeline, waiting for it while another thread builds it; null: none is kept nor
    // built, and the caller now builds it: it calls keep(), or release() if it could not.
    std::shared_ptr<const Pipeline> claim(const Key& key);
    void release(const Key& key);

    size_t pipelines() const { return m_pipelines.size(); }
    size_t hits() const { return m_hits; } // pipelines found kept, since the store was made

  private:
    template <class T> struct Entry {
        Kept<T> kept;
        uint64_t lastUse = 0;
    };
    // Drops the least recently used entries of `map` past `limit` (a job that holds one keeps it).
    template <class Map> static void trim(Map& map, size_t limit);

    GpuContext& m_ctx;
    std::mutex m_mutex; // guards everything below
    std::condition_variable m_built;
    std::set<Key> m_claimed; // being built
    size_t m_maxPipelines;
    uint64_t m_clock = 0; // use counter, for least recently used
    uint32_t m_nextId = 1;
    size_t m_hits = 0;
    std::map<std::vector<uint32_t>, Entry<ShaderModule>> m_modules;
    std::map<std::vector<uint32_t>, Entry<PipelineLayout>> m_layouts;
    std::map<Key, Entry<Pipeline>> m_pipelines;
};

} // namespace vkp
