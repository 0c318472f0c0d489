// Which thread is which, and which buffer cell "belongs" to a thread by index, for the thread
// grid and the buffers panel. Headless. Until execution traces exist, the link between a thread
// and a cell is the puzzles' convention: cell [i] <-> global id (i, 0, 0); cell [r][c] <-> (c, r,
// 0).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "puzzle/puzzle.h"
#include "reference/buffer_data.h"

namespace vkp::views {

using Uvec3 = std::array<uint32_t, 3>;

struct ThreadIds {
    Uvec3 global{};          // gl_GlobalInvocationID
    Uvec3 local{};           // gl_LocalInvocationID
    Uvec3 workgroup{};       // gl_WorkGroupID
    uint32_t localIndex = 0; // gl_LocalInvocationIndex
    uint32_t subgroup = 0;   // gl_SubgroupID, as devices number them: localIndex / subgroup size
    uint32_t lane = 0;       // gl_SubgroupInvocationID
};

ThreadIds threadIds(const TestCase& c, const Uvec3& global, uint32_t subgroupSize);
Uvec3 launchSize(const TestCase& c); // threads in each dimension, all workgroups together
// "(6)", "(1, 2)" or "(1, 2, 0)": an id with as many numbers as the launch has dimensions.
std::string idText(const TestCase& c, const Uvec3& id);

// The cell whose index equals the thread's global id, if the buffer has one.
std::optional<uint64_t> cellOfThread(const Shape& shape, const Uvec3& global);
// A spare thread has no element to work on: no buffer of the case has a cell at its global id.
// (Not "no output cell there": a reduction writes one cell per workgroup from many threads.)
bool isSpareThread(const TestCase& c, const Uvec3& global);
// The thread whose global id equals the cell's index, if the launch has one.
std::optional<Uvec3> threadOfCell(const Shape& shape, uint64_t index, const TestCase& c);

} // namespace vkp::views
