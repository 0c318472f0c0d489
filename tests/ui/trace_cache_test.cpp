// The data derived once per trace for the views, and what a new trace keeps of it.
#include <gtest/gtest.h>

#include "support/trace_builder.h"
#include "ui/trace_cache.h"

namespace vkp::ui {
namespace {

using test::TraceBuilder;

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

TEST(TraceCacheTest, DerivedDataFollowsTheTrace) {
    NeighbourSum n;
    auto trace = std::make_shared<const Trace>(n.b.t);
    TraceCache cache;
    cache.use(trace, nullptr, nullptr);
    uint64_t g = cache.generation();
    EXPECT_EQ(cache.footprint(1).invocation, 1u);
    EXPECT_EQ(cache.cells().threads(CellRef::buffer(1, 0)), (std::vector<uint64_t>{0}));
    std::vector<BufferData> initial(2, BufferData::zeros(ElementKind::Uint, Shape{{4}}));
    cache.timeline(1, initial).seekRoundEnd(0);
    cache.use(trace, nullptr, nullptr);
    EXPECT_EQ(cache.generation(), g) << "the same trace keeps its derived data";
    EXPECT_EQ(cache.timeline(1, initial).position(), cache.timeline(1, initial).roundEnd(0));
    auto again = std::make_shared<const Trace>(n.b.t);
    cache.use(again, nullptr, nullptr);
    EXPECT_NE(cache.generation(), g);
    EXPECT_EQ(cache.timeline(1, initial).position(), cache.timeline(1, initial).roundEnd(0))
        << "a new trace keeps the round";
    EXPECT_EQ(cache.timeline(0, initial).position(), cache.timeline(0, initial).size())
        << "another workgroup starts at the end";
}

} // namespace
} // namespace vkp::ui
