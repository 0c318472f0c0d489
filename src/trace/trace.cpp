#include "trace/trace.h"

#include <algorithm>

namespace vkp {

const char* traceEventKindName(TraceEventKind kind) {
    switch (kind) {
    case TraceEventKind::Read:
        return "read";
    case TraceEventKind::Write:
        return "write";
    case TraceEventKind::Atomic:
        return "atomic";
    case TraceEventKind::Barrier:
        return "barrier";
    case TraceEventKind::LoopBudget:
        return "loop budget";
    case TraceEventKind::Printf:
        return "printf";
    case TraceEventKind::PrintfArgs:
        return "printf arguments";
    case TraceEventKind::SubgroupBarrier:
        return "subgroup barrier";
    case TraceEventKind::Shuffle:
        return "shuffle";
    case TraceEventKind::UndefinedUse:
        return "undefined use";
    case TraceEventKind::Repeat:
        return "repeat";
    }
    return "?";
}

const char* shuffleOpName(ShuffleOp op) {
    switch (op) {
    case ShuffleOp::Shuffle:
        return "shuffle";
    case ShuffleOp::Xor:
        return "xor";
    case ShuffleOp::Up:
        return "up";
    case ShuffleOp::Down:
        return "down";
    case ShuffleOp::Broadcast:
        return "broadcast";
    case ShuffleOp::BroadcastFirst:
        return "broadcast first";
    }
    return "?";
}

std::optional<int64_t> shuffleSourceLane(const Trace& t, uint64_t invocation, const TraceEvent& e) {
    uint32_t size = t.subgroupSize;
    if (e.kind != TraceEventKind::Shuffle || size == 0) return std::nullopt;
    uint64_t local = invocation % t.launch.invocationsPerGroup();
    int64_t lane = static_cast<int64_t>(local % size);
    switch (shuffleOpOf(e.extra)) {
    case ShuffleOp::Shuffle:
    case ShuffleOp::Broadcast:
    case ShuffleOp::BroadcastFirst: // the record's index is the first active lane
        return int64_t(e.index);
    case ShuffleOp::Xor:
        return lane ^ int64_t(e.index);
    case ShuffleOp::Up:
        return lane - int64_t(e.index);
    case ShuffleOp::Down:
        return lane + int64_t(e.index);
    }
    return std::nullopt;
}

std::optional<uint64_t> shuffleSource(const Trace& t, uint64_t invocation, const TraceEvent& e) {
    auto from = shuffleSourceLane(t, invocation, e);
    if (!from || shuffleSourceInactive(e.extra)) return std::nullopt;
    uint32_t size = t.subgroupSize, per = t.launch.invocationsPerGroup();
    uint64_t local = invocation % per, first = local - local % size;
    if (*from < 0 || *from >= size || first + *from >= per) return std::nullopt;
    return invocation - local + first + uint64_t(*from);
}

std::string shuffleText(const Trace& t, const TraceEvent& e, std::optional<uint64_t> invocation) {
    ShuffleOp op = shuffleOpOf(e.extra);
    std::string s = shuffleOpName(op);
    if (op != ShuffleOp::BroadcastFirst) s += " " + std::to_string(e.index);
    BufferData one{shuffleTypeOf(e.extra), Shape{{1}}, {e.value}};
    s += ": " + one.format(0);
    if (shuffleSourceInactive(e.extra)) {
        auto lane = invocation ? shuffleSourceLane(t, *invocation, e) : std::nullopt;
        return s + ", undefined: " +
               (lane ? "lane " + std::to_string(*lane) + " did not run it"
                     : std::string("the lane it names did not run it"));
    }
    std::optional<uint64_t> from;
    if (invocation) from = shuffleSource(t, *invocation, e);
    if (!from) return s + (op == ShuffleOp::BroadcastFirst ? ", from the first active lane" : "");
    uint32_t size = t.subgroupSize;
    return s + " from lane " + std::to_string(*from % t.launch.invocationsPerGroup() % size) +
           ", " + invocationName(t.launch, *from);
}

uint64_t SizeExpr::evaluate(const std::map<uint32_t, uint32_t>& constants) const {
    switch (kind) {
    case Kind::Literal:
        return value;
    case Kind::Spec: {
        auto it = constants.find(specId);
        return it == constants.end() ? value : it->second;
    }
    default:
        break;
    }
    if (operands.size() != 2) return 0;
    uint64_t a = operands[0].evaluate(constants), b = operands[1].evaluate(constants);
    switch (kind) {
    case Kind::Add:
        return a + b;
    case Kind::Sub:
        return a >= b ? a - b : 0;
    case Kind::Mul:
        return a * b;
    case Kind::Div:
        return b ? a / b : 0;
    case Kind::Mod:
        return b ? a % b : 0;
    case Kind::ShiftLeft: // spec constants are 32-bit: a shift by 32 or more leaves nothing
        return b < 32 ? (a << b) & 0xffffffffull : 0;
    case Kind::ShiftRight:
        return b < 32 ? a >> b : 0;
    case Kind::And:
        return a & b;
    case Kind::Or:
        return a | b;
    case Kind::Xor:
        return a ^ b;
    default:
        return 0;
    }
}

bool SizeExpr::known() const {
    return kind != Kind::Unknown && std::all_of(operands.begin(), operands.end(),
                                                [](const SizeExpr& o) { return o.known(); });
}

InvocationIds invocationIds(const TraceLaunch& l, uint64_t invocation) {
    InvocationIds ids;
    uint32_t per = l.invocationsPerGroup();
    ids.groupIndex = static_cast<uint32_t>(invocation / per);
    ids.localIndex = static_cast<uint32_t>(invocation % per);
    ids.local = {ids.localIndex % l.workgroupSize[0],
                 (ids.localIndex / l.workgroupSize[0]) % l.workgroupSize[1],
                 ids.localIndex / (l.workgroupSize[0] * l.workgroupSize[1])};
    ids.group = {ids.groupIndex % l.workgroups[0],
                 (ids.groupIndex / l.workgroups[0]) % l.workgroups[1],
                 ids.groupIndex / (l.workgroups[0] * l.workgroups[1])};
    for (int d = 0; d < 3; ++d)
        ids.global[d] = ids.group[d] * l.workgroupSize[d] + ids.local[d];
    return ids;
}

uint64_t invocationIndex(const TraceLaunch& l, const std::array<uint32_t, 3>& global) {
    const std::array<uint32_t, 3>& size = l.workgroupSize;
    const std::array<uint32_t, 3>& groups = l.workgroups;
    uint64_t group =
        global[0] / size[0] +
        uint64_t(groups[0]) * (global[1] / size[1] + uint64_t(groups[1]) * (global[2] / size[2]));
    uint64_t local =
        global[0] % size[0] +
        uint64_t(size[0]) * (global[1] % size[1] + uint64_t(size[1]) * (global[2] % size[2]));
    return group * (uint64_t(size[0]) * size[1] * size[2]) + local;
}

namespace {
std::string idText(const std::array<uint32_t, 3>& v, const std::array<uint32_t, 3>& extent) {
    if (extent[2] > 1)
        return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
               std::to_string(v[2]) + ")";
    if (extent[1] > 1) return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ")";
    return std::to_string(v[0]);
}
} // namespace

std::optional<GridShape> sharedGrid(const TraceVariableInfo& v, uint64_t scalars) {
    uint64_t width = std::max<uint32_t>(1, v.decl.elementWidth);
    std::optional<GridShape> g;
    if (v.dims.size() == 2)
        g = GridShape{v.dims[0], v.dims[1] * width};
    else if (v.dims.size() == 1 && width > 1)
        g = GridShape{v.dims[0], width};
    if (!g || g->rows == 0 || g->rows * g->cols != scalars) return std::nullopt;
    return g;
}

std::string workgroupName(const TraceLaunch& launch, uint64_t group) {
    const auto g = invocationIds(launch, group * launch.invocationsPerGroup()).group;
    std::string s = "workgroup ";
    if (launch.workgroups[1] == 1 && launch.workgroups[2] == 1) return s + std::to_string(g[0]);
    s += "(" + std::to_string(g[0]) + ", " + std::to_string(g[1]);
    if (launch.workgroups[2] > 1) s += ", " + std::to_string(g[2]);
    return s + ")";
}

std::string invocationName(const TraceLaunch& l, uint64_t invocation) {
    InvocationIds ids = invocationIds(l, invocation);
    std::array<uint32_t, 3> total{};
    for (int d = 0; d < 3; ++d)
        total[d] = l.workgroupSize[d] * l.workgroups[d];
    std::string s = "thread " + idText(ids.global, total);
    if (l.workgroups[0] * l.workgroups[1] * l.workgroups[2] > 1)
        s += " (local " + idText(ids.local, l.workgroupSize) + " of workgroup " +
             idText(ids.group, l.workgroups) + ")";
    return s;
}

uint64_t Trace::eventCount() const {
    uint64_t n = 0;
    for (const auto& t : threads)
        n += t.size();
    return n;
}

std::vector<uint32_t> makeTraceBuffer(const TraceLaunch& launch, uint32_t slots,
                                      uint32_t loopBudget, uint64_t* totalWords,
                                      std::span<const uint32_t> scheduleBlock) {
    uint64_t n = launch.invocations();
    uint64_t statusAt = kTraceHeaderWords + n;
    uint64_t scheduleAt = statusAt + n; // a forced schedule's block, between status and records
    uint64_t recordsAt = recordsStart(scheduleAt + scheduleBlock.size());
    *totalWords = recordsAt + n * slots * kTraceRecordWords;
    std::vector<uint32_t> words(recordsAt, 0u);
    if (!scheduleBlock.empty()) {
        words[0] = static_cast<uint32_t>(scheduleAt);
        std::copy(scheduleBlock.begin(), scheduleBlock.end(), words.begin() + scheduleAt);
    }
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
    // A forced schedule's block (word 0 says where) sits between the status words and the records.
    uint64_t fixed = kTraceHeaderWords + 2 * n;
    bool scheduleFits = device[0] == 0 || (device[0] == fixed && recordsAt > fixed &&
                                           recordsAt == recordsStart(recordsAt));
    if ((device[0] == 0 && recordsAt != recordsStart(fixed)) || !scheduleFits ||
        recordsAt > device.size())
        return {device.begin(), device.begin() + kTraceHeaderWords};
    uint64_t used = 0;
    for (uint64_t inv = 0; inv < n; ++inv)
        used += std::min<uint64_t>(device[kTraceHeaderWords + inv], slots);
    std::vector<uint32_t> out;
    out.reserve(std::min<uint64_t>(recordsAt + used * kTraceRecordWords, device.size()));
    out.assign(device.begin(), device.begin() + recordsAt);
    uint64_t stride = slots * kTraceRecordWords, room = device.size() - recordsAt;
    for (uint64_t inv = 0; inv < n; ++inv) {
        uint64_t words =
            std::min<uint64_t>(device[kTraceHeaderWords + inv], slots) * kTraceRecordWords;
        if (stride != 0 && inv > room / stride) break; // decodeTrace reports the missing records
        uint64_t from = recordsAt + inv * stride;
        if (from + words > device.size()) break;
        out.insert(out.end(), device.begin() + from, device.begin() + from + words);
    }
    return out;
}

namespace {

// Collects one thread's debugPrintfEXT records: a Printf record opens a line, PrintfArgs records
// carry the rest of its argument words. A PrintfArgs with no line open is ignored.
class PrintfCollector {
  public:
    PrintfCollector(Trace& t, const std::vector<uint32_t>& siteLines)
        : m_t(t), m_siteLines(siteLines) {}

