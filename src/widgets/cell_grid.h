// The grid of cells shared by the buffers view and the timeline: values of a buffer or shared
// array (2D as a matrix with row and column indices), wrong cells in red, and what the views
// point at: the hovered and selected thread's reads and writes (distinct colours, order numbers),
// the selected cell, the timeline's changed cells and current access, a walkthrough's cells.
// Hovering a cell shows every thread that touched it, in order; clicking selects it.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <imgui.h>

#include "puzzle/puzzle.h"
#include "reference/buffer_data.h"
#include "views/timeline.h"
#include "views/trace_model.h"
#include "views/view_state.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws

struct GridLayout {
    uint64_t count = 0, rows = 0, cols = 0;
    bool twoD = false;
    float cellW = 0, cellH = 0, labelW = 0, headerH = 0;
    ImVec2 size;
};
// `tall`: room above each value for the selected thread's order numbers.
// `colsMultiple`: a 1D grid's row holds a multiple of this many cells when it fits (whole
// sectors of a global buffer per row). `minChars`: the narrowest cell, in characters of a value.
GridLayout layoutGrid(const BufferData& data, const BufferData* expected, float width,
                      bool tall = false, uint64_t colsMultiple = 1, size_t minChars = 2);

// One grid to draw.
struct GridData {
    std::string id;                       // ImGui id, unique in the window
    const BufferData* values = nullptr;   // what the cells show
    const BufferData* expected = nullptr; // outputs: red where values differ
    double tolerance = 0;
    const std::vector<uint8_t>* written = nullptr; // shared arrays: unwritten cells are dimmed
    CellRef base;                                  // the cell of index 0 (its index is replaced)
    bool marks = true;                             // draw the selection's marks on it
};

// What every grid of one panel marks, gathered once per frame.
struct GridMarks {
    const Puzzle* puzzle = nullptr;
    const TestCase* testCase = nullptr;
    const Trace* trace = nullptr;
    TraceCache* traces = nullptr; // with a trace: who touched a cell (built when first asked)
    const ThreadFootprint* selected = nullptr; // the selected thread's cells, with order numbers
    std::map<CellRef, CellMark> hovered;       // the hovered thread's cells
    std::optional<CellRef> selectedCell, hoveredCell;
    const Timeline* timeline = nullptr; // changed cells and the current access
    std::optional<CellRef> stepCell;
    std::vector<CellRef> focus; // a walkthrough step's or a finding's cells
    // The efficiency lens's request on show: its cells coloured, with sector boundaries on its
    // global buffer or bank numbers on its shared array.
    const RequestCells* request = nullptr;
    const MemoryModel* model = nullptr; // the model of its figures
};

// The layout drawCellGrid gives `d` under `m` (its width, before drawing it).
GridLayout gridLayout(const GridData& d, const GridMarks& m, float width);

// Where the cells of the grids drawn in one region are, for arrows between them.
struct CellCanvas {
    std::set<CellRef> wanted;          // the cells arrows may join (set before drawing the grids)
    std::map<CellRef, ImVec2> centres; // their centres, visible or scrolled away
    void want(const std::vector<Arrow>& arrows);
};

// Draws the grid at the cursor; returns the clicked cell, if any.
std::optional<CellRef> drawCellGrid(const GridData& d, const GridMarks& m, ViewState& view,
                                    float width, CellCanvas* canvas);

// Data-flow arrows between cells recorded on the canvas (from read cells to the written one).
void drawArrows(ImDrawList* dl, const std::vector<Arrow>& arrows, const CellCanvas& canvas);

// The marks of a panel for this frame, from the view's selection, hover and cache.
GridMarks gridMarks(const Puzzle& p, const TestCase& tc, ViewState& view);

bool cellWrong(const BufferData& actual, const BufferData& expected, uint64_t i, double tolerance);
// A shared array of the trace as a BufferData (its element type; 2D when it is a matrix of
// scalars).
BufferData sharedArrayData(const TraceVariableInfo& v, const std::vector<uint32_t>& values);

} // namespace vkp::ui
