// The thread and/or cell the learner selected in the views: view state, kept across frames.
#pragma once

#include <optional>

#include "puzzle/puzzle.h"
#include "trace/trace.h"
#include "views/thread_map.h"
#include "views/trace_model.h"

namespace vkp::views {

// What the learner picked: a thread and/or a cell, kept across frames until changed. Clicking
// the selected thread (or cell) again clears it; a new case drops what lies outside its launch.
struct Selection {
    std::optional<Uvec3> thread; // global id
    std::optional<CellRef> cell;

    void clickThread(const Uvec3& global);
    void clickCell(const CellRef& cell);
    void clear() { thread.reset(), cell.reset(); }
    bool empty() const { return !thread && !cell; }
    // Drops a thread outside the case's launch and a cell outside its buffers' or the trace's
    // sizes.
    void fitTo(const Puzzle& puzzle, const TestCase& testCase, const Trace* trace);
};

} // namespace vkp::views
