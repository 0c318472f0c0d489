// The thread grid's lane arrows: into a thread from each lane that handed it a value through a
// subgroup shuffle or broadcast (labelled "xor 1: 3"), and lighter ones out of it to the lanes
// that took its values. Which thread fed which is views/lane_flow's; this draws it on the grid
// (with the arrows of widgets/curved_arrow), says it in the thread's tooltip and tells the layout
// probe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <imgui.h>

#include "puzzle/puzzle.h"
#include "views/lane_flow.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws

struct ThreadGridLayout;

// Arrows out of a thread beyond these are left out (a broadcast from lane 0 of 128 lanes).
inline constexpr size_t kFedLaneArrows = 32;

// The lane arrows of one thread of one trace.
struct LaneArrowView {
    uint64_t generation = 0; // TraceCache::generation() of the trace they are of
    std::optional<uint64_t> invocation;
    LaneFlows flows;
    std::vector<LaneArrow> arrows; // into the thread, then to the lanes it fed
    size_t fedLeftOut = 0;         // lanes it fed that have no arrow (thinned)
};
LaneArrowView laneArrowView(const Trace& trace, uint64_t invocation);

// Draws them on the grid laid out as `layout` from `origin` (screen), in the current window.
// Arrows into the thread carry labels where `labels` (squares large enough for theirs).
void drawLaneArrows(const ThreadGridLayout& layout, ImVec2 origin, bool labels, const TestCase& tc,
                    const LaneArrowView& lanes);
// Facts for tests: laneArrowsOf (the thread), laneArrows and laneArrowsFed
// ("1,0,0>0,0,0:xor 1;2,0,0>0,0,0:xor 2": from>to:ops, global ids).
void probeLaneArrows(const TestCase& tc, const LaneArrowView& lanes);
// The arrows in words, for the thread's tooltip ("arrows in: values it took from lanes 1 (xor 1),
// 2 (xor 2)"). `subgroupSize`: the trace's, to name lanes.
void laneTooltipLines(const TestCase& tc, const LaneArrowView& lanes, uint32_t subgroupSize);

} // namespace vkp::ui
