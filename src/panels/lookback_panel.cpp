#include "panels/lookback_panel.h"

#include <algorithm>
#include <cmath>

#include "views/trace_view.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/view_export.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

ImU32 flagColour(LookbackFlag f) {
    const Palette& pal = palette();
    switch (f) {
    case LookbackFlag::NotReady:
        return withAlpha(pal.dimText, 0.22f);
    case LookbackFlag::Aggregate:
        return withAlpha(pal.warn, 0.55f);
    case LookbackFlag::Prefix:
        return withAlpha(pal.pass, 0.55f);
    case LookbackFlag::Odd:
        return withAlpha(pal.fail, 0.6f);
    }
    return pal.cellBg;
}

ImU32 pollColour(const LookbackPoll& p) {
    const Palette& pal = palette();
    if (p.fallback) return pal.fail;
    if (p.waitedOn) return pal.warn;
    return pal.pass;
}

std::string threadText(const ShownCase& sc, uint64_t invocation) {
    return "thread " + idText(*sc.testCase, globalIdOf(*sc.testCase, invocation));
}

std::string seenText(const LookbackPoll& p) {
    std::string s;
    for (const auto& [tile, w] : p.seen)
        s += (s.empty() ? "" : ", ") + std::string("tile ") + std::to_string(tile) + " " +
             lookbackWordText(w);
    return s;
}

std::string pollTip(const ShownCase& sc, const LookbackPoll& p) {
    std::string s =
        "Workgroup " + std::to_string(p.workgroup) + " (tile " + std::to_string(p.tile) + "), " +
        threadText(sc, p.access.invocation) +
        (sc.trace()->launch.invocationsPerGroup() > 1 ? " and the lanes with it" : "") + ":\n" +
        (p.count > 1 ? std::to_string(p.count) + " polls in a row saw " : "a poll saw ") +
        seenText(p) + ".\n";
    if (p.prefixAt)
        s += "The nearest PREFIX, tile " + std::to_string(*p.prefixAt) +
             "'s, ends the walk: the AGGREGATEs before it and that PREFIX add up to what came "
             "before tile " +
             std::to_string(p.tile) + ".";
    else if (p.fallback)
        s += "Tile " + std::to_string(*p.waitedOn) +
             " stayed not ready, so the walk gave up waiting and summed that tile's part of the "
             "input itself (the fallback), then went on before it.";
    else if (p.waitedOn)
        s += "It waits for tile " + std::to_string(*p.waitedOn) + " to publish.";
    else
        s += "Only AGGREGATEs: the walk goes on to the tiles before them.";
    return s + "\nClick: select the thread, show its line, move the timeline to this read.";
}

std::string publishTip(const ShownCase& sc, const LookbackModel& m, const LookbackPublish& p) {
    std::string s = "Workgroup " + std::to_string(p.workgroup) + ", " +
                    threadText(sc, p.access.invocation) + ", wrote " + m.status + "[" +
                    std::to_string(p.index) + "] = " + std::to_string(p.word.word) + ": " +
                    lookbackWordText(p.word) + ".";
    if (p.word.flag == LookbackFlag::Aggregate)
        s += "\nThe tile's own sum, published at once: successors can step over it without "
             "waiting for its prefix.";
    if (p.word.flag == LookbackFlag::Prefix)
        s += "\nEverything up to the end of this tile: a successor that reads it stops here.";
    return s + "\nClick: select the thread, show its line, move the timeline to this write.";
}

// A mark under the pointer lights up its thread in the other views; a click selects it, shows
// its line and moves the timeline to the access.
void linkAccess(ViewState& view, const ShownCase& sc, const LookbackAccess& a, bool clicked) {
    const Trace& t = *sc.trace();
    if (a.invocation >= t.threads.size() || a.event >= t.threads[a.invocation].size()) return;
    Uvec3 g = globalIdOf(*sc.testCase, a.invocation);
    view.nextHover.thread = g;
    view.nextHover.access = std::make_pair(a.invocation, size_t(a.event));
    if (!clicked) return;
    const TraceEvent& e = t.threads[a.invocation][a.event];
    view.selection.thread = g;
    if (!sc.official)
        view.jumpTo = std::make_pair(static_cast<int>(e.line), 0);
    else
        view.focus.lines = {e.line};
    view.timelineWorkgroup = a.invocation / std::max(1u, t.launch.invocationsPerGroup());
    view.seekEvent = std::make_pair(a.invocation, a.event);
}

