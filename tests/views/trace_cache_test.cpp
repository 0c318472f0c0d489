// The data derived once per trace for the views, and what a new trace keeps of it.
#include <gtest/gtest.h>

#include "support/neighbour_sum.h"
#include "views/trace_cache.h"

namespace vkp::views {
namespace {

TEST(TraceCacheTest, DerivedDataFollowsTheTrace) {
    test::NeighbourSum n;
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
} // namespace vkp::views
