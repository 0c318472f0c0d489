// Which thread handed which a value through a subgroup shuffle or broadcast, headless: each
// Shuffle record of a trace names the lane its value came from (trace's shuffleSource), so the
// thread grid can draw an arrow from the lane that gave to the lane that took. No ImGui here;
// tests/views checks it on synthetic traces.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.h"

namespace vkp::views {

// One value one thread took from another: a Shuffle record whose source lane is known.
struct LaneHandoff {
    uint64_t from = 0;  // the invocation whose value arrived
    uint64_t to = 0;    // the invocation that made the record (took the value)
    uint32_t event = 0; // the record's index in to's events
    uint32_t line = 0;
    uint32_t round = 0; // barriers `to` had passed
    ShuffleOp op = ShuffleOp::Shuffle;
    uint32_t operand = 0; // the op's lane, mask or delta
    uint32_t value = 0;   // what arrived (bit pattern)
    ElementKind type = ElementKind::Uint;
};
// "xor 1", "broadcast 0", "up 2": the op and its operand, as a label.
std::string handoffOpText(const LaneHandoff& h);
// What arrived, in the record's type ("3", "-1.5").
std::string handoffValueText(const LaneHandoff& h);

// The values one thread took from other lanes and handed to them, in the trace of one dispatch.
struct LaneFlows {
    uint64_t invocation = 0;
    std::vector<LaneHandoff> into;  // it took from another lane, in its program order
    std::vector<LaneHandoff> outOf; // another lane took from it: by taker, then program order
    uint32_t fromItself = 0;        // records whose named lane was its own (in neither list)
    // Its records whose lane the trace cannot name: a lane outside the subgroup, or a trace
    // without the device's subgroup size (trace's shuffleSource).
    uint32_t unknownSources = 0;
};
// Only the invocation's own subgroup can take from it, so `outOf` looks at those lanes alone.
LaneFlows laneFlows(const Trace& trace, uint64_t invocation);
// Whether any thread of the trace took a value from another lane the trace names (a shuffle
// record with a known source), i.e. whether there are arrows to draw.
bool hasLaneHandoffs(const Trace& trace);

// An arrow of the thread grid: the handoffs between one pair of threads, together.
struct LaneArrow {
    uint64_t from = 0, to = 0; // invocations: the lane that gave, the lane that took
    bool fed = false;          // the other direction: the thread on show handed `to` its value
    uint32_t count = 1;        // handoffs behind it
    std::string op;            // "xor 1"; for several, their ops ("xor 1, xor 2"; "" past two)
    std::string value;         // what arrived, for one handoff ("" for several)
};
// Arrows into the thread first (one per source, in first-taken order), then at most `maxFed`
// arrows out of it (one per taker, in invocation order); `fedLeftOut` counts the takers left out.
std::vector<LaneArrow> laneArrows(const LaneFlows& flows, size_t maxFed = 32,
                                  size_t* fedLeftOut = nullptr);

} // namespace vkp::views