// The word's label as fits `width`: "AGGREGATE 92", "AGG 92", or the value alone.
std::string spanLabel(const LookbackWord& w, float width) {
    std::string full = lookbackWordText(w);
    if (ImGui::CalcTextSize(full.c_str()).x <= width) return full;
    std::string value = std::to_string(w.value);
    std::string shortName = w.flag == LookbackFlag::Aggregate ? "AGG "
                            : w.flag == LookbackFlag::Prefix  ? "PRE "
                                                              : "";
    if (ImGui::CalcTextSize((shortName + value).c_str()).x <= width) return shortName + value;
    return ImGui::CalcTextSize(value.c_str()).x <= width ? value : "";
}

// Text on a small backing plate, so that it reads over the spans.
void plateText(ImDrawList* dl, ImVec2 at, ImU32 colour, const std::string& text) {
    ImVec2 size = ImGui::CalcTextSize(text.c_str());
    dl->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + size.x + 2, at.y + size.y),
                      withAlpha(palette().panelBg, 0.85f), 3.0f);
    dl->AddText(at, colour, text.c_str());
}

void arrowHead(ImDrawList* dl, ImVec2 tip, float dir, float size, ImU32 colour) {
    dl->AddTriangleFilled(tip, ImVec2(tip.x - size * 0.6f, tip.y - dir * size),
                          ImVec2(tip.x + size * 0.6f, tip.y - dir * size), colour);
}

} // namespace

void LookbackView::draw(ViewState& view, const ShownCase& sc) {
    const Palette& pal = palette();
    if (!sc.trace() || !sc.outcome || !sc.puzzle || !sc.testCase) {
        ImGui::PushTextWrapPos(0);
        dimText("The look-back is read from a traced run of the case: it appears once the kernel "
                "compiles and runs.");
        ImGui::PopTextWrapPos();
        return;
    }
    const LookbackModel& m = view.traces.lookback(*sc.puzzle, *sc.testCase);
    layout::fact("lookbackTiles", std::to_string(m.tiles.size()));
    if (!m.ok()) {
        ImGui::PushTextWrapPos(0);
        dimText("No look-back to show: " + m.unavailable + ".");
        ImGui::PopTextWrapPos();
        return;
    }
    legend({{flagColour(LookbackFlag::NotReady), "not ready"},
            {flagColour(LookbackFlag::Aggregate), "AGGREGATE"},
            {flagColour(LookbackFlag::Prefix), "PREFIX"},
            {pal.accent, "ticket"},
            {pal.warn, "polls, waiting"},
            {pal.fail, "fallback"}},
           "One row per tile, in ticket order; time runs left to right. The trace has no clock "
           "across workgroups, so the columns are the order the trace proves: program order, "
           "barriers, the ticket counter's atomics (each found the ticket before it), each "
           "status word's atomic updates, a write before every read that saw its value, and a "
           "read before the write that replaced what it saw. Each moment sits in the earliest "
           "column those allow; two moments with no such chain between them may really have "
           "happened in either order. A circle is a run of polls by the row's workgroup (x256: "
           "256 polls in a row saw the same words), its arrow points at the tile it waited on "
           "(amber), stopped at (green, a PREFIX) or gave up on and summed itself (red, the "
           "fallback). Hover a mark for what it saw; click to select its thread. Right-click: "
           "save this view as a PNG.");
    if (m.wordsPerTile > 1) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
        int slot = static_cast<int>(std::min(m_slot, m.wordsPerTile - 1));
        if (ImGui::SliderInt("word of each tile", &slot, 0, static_cast<int>(m.wordsPerTile) - 1))
            m_slot = static_cast<uint32_t>(slot);
    }
    m_slot = std::min(m_slot, m.wordsPerTile - 1);
    drawProblems(m);
    drawChart(view, sc, m);
}

