// The trace's records and cells as the panels name them: shuffle records (the lane a value came
// from, the text of the op), cells of vector elements and of a buffer's vector view, the owner of
// a cell two views share, and how a shared array is drawn.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "trace/trace.h"

namespace vkp {
namespace {

// --- Shuffle records -----------------------------------------------------------------------

TraceEvent shuffleEvent(ShuffleOp op, uint32_t lane, uint32_t value, ElementKind type) {
    TraceEvent e;
    e.kind = TraceEventKind::Shuffle;
    e.index = lane;
    e.value = value;
    e.extra = packShuffleExtra(op, type);
    return e;
}

// Two workgroups of 12 threads in subgroups of 8: the second subgroup of a workgroup has 4 lanes.
Trace shuffleTrace() {
    Trace t;
    t.launch.workgroupSize = {12, 1, 1};
    t.launch.workgroups = {2, 1, 1};
    t.subgroupSize = 8;
    return t;
}

TEST(TraceShuffle, TheSourceIsTheLaneTheOpNamesInTheSameSubgroup) {
    Trace t = shuffleTrace();
    // Invocation 13 is local 1 of workgroup 1: lane 1 of its first subgroup (invocations 12-19).
    EXPECT_EQ(shuffleSource(t, 13, shuffleEvent(ShuffleOp::Xor, 2, 0, ElementKind::Uint)), 15u);
    EXPECT_EQ(shuffleSource(t, 13, shuffleEvent(ShuffleOp::Shuffle, 6, 0, ElementKind::Uint)), 18u);
    EXPECT_EQ(shuffleSource(t, 13, shuffleEvent(ShuffleOp::Down, 3, 0, ElementKind::Uint)), 16u);
    EXPECT_EQ(shuffleSource(t, 13, shuffleEvent(ShuffleOp::Up, 1, 0, ElementKind::Uint)), 12u);
    EXPECT_EQ(shuffleSource(t, 13, shuffleEvent(ShuffleOp::Broadcast, 0, 0, ElementKind::Uint)),
              12u);
    // Local 9 is lane 1 of the short second subgroup (locals 8-11): lane 3 exists, lane 5 not.
    EXPECT_EQ(shuffleSource(t, 9, shuffleEvent(ShuffleOp::Xor, 2, 0, ElementKind::Uint)), 11u);
    EXPECT_FALSE(shuffleSource(t, 9, shuffleEvent(ShuffleOp::Xor, 4, 0, ElementKind::Uint)));
    // subgroupBroadcastFirst's record carries the first active lane the device found (lane 4).
    EXPECT_EQ(
        shuffleSource(t, 13, shuffleEvent(ShuffleOp::BroadcastFirst, 4, 0, ElementKind::Uint)),
        16u);
    // Up past lane 0, a lane beyond the subgroup, no subgroup size.
    EXPECT_FALSE(shuffleSource(t, 13, shuffleEvent(ShuffleOp::Up, 2, 0, ElementKind::Uint)));
    EXPECT_FALSE(shuffleSource(t, 13, shuffleEvent(ShuffleOp::Shuffle, 8, 0, ElementKind::Uint)));
    EXPECT_FALSE(
        shuffleSource(t, 9, shuffleEvent(ShuffleOp::BroadcastFirst, 4, 0, ElementKind::Uint)))
        << "the short subgroup has lanes 0 to 3";
    Trace unknown = shuffleTrace();
    unknown.subgroupSize = 0;
    EXPECT_FALSE(shuffleSource(unknown, 13, shuffleEvent(ShuffleOp::Xor, 2, 0, ElementKind::Uint)));
}

TEST(TraceShuffle, TheTextSaysTheOpTheValueInItsTypeAndWhereItCameFrom) {
    Trace t = shuffleTrace();
    TraceEvent xorFloat = shuffleEvent(ShuffleOp::Xor, 1, 0x40400000u, ElementKind::Float); // 3.0
    EXPECT_EQ(shuffleText(t, xorFloat, 1),
              "xor 1: 3 from lane 0, thread 0 (local 0 of workgroup 0)");
    EXPECT_EQ(shuffleText(t, xorFloat), "xor 1: 3"); // no invocation: no source
    // A broadcast-first names no lane operand, only where the value came from.
    TraceEvent first = shuffleEvent(ShuffleOp::BroadcastFirst, 2, 0xffffffffu, ElementKind::Int);
    EXPECT_EQ(shuffleText(t, first, 16),
              "broadcast first: -1 from lane 2, thread 14 (local 2 of workgroup 1)");
    EXPECT_EQ(shuffleText(t, first), "broadcast first: -1, from the first active lane");
    first.index = 6; // past the short second subgroup of workgroup 0 (locals 8-11)
    EXPECT_EQ(shuffleText(t, first, 9), "broadcast first: -1, from the first active lane");
    EXPECT_STREQ(traceEventKindName(TraceEventKind::Shuffle), "shuffle");
}

// A record whose source lane did not run the op (the device's ballot, kShuffleSourceInactive):
// no source, and the text says the value is undefined. The flag leaves the op and type alone.
TEST(TraceShuffle, ALaneThatDidNotRunTheOpIsNoSource) {
    Trace t = shuffleTrace();
    TraceEvent e = shuffleEvent(ShuffleOp::Xor, 2, 7, ElementKind::Int);
    e.extra |= kShuffleSourceInactive;
    EXPECT_EQ(shuffleOpOf(e.extra), ShuffleOp::Xor);
    EXPECT_EQ(shuffleTypeOf(e.extra), ElementKind::Int);
    EXPECT_FALSE(shuffleSource(t, 13, e));
    EXPECT_EQ(shuffleSourceLane(t, 13, e), 3); // lane 1 xor 2
    EXPECT_EQ(shuffleText(t, e, 13), "xor 2: 7, undefined: lane 3 did not run it");
    EXPECT_EQ(shuffleSourceLane(t, 13, shuffleEvent(ShuffleOp::Up, 2, 0, ElementKind::Uint)), -1);
}

// A cell is named by its flattened index of scalars: a shared array of vectors names the element
// holding the scalar and its component; rows of 2D arrays count elements, not scalars.
TEST(TraceCellName, VectorElementsNameTheirComponent) {
    Trace t;
    auto variable = [](const std::string& name, bool shared, std::vector<uint64_t> dims,
                       uint32_t width) {
        TraceVariableInfo v;
        v.decl.name = name;
        v.decl.shared = shared;
        v.decl.elementWidth = width;
        v.dims = std::move(dims);
        v.length = 1;
        for (uint64_t d : v.dims)
            v.length *= d;
        return v;
    };
    t.variables = {variable("a", false, {}, 1), variable("tile", true, {4, 3}, 1),
                   variable("tileB", true, {4, 2}, 4), variable("cache", true, {8}, 2),
                   variable("wide", true, {3}, 16)};
    EXPECT_EQ(traceCellName(t, 0, 7), "a[7]");
    EXPECT_EQ(traceCellName(t, 1, 5), "tile[1][2]");
    EXPECT_EQ(traceCellName(t, 2, 0), "tileB[0][0].x");
    EXPECT_EQ(traceCellName(t, 2, 3), "tileB[0][0].w");
    EXPECT_EQ(traceCellName(t, 2, 9), "tileB[1][0].y");  // element 2: row 1, column 0
    EXPECT_EQ(traceCellName(t, 2, 31), "tileB[3][1].w"); // the last scalar
    EXPECT_EQ(traceCellName(t, 3, 9), "cache[4].y");
    EXPECT_EQ(traceCellName(t, 4, 21), "wide[1] (scalar 5)");
    EXPECT_EQ(traceCellName(t, 2, 40), "tileB[5][0].x"); // past the end: the row past the end
}

// A buffer's vector view (`vec4 a4[]` over a 5 x 37 matrix of floats) is named by its own flat
// index and the component, whatever the buffer's dimensions: the kernel's own expression.
TEST(TraceCellName, ABuffersVectorViewNamesItsVectorAndComponent) {
    Trace t;
    TraceVariableInfo matrix;
    matrix.decl.name = "a";
    matrix.dims = {5, 37};
    matrix.length = 185;
    matrix.puzzleBuffer = 0;
    TraceVariableInfo view = matrix;
    view.decl.name = "a4";
    view.decl.elementWidth = 4;
    t.variables = {matrix, view};
    EXPECT_EQ(traceCellName(t, 0, 184), "a[4][36]");
    EXPECT_EQ(traceCellName(t, 1, 184), "a4[46].x");
    EXPECT_EQ(traceCellName(t, 1, 187), "a4[46].w"); // past the end, named all the same
    EXPECT_EQ(traceCellName(t, 1, 6), "a4[1].z");
}

// Two declarations of one buffer (a float view and a vec4 view) are one memory: the first of
// them owns the cells of both. Other buffers and shared arrays own their own.
TEST(CellOwner, ViewsOfOneBufferShareTheFirstViewsCells) {
    Trace t;
    auto buffer = [](const std::string& name, int puzzleBuffer, uint32_t binding) {
        TraceVariableInfo v;
        v.decl.name = name;
        v.decl.binding = binding;
        v.puzzleBuffer = puzzleBuffer;
        return v;
    };
    TraceVariableInfo tile;
    tile.decl.name = "tile";
    tile.decl.shared = true;
    t.variables = {buffer("a", 0, 0),      buffer("result4", 1, 1), buffer("a4", 0, 0),     tile,
                   buffer("result", 1, 1), buffer("other", -1, 7),  buffer("other4", -1, 7)};
    EXPECT_EQ(cellOwner(t, 0), 0u);
    EXPECT_EQ(cellOwner(t, 1), 1u);
    EXPECT_EQ(cellOwner(t, 2), 0u);
    EXPECT_EQ(cellOwner(t, 3), 3u);
    EXPECT_EQ(cellOwner(t, 4), 1u);
    EXPECT_EQ(cellOwner(t, 5), 5u); // not the puzzle's: by set and binding
    EXPECT_EQ(cellOwner(t, 6), 5u);
}

} // namespace
} // namespace vkp

