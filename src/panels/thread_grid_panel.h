// The thread grid: the shown case's workgroups laid out by dimension, each holding its threads
// (shaded by subgroup). Hover or click a thread: its ids, and its reads and writes light up in the
// memory panel; the clicked one stays selected and the inspector below lists its accesses. A
// hovered or selected cell lights up every thread that touched it (numbered in order). Threads
// over a global read/write limit carry a red corner; the trace's findings are listed and clickable.
// Arrows join the hovered (else selected) thread to the lanes it took values from through
// subgroup shuffles and broadcasts, and, lighter, to the lanes that took values from it.
#pragma once

#include <imgui.h>

#include "panels/inspector_panel.h"
#include "panels/lane_arrows.h"
#include "views/view_state.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

// Where threads and workgroups go in the grid, in pixels from its top-left corner.
struct ThreadGridLayout {
    float cell = 0;           // a thread's square side
    float boxPad = 0;         // padding inside a workgroup box (its title strip on top)
    float gap = 0;            // between workgroup boxes
    float titleH = 0;         // workgroup title strip
    uint32_t perRow = 1;      // 1D launches: threads per row inside a box
    uint32_t boxesPerRow = 1; // 1D launches: boxes per row
    ImVec2 boxSize;           // one workgroup box
    ImVec2 size;              // the whole grid
    int dims = 1;             // 1, 2 or 3

    ImVec2 boxOrigin(const TestCase& c, const views::Uvec3& wg) const;
    ImVec2 threadOrigin(const TestCase& c, const views::Uvec3& global) const;
};

// Launches up to this many threads keep a labelled square per thread (the grid scrolls rather
// than shrink them); larger ones shrink to fit, down to a square too small for a label.
inline constexpr uint64_t kLabelledThreads = 4096;
// The side of a square that holds a thread's label ("12,7") for text `fontSize` high.
float labelledCell(float fontSize);
// The largest layout (squares up to 2.4 text heights) that fits `width` x `height`, never with
// squares under labelledCell() for launches up to kLabelledThreads: a taller or wider grid
// scrolls. `smallFontSize`: the workgroup titles' text height.
ThreadGridLayout layoutThreads(const TestCase& c, float width, float height, float fontSize,
                               float smallFontSize);
// The thread at a point of the grid (relative to its top-left corner), if any.
std::optional<views::Uvec3> threadAt(const TestCase& c, const ThreadGridLayout& l, ImVec2 pos);

class ThreadGridPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, const ShownCase& sc, ImVec2 size);
    void forgetPuzzle() {
        m_detail.reset(), m_scrolledTo.reset();
    } // a thread of the old puzzle's launch

  private:
    void drawLegend(const ShownCase& sc, uint32_t subgroupSize, bool laneArrows);
    void labelsChoice(); // global or local ids on the squares
    void drawGrid(views::ViewState& view, const ShownCase& sc, uint32_t subgroupSize, ImVec2 size);
    // The lane arrows of the hovered thread, else the selected one (none without a trace).
    const LaneArrowView& laneArrowsOnShow(views::ViewState& view, const ShownCase& sc);
    bool traceHasLaneHandoffs(views::ViewState& view); // any arrows to draw; cached per trace
    void scrollToSelected(const views::ViewState& view, const TestCase& tc,
                          const ThreadGridLayout& l, ImVec2 room);
    bool m_globalLabels = true; // label threads by global id (else local id)
    std::optional<views::Uvec3>
        m_scrolledTo;                     // the selected thread the grid last scrolled into view
    float m_scrolledRoom = 0;             // the grid's visible height then
    std::optional<views::Uvec3> m_detail; // the thread whose ids the detail line shows
    LaneArrowView m_lanes;
    std::optional<std::pair<uint64_t, bool>> m_hasHandoffs; // (trace generation, any arrow)
    InspectorView m_inspector;
};

// Points every view at a finding of the trace: its line, threads, cell, round and workgroup.
void applyFinding(views::ViewState& view, const ShownCase& sc, const Finding& finding);
// The findings of the shown case in one line (presenter mode: the first wrapped over up to
// `presenterLines`); click: the list, each entry clickable.
void drawFindings(views::ViewState& view, const ShownCase& sc, size_t presenterLines = 3);

} // namespace vkp::ui