// What is wrong, above the rows: the first few problems where they begin; the tiles that only
// carry an earlier tile's error in one line; the notes. Every tile's own list is in its tooltip.
void LookbackView::drawProblems(const LookbackModel& m) {
    const Palette& pal = palette();
    constexpr size_t kShown = 3;
    size_t shown = 0, more = 0;
    std::vector<uint32_t> carrying;
    ImGui::PushTextWrapPos(0);
    for (const LookbackTile& t : m.tiles) {
        for (const std::string& p : t.problems)
            if (shown < kShown)
                colouredText(pal.fail, "\xE2\x9A\xA0 tile " + std::to_string(t.tile) + ": " + p),
                    ++shown;
            else
                ++more;
        if (!t.carried.empty()) carrying.push_back(t.tile);
    }
    if (more)
        colouredText(pal.fail, "\xE2\x9A\xA0 " + std::to_string(more) +
                                   " more: hover a tile's red mark for its own");
    if (!carrying.empty()) {
        std::string tiles = carrying.size() == 1 ? "tile " + std::to_string(carrying[0])
                                                 : "tiles " + std::to_string(carrying.front()) +
                                                       " to " + std::to_string(carrying.back());
        if (carrying.size() > 1 && carrying.back() - carrying.front() + 1 != carrying.size())
            tiles = std::to_string(carrying.size()) + " tiles";
        bool one = carrying.size() == 1;
        colouredText(pal.warn, tiles +
                                   (one ? " built its PREFIX on a wrong one: it carries"
                                        : " built their PREFIX on a wrong one: they carry") +
                                   " its error (a PREFIX is only as right as the one it found)");
    }
    for (const std::string& n : m.notes)
        colouredText(pal.warn, n);
    ImGui::PopTextWrapPos();
}

// Where the chart's parts go: its origin, sizes, the column of a moment and the row of a tile;
// what the pointer is on, and the tooltip it asks for.
struct LookbackView::Chart {
    ImDrawList* dl = nullptr;
    ImVec2 origin;
    float f = 0, rowH = 0, spanH = 0, axisH = 0, labelW = 0, colW = 0, width = 0, height = 0;
    uint32_t cols = 1;
    bool hovered = false, clicked = false;
    std::optional<std::string> tip;

    float colX(uint32_t c) const { return origin.x + labelW + colW * float(c); }
    float rowTop(uint32_t tile) const { return origin.y + axisH + rowH * float(tile); }
    float rowY(uint32_t tile) const { return rowTop(tile) + f * 0.1f + spanH * 0.5f; }
    float laneY(uint32_t tile) const { return rowTop(tile) + f * 0.1f + spanH + f * 0.45f; }
    bool hit(ImVec2 a, ImVec2 b) const { return hovered && ImGui::IsMouseHoveringRect(a, b); }
};

