// Watches, headless: the learner watches a kernel line, and the table shows, per thread (rows)
// and per execution of that line (columns: the 1st, 2nd, ... time the thread ran it, i.e. loop
// iterations), the cells accessed there and their values: the "index per thread per iteration"
// tables learners draw by hand. It needs no change to the kernel: trace events carry the line,
// the cell and the value. Only memory accesses are traced, so a line that touches no buffer or
// shared array has nothing to show.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "puzzle/puzzle.h"
#include "trace/trace.h"
#include "views/dispatch_model.h"

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

// What the Watches view shows of a table, for the panel to draw.

// The watched line on show: `shown` while it is watched, else the first watched (`shown` when
// none is).
uint32_t watchedLineShown(const std::vector<uint32_t>& lines, uint32_t shown);
// The table's rows on show (indices into rows): all, or with `groupOnly` and a thread selected
// (its invocation), those of the selected thread's workgroup.
std::vector<size_t> watchRowsShown(const WatchTable& table, const Trace& trace,
                                   std::optional<uint64_t> selected, bool groupOnly);
// The columns a table of at most `maxColumns` executions shows, and what it leaves out: "the
// first 63 of 80 executions are shown" ("" when every one is).
size_t watchColumns(const WatchTable& table, size_t maxColumns);
std::string watchColumnsNote(const WatchTable& table, size_t maxColumns);
// A column's heading: "1st", "2nd", ...
std::string watchColumnTitle(size_t execution);
// "3 threads ran it, up to 4 times each (12 accesses)".
std::string watchSummary(const WatchTable& table);
// A cell's tooltip: "thread (3), 2nd time on line 14:\na[3]=5 result[3] ← 6".
std::string watchCellTooltip(const Trace& trace, const TestCase& launch, const WatchRow& row,
                             size_t execution, uint32_t line);
// The array picker's choice: "every array" (variable -1, or none of the trace's) or its name.
std::string watchVariableName(const Trace& trace, int variable);

// Why a watched line's table is empty, and where to look instead.
struct WatchEmpty {
    std::string text;
    // The line is in another kernel of a multi-pass puzzle: the first dispatch of that kernel,
    // to show, and its button's label.
    std::optional<size_t> dispatch;
    std::string button; // "Show dispatch 2 of 3 · scan_sums"
};
// `entries` and `shown`: the case's dispatches and the one on show (null: a single-pass case).
WatchEmpty watchEmptyNote(const Puzzle& puzzle, const std::vector<uint32_t>& lineOffsets,
                          uint32_t line, const std::vector<DispatchEntry>& entries,
                          const DispatchEntry* shown);

} // namespace vkp::views
