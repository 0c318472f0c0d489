#include "core/trace.h"

#include <algorithm>

namespace vkp {

const char* traceEventKindName(TraceEventKind kind) {
    switch (kind) {
    case TraceEventKind::Read: return "read";
    case TraceEventKind::Write: return "write";
    case TraceEventKind::Atomic: return "atomic";
    case TraceEventKind::Barrier: return "barrier";
    case TraceEventKind::LoopBudget: return "loop budget";
    case TraceEventKind::SubgroupBarrier: return "subgroup barrier";
    }
    return "?";
}

uint64_t SizeExpr::evaluate(const std::map<uint32_t, uint32_t>& constants) const {
    switch (kind) {
    case Kind::Literal: return value;
    case Kind::Spec: {
        auto it = constants.find(specId);
        return it == constants.end() ? value : it->second;
    }
    default: break;
    }
    if (operands.size() != 2) return 0;
    uint64_t a = operands[0].evaluate(constants), b = operands[1].evaluate(constants);
    switch (kind) {
    case Kind::Add: return a + b;
    case Kind::Sub: return a >= b ? a - b : 0;
    case Kind::Mul: return a * b;
    case Kind::Div: return b ? a / b : 0;
    default: return 0;
    }
}

InvocationIds invocationIds(const TraceLaunch& l, uint64_t invocation) {
    InvocationIds ids;
    uint32_t per = l.invocationsPerGroup();
    ids.groupIndex = static_cast<uint32_t>(invocation / per);
    ids.localIndex = static_cast<uint32_t>(invocation % per);
    ids.local = {ids.localIndex % l.workgroupSize[0], (ids.localIndex / l.workgroupSize[0]) % l.workgroupSize[1],
                 ids.localIndex / (l.workgroupSize[0] * l.workgroupSize[1])};
    ids.group = {ids.groupIndex % l.workgroups[0], (ids.groupIndex / l.workgroups[0]) % l.workgroups[1],
                 ids.groupIndex / (l.workgroups[0] * l.workgroups[1])};
    for (int d = 0; d < 3; ++d) ids.global[d] = ids.group[d] * l.workgroupSize[d] + ids.local[d];
    return ids;
}

namespace {
std::string idText(const std::array<uint32_t, 3>& v, const std::array<uint32_t, 3>& extent) {
    if (extent[2] > 1) return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ")";
    if (extent[1] > 1) return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ")";
    return std::to_string(v[0]);
}
} // namespace

std::string invocationName(const TraceLaunch& l, uint64_t invocation) {
    InvocationIds ids = invocationIds(l, invocation);
    std::array<uint32_t, 3> total{};
    for (int d = 0; d < 3; ++d) total[d] = l.workgroupSize[d] * l.workgroups[d];
    std::string s = "thread " + idText(ids.global, total);
    if (l.workgroups[0] * l.workgroups[1] * l.workgroups[2] > 1)
        s += " (local " + idText(ids.local, l.workgroupSize) + " of workgroup " + idText(ids.group, l.workgroups) + ")";
    return s;
}

uint64_t Trace::eventCount() const {
    uint64_t n = 0;
    for (const auto& t : threads) n += t.size();
    return n;
}

std::vector<uint32_t> makeTraceBuffer(const TraceLaunch& launch, uint32_t slots, uint32_t loopBudget,
                                      uint64_t* totalWords) {
    uint64_t n = launch.invocations();
    uint64_t statusAt = kTraceHeaderWords + n;
    uint64_t recordsAt = statusAt + n;
    *totalWords = recordsAt + n * slots * kTraceRecordWords;
    std::vector<uint32_t> words(recordsAt, 0u);
    words[1] = slots;
    words[2] = launch.invocationsPerGroup();
    words[3] = launch.workgroups[0];
    words[4] = launch.workgroups[1];
    words[5] = static_cast<uint32_t>(recordsAt);
    words[6] = loopBudget;
    words[7] = static_cast<uint32_t>(statusAt);
    return words;
}

std::vector<uint32_t> makeLoopGuardBuffer(uint32_t loopBudget) {
    std::vector<uint32_t> words(kLoopGuardWords, 0u);
    words[0] = loopBudget;
    return words;
}

std::vector<uint32_t> packTraceBuffer(std::span<const uint32_t> device) {
    if (device.size() < kTraceHeaderWords) return {device.begin(), device.end()};
    uint64_t n = uint64_t(device[2]) * device[3] * device[4];
    uint64_t slots = device[1], recordsAt = device[5];
    // The counts and status words end where the records begin; a header that says otherwise is
    // passed on short for decodeTrace to reject.
    if (recordsAt != kTraceHeaderWords + 2 * n || recordsAt > device.size()) return {device.begin(), device.begin() + kTraceHeaderWords};
    uint64_t used = 0;
    for (uint64_t inv = 0; inv < n; ++inv) used += std::min<uint64_t>(device[kTraceHeaderWords + inv], slots);
    std::vector<uint32_t> out;
    out.reserve(std::min<uint64_t>(recordsAt + used * kTraceRecordWords, device.size()));
    out.assign(device.begin(), device.begin() + recordsAt);
    uint64_t stride = slots * kTraceRecordWords, room = device.size() - recordsAt;
    for (uint64_t inv = 0; inv < n; ++inv) {
        uint64_t words = std::min<uint64_t>(device[kTraceHeaderWords + inv], slots) * kTraceRecordWords;
        if (stride != 0 && inv > room / stride) break; // decodeTrace reports the missing records
        uint64_t from = recordsAt + inv * stride;
        if (from + words > device.size()) break;
        out.insert(out.end(), device.begin() + from, device.begin() + from + words);
    }
    return out;
}

Result<Trace> decodeTrace(std::span<const uint32_t> words, const TraceLaunch& launch,
                          std::vector<TraceVariableInfo> variables) {
    uint64_t n = launch.invocations();
    if (words.size() < kTraceHeaderWords + 2 * n || words[7] + n > words.size())
        return Error{ErrorKind::Internal, "trace buffer too small"};
    Trace t;
    t.launch = launch;
    t.variables = std::move(variables);
    t.slotsPerInvocation = words[1];
    uint64_t base = words[5]; // the records, packed: each invocation's follow the previous one's
    t.threads.resize(n);
    for (uint64_t inv = 0; inv < n; ++inv) {
        // Counts go on past the slots: what a thread made beyond them was dropped.
        uint32_t wanted = words[kTraceHeaderWords + inv], count = std::min(wanted, t.slotsPerInvocation);
        t.mostRecordsWanted = std::max(t.mostRecordsWanted, wanted);
        t.dropped += wanted - count;
        if (base + uint64_t(count) * kTraceRecordWords > words.size()) return Error{ErrorKind::Internal, "trace records out of range"};
        const uint32_t* records = words.data() + base;
        base += uint64_t(count) * kTraceRecordWords;
        auto& events = t.threads[inv];
        events.reserve(count);
        uint32_t round = 0;
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t* r = records + uint64_t(k) * kTraceRecordWords;
            TraceEvent e;
            e.kind = static_cast<TraceEventKind>(r[0] >> 28);
            e.variable = (r[0] >> kTraceLineBits) & 0xff;
            e.line = r[0] & ((1u << kTraceLineBits) - 1);
            e.index = r[1];
            e.value = r[2];
            e.extra = r[3];
            e.round = round;
            if (e.kind == TraceEventKind::Barrier) ++round;
            events.push_back(e);
        }
        // The loop budget ran out but its record did not fit: the status word still says so.
        uint32_t status = words[words[7] + inv];
        bool recorded = std::any_of(events.begin(), events.end(), [](const TraceEvent& e) { return e.kind == TraceEventKind::LoopBudget; });
        if ((status & kTraceBudgetFlag) && !recorded) {
            TraceEvent e;
            e.kind = TraceEventKind::LoopBudget;
            e.line = status & ~kTraceBudgetFlag;
            e.value = words[6];
            e.round = round;
            events.push_back(e);
        }
    }
    return t;
}

} // namespace vkp