// One tile's row: its label (and a mark where the tile has problems), the word's states as
// spans, the writes that set them, the ticket.
void LookbackView::drawTileRow(ViewState& view, const ShownCase& sc, const LookbackModel& m,
                               const LookbackTile& t, Chart& ch,
                               std::optional<uint64_t> selectedGroup) {
    const Palette& pal = palette();
    ImDrawList* dl = ch.dl;
    const ImVec2 origin = ch.origin;
    const float f = ch.f, spanH = ch.spanH, rowH = ch.rowH, labelW = ch.labelW, width = ch.width;
    const uint32_t cols = ch.cols;
    const bool clicked = ch.clicked;
    std::optional<std::string>& tip = ch.tip;
    auto colX = [&](uint32_t c) { return ch.colX(c); };
    auto rowTop = [&](uint32_t tile) { return ch.rowTop(tile); };
    auto hit = [&](ImVec2 a, ImVec2 b) { return ch.hit(a, b); };
    float y = ch.rowY(t.tile);
    ImVec2 rowMin(origin.x, rowTop(t.tile)), rowMax(origin.x + width, rowTop(t.tile) + rowH);
    if (selectedGroup && t.workgroup == selectedGroup)
        dl->AddRectFilled(rowMin, rowMax, withAlpha(pal.accent, 0.12f));
    layout::rect("lookback/tile " + std::to_string(t.tile), rowMin, rowMax);
    dl->AddText(ImVec2(origin.x, y - f * 0.5f), pal.text,
                ("tile " + std::to_string(t.tile)).c_str());
    if (t.workgroup)
        dl->AddText(ImVec2(origin.x + ImGui::CalcTextSize("tile 00  ").x, y - f * 0.5f),
                    pal.dimText, ("wg " + std::to_string(*t.workgroup)).c_str());
    if (!t.problems.empty() || !t.carried.empty())
        dl->AddRectFilled(ImVec2(origin.x + labelW - f * 0.6f, y - f * 0.3f),
                          ImVec2(origin.x + labelW - f * 0.2f, y + f * 0.3f),
                          t.problems.empty() ? pal.warn : pal.fail);
    if (hit(rowMin, ImVec2(origin.x + labelW, rowMax.y))) {
        std::string s = "Tile " + std::to_string(t.tile) +
                        (t.workgroup ? ", taken by workgroup " + std::to_string(*t.workgroup)
                                     : ", which no workgroup took");
        for (const std::string& p : t.problems)
            s += "\n\xE2\x9A\xA0 " + p;
        for (const std::string& c : t.carried)
            s += "\n" + c;
        tip = s;
    }
    uint32_t start = t.ticket ? t.ticketColumn : cols;
    for (size_t i : t.publishes)
        start = std::min(start, m.publishes[i].column);
    for (uint32_t c = start; c < cols;) {
        LookbackWord w = m.wordAt(t.tile, m_slot, c);
        uint32_t end = c + 1;
        while (end < cols && m.wordAt(t.tile, m_slot, end).word == w.word)
            ++end;
        ImVec2 a(colX(c), y - spanH * 0.5f),
            b(colX(end == cols ? cols + 1 : end), y + spanH * 0.5f);
        dl->AddRectFilled(a, b, flagColour(w.flag), 3.0f);
        if (w.flag != LookbackFlag::NotReady) {
            std::string label = spanLabel(w, b.x - a.x - f * 0.5f);
            dl->AddText(ImVec2(a.x + f * 0.3f, y - f * 0.5f), pal.text, label.c_str());
        }
        c = end;
    }
    for (size_t i : t.publishes) {
        const LookbackPublish& p = m.publishes[i];
        if (p.slot != m_slot) continue;
        float x = colX(p.column);
        dl->AddLine(ImVec2(x, y - spanH * 0.6f), ImVec2(x, y + spanH * 0.6f), pal.text, 2.0f);
        if (hit(ImVec2(x - f * 0.3f, y - spanH * 0.6f), ImVec2(x + f * 0.3f, y + spanH * 0.6f))) {
            tip = publishTip(sc, m, p);
            linkAccess(view, sc, p.access, clicked);
        }
    }
    if (t.ticket) {
        ImVec2 c(colX(t.ticketColumn) + f * 0.35f, y);
        dl->AddCircleFilled(c, f * 0.28f, pal.accent);
        if (hit(ImVec2(c.x - f * 0.4f, c.y - f * 0.4f), ImVec2(c.x + f * 0.4f, c.y + f * 0.4f))) {
            tip = "Workgroup " + std::to_string(*t.workgroup) + ", " +
                  threadText(sc, t.ticket->invocation) + ", took ticket " + std::to_string(t.tile) +
                  ": its atomicAdd found the counter at " + std::to_string(t.tile) +
                  ". Tickets go out in the order workgroups get there, so every tile before "
                  "this one belongs to a workgroup that started first.\nClick: select the "
                  "thread.";
            linkAccess(view, sc, *t.ticket, clicked);
        }
    }
}

// The polls: a circle in the polling tile's lane, an arrow to the tile it waited on or stopped
// at; how many polls a run took on top of everything.
void LookbackView::drawPolls(ViewState& view, const ShownCase& sc, const LookbackModel& m,
                             Chart& ch) {
    const Palette& pal = palette();
    ImDrawList* dl = ch.dl;
    const float f = ch.f, spanH = ch.spanH, colW = ch.colW;
    const bool clicked = ch.clicked;
    std::optional<std::string>& tip = ch.tip;
    auto colX = [&](uint32_t c) { return ch.colX(c); };
    auto rowY = [&](uint32_t tile) { return ch.rowY(tile); };
    auto laneY = [&](uint32_t tile) { return ch.laneY(tile); };
    auto hit = [&](ImVec2 a, ImVec2 b) { return ch.hit(a, b); };
    struct Count {
        ImVec2 at;
        ImU32 colour;
        uint32_t n;
    };
    std::vector<Count> counts;
    for (size_t i = 0; i < m.polls.size(); ++i) {
        const LookbackPoll& p = m.polls[i];
        if (p.slot != m_slot || p.tile >= m.tiles.size()) continue;
        float x = colX(p.column) + colW * 0.5f, y = laneY(p.tile);
        ImU32 colour = pollColour(p);
        std::optional<uint32_t> target = p.prefixAt ? p.prefixAt : p.waitedOn;
        if (target && *target < m.tiles.size()) {
            float ty = rowY(*target), dir = ty > y ? 1.0f : -1.0f;
            ImVec2 tip2(x, ty - dir * spanH * 0.5f);
            dl->AddLine(ImVec2(x, y + dir * f * 0.3f), tip2, colour, p.fallback ? 2.5f : 1.5f);
            arrowHead(dl, tip2, dir, f * 0.4f, colour);
        }
        // A fallback is a red disc with F in it; other runs a ring. How many polls the run took
        // sits beside it when more than one.
        ImVec2 c(x, y);
        float r = f * (p.fallback ? 0.42f : 0.28f);
        dl->AddCircleFilled(c, r, p.fallback ? colour : pal.panelBg);
        if (p.fallback) {
            ImVec2 sz = ImGui::CalcTextSize("F");
            dl->AddText(ImVec2(x - sz.x * 0.5f, y - sz.y * 0.5f), pal.panelBg, "F");
            layout::rect("lookback/fallback " + std::to_string(p.tile), ImVec2(x - r, y - r),
                         ImVec2(x + r, y + r));
        } else {
            dl->AddCircle(c, r, colour, 0, 2.0f);
        }
        if (p.count > 1) counts.push_back({ImVec2(x + r + 2, y - f * 0.5f), colour, p.count});
        layout::rect("lookback/poll " + std::to_string(i), ImVec2(x - f * 0.4f, y - f * 0.4f),
                     ImVec2(x + f * 0.4f, y + f * 0.4f));
        if (hit(ImVec2(x - f * 0.45f, y - f * 0.45f), ImVec2(x + f * 0.45f, y + f * 0.45f))) {
            tip = pollTip(sc, p);
            linkAccess(view, sc, p.access, clicked);
        }
    }
    for (const Count& c : counts)
        plateText(dl, c.at, c.colour, "\xC3\x97" + std::to_string(c.n));
}

