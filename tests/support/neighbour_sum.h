// A small trace the model and view tests share (built with TraceBuilder).
#pragma once

#include <cstdint>

#include "support/trace_builder.h"

namespace vkp::test {

// Two workgroups of 2 threads: each thread reads a[i], stores it in cache[local], barrier, reads
// its neighbour's cache cell and writes result[i] = own + neighbour.
struct NeighbourSum {
    TraceBuilder b{{2, 1, 1}, {2, 1, 1}};
    uint32_t a = b.buffer("a", 4), result = b.buffer("result", 4), cache = b.shared("cache", {2});

    NeighbourSum() {
        for (uint64_t i = 0; i < 4; ++i) {
            uint32_t local = static_cast<uint32_t>(i % 2);
            b.read(i, a, static_cast<uint32_t>(i), 10, 100 + static_cast<uint32_t>(i));
            b.write(i, cache, local, 100 + static_cast<uint32_t>(i), 11);
            b.barrier(i, 12);
            b.read(i, cache, local, 13, 100 + static_cast<uint32_t>(i));
            b.read(i, cache, 1 - local, 13, 0);
            b.write(i, result, static_cast<uint32_t>(i), 7, 14);
        }
    }
};

} // namespace vkp::test
