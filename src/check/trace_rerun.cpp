#include "check/trace_rerun.h"

#include <algorithm>
#include <map>

#include "check/case_limits.h"

namespace vkp {
namespace {

// The explanation that replaces the "records did not fit" warning of dispatch `j` of a case judged
// inconclusive; `where` names the dispatch of a multi-pass case ("" for a single dispatch).
std::string incompleteText(size_t index, const TraceRoom& room, size_t j,
                           const std::string& where) {
    return "the trace of case " + std::to_string(index + 1) + where + " did not fit (" +
           std::to_string(room.wanted[j]) + " records per thread needed, " +
           std::to_string(room.possible[j]) + " possible): what a thread did after its first " +
           std::to_string(room.kept[j]) +
           " records (races, out-of-bounds accesses, read and write limits) could not be checked. "
           "Every access to a buffer or shared array and every barrier is a record: "
           "make fewer per thread (keep a running value in a local variable rather than re-reading "
           "memory in a loop), "
           "or check without the trace (--no-trace), which compares the outputs only";
}

// The case's analysis with its overflow warning replaced by `text`, failing the case or not.
std::shared_ptr<const TraceAnalysis> rejudged(const TraceAnalysis& a, const std::string& text,
                                              bool fails) {
    auto out = std::make_shared<TraceAnalysis>(a);
    for (Finding& f : out->findings)
        if (f.kind == FindingKind::TraceOverflow) {
            f.message = text;
            f.failsCase = fails;
        }
    return out;
}

} // namespace

bool TraceRoom::fits() const {
    for (size_t j = 0; j < wanted.size(); ++j)
        if (wanted[j] > possible[j]) return false;
    return !wanted.empty();
}

std::vector<uint32_t> rerunSlots(const CaseOutcome& c, const TraceRoom& room,
                                 const std::vector<uint32_t>& given) {
    auto kernelOf = [&](size_t j) { return j < c.dispatches.size() ? c.dispatches[j].kernel : 0; };
    std::map<size_t, uint64_t> overflowed; // kernel -> the room its dispatches get
    for (size_t j = 0; j < room.wanted.size(); ++j)
        if (room.wanted[j] > room.kept[j]) {
            // Short again in a re-run: its polls grew past half as much again (a loaded
            // machine keeps a waited-for workgroup from running longer), so twice.
            bool again = j < given.size() && given[j] > 0;
            uint64_t want =
                uint64_t(room.wanted[j]) + (again ? room.wanted[j] : room.wanted[j] / 2);
            overflowed[kernelOf(j)] = std::max(overflowed[kernelOf(j)], want);
        }
    std::vector<uint32_t> slots(room.wanted.size());
    for (size_t j = 0; j < slots.size(); ++j) {
        uint64_t want = std::max(room.wanted[j], room.kept[j]);
        if (auto k = overflowed.find(kernelOf(j)); k != overflowed.end())
            want = std::max(want, k->second);
        if (j < given.size()) want = std::max<uint64_t>(want, given[j]);
        slots[j] = static_cast<uint32_t>(std::min<uint64_t>(want, room.possible[j]));
    }
    return slots;
}

uint32_t rememberedSlots(const TraceRoomMemory& memory, size_t index, size_t dispatch,
                         uint64_t invocations, size_t dispatches) {
    auto known = memory.cases.find(index);
    if (known == memory.cases.end()) return 0;
    const TraceRoomMemory::Room& room = known->second;
    if (room.slots.size() != dispatches || room.invocations[dispatch] != invocations) return 0;
    return room.slots[dispatch];
}

void rememberRoom(TraceRoomMemory& memory, const CaseOutcome& c, uint64_t traceRecords,
                  uint64_t maxTraceBytes) {
    std::vector<const Trace*> traces = caseTraces(c);
    auto old = memory.cases.find(c.index);
    bool sameLaunch = old != memory.cases.end();
    TraceRoomMemory::Room room;
    bool needed = false;
    uint64_t bytes = 0;
    for (size_t j = 0; j < traces.size(); ++j) {
        uint64_t n = traces[j]->launch.invocations();
        needed = needed ||
                 traces[j]->mostRecordsWanted > defaultTraceSlots(traceRecords, n, traces.size());
        room.invocations.push_back(n);
        room.slots.push_back(traces[j]->slotsPerInvocation);
    }
    sameLaunch = sameLaunch && old->second.invocations == room.invocations;
    for (size_t j = 0; j < traces.size(); ++j) {
        if (sameLaunch) room.slots[j] = std::max(room.slots[j], old->second.slots[j]);
        bytes += traceBufferWords(traces[j]->launch, room.slots[j]) * 4;
    }
    if (needed && !c.error && !stoppedByLoopBudget(c) && bytes <= maxTraceBytes)
        memory.cases[c.index] = std::move(room);
    else
        memory.cases.erase(c.index);
}

std::vector<const Trace*> caseTraces(const CaseOutcome& c) {
    std::vector<const Trace*> out;
    for (const DispatchTrace& dispatch : c.dispatches)
        out.push_back(dispatch.trace.get());
    if (out.empty() && c.trace) out.push_back(c.trace.get());
    return out;
}

std::vector<std::vector<size_t>>
traceParts(const CaseOutcome& c, const std::vector<uint32_t>& wanted, uint64_t maxBytes) {
    std::vector<const Trace*> traces = caseTraces(c);
    std::vector<std::vector<size_t>> parts(1);
    uint64_t used = 0;
    for (size_t j = 0; j < traces.size(); ++j) {
        uint64_t bytes = traceBufferWords(traces[j]->launch, wanted[j]) * 4;
        if (!parts.back().empty() && used + bytes > maxBytes) {
            parts.emplace_back();
            used = 0;
        }
        parts.back().push_back(j);
        used += bytes;
    }
    return parts;
}

void settleFromDispatches(CaseOutcome& c) {
    c.trace.reset();
    c.analysis.reset();
    bool failing = false;
    for (const DispatchTrace& dispatch : c.dispatches) {
        bool fails = dispatch.analysis->failsCase();
        if (!c.trace || (!c.analysis->failsCase() && fails)) {
            c.trace = dispatch.trace;
            c.analysis = dispatch.analysis;
        }
        failing = failing || fails;
    }
    c.pass = c.outputsMatch && c.runFindings.empty() && !failing;
}

bool stoppedByLoopBudget(const CaseOutcome& c) {
    auto stopped = [](const std::shared_ptr<const TraceAnalysis>& a) {
        return a && std::any_of(a->findings.begin(), a->findings.end(),
                                [](const Finding& f) { return f.kind == FindingKind::LoopBudget; });
    };
    return stopped(c.analysis) ||
           std::any_of(c.dispatches.begin(), c.dispatches.end(),
                       [&](const DispatchTrace& dispatch) { return stopped(dispatch.analysis); });
}

void judgeIncomplete(CaseOutcome& c, const TraceRoom& room) {
    bool inconclusive = c.pass;
    // Only the dispatches whose trace could not fit say so; the others' findings stand.
    for (size_t j = 0; j < c.dispatches.size() && j < room.wanted.size(); ++j) {
        DispatchTrace& dispatch = c.dispatches[j];
        if (room.wanted[j] <= room.possible[j]) continue;
        bool shown = dispatch.analysis == c.analysis;
        dispatch.analysis =
            rejudged(*dispatch.analysis, incompleteText(c.index, room, j, " in " + dispatch.label),
                     inconclusive);
        if (shown) c.analysis = dispatch.analysis;
    }
    // The case shows the first dispatch that fails it (now perhaps one that did not fit).
    for (const DispatchTrace& dispatch : c.dispatches)
        if (dispatch.analysis->failsCase()) {
            c.trace = dispatch.trace;
            c.analysis = dispatch.analysis;
            break;
        }
    if (c.dispatches.empty() && c.analysis)
        c.analysis = rejudged(*c.analysis, incompleteText(c.index, room, 0, ""), inconclusive);
    c.pass = false;
    c.inconclusive = inconclusive;
}

} // namespace vkp