    void take(uint64_t inv, const uint32_t* r, uint32_t eventsSoFar) {
        auto kind = static_cast<TraceEventKind>(r[0] >> 28);
        if (kind == TraceEventKind::Printf) {
            PrintfRecord p{inv,
                           r[1],
                           lineOfSite(m_siteLines, r[0] & ((1u << kTraceLineBits) - 1)),
                           eventsSoFar,
                           {}};
            m_missing = std::min((r[0] >> kTraceLineBits) & 0xff, kPrintfMaxArgWords);
            m_t.prints.push_back(std::move(p));
            m_open = true;
            add(r + 2, 2);
            return;
        }
        if (m_open && !m_t.prints.empty() && m_t.prints.back().invocation == inv) add(r + 1, 3);
    }
    void endThread() { m_open = false; }

  private:
    void add(const uint32_t* w, uint32_t n) {
        for (uint32_t k = 0; k < n && m_missing > 0; ++k, --m_missing)
            m_t.prints.back().args.push_back(w[k]);
        m_open = m_missing > 0;
    }
    Trace& m_t;
    const std::vector<uint32_t>& m_siteLines;
    uint32_t m_missing = 0;
    bool m_open = false;
};

// A Repeat record: the thread's last event `times` more times, up to as many events as its slots
// hold (a thread that polls for ever would otherwise take memory without bound).
void repeatLast(std::vector<TraceEvent>& events, uint32_t times, Trace& t) {
    if (events.empty()) return;
    uint64_t room = t.slotsPerInvocation > events.size() ? t.slotsPerInvocation - events.size() : 0;
    uint64_t kept = std::min<uint64_t>(times, room);
    t.foldedRepeats += times - kept;
    TraceEvent last = events.back();
    events.insert(events.end(), kept, last);
}

bool isPrintfRecord(uint32_t word0) {
    auto kind = static_cast<TraceEventKind>(word0 >> 28);
    return kind == TraceEventKind::Printf || kind == TraceEventKind::PrintfArgs;
}

} // namespace

uint32_t TraceLayout::site(uint32_t line) {
    auto it = std::find(siteLines.begin(), siteLines.end(), line);
    if (it != siteLines.end()) return static_cast<uint32_t>(it - siteLines.begin());
    siteLines.push_back(line);
    return static_cast<uint32_t>(siteLines.size() - 1);
}

Result<Trace> decodeTrace(std::span<const uint32_t> words, const TraceLaunch& launch,
                          std::vector<TraceVariableInfo> variables,
                          std::vector<std::string> printfFormats,
                          const std::vector<uint32_t>& siteLines) {
    uint64_t n = launch.invocations();
    if (words.size() < kTraceHeaderWords + 2 * n || words[7] + n > words.size())
        return Error{ErrorKind::Internal, "trace buffer too small"};
    Trace t;
    t.launch = launch;
    t.variables = std::move(variables);
    t.printfFormats = std::move(printfFormats);
    PrintfCollector prints(t, siteLines);
    t.slotsPerInvocation = words[1];
    uint64_t base = words[5]; // the records, packed: each invocation's follow the previous one's
    t.threads.resize(n);
    for (uint64_t inv = 0; inv < n; ++inv) {
        // Counts go on past the slots: what a thread made beyond them was dropped.
        uint32_t wanted = words[kTraceHeaderWords + inv],
                 count = std::min(wanted, t.slotsPerInvocation);
        t.mostRecordsWanted = std::max(t.mostRecordsWanted, wanted);
        t.dropped += wanted - count;
        if (base + uint64_t(count) * kTraceRecordWords > words.size())
            return Error{ErrorKind::Internal, "trace records out of range"};
        const uint32_t* records = words.data() + base;
        base += uint64_t(count) * kTraceRecordWords;
        auto& events = t.threads[inv];
        events.reserve(count);
        uint32_t round = 0;
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t* r = records + uint64_t(k) * kTraceRecordWords;
            if (isPrintfRecord(r[0])) {
                prints.take(inv, r, static_cast<uint32_t>(events.size()));
                continue;
            }
            if (static_cast<TraceEventKind>(r[0] >> 28) == TraceEventKind::Repeat) {
                repeatLast(events, r[1], t);
                continue;
            }
            TraceEvent e;
            e.kind = static_cast<TraceEventKind>(r[0] >> 28);
            e.variable = (r[0] >> kTraceLineBits) & 0xff;
            e.line = lineOfSite(siteLines, r[0] & ((1u << kTraceLineBits) - 1));
            e.index = r[1];
            e.value = r[2];
            e.extra = r[3];
            e.round = round;
            if (e.kind == TraceEventKind::Barrier) ++round;
            events.push_back(e);
        }
        prints.endThread();
        // The loop budget ran out but its record did not fit: the status word still says so.
        uint32_t status = words[words[7] + inv];
        if (uint32_t lost = (status >> kTracePrintfDroppedShift) & kTracePrintfDroppedMax)
            t.printsDropped[inv] = lost;
        bool recorded = std::any_of(events.begin(), events.end(), [](const TraceEvent& e) {
            return e.kind == TraceEventKind::LoopBudget;
        });
        if ((status & kTraceBudgetFlag) && !recorded) {
            TraceEvent e;
            e.kind = TraceEventKind::LoopBudget;
            e.line = lineOfSite(siteLines, status & ((1u << kTraceLineBits) - 1));
            e.value = words[6];
            e.round = round;
            events.push_back(e);
        }
    }
    return t;
}

