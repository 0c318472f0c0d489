// The thread grid: the selected case's workgroups laid out by dimension, each holding its threads
// (shaded by subgroup); hovering a thread shows its ids and lights up the cells whose index is its
// global id; hovering a cell lights up the thread mapping to it. (Execution traces will show each
// thread's reads and writes here.)
#pragma once

#include <imgui.h>

#include "ui/view_state.h"
#include "ui/workbench.h"

namespace vkp::ui {

// Where threads and workgroups go in the grid, in pixels from its top-left corner.
struct ThreadGridLayout {
    float cell = 0;            // a thread's square side
    float boxPad = 0;          // padding inside a workgroup box (its title strip on top)
    float gap = 0;             // between workgroup boxes
    float titleH = 0;          // workgroup title strip
    uint32_t perRow = 1;       // 1D launches: threads per row inside a box
    uint32_t boxesPerRow = 1;  // 1D launches: boxes per row
    ImVec2 boxSize;            // one workgroup box
    ImVec2 size;               // the whole grid
    int dims = 1;              // 1, 2 or 3

    ImVec2 boxOrigin(const TestCase& c, const Uvec3& wg) const;
    ImVec2 threadOrigin(const TestCase& c, const Uvec3& global) const;
};

ThreadGridLayout layoutThreads(const TestCase& c, float width, float height, float fontSize);
// The thread at a point of the grid (relative to its top-left corner), if any.
std::optional<Uvec3> threadAt(const TestCase& c, const ThreadGridLayout& l, ImVec2 pos);

class ThreadGridPanel {
  public:
    void draw(Workbench& wb, ViewState& view, ImVec2 size);

  private:
    bool m_globalLabels = true;   // label threads by global id (else local id)
    std::optional<Uvec3> m_detail; // the thread whose ids the detail line shows
};

} // namespace vkp::ui