void LookbackView::drawChart(ViewState& view, const ShownCase& sc, const LookbackModel& m) {
    const Palette& pal = palette();
    ImGui::BeginChild("lookbackchart", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    exportMenu(view, "lookback");
    Chart ch;
    ch.f = ImGui::GetFontSize();
    float f = ch.f;
    // A row: the word's span on top, the workgroup's polls in a lane under it.
    ch.rowH = std::round(f * 1.95f), ch.spanH = std::round(f * 1.0f),
    ch.axisH = std::round(f * 1.3f);
    for (const LookbackTile& t : m.tiles)
        ch.labelW = std::max(
            ch.labelW,
            ImGui::CalcTextSize(("tile " + std::to_string(t.tile) +
                                 (t.workgroup ? "  wg " + std::to_string(*t.workgroup) : ""))
                                    .c_str())
                .x);
    ch.labelW += f;
    ch.cols = std::max(1u, m.columns);
    // One column more than the moments need: the last state gets room for its label.
    float avail = ImGui::GetContentRegionAvail().x - ch.labelW - f;
    ch.colW = std::clamp(avail / float(ch.cols + 1), f * 1.0f, f * 9.0f);
    ch.origin = ImGui::GetCursorScreenPos();
    ch.width = ch.labelW + ch.colW * float(ch.cols + 1) + f;
    ch.height = ch.axisH + ch.rowH * float(m.tiles.size()) + f * 0.5f;
    ImGui::Dummy(ImVec2(ch.width, ch.height));
    layout::item("lookback/chart");
    ch.dl = ImGui::GetWindowDrawList();
    ch.hovered = ImGui::IsWindowHovered();
    ch.clicked = ch.hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left);

    // The axis: every k-th step, as far apart as a label needs.
    uint32_t every = std::max(1u, uint32_t(std::ceil(f * 2.2f / ch.colW)));
    ch.dl->AddText(ImVec2(ch.origin.x, ch.origin.y), pal.dimText, "time \xE2\x86\x92");
    for (uint32_t c = 0; c < ch.cols; c += every) {
        ch.dl->AddText(ImVec2(ch.colX(c) + 2, ch.origin.y), pal.dimText, std::to_string(c).c_str());
        ch.dl->AddLine(ImVec2(ch.colX(c), ch.origin.y + ch.axisH - 3),
                       ImVec2(ch.colX(c), ch.origin.y + ch.height), withAlpha(pal.dimText, 0.12f));
    }
    std::optional<uint64_t> selectedGroup;
    if (view.selection.thread)
        selectedGroup = invocationIndex(*sc.testCase, *view.selection.thread) /
                        std::max(1u, sc.trace()->launch.invocationsPerGroup());

    // The rows: label, the word's states as spans, the ticket, the writes.
    for (const LookbackTile& t : m.tiles)
        drawTileRow(view, sc, m, t, ch, selectedGroup);
    drawPolls(view, sc, m, ch);
    if (ch.tip) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(f * 30);
        ImGui::TextUnformatted(ch.tip->c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    ImGui::EndChild();
}

} // namespace vkp::ui
