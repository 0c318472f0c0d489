#include "views/timeline.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "views/trace_view.h"

namespace vkp::views {
Timeline::Timeline(const Trace& trace, uint64_t workgroup, const std::vector<BufferData>& initial,
                   std::map<uint32_t, AtomicOpKind> atomics)
    : m_trace(trace), m_workgroup(workgroup), m_atomics(std::move(atomics)) {
    m_initial.values.resize(trace.variables.size());
    m_initial.written.resize(trace.variables.size());
    for (size_t v = 0; v < trace.variables.size(); ++v) {
        const TraceVariableInfo& info = trace.variables[v];
        int b = info.puzzleBuffer;
        if (!info.decl.shared && b >= 0 && static_cast<size_t>(b) < initial.size())
            m_initial.values[v] = initial[b].words;
        else
            m_initial.values[v].assign(info.length, 0);
        m_initial.written[v].assign(m_initial.values[v].size(), 0);
    }
    m_state = m_initial;
    uint32_t per = std::max(1u, trace.launch.invocationsPerGroup());
    uint64_t first = workgroup * per, end = std::min<uint64_t>(first + per, trace.threads.size());
    std::vector<size_t> cursor(end > first ? end - first : 0, 0);
    for (uint32_t round = 0;; ++round) {
        bool any = false;
        for (uint64_t inv = first; inv < end; ++inv) {
            const auto& events = trace.threads[inv];
            size_t& c = cursor[inv - first];
            for (; c < events.size() && events[c].round == round; ++c) {
                any = true;
                if (isAccess(events[c]))
                    m_accesses.push_back({inv, static_cast<uint32_t>(c), round});
            }
        }
        if (!any) break;
        m_roundEnd.push_back(m_accesses.size());
    }
    // Rounds in which only barriers happened end where the one before did; keep them (they exist).
}

std::optional<TimelineAccess> Timeline::current() const {
    if (m_pos == 0) return std::nullopt;
    return m_accesses[m_pos - 1];
}

uint32_t Timeline::round() const {
    if (m_pos == 0) return 0;
    return m_accesses[m_pos - 1].round;
}

size_t Timeline::roundStart(uint32_t r) const {
    if (r == 0 || m_roundEnd.empty()) return 0;
    return m_roundEnd[std::min<size_t>(r, m_roundEnd.size()) - 1];
}

size_t Timeline::roundEnd(uint32_t r) const {
    if (m_roundEnd.empty()) return 0;
    return m_roundEnd[std::min<size_t>(r, m_roundEnd.size() - 1)];
}

bool Timeline::atRoundEnd() const {
    return m_pos == 0 || std::find(m_roundEnd.begin(), m_roundEnd.end(), m_pos) != m_roundEnd.end();
}

void Timeline::nextRound() {
    for (size_t e : m_roundEnd)
        if (e > m_pos) return seekRounds(e);
    seekRounds(size());
}

void Timeline::prevRound() {
    size_t target = 0;
    for (size_t e : m_roundEnd)
        if (e < m_pos) target = e;
    seekRounds(target);
}

void Timeline::seekRounds(size_t pos) {
    seek(pos);
    m_changed.clear();
    m_changedSet.clear();
    if (m_pos == 0) return;
    uint32_t r = m_accesses[m_pos - 1].round;
    markWrites(roundStart(r), m_pos);
}

void Timeline::markWrites(size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) {
        const TimelineAccess& st = m_accesses[i];
        const TraceEvent& e = m_trace.threads[st.invocation][st.event];
        if (!writesCell(e)) continue;
        if (auto c = cellOfEvent(m_trace, st.invocation, e); c && m_changedSet.insert(*c).second)
            m_changed.push_back(*c);
    }
}

std::optional<size_t> Timeline::positionAfter(uint64_t invocation, uint32_t event) const {
    for (size_t i = 0; i < m_accesses.size(); ++i)
        if (m_accesses[i].invocation == invocation && m_accesses[i].event >= event) return i + 1;
    return std::nullopt;
}

void Timeline::applyAccess(size_t i, MemoryState& s) const {
    const TimelineAccess& st = m_accesses[i];
    const TraceEvent& e = m_trace.threads[st.invocation][st.event];
    if (!writesCell(e) || e.variable >= s.values.size() || e.index >= s.values[e.variable].size())
        return;
    s.values[e.variable][e.index] = valueWritten(m_trace, e, m_atomics);
    s.written[e.variable][e.index] = 1;
}

