// Which thread is which, and which buffer cell belongs to a thread by index.
#include <gtest/gtest.h>

#include "puzzle/puzzle_loader.h"
#include "support/test_env.h"
#include "views/thread_map.h"

namespace vkp::views {
namespace {

TestCase launch(std::array<uint32_t, 3> size, std::array<uint32_t, 3> groups) {
    TestCase c;
    c.workgroupSize = size;
    c.workgroups = groups;
    return c;
}

TEST(ThreadMapTest, IdsOfAThreadIn2D) {
    TestCase c = launch({4, 2, 1}, {3, 2, 1});
    ThreadIds t = threadIds(c, {5, 3, 0}, 4);
    EXPECT_EQ(t.local, (Uvec3{1, 1, 0}));
    EXPECT_EQ(t.workgroup, (Uvec3{1, 1, 0}));
    EXPECT_EQ(t.localIndex, 5u);
    EXPECT_EQ(t.subgroup, 1u);
    EXPECT_EQ(t.lane, 1u);
    EXPECT_EQ(launchSize(c), (Uvec3{12, 4, 1}));
}

TEST(ThreadMapTest, CellsAndThreadsLinkByIndex) {
    TestCase c = launch({4, 4, 1}, {1, 1, 1});
    Shape matrix{{3, 3}};
    EXPECT_EQ(cellOfThread(matrix, {2, 1, 0}), 5u);           // row 1, column 2
    EXPECT_EQ(cellOfThread(matrix, {3, 0, 0}), std::nullopt); // a spare thread
    EXPECT_EQ(threadOfCell(matrix, 5, c), (Uvec3{2, 1, 0}));
    Shape vec{{6}};
    EXPECT_EQ(cellOfThread(vec, {4, 0, 0}), 4u);
    EXPECT_EQ(cellOfThread(vec, {4, 1, 0}), std::nullopt);
    TestCase small = launch({4, 1, 1}, {1, 1, 1});
    EXPECT_EQ(threadOfCell(vec, 5, small), std::nullopt) << "no thread reaches cell 5 of 6";
}

// Issue 18: Block sum drew the threads that write result[1..3] as grey "spare".
TEST(ThreadMapTest, SpareThreadsHaveNoElementOfAnyBuffer) {
    PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    auto find = [&](const std::string& slug) -> const Puzzle& {
        for (const Puzzle& p : set.puzzles)
            if (p.slug == slug) return p;
        throw std::runtime_error("no puzzle " + slug);
    };
    const Puzzle& blockSum = find("block-sum");
    const TestCase& c = blockSum.cases.at(2); // 3 workgroups of 16 threads, 40 elements
    ASSERT_EQ(c.workgroups[0] * c.workgroupSize[0], 48u);
    for (uint32_t w : {0u, 16u, 32u})
        EXPECT_FALSE(isSpareThread(c, {w, 0, 0}))
            << "thread " << w << " writes result[" << w / 16 << "]";
    EXPECT_FALSE(isSpareThread(c, {39, 0, 0})) << "a[39] is its element";
    for (uint32_t t = 40; t < 48; ++t)
        EXPECT_TRUE(isSpareThread(c, {t, 0, 0})) << "past the 40 elements: " << t;
    const Puzzle& guards = find("guards");
    for (const TestCase& g : guards.cases) {
        uint64_t n = g.data.at(0)->shape.count(),
                 threads = uint64_t(g.workgroups[0]) * g.workgroupSize[0];
        for (uint32_t t = 0; t < threads; ++t)
            EXPECT_EQ(isSpareThread(g, {t, 0, 0}), t >= n) << g.name << " thread " << t;
    }
}

} // namespace
} // namespace vkp::views
