#include "gpu/pipeline_store.h"

#include <algorithm>

#include "gpu/context.h"

namespace vkp {

template <class Map> void PipelineStore::trim(Map& map, size_t limit) {
    while (map.size() > limit) {
        auto oldest = std::min_element(map.begin(), map.end(), [](const auto& a, const auto& b) {
            return a.second.lastUse < b.second.lastUse;
        });
        map.erase(oldest);
    }
}

Result<PipelineStore::Kept<ShaderModule>> PipelineStore::module(std::span<const uint32_t> spirv) {
    std::lock_guard lock(m_mutex);
    std::vector<uint32_t> words(spirv.begin(), spirv.end());
    if (auto it = m_modules.find(words); it != m_modules.end()) {
        it->second.lastUse = ++m_clock;
        return it->second.kept;
    }
    auto made = createShaderModule(m_ctx, spirv);
    if (!made) return made.error();
    Kept<ShaderModule> kept{m_nextId++, std::make_shared<const ShaderModule>(std::move(*made))};
    m_modules[std::move(words)] = {kept, ++m_clock};
    trim(m_modules, kMaxModules);
    return kept;
}

Result<PipelineStore::Kept<PipelineLayout>>
PipelineStore::layout(std::span<const BindingSlot> bindings, uint32_t pushBytes) {
    std::lock_guard lock(m_mutex);
    std::vector<uint32_t> key{pushBytes};
    for (const BindingSlot& b : bindings) {
        key.push_back(b.set);
        key.push_back(b.binding);
    }
    if (auto it = m_layouts.find(key); it != m_layouts.end()) {
        it->second.lastUse = ++m_clock;
        return it->second.kept;
    }
    auto made = PipelineLayout::create(m_ctx, bindings, pushBytes);
    if (!made) return made.error();
    Kept<PipelineLayout> kept{m_nextId++, std::make_shared<const PipelineLayout>(std::move(*made))};
    m_layouts[std::move(key)] = {kept, ++m_clock};
    trim(m_layouts, kMaxLayouts);
    return kept;
}

std::shared_ptr<const Pipeline> PipelineStore::pipeline(const Key& key) {
    std::lock_guard lock(m_mutex);
    auto it = m_pipelines.find(key);
    if (it == m_pipelines.end()) return nullptr;
    it->second.lastUse = ++m_clock;
    ++m_hits;
    return it->second.kept.object;
}

void PipelineStore::keep(const Key& key, std::shared_ptr<const Pipeline> pipeline) {
    {
        std::lock_guard lock(m_mutex);
        m_pipelines[key] = {{0, std::move(pipeline)}, ++m_clock};
        trim(m_pipelines, m_maxPipelines);
        m_claimed.erase(key);
    }
    m_built.notify_all();
}

std::shared_ptr<const Pipeline> PipelineStore::claim(const Key& key) {
    std::unique_lock lock(m_mutex);
    m_built.wait(lock, [&] { return !m_claimed.count(key); });
    if (auto it = m_pipelines.find(key); it != m_pipelines.end()) {
        it->second.lastUse = ++m_clock;
        ++m_hits;
        return it->second.kept.object;
    }
    m_claimed.insert(key);
    return nullptr;
}

void PipelineStore::release(const Key& key) {
    {
        std::lock_guard lock(m_mutex);
        m_claimed.erase(key);
    }
    m_built.notify_all();
}

} // namespace vkp