std::string traceCellName(const Trace& t, uint32_t var, uint32_t index) {
    const TraceVariableInfo& v = t.variables[var];
    // A shared array of vectors (or matrices, structs) counts scalars: the element holding the
    // scalar, then which of its scalars it is (.x to .w for a vector).
    // A buffer's vector view too; its dimensions are the puzzle's, of scalars, so it is named
    // by its own flat index.
    uint64_t width = std::max<uint32_t>(1, v.decl.elementWidth);
    uint64_t element = index / width, part = index % width;
    std::string s = v.decl.name;
    if (v.dims.size() >= 2 && (v.decl.shared || width == 1)) {
        std::vector<uint64_t> idx(v.dims.size());
        uint64_t rest = element;
        for (size_t d = v.dims.size(); d-- > 1;) {
            idx[d] = v.dims[d] ? rest % v.dims[d] : 0;
            rest = v.dims[d] ? rest / v.dims[d] : 0;
        }
        idx[0] = rest; // not wrapped: an index past the end names the row past the end
        for (uint64_t i : idx)
            s += "[" + std::to_string(i) + "]";
    } else {
        s += "[" + std::to_string(element) + "]";
    }
    if (width > 1 && width <= 4) s += std::string(".") + "xyzw"[part];
    if (width > 4) s += " (scalar " + std::to_string(part) + ")";
    return s;
}

uint32_t cellOwner(const Trace& t, uint32_t variable) {
    if (variable >= t.variables.size() || t.variables[variable].decl.shared) return variable;
    const TraceVariableInfo& v = t.variables[variable];
    for (uint32_t k = 0; k < variable; ++k) {
        const TraceVariableInfo& other = t.variables[k];
        if (other.decl.shared) continue;
        bool same = v.puzzleBuffer >= 0 ? other.puzzleBuffer == v.puzzleBuffer
                                        : other.puzzleBuffer < 0 && other.decl.set == v.decl.set &&
                                              other.decl.binding == v.decl.binding;
        if (same) return k;
    }
    return variable;
}

} // namespace vkp
