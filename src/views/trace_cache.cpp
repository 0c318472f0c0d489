#include "views/trace_cache.h"

#include "views/trace_view.h"

namespace vkp::views {

void TraceCache::use(std::shared_ptr<const Trace> trace,
                     std::shared_ptr<const TraceAnalysis> analysis,
                     std::shared_ptr<const std::string> source) {
    if (trace == m_trace && analysis == m_analysis) return;
    if (m_timeline) {
        m_keepRound = std::make_pair(m_timeline->workgroup(), m_timeline->round());
        m_keepAtEnd = m_timeline->position() == m_timeline->size();
    }
    m_trace = std::move(trace);
    m_analysis = std::move(analysis);
    m_source = std::move(source);
    ++m_generation;
    m_cells.reset();
    m_footprint.reset();
    m_timeline.reset();
    m_watches.clear();
    m_overLimit.reset();
    m_inFindings.reset();
    m_lookback.reset();
}

void TraceCache::reset() {
    use(nullptr, nullptr, nullptr);
    m_keepRound.reset();
    m_keepAtEnd = true;
}

const LookbackModel& TraceCache::lookback(const Puzzle& puzzle, const TestCase& testCase) {
    static const Trace kEmpty;
    if (!m_lookback)
        m_lookback = std::make_unique<LookbackModel>(
            lookbackModel(puzzle, testCase, m_trace ? *m_trace : kEmpty));
    return *m_lookback;
}

const CellIndex& TraceCache::cells() {
    static const Trace kEmpty;
    if (!m_cells) m_cells = std::make_unique<CellIndex>(m_trace ? *m_trace : kEmpty);
    return *m_cells;
}

const ThreadFootprint& TraceCache::footprint(uint64_t inv) {
    static const Trace kEmpty;
    if (!m_footprint || m_footprint->invocation != inv)
        m_footprint = threadFootprint(m_trace ? *m_trace : kEmpty, inv);
    return *m_footprint;
}

Timeline& TraceCache::timeline(uint64_t workgroup, const std::vector<BufferData>& initial) {
    static const Trace kEmpty;
    if (m_timeline && m_timeline->workgroup() == workgroup) return *m_timeline;
    bool sameGroup = m_keepRound && m_keepRound->first == workgroup;
    m_timeline = std::make_unique<Timeline>(m_trace ? *m_trace : kEmpty, workgroup, initial,
                                            m_source ? atomicOpsFromSource(*m_source)
                                                     : std::map<uint32_t, AtomicOpKind>{});
    if (sameGroup && !m_keepAtEnd)
        m_timeline->seekRoundEnd(m_keepRound->second);
    else
        m_timeline->toEnd();
    m_keepRound.reset();
    return *m_timeline;
}

const WatchTable& TraceCache::watch(uint32_t line) {
    static const Trace kEmpty;
    auto it = m_watches.find(line);
    if (it == m_watches.end())
        it = m_watches.emplace(line, buildWatchTable(m_trace ? *m_trace : kEmpty, line)).first;
    return it->second;
}

const std::set<uint64_t>& TraceCache::overLimit(const Limits& limits) {
    if (!m_overLimit) {
        m_overLimit.emplace();
        if (m_analysis)
            for (uint64_t inv : threadsOverLimits(*m_analysis, limits))
                m_overLimit->insert(inv);
    }
    return *m_overLimit;
}

const std::set<uint64_t>& TraceCache::inFindings() {
    if (!m_inFindings)
        m_inFindings = m_analysis ? threadsInFindings(*m_analysis) : std::set<uint64_t>{};
    return *m_inFindings;
}

} // namespace vkp::views
