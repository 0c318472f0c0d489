#include "views/thread_map.h"

#include <algorithm>

namespace vkp::views {

Uvec3 launchSize(const TestCase& c) {
    return {c.workgroupSize[0] * c.workgroups[0], c.workgroupSize[1] * c.workgroups[1],
            c.workgroupSize[2] * c.workgroups[2]};
}

std::string idText(const TestCase& c, const Uvec3& id) {
    Uvec3 n = launchSize(c);
    int dims = n[2] > 1 ? 3 : n[1] > 1 ? 2 : 1;
    std::string s = "(";
    for (int d = 0; d < dims; ++d)
        s += (d ? ", " : "") + std::to_string(id[d]);
    return s + ")";
}

ThreadIds threadIds(const TestCase& c, const Uvec3& global, uint32_t subgroupSize) {
    ThreadIds t;
    t.global = global;
    for (int d = 0; d < 3; ++d) {
        uint32_t size = std::max(1u, c.workgroupSize[d]);
        t.local[d] = global[d] % size;
        t.workgroup[d] = global[d] / size;
    }
    t.localIndex = t.local[0] + c.workgroupSize[0] * (t.local[1] + c.workgroupSize[1] * t.local[2]);
    uint32_t sg = std::max(1u, subgroupSize);
    t.subgroup = t.localIndex / sg;
    t.lane = t.localIndex % sg;
    return t;
}

std::optional<uint64_t> cellOfThread(const Shape& shape, const Uvec3& global) {
    if (global[2] != 0) return std::nullopt;
    if (shape.dims.size() == 2) {
        if (global[1] >= shape.rows() || global[0] >= shape.cols()) return std::nullopt;
        return uint64_t(global[1]) * shape.cols() + global[0];
    }
    if (global[1] != 0 || global[0] >= shape.count()) return std::nullopt;
    return global[0];
}

bool isSpareThread(const TestCase& c, const Uvec3& global) {
    bool anyBuffer = false;
    for (const auto& data : c.data)
        if (data) {
            anyBuffer = true;
            if (cellOfThread(data->shape, global)) return false;
        }
    return anyBuffer;
}

std::optional<Uvec3> threadOfCell(const Shape& shape, uint64_t index, const TestCase& c) {
    Uvec3 size = launchSize(c);
    Uvec3 g{};
    if (shape.dims.size() == 2)
        g = {uint32_t(index % shape.cols()), uint32_t(index / shape.cols()), 0};
    else
        g = {uint32_t(index), 0, 0};
    if (index >= shape.count() || g[0] >= size[0] || g[1] >= size[1]) return std::nullopt;
    return g;
}

} // namespace vkp::views
