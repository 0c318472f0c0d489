#include "views/trace_view.h"

#include <map>

namespace vkp::views {

uint64_t invocationIndex(const TestCase& c, const Uvec3& g) {
    return vkp::invocationIndex(TraceLaunch{c.workgroupSize, c.workgroups}, g);
}

Uvec3 globalIdOf(const TestCase& c, uint64_t invocation) {
    TraceLaunch launch{c.workgroupSize, c.workgroups};
    return invocationIds(launch, invocation).global;
}

std::vector<CellAccess> cellsAccessed(const Trace& trace, uint64_t invocation) {
    std::vector<CellAccess> out;
    if (invocation >= trace.threads.size()) return out;
    std::map<std::pair<int, uint32_t>, size_t> seen;
    for (const TraceEvent& e : trace.threads[invocation]) {
        if (e.kind == TraceEventKind::Barrier || e.kind == TraceEventKind::LoopBudget ||
            e.variable >= trace.variables.size())
            continue;
        int buffer = trace.variables[e.variable].puzzleBuffer;
        if (buffer < 0) continue; // shared memory
        auto key = std::make_pair(buffer, e.index);
        auto it = seen.find(key);
        if (it == seen.end()) {
            it = seen.emplace(key, out.size()).first;
            out.push_back({buffer, e.index, false, false});
        }
        CellAccess& a = out[it->second];
        a.read = a.read || e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Atomic;
        a.written =
            a.written || e.kind == TraceEventKind::Write || e.kind == TraceEventKind::Atomic;
    }
    return out;
}

std::vector<std::pair<uint64_t, CellAccess>> threadsAccessing(const Trace& trace, int buffer,
                                                              uint32_t index) {
    std::vector<std::pair<uint64_t, CellAccess>> out;
    for (uint64_t t = 0; t < trace.threads.size(); ++t) {
        CellAccess a{buffer, index, false, false};
        for (const TraceEvent& e : trace.threads[t]) {
            if (e.variable >= trace.variables.size() ||
                trace.variables[e.variable].puzzleBuffer != buffer || e.index != index)
                continue;
            a.read = a.read || e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Atomic;
            a.written =
                a.written || e.kind == TraceEventKind::Write || e.kind == TraceEventKind::Atomic;
        }
        if (a.read || a.written) out.push_back({t, a});
    }
    return out;
}

std::string wordText(const Trace& trace, uint32_t variable, uint32_t word) {
    std::optional<ElementKind> type = variable < trace.variables.size()
                                          ? trace.variables[variable].decl.elementType
                                          : std::nullopt;
    BufferData one{type.value_or(ElementKind::Uint), Shape{{1}}, {word}};
    return one.format(0);
}

std::string eventText(const Trace& trace, const TraceEvent& e, std::optional<uint64_t> invocation) {
    std::string line = "line " + std::to_string(e.line) + "  ";
    if (e.kind == TraceEventKind::Barrier) return line + "barrier()";
    if (e.kind == TraceEventKind::Shuffle)
        return line + "lanes  " + shuffleText(trace, e, invocation);
    if (e.kind == TraceEventKind::LoopBudget) return line + "ran out of loop iterations";
    std::string cell =
        e.variable < trace.variables.size() ? traceCellName(trace, e.variable, e.index) : "?";
    std::string value = wordText(trace, e.variable, e.value);
    switch (e.kind) {
    case TraceEventKind::Read:
        return line + "read   " + cell + " = " + value;
    case TraceEventKind::Write:
        return line + "write  " + cell + " = " + value;
    case TraceEventKind::Atomic:
        return line + "atomic " + cell + " (was " + value + ")";
    default:
        return line + traceEventKindName(e.kind);
    }
}

std::set<uint64_t> threadsInFindings(const TraceAnalysis& analysis) {
    std::set<uint64_t> out;
    for (const Finding& f : analysis.findings)
        if (f.failsCase) out.insert(f.threads.begin(), f.threads.end());
    return out;
}

} // namespace vkp::views
