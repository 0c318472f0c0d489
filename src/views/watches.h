// Watches, headless: the learner watches a kernel line, and the table shows, per thread (rows)
// and per execution of that line (columns: the 1st, 2nd, ... time the thread ran it, i.e. loop
// iterations), the cells accessed there and their values: the "index per thread per iteration"
// tables learners draw by hand. It needs no change to the kernel: trace events carry the line,
// the cell and the value. Only memory accesses are traced, so a line that touches no buffer or
// shared array has nothing to show.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "puzzle/puzzle.h"
#include "trace/trace.h"

namespace vkp::views {

struct WatchRow {
    uint64_t invocation = 0;
    std::vector<uint32_t>
        events; // indices into Trace::threads[invocation] of its accesses on the line
    std::vector<uint32_t> starts; // where each execution of the line begins in `events`

    size_t executions() const { return starts.size(); }
    // The accesses of the k-th execution (0-based).
    std::span<const uint32_t> execution(size_t k) const;
};

struct WatchTable {
    uint32_t line = 0;
    std::vector<WatchRow> rows;      // threads that ran the line, by invocation
    size_t maxExecutions = 0;        // columns
    std::vector<uint32_t> variables; // trace variables accessed on the line, in first-seen order
    uint64_t events = 0;             // accesses on the line, all threads
};

// Splits a thread's accesses on the line into executions: a run of consecutive accesses on the
// line (no other line's access between) is cut into repeats of its shortest period, so
// `acc += tileA[ly][k] * tileB[k][lx]` in a one-line loop gives one (tileA, tileB) pair per
// iteration and `result[i] = a[i] + a[i + 1]` one execution of (a, a, result).
WatchTable buildWatchTable(const Trace& trace, uint32_t line);

enum class WatchTextKind { Cells, CellsAndValues, Values };
// One table cell: "tileA[1][0]=3 tileB[0][2]=4" (CellsAndValues), optionally only the accesses to
// `variable` (-1: all). Reads "a[3]=5", writes "result[1] ← 8", atomics "n[0] ⟳ 4" (the old value).
std::string watchCellText(const Trace& trace, uint64_t invocation, std::span<const uint32_t> events,
                          WatchTextKind kind, int variable = -1);

// Watched lines kept per puzzle: add or remove one (sorted, no duplicates).
void toggleWatchedLine(std::vector<uint32_t>& lines, uint32_t line);

} // namespace vkp::views
