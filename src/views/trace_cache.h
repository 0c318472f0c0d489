// Derived data of the trace the views show, computed once per trace (keyed on its shared_ptr)
// and not per frame: the cell index, the selected thread's footprint, the timeline of one
// workgroup, watch tables, the threads over a limit, the look-back. Headless; the panels read it
// each frame.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "judge/trace_analysis.h"
#include "puzzle/puzzle.h"
#include "trace/trace.h"
#include "views/lookback.h"
#include "views/timeline.h"
#include "views/trace_model.h"
#include "views/watches.h"

namespace vkp::views {

class TraceCache {
  public:
    // Points the cache at a case's trace (null: none). Another trace drops what was derived from
    // the old one; the timeline keeps its workgroup and round where the new trace has them.
    void use(std::shared_ptr<const Trace> trace, std::shared_ptr<const TraceAnalysis> analysis,
             std::shared_ptr<const std::string> source);

    // Another puzzle opened: nothing of the old trace is kept, not even its timeline position
    // (the generation still moves on, so views keyed on it see the change).
    void reset();

    const Trace* trace() const { return m_trace.get(); }
    const TraceAnalysis* analysis() const { return m_analysis.get(); }
    uint64_t generation() const { return m_generation; } // changes with the trace

    const CellIndex& cells();
    const ThreadFootprint& footprint(uint64_t invocation);
    // The timeline of a workgroup; built from the case's initial buffers on first use.
    Timeline& timeline(uint64_t workgroup, const std::vector<BufferData>& initial);
    const WatchTable& watch(uint32_t line);
    const std::set<uint64_t>& overLimit(const Limits& limits);
    const std::set<uint64_t>& inFindings();
    // The look-back of the trace (views/lookback.h), for the launch on show.
    const LookbackModel& lookback(const Puzzle& puzzle, const TestCase& testCase);

  private:
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    std::shared_ptr<const std::string> m_source;
    uint64_t m_generation = 0;
    std::unique_ptr<CellIndex> m_cells;
    std::optional<ThreadFootprint> m_footprint;
    std::unique_ptr<Timeline> m_timeline;
    std::optional<std::pair<uint64_t, uint32_t>>
        m_keepRound; // (workgroup, round) from the last trace
    bool m_keepAtEnd = true;
    std::map<uint32_t, WatchTable> m_watches;
    std::optional<std::set<uint64_t>> m_overLimit, m_inFindings;
    std::unique_ptr<LookbackModel> m_lookback;
};

} // namespace vkp::views