namespace vkp {
namespace {

TraceVariableInfo sharedArray(std::vector<uint64_t> dims, uint32_t width) {
    TraceVariableInfo v;
    v.decl.shared = true;
    v.decl.elementWidth = width;
    v.dims = std::move(dims);
    return v;
}

// How a shared array is drawn: a 2D array in its rows, a vector's components side by side (a
// complex number's two halves together), anything else as a plain row of cells.
TEST(SharedGrid, RowsOfElementsWithTheirComponentsSideBySide) {
    auto tile = sharedGrid(sharedArray({4, 6}, 1), 24);
    ASSERT_TRUE(tile);
    EXPECT_EQ(tile->rows, 4u);
    EXPECT_EQ(tile->cols, 6u);
    auto complexRows = sharedGrid(sharedArray({2, 8}, 2), 32); // vec2 buf[2][8]
    ASSERT_TRUE(complexRows);
    EXPECT_EQ(complexRows->rows, 2u);
    EXPECT_EQ(complexRows->cols, 16u);
    auto vectors = sharedGrid(sharedArray({24}, 4), 96); // vec4 t[24]
    ASSERT_TRUE(vectors);
    EXPECT_EQ(vectors->rows, 24u);
    EXPECT_EQ(vectors->cols, 4u);
    EXPECT_FALSE(sharedGrid(sharedArray({24}, 1), 24)) << "a plain array is a row of cells";
    EXPECT_FALSE(sharedGrid(sharedArray({2, 8}, 2), 30)) << "a size that does not fit";
    EXPECT_FALSE(sharedGrid(sharedArray({2, 2, 2}, 1), 8)) << "3D: a row of cells";
}

} // namespace
} // namespace vkp
