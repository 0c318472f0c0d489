#include "puzzle/buffer_compare.h"

#include <algorithm>
#include <cmath>

namespace vkp {

BufferComparison compareBuffers(const BufferData& expected, const BufferData& actual,
                                double tolerance) {
    BufferComparison v;
    bool isFloat = expected.type == ElementKind::Float;
    v.tolerance = isFloat ? tolerance : 0;
    uint64_t n = std::min(expected.words.size(), actual.words.size());
    for (uint64_t i = 0; i < n; ++i) {
        bool same = expected.words[i] == actual.words[i];
        if (!same && isFloat) {
            double e = expected.get(i), a = actual.get(i);
            double error = std::abs(a - e) / std::max(1.0, std::abs(e));
            if (std::isfinite(e) && std::isfinite(a) && error > v.worstError)
                v.worstError = error, v.worstIndex = i;
            // Infinities match only themselves (bit-equal, above); NaN never matches.
            same = std::isfinite(e) && std::abs(a - e) <= tolerance * std::max(1.0, std::abs(e));
        }
        if (same) continue;
        ++v.mismatchCount;
        if (v.mismatches.size() < kMaxMismatches)
            v.mismatches.push_back({i, expected.get(i), actual.get(i)});
    }
    v.mismatchCount += std::max(expected.words.size(), actual.words.size()) - n;
    v.pass = v.mismatchCount == 0;
    return v;
}

} // namespace vkp
