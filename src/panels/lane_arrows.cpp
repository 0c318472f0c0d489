#include "panels/lane_arrows.h"

#include <algorithm>
#include <cmath>

#include "panels/thread_grid_panel.h"
#include "views/trace_view.h"
#include "widgets/curved_arrow.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

// The grid the arrows go on: its layout and where it lies on screen.
struct Grid {
    const ThreadGridLayout& layout;
    ImVec2 origin; // its top-left corner
    bool labels;   // squares large enough for a label (and arrows for theirs)
};

// The centre of an invocation's square, on screen.
ImVec2 threadCentre(const Grid& f, const TestCase& tc, uint64_t invocation) {
    ImVec2 t = f.layout.threadOrigin(tc, globalIdOf(tc, invocation));
    float half = (f.layout.cell - 1) * 0.5f;
    return ImVec2(f.origin.x + t.x + half, f.origin.y + t.y + half);
}

// A lane arrow's curve, from near the middle of one square to near the middle of the other: the
// longer, the more bent (so that arrows from lanes 1, 2, 4 apart do not lie on each other). Arrows
// into the thread bend below their chord (right of a vertical one), arrows out of it above (left),
// so that the two kinds keep apart. A curve whose middle would leave the visible grid (the first
// row's, above) bends less, and if that is not enough, the other way.
ArrowCurve laneCurve(const Grid& f, ImVec2 from, ImVec2 to, bool fed) {
    float c = f.layout.cell, dx = to.x - from.x, dy = to.y - from.y;
    float len = std::sqrt(dx * dx + dy * dy);
    float bend = std::min(0.9f * c + 0.3f * len, 1.8f * c + 0.12f * len);
    // arrowCurve bends towards (-dy, dx): below the chord when dx > 0, right of it when dy < 0.
    bool belowOrRight = dx > 0 || (dx == 0 && dy < 0);
    if (belowOrRight == fed) bend = -bend;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
    for (float k : {1.0f, 0.8f, 0.65f, 0.5f}) {
        ArrowCurve curve = arrowCurve(from, to, bend * k, 0.3f * c, 0.25f * c);
        ImVec2 mid = curve.at(0.5f);
        if (mid.x >= lo.x && mid.y >= lo.y && mid.x <= hi.x && mid.y <= hi.y) return curve;
    }
    return arrowCurve(from, to, -bend, 0.3f * c, 0.25f * c);
}

// "xor 1: 3", "broadcast 0 ×2", "×3": the ops of an arrow and, for one value, what arrived.
std::string laneLabel(const LaneArrow& a, bool withValue) {
    std::string s = a.op;
    if (withValue && !a.value.empty()) s += (s.empty() ? "" : ": ") + a.value;
    if (a.count > 1)
        s += (s.empty() ? "" : " ") + std::string("\xC3\x97") + std::to_string(a.count);
    return s;
}

// Where a label goes: on its curve, at the middle or the first of a few points along it where
// it overlaps no label placed before, else just above or below such a point (nothing when all
// are taken).
std::optional<ImVec2> placeLabel(const ArrowCurve& c, ImVec2 size,
                                 const std::vector<ImVec4>& placed) {
    auto overlaps = [&](ImVec2 at) {
        for (const ImVec4& r : placed)
            if (std::fabs(at.x - r.x) * 2 < size.x + r.z &&
                std::fabs(at.y - r.y) * 2 < size.y + r.w)
                return true;
        return false;
    };
    for (float dy : {0.0f, 1.0f, -1.0f, 2.0f, -2.0f})
        for (float t : {0.5f, 0.38f, 0.62f, 0.26f, 0.74f}) {
            ImVec2 at = c.at(t);
            at.y += dy * (size.y + 1);
            if (!overlaps(at)) return at;
        }
    return std::nullopt;
}

// An arrow's label where it is free: with what arrived ("xor 2: -0.5") where that is at most
// `widest` wide, else the op alone ("xor 2"); over the others at the middle when nowhere is free.
void drawLaneLabel(ImDrawList* dl, const ArrowCurve& c, const LaneArrow& a, float widest,
                   std::vector<ImVec4>& placed) {
    std::string label = laneLabel(a, true);
    if (label.empty()) return;
    std::optional<ImVec2> at;
    if (arrowLabelSize(label).x <= widest) at = placeLabel(c, arrowLabelSize(label), placed);
    if (!at) {
        label = laneLabel(a, false);
        at = placeLabel(c, arrowLabelSize(label), placed);
    }
    ImVec2 size = arrowLabelSize(label), centre = at.value_or(c.at(0.5f));
    placed.push_back(ImVec4(centre.x, centre.y, size.x, size.y));
    drawArrowLabel(dl, centre, label, palette().arrow);
}

