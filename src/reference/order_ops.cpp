// Ordering: sorting in blocks, and the k largest values of each row.
#include <algorithm>
#include <cstdint>
#include <functional>

#include "reference/op_families.h"

namespace vkp::reference {
namespace {

std::vector<double> values(const BufferData& b) {
    std::vector<double> v(b.words.size());
    for (uint64_t i = 0; i < v.size(); ++i)
        v[i] = b.get(i);
    return v;
}

// Each run of `block` consecutive elements in ascending order (the last run may be shorter).
void blockSort(const std::vector<const BufferData*>& a, const OpParams& params, BufferData& out) {
    std::vector<double> v = values(*a[0]);
    auto block = static_cast<uint64_t>(params.at("block"));
    for (uint64_t start = 0; start < v.size(); start += block) {
        auto first = v.begin() + std::ptrdiff_t(start);
        std::sort(first, first + std::ptrdiff_t(std::min<uint64_t>(block, v.size() - start)));
    }
    for (uint64_t i = 0; i < v.size(); ++i)
        out.set(i, v[i]);
}

Result<Shape> blockSortShape(const std::vector<Shape>& a, const OpParams& params) {
    auto block = positiveParam(params, "block");
    if (!block) return block.error();
    return a[0];
}

// Each row's k largest values, largest first.
void topk(const std::vector<const BufferData*>& a, const OpParams& params, BufferData& out) {
    std::vector<double> v = values(*a[0]);
    RowsOf shape(a[0]->shape);
    auto k = static_cast<uint64_t>(params.at("k"));
    for (uint64_t r = 0; r < shape.rows; ++r) {
        auto first = v.begin() + std::ptrdiff_t(r * shape.cols);
        std::partial_sort(first, first + std::ptrdiff_t(k), first + std::ptrdiff_t(shape.cols),
                          std::greater<double>());
        for (uint64_t j = 0; j < k; ++j)
            out.set(r * k + j, first[std::ptrdiff_t(j)]);
    }
}

Result<Shape> topkShape(const std::vector<Shape>& a, const OpParams& params) {
    auto k = positiveParam(params, "k");
    if (!k) return k.error();
    RowsOf shape(a[0]);
    if (*k > shape.cols)
        return shapeError("topk: k = " + std::to_string(*k) + " is more than a row's " +
                          std::to_string(shape.cols) + " values");
    return Shape{{shape.rows, *k}};
}

} // namespace

std::vector<ReferenceOpInfo> orderOps() {
    // clang-format off
    return {
        {"block_sort", 1, {"block"}, "each run of `block` consecutive elements in ascending order (the last may be shorter)",
         blockSortShape, blockSort},
        {"topk", 1, {"k"}, "[rows, k]: each row's k largest values, largest first (a 1D x is one row)",
         topkShape, topk},
    };
    // clang-format on
}

} // namespace vkp::reference