void Timeline::replayTo(size_t pos) {
    if (pos < m_pos) {
        m_state = m_initial;
        m_pos = 0;
    }
    for (; m_pos < pos; ++m_pos)
        applyAccess(m_pos, m_state);
}

void Timeline::seek(size_t pos) {
    pos = std::min(pos, size());
    size_t from = m_pos;
    m_changed.clear();
    m_changedSet.clear();
    replayTo(pos);
    // The cells the steps between the two positions wrote (or, going back, put back).
    markWrites(std::min(from, pos), std::max(from, pos));
}

std::string positionText(const Timeline& tl) {
    if (tl.rounds() == 0) return "no accesses in this workgroup";
    std::string round = "round " + std::to_string(tl.round()) + " (0\xE2\x80\x93" +
                        std::to_string(tl.rounds() - 1) + ")";
    if (tl.position() == 0) round = "start";
    if (tl.position() == tl.size())
        round = "end (after round " + std::to_string(tl.rounds() - 1) + ")";
    return round + " \xC2\xB7 access " + std::to_string(tl.position()) + " of " +
           std::to_string(tl.size());
}

std::optional<TimelineStep> timelineStep(const Timeline& tl, const Trace& trace,
                                         const TestCase& launch) {
    std::optional<TimelineAccess> st = tl.current();
    if (!st) return std::nullopt;
    const TraceEvent& e = trace.threads[st->invocation][st->event];
    TimelineStep step;
    step.thread = globalIdOf(launch, st->invocation);
    step.text =
        "thread " + idText(launch, step.thread) + "  " + eventText(trace, e, st->invocation);
    step.read = e.kind == TraceEventKind::Read;
    step.line = e.line;
    step.cell = cellOfEvent(trace, st->invocation, e);
    return step;
}

std::string timelineStartText(bool laterDispatch) {
    return laterDispatch ? "Start: every buffer holds what it held before this dispatch; shared "
                           "memory is not written yet (\xC2\xB7)."
                         : "Start: every buffer holds its initial data; shared memory is not "
                           "written yet (\xC2\xB7).";
}

std::string dispatchStartText(size_t dispatch, const std::string& label) {
    if (dispatch == 0) return "";
    std::string before = dispatch == 1   ? std::string("dispatch 1")
                         : dispatch == 2 ? std::string("dispatches 1 and 2")
                                         : "dispatches 1 to " + std::to_string(dispatch);
    return "Dispatch " + std::to_string(dispatch + 1) + " (" + label + ") starts from what " +
           before + " wrote (replayed from " + (dispatch == 1 ? "its trace)." : "their traces).");
}

std::vector<Arrow> stepArrows(const Timeline& tl, const Trace& trace) {
    std::vector<Arrow> arrows;
    std::optional<TimelineAccess> st = tl.current();
    if (!st || !writesCell(trace.threads[st->invocation][st->event])) return arrows;
    ThreadFootprint fp = threadFootprint(trace, st->invocation);
    for (const Flow& f : fp.flows)
        if (f.event == st->event)
            for (const CellRef& from : f.from)
                if (!(from == f.to)) arrows.push_back({from, f.to, 1});
    return arrows;
}

std::vector<ReplayedBuffer> replayedBuffers(const Puzzle& p, const Trace& trace, const Timeline& tl,
                                            const std::vector<BufferData>& start,
                                            const std::vector<size_t>* kernelBuffers,
                                            const std::vector<size_t>* bufferAt) {
    std::vector<size_t> shown;
    for (size_t b = 0; b < p.buffers.size(); ++b)
        shown.push_back(b);
    if (kernelBuffers) shown = *kernelBuffers;
    std::vector<ReplayedBuffer> out;
    for (int pass = 0; pass < 2; ++pass)
        for (size_t b : shown) {
            if (b >= start.size() || (p.buffers[b].role == RoleKind::Output) != (pass == 0))
                continue;
            ReplayedBuffer r{b, start[b], ""};
            if (auto v = variableOfBuffer(trace, static_cast<uint32_t>(b));
                v && tl.state().values[*v].size() == r.now.words.size())
                r.now.words = tl.state().values[*v];
            if (bufferAt && (*bufferAt)[b] != b) r.startedAs = p.buffers[(*bufferAt)[b]].name;
            out.push_back(std::move(r));
        }
    return out;
}

} // namespace vkp::views
