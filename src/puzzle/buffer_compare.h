// Compares a run's output buffers with the expected ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reference/buffer_data.h"

namespace vkp {

struct Mismatch {
    uint64_t index = 0; // flat element index
    double expected = 0;
    double actual = 0;
};

struct BufferComparison {
    bool pass = true;
    uint64_t mismatchCount = 0;       // all of them
    std::vector<Mismatch> mismatches; // the first kMaxMismatches
    double tolerance = 0;             // what was used (0 for integers: exact)
    // Floats: the largest |actual - expected| / max(1, |expected|) over the cells where both
    // are finite, the quantity `tolerance` bounds (how much room a solution leaves), and its cell.
    double worstError = 0;
    uint64_t worstIndex = 0;
};

inline constexpr size_t kMaxMismatches = 64;

// Integers compare exactly; floats pass when |actual - expected| <= tol * max(1, |expected|)
// (NaN never passes). Sizes must agree (the runner reads back what it uploaded).
BufferComparison compareBuffers(const BufferData& expected, const BufferData& actual,
                                double tolerance);

} // namespace vkp
