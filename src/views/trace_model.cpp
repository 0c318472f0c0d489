#include "views/trace_model.h"

#include <algorithm>
#include <set>

#include "judge/request_model.h"

namespace vkp::views {

bool isAccess(const TraceEvent& e) {
    return e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Write ||
           e.kind == TraceEventKind::Atomic;
}
bool readsCell(const TraceEvent& e) {
    return e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Atomic;
}
bool writesCell(const TraceEvent& e) {
    return e.kind == TraceEventKind::Write || e.kind == TraceEventKind::Atomic;
}

std::optional<CellRef> cellOfEvent(const Trace& trace, uint64_t invocation, const TraceEvent& e) {
    if (!isAccess(e) || e.variable >= trace.variables.size()) return std::nullopt;
    const TraceVariableInfo& v = trace.variables[e.variable];
    if (v.decl.shared) {
        uint32_t per = std::max(1u, trace.launch.invocationsPerGroup());
        return CellRef::sharedCell(e.variable, invocation / per, e.index);
    }
    if (v.puzzleBuffer < 0) return std::nullopt;
    return CellRef::buffer(static_cast<uint32_t>(v.puzzleBuffer), e.index);
}

std::optional<uint32_t> variableOfBuffer(const Trace& trace, uint32_t buffer) {
    for (size_t v = 0; v < trace.variables.size(); ++v)
        if (trace.variables[v].puzzleBuffer == static_cast<int>(buffer))
            return static_cast<uint32_t>(v);
    return std::nullopt;
}

std::string cellText(const Trace* trace, const Puzzle& puzzle, const TestCase& tc,
                     const CellRef& c) {
    if (c.shared)
        return trace && c.array < trace->variables.size()
                   ? traceCellName(*trace, static_cast<uint32_t>(c.array),
                                   static_cast<uint32_t>(c.index))
                   : "?[" + std::to_string(c.index) + "]";
    if (c.array >= puzzle.buffers.size()) return "?[" + std::to_string(c.index) + "]";
    const BufferDecl& b = puzzle.buffers[c.array];
    if (c.array < tc.data.size() && tc.data[c.array])
        return cellName(b, tc.data[c.array]->shape, c.index);
    return b.name + "[" + std::to_string(c.index) + "]";
}

ThreadFootprint threadFootprint(const Trace& trace, uint64_t inv) {
    ThreadFootprint f;
    f.invocation = inv;
    if (inv >= trace.threads.size()) return f;
    const auto& events = trace.threads[inv];
    std::set<uint32_t> lines;
    struct Pending {
        CellRef cell;
        uint32_t value;
    };
    std::vector<Pending> pending; // reads not yet used by a write
    uint32_t order = 0;
    for (uint32_t k = 0; k < events.size(); ++k) {
        const TraceEvent& e = events[k];
        if (e.line > 0) lines.insert(e.line);
        AccessEntry a{isAccess(e) ? ++order : 0, k, cellOfEvent(trace, inv, e)};
        f.accesses.push_back(a);
        if (!a.cell) continue;
        CellMark& m = f.cells[*a.cell];
        m.read = m.read || readsCell(e);
        m.written = m.written || writesCell(e);
        m.orders.push_back(a.order);
        if (!a.cell->shared && !continuesVector(e)) { // a vec4 moved whole: one request
            f.globalReads += readsCell(e);
            f.globalWrites += writesCell(e);
        }
        if (e.kind == TraceEventKind::Read) {
            pending.push_back({*a.cell, e.value});
            continue;
        }
        Flow flow{*a.cell, {}, k};
        auto copy = std::find_if(pending.rbegin(), pending.rend(),
                                 [&](const Pending& p) { return p.value == e.value; });
        if (e.kind == TraceEventKind::Write && copy != pending.rend()) {
            flow.from.push_back(copy->cell);
            pending.erase(std::next(copy).base());
        } else {
            for (const Pending& p : pending)
                if (std::find(flow.from.begin(), flow.from.end(), p.cell) == flow.from.end())
                    flow.from.push_back(p.cell);
            pending.clear();
        }
        f.flows.push_back(std::move(flow));
    }
    f.lines.assign(lines.begin(), lines.end());
    return f;
}

std::vector<Arrow> arrowsFor(const ThreadFootprint& fp, size_t maxArrows) {
    std::vector<Arrow> out;
    size_t pairs = 0;
    for (const Flow& fl : fp.flows)
        pairs += fl.from.size();
    for (const Flow& fl : fp.flows) {
        if (pairs <= maxArrows) {
            for (const CellRef& r : fl.from)
                if (!(r == fl.to)) out.push_back({r, fl.to, 1});
            continue;
        }
        // Aggregate per source array (buffer or shared array of one workgroup).
        std::map<std::tuple<bool, uint32_t, uint64_t>, std::vector<CellRef>> groups;
        for (const CellRef& r : fl.from)
            if (!(r == fl.to)) groups[{r.shared, r.array, r.workgroup}].push_back(r);
        for (auto& [key, cells] : groups) {
            std::sort(cells.begin(), cells.end());
            out.push_back({cells[cells.size() / 2], fl.to, static_cast<uint32_t>(cells.size())});
        }
    }
    // Many writes fed alike (a loop storing a tile) still make many arrows: keep the first ones.
    if (out.size() > maxArrows) out.resize(maxArrows);
    return out;
}

const std::vector<CellTouch>& CellIndex::history(const CellRef& cell) const {
    auto it = m_cells.find(cell);
    if (it != m_cells.end()) return it->second;
    if (m_cells.size() > 4096) m_cells.clear(); // a bound for long hovering sessions
    std::vector<CellTouch> touches;
    uint32_t per = std::max(1u, m_trace.launch.invocationsPerGroup());
    uint64_t first = cell.shared ? cell.workgroup * per : 0;
    uint64_t end = cell.shared ? std::min<uint64_t>(first + per, m_trace.threads.size())
                               : m_trace.threads.size();
    std::optional<uint32_t> variable =
        cell.shared ? std::optional<uint32_t>(cell.array) : variableOfBuffer(m_trace, cell.array);
    if (variable)
        for (uint64_t inv = first; inv < end; ++inv) {
            const auto& events = m_trace.threads[inv];
            for (uint32_t k = 0; k < events.size(); ++k) {
                const TraceEvent& e = events[k];
                if (e.variable == *variable && e.index == cell.index && isAccess(e))
                    touches.push_back({inv, k, e.kind, e.line, e.value, e.round});
            }
        }
    // Invocations and events were visited in order: a stable sort by round keeps the rest.
    std::stable_sort(touches.begin(), touches.end(),
                     [](const CellTouch& a, const CellTouch& b) { return a.round < b.round; });
    return m_cells.emplace(cell, std::move(touches)).first->second;
}

std::vector<uint64_t> CellIndex::threads(const CellRef& cell) const {
    std::vector<uint64_t> out;
    for (const CellTouch& t : history(cell))
        if (std::find(out.begin(), out.end(), t.invocation) == out.end())
            out.push_back(t.invocation);
    return out;
}

TrafficStatus trafficOf(const TraceAnalysis& a, const Limits& limits, uint64_t inv) {
    TrafficStatus s;
    s.readLimit = limits.globalReads;
    s.writeLimit = limits.globalWrites;
    if (inv < a.traffic.size())
        s.reads = a.traffic[inv].globalReads, s.writes = a.traffic[inv].globalWrites;
    return s;
}

std::vector<uint64_t> threadsOverLimits(const TraceAnalysis& a, const Limits& limits) {
    std::vector<uint64_t> out;
    for (uint64_t inv = 0; inv < a.traffic.size(); ++inv)
        if (trafficOf(a, limits, inv).over()) out.push_back(inv);
    return out;
}

FindingTarget findingTarget(const Trace& trace, const Finding& f) {
    FindingTarget t;
    t.line = static_cast<int>(f.line);
    t.threads = f.threads;
    t.round = f.round;
    uint32_t per = std::max(1u, trace.launch.invocationsPerGroup());
    if (!f.threads.empty()) t.workgroup = f.threads.front() / per;
    if (f.variable >= 0 && static_cast<size_t>(f.variable) < trace.variables.size()) {
        const TraceVariableInfo& v = trace.variables[f.variable];
        if (v.decl.shared)
            t.cell = CellRef::sharedCell(static_cast<uint32_t>(f.variable), t.workgroup, f.index);
        else if (v.puzzleBuffer >= 0)
            t.cell = CellRef::buffer(static_cast<uint32_t>(v.puzzleBuffer), f.index);
    }
    return t;
}

} // namespace vkp::views
