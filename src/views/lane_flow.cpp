#include "views/lane_flow.h"

#include <algorithm>
#include <map>

namespace vkp::views {
namespace {

LaneHandoff handoffOf(uint64_t from, uint64_t to, uint32_t event, const TraceEvent& e) {
    LaneHandoff h;
    h.from = from, h.to = to, h.event = event;
    h.line = e.line, h.round = e.round;
    h.op = shuffleOpOf(e.extra), h.operand = e.index;
    h.value = e.value, h.type = shuffleTypeOf(e.extra);
    return h;
}

// The invocations of `invocation`'s subgroup (itself included): runs of the subgroup size in
// local index order, as trace's shuffleSource numbers lanes.
std::pair<uint64_t, uint64_t> subgroupRange(const Trace& trace, uint64_t invocation) {
    uint64_t per = std::max<uint64_t>(1, trace.launch.invocationsPerGroup());
    uint64_t local = invocation % per, size = trace.subgroupSize;
    uint64_t first = invocation - local % size;
    uint64_t groupEnd = invocation - local + per;
    return {first, std::min({first + size, groupEnd, uint64_t(trace.threads.size())})};
}

// The arrow's op text: one op, two joined, or nothing past two.
std::string opsText(const std::vector<std::string>& ops) {
    if (ops.size() == 1) return ops[0];
    if (ops.size() == 2) return ops[0] + ", " + ops[1];
    return "";
}

// One arrow per pair (from, to), in the order the pairs first appear.
std::vector<LaneArrow> grouped(const std::vector<LaneHandoff>& handoffs, bool fed) {
    std::vector<LaneArrow> arrows;
    std::vector<std::vector<std::string>> ops;
    std::map<std::pair<uint64_t, uint64_t>, size_t> at;
    for (const LaneHandoff& h : handoffs) {
        auto [it, added] = at.emplace(std::pair{h.from, h.to}, arrows.size());
        std::string op = handoffOpText(h);
        if (added) {
            arrows.push_back({h.from, h.to, fed, 1, "", handoffValueText(h)});
            ops.push_back({op});
            continue;
        }
        LaneArrow& a = arrows[it->second];
        ++a.count, a.value.clear();
        auto& seen = ops[it->second];
        if (std::find(seen.begin(), seen.end(), op) == seen.end()) seen.push_back(op);
    }
    for (size_t i = 0; i < arrows.size(); ++i)
        arrows[i].op = opsText(ops[i]);
    return arrows;
}

} // namespace

std::string handoffOpText(const LaneHandoff& h) {
    std::string s = shuffleOpName(h.op);
    if (h.op == ShuffleOp::BroadcastFirst) return s;
    return s + " " + std::to_string(h.operand);
}

std::string handoffValueText(const LaneHandoff& h) {
    BufferData one{h.type, Shape{{1}}, {h.value}};
    return one.format(0);
}

LaneFlows laneFlows(const Trace& trace, uint64_t invocation) {
    LaneFlows f;
    f.invocation = invocation;
    if (invocation >= trace.threads.size()) return f;
    const auto& own = trace.threads[invocation];
    for (uint32_t k = 0; k < own.size(); ++k) {
        if (own[k].kind != TraceEventKind::Shuffle) continue;
        std::optional<uint64_t> from = shuffleSource(trace, invocation, own[k]);
        if (!from)
            ++f.unknownSources;
        else if (*from == invocation)
            ++f.fromItself;
        else
            f.into.push_back(handoffOf(*from, invocation, k, own[k]));
    }
    if (trace.subgroupSize == 0) return f;
    auto [first, end] = subgroupRange(trace, invocation);
    for (uint64_t t = first; t < end; ++t) {
        if (t == invocation) continue;
        const auto& events = trace.threads[t];
        for (uint32_t k = 0; k < events.size(); ++k)
            if (events[k].kind == TraceEventKind::Shuffle &&
                shuffleSource(trace, t, events[k]) == invocation)
                f.outOf.push_back(handoffOf(invocation, t, k, events[k]));
    }
    return f;
}

bool hasLaneHandoffs(const Trace& trace) {
    for (uint64_t t = 0; t < trace.threads.size(); ++t)
        for (const TraceEvent& e : trace.threads[t])
            if (e.kind == TraceEventKind::Shuffle) {
                std::optional<uint64_t> from = shuffleSource(trace, t, e);
                if (from && *from != t) return true; // another lane: an arrow to draw
            }
    return false;
}

std::vector<LaneArrow> laneArrows(const LaneFlows& flows, size_t maxFed, size_t* fedLeftOut) {
    std::vector<LaneArrow> arrows = grouped(flows.into, false);
    std::vector<LaneArrow> fed = grouped(flows.outOf, true);
    size_t kept = std::min(maxFed, fed.size());
    if (fedLeftOut) *fedLeftOut = fed.size() - kept;
    arrows.insert(arrows.end(), fed.begin(), fed.begin() + static_cast<std::ptrdiff_t>(kept));
    return arrows;
}

} // namespace vkp::views