// "lanes 1 (xor 1), 2 (xor 2)": the other ends of the arrows, by lane, the first few.
std::string laneList(const TestCase& tc, const LaneArrowView& lanes, bool fed, uint32_t sg) {
    constexpr size_t kNamed = 6;
    std::string s;
    size_t n = 0;
    for (const LaneArrow& a : lanes.arrows) {
        if (a.fed != fed) continue;
        if (n++ == kNamed) {
            s += ", \xE2\x80\xA6";
            break;
        }
        uint32_t lane = threadIds(tc, globalIdOf(tc, fed ? a.to : a.from), sg).lane;
        s += (s.empty() ? "" : ", ") + std::to_string(lane) +
             (fed || a.op.empty() ? "" : " (" + a.op + ")");
    }
    if (fed && lanes.fedLeftOut) s += " and " + std::to_string(lanes.fedLeftOut) + " more";
    return (n + (fed ? lanes.fedLeftOut : 0) > 1 ? "lanes " : "lane ") + s;
}

} // namespace

LaneArrowView laneArrowView(const Trace& trace, uint64_t invocation) {
    LaneArrowView v;
    v.invocation = invocation;
    v.flows = laneFlows(trace, invocation);
    v.arrows = laneArrows(v.flows, kFedLaneArrows, &v.fedLeftOut);
    return v;
}

void drawLaneArrows(const ThreadGridLayout& layout, ImVec2 origin, bool labels, const TestCase& tc,
                    const LaneArrowView& lanes) {
    Grid f{layout, origin, labels};
    if (lanes.arrows.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    float scale = fonts().mono->FontSize / kBaseFontPx;
    std::vector<std::pair<ArrowCurve, const LaneArrow*>> into;
    for (bool fed : {true, false}) // the lighter ones underneath
        for (const LaneArrow& a : lanes.arrows) {
            if (a.fed != fed) continue;
            ArrowCurve c =
                laneCurve(f, threadCentre(f, tc, a.from), threadCentre(f, tc, a.to), fed);
            drawArrowCurve(dl, c,
                           fed ? ArrowStroke{withAlpha(pal.arrow, 0.45f), 1.2f * scale, 6 * scale,
                                             1.8f * scale}
                               : ArrowStroke{pal.arrow, 2.0f * scale, 8 * scale, 2.5f * scale});
            if (!fed) into.emplace_back(c, &a);
        }
    // Squares too small for a thread's label are too small for an arrow's (the tooltip names
    // them); a label with its value may take 2.6 squares.
    if (!f.labels) return;
    std::vector<ImVec4> placed;
    for (const auto& [curve, a] : into)
        drawLaneLabel(dl, curve, *a, f.layout.cell * 2.6f, placed);
}

void probeLaneArrows(const TestCase& tc, const LaneArrowView& lanes) {
    if (!layout::enabled()) return;
    auto id = [&](uint64_t inv) {
        Uvec3 g = globalIdOf(tc, inv);
        return std::to_string(g[0]) + "," + std::to_string(g[1]) + "," + std::to_string(g[2]);
    };
    std::string into, fed;
    for (const LaneArrow& a : lanes.arrows) {
        std::string& list = a.fed ? fed : into;
        list += (list.empty() ? "" : ";") + id(a.from) + ">" + id(a.to) + ":" + laneLabel(a, false);
    }
    layout::fact("laneArrowsOf",
                 lanes.invocation && !lanes.arrows.empty() ? id(*lanes.invocation) : "");
    layout::fact("laneArrows", into);
    layout::fact("laneArrowsFed", fed);
}

void laneTooltipLines(const TestCase& tc, const LaneArrowView& lanes, uint32_t sg) {
    const Palette& pal = palette();
    bool into = false, fed = false;
    for (const LaneArrow& a : lanes.arrows)
        (a.fed ? fed : into) = true;
    if (into)
        colouredText(pal.arrow, "arrows in: values it took from " + laneList(tc, lanes, false, sg));
    if (fed)
        dimText("lighter arrows out: " + laneList(tc, lanes, true, sg) + " took values from it");
    if (lanes.flows.unknownSources)
        dimText(std::to_string(lanes.flows.unknownSources) +
                " value(s) from a lane the trace cannot name (past the end of the subgroup)");
}

} // namespace vkp::ui
