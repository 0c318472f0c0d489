// What the visual-debugging views read from one case's trace, headless: cells of buffers and
// shared arrays, what the learner selected (a thread or a cell, kept across frames), a thread's
// accesses in order with order numbers, which reads fed which write, the lines it executed, and
// every access to one cell in order. No ImGui here; tests/views checks it on synthetic traces.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "judge/trace_analysis.h"
#include "puzzle/puzzle.h"
#include "trace/trace.h"
#include "views/thread_map.h"

namespace vkp::views {

// One cell: of a puzzle buffer, or of one workgroup's copy of a shared array.
struct CellRef {
    bool shared = false;
    uint32_t array = 0; // buffer: index into Puzzle::buffers; shared: index into Trace::variables
    uint64_t workgroup = 0; // shared: the flat workgroup whose copy it is (0 for buffers)
    uint64_t index = 0;     // flat element index (scalars, for shared arrays of vectors)

    auto operator<=>(const CellRef&) const = default;
    static CellRef buffer(uint32_t b, uint64_t i) { return {false, b, 0, i}; }
    static CellRef sharedCell(uint32_t var, uint64_t wg, uint64_t i) { return {true, var, wg, i}; }
};

struct CellRefHash {
    size_t operator()(const CellRef& c) const {
        uint64_t h =
            (uint64_t(c.shared) << 63) ^ (uint64_t(c.array) << 48) ^ (c.workgroup << 32) ^ c.index;
        return std::hash<uint64_t>()(h * 0x9E3779B97F4A7C15ull);
    }
};

// The cell an event touched; nullopt for barriers, loop-budget records and variables that are
// neither a puzzle buffer nor shared.
std::optional<CellRef> cellOfEvent(const Trace& trace, uint64_t invocation, const TraceEvent& e);
// The trace variable of a puzzle buffer, if the kernel traced it.
std::optional<uint32_t> variableOfBuffer(const Trace& trace, uint32_t buffer);
// "a[3]", "tileA[1][2]" (2D buffers of the case, 2D shared arrays); "[w 2]" is not added.
std::string cellText(const Trace* trace, const Puzzle& puzzle, const TestCase& testCase,
                     const CellRef& cell);
bool isAccess(const TraceEvent& e);   // a read, write or atomic (not a barrier or budget record)
bool readsCell(const TraceEvent& e);  // read or atomic
bool writesCell(const TraceEvent& e); // write or atomic

// One entry of a thread's access list.
struct AccessEntry {
    uint32_t order = 0; // 1-based among the thread's reads, writes and atomics; 0 for barriers
    uint32_t event = 0; // index into Trace::threads[invocation]
    std::optional<CellRef> cell;
};

// How a cell is marked for the selected thread: how it touched it and when.
struct CellMark {
    bool read = false, written = false;
    std::vector<uint32_t> orders; // order numbers of its accesses to the cell, ascending
};

// A write and the reads that fed it, as far as a trace can tell (it has no data flow): a write
// of exactly the value a read returned is a copy of that read (the latest such); any other write
// (a computed value) takes every read the thread made since and not yet used by a write. So in a
// tiled matmul, a[...] feeds tileA[...] and the tile cells read in the k-loops feed result[...].
struct Flow {
    CellRef to;
    std::vector<CellRef> from; // distinct, in first-read order
    uint32_t event = 0;        // the write's index in the thread's events
};

// Everything the views show about one thread, computed once per selection.
struct ThreadFootprint {
    uint64_t invocation = 0;
    std::vector<AccessEntry> accesses; // every event in program order (barriers too)
    std::map<CellRef, CellMark> cells; // cells it touched
    std::vector<Flow> flows;           // one per write, in program order
    std::vector<uint32_t> lines; // kernel lines it executed an access or barrier on, ascending
    uint32_t globalReads = 0, globalWrites = 0; // buffer requests (a vec4 moved whole is one)
};
ThreadFootprint threadFootprint(const Trace& trace, uint64_t invocation);

// Arrows for a footprint, thinned for the eye: while the thread fed at most `maxArrows` (read,
// write) pairs every one is kept; beyond that the reads of one write are aggregated per array
// (one arrow from the middle of that array's read cells, with a count).
struct Arrow {
    CellRef from; // a read cell; for an aggregate, the read cell nearest the middle
    CellRef to;
    uint32_t count = 1; // reads behind this arrow (> 1: aggregated)
};
std::vector<Arrow> arrowsFor(const ThreadFootprint& footprint, size_t maxArrows = 24);

// One access to a cell, for the cell's history.
struct CellTouch {
    uint64_t invocation = 0;
    uint32_t event = 0; // index into the thread's events
    TraceEventKind kind = TraceEventKind::Read;
    uint32_t line = 0, value = 0, round = 0;
};

// Who touched which cell of a trace. A cell's history is in barrier round order, then by
// invocation, then program order: the trace has no clock across threads, and within one round
// the order between threads is not known (that is what makes a race). Histories are found when
// first asked for (a shared cell scans its workgroup, a buffer cell the whole trace: about a
// millisecond for 100k events) and kept, so no frame pays for indexing the whole trace.
class CellIndex {
  public:
    explicit CellIndex(const Trace& trace) : m_trace(trace) {}
    const std::vector<CellTouch>& history(const CellRef& cell) const;
    // The distinct threads that touched the cell, in history order.
    std::vector<uint64_t> threads(const CellRef& cell) const;

  private:
    const Trace& m_trace;
    mutable std::unordered_map<CellRef, std::vector<CellTouch>, CellRefHash> m_cells;
};

// Global traffic of one thread against the puzzle's limits.
struct TrafficStatus {
    uint32_t reads = 0, writes = 0;
    std::optional<uint32_t> readLimit, writeLimit;
    bool overReads() const { return readLimit && reads > *readLimit; }
    bool overWrites() const { return writeLimit && writes > *writeLimit; }
    bool over() const { return overReads() || overWrites(); }
};
TrafficStatus trafficOf(const TraceAnalysis& analysis, const Limits& limits, uint64_t invocation);
// Threads over a limit (the offenders), ascending.
std::vector<uint64_t> threadsOverLimits(const TraceAnalysis& analysis, const Limits& limits);

// Where a finding sends the views: its line, threads, cell, round and workgroup.
struct FindingTarget {
    int line = 0;
    std::vector<uint64_t> threads;
    std::optional<CellRef> cell;
    uint32_t round = 0;
    uint64_t workgroup = 0;
};
FindingTarget findingTarget(const Trace& trace, const Finding& finding);

} // namespace vkp::views
