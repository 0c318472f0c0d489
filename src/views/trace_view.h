// What a case's execution trace says about one thread or one buffer cell, for the thread grid
// and the buffers panel: which cells a thread read and wrote, which threads touched a cell, and
// the threads named by findings. Headless.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "judge/trace_analysis.h"
#include "puzzle/puzzle.h"
#include "trace/trace.h"
#include "views/thread_map.h"

namespace vkp::views {

// The trace's invocation number of a thread: trace's invocationIndex over the case's launch.
uint64_t invocationIndex(const TestCase& c, const Uvec3& global);
Uvec3 globalIdOf(const TestCase& c, uint64_t invocation);

struct CellAccess {
    int buffer = -1;    // index into Puzzle::buffers
    uint32_t index = 0; // flat element index
    bool read = false;
    bool written = false;
};

// The puzzle-buffer cells a thread read or wrote (atomics count as both), in first-touch order.
std::vector<CellAccess> cellsAccessed(const Trace& trace, uint64_t invocation);
// The threads that read or wrote one cell of a puzzle buffer.
std::vector<std::pair<uint64_t, CellAccess>> threadsAccessing(const Trace& trace, int buffer,
                                                              uint32_t index);
// A traced word as its variable's element type ("3", "-1.5"); without one, as a uint.
std::string wordText(const Trace& trace, uint32_t variable, uint32_t word);
// "line 14  write  cache[3] = 3", cells named by traceCellName ("a[2][1]", "tileB[0][1].y").
// `invocation`: the thread that made the event (a shuffle then names the lane its value came
// from).
std::string eventText(const Trace& trace, const TraceEvent& e,
                      std::optional<uint64_t> invocation = std::nullopt);
// Every thread named by a finding that fails the case.
std::set<uint64_t> threadsInFindings(const TraceAnalysis& analysis);

} // namespace vkp::views
