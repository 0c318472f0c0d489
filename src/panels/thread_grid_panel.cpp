#include "panels/thread_grid_panel.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "panels/cases_panel.h"
#include "panels/lane_arrows.h"
#include "views/trace_view.h"
#include "widgets/cell_style.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/view_export.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

std::string vec3(const Uvec3& v, int dims) {
    std::string s = "(";
    for (int i = 0; i < std::max(dims, 1); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + ")";
}

int launchDims(const TestCase& c) {
    Uvec3 n = launchSize(c);
    return n[2] > 1 ? 3 : n[1] > 1 ? 2 : 1;
}

// The layout for a given thread size; the caller searches for a size that fits.
ThreadGridLayout layoutWithCell(const TestCase& c, float width, float cell, float fontSize,
                                float smallFontSize) {
    ThreadGridLayout l;
    l.dims = launchDims(c);
    l.cell = cell;
    l.boxPad = std::max(2.0f, std::round(cell * 0.12f));
    l.gap = std::round(fontSize * 0.5f);
    l.titleH = cell >= fontSize * 1.1f ? std::round(smallFontSize * 1.25f) : 0;
    const Uvec3& ws = c.workgroupSize;
    const Uvec3& n = c.workgroups;
    if (l.dims == 1) {
        uint32_t fit =
            static_cast<uint32_t>(std::max(1.0f, std::floor((width - 2 * l.boxPad) / cell)));
        l.perRow = std::max(1u, std::min(ws[0], fit));
        uint32_t rows = (ws[0] + l.perRow - 1) / l.perRow;
        l.boxSize = ImVec2(l.perRow * cell + 2 * l.boxPad, l.titleH + rows * cell + 2 * l.boxPad);
        l.boxesPerRow = std::max(
            1u, static_cast<uint32_t>(std::floor((width + l.gap) / (l.boxSize.x + l.gap))));
        l.boxesPerRow = std::min(l.boxesPerRow, n[0]);
        uint32_t boxRows = (n[0] + l.boxesPerRow - 1) / l.boxesPerRow;
        l.size = ImVec2(l.boxesPerRow * (l.boxSize.x + l.gap) - l.gap,
                        boxRows * (l.boxSize.y + l.gap) - l.gap);
        return l;
    }
    float zGap = l.boxPad * 2;
    l.boxSize = ImVec2(ws[0] * cell + 2 * l.boxPad,
                       l.titleH + ws[2] * ws[1] * cell + (ws[2] - 1) * zGap + 2 * l.boxPad);
    l.size =
        ImVec2(n[0] * (l.boxSize.x + l.gap) - l.gap, n[2] * n[1] * (l.boxSize.y + l.gap) - l.gap);
    return l;
}

// The hovered thread's part of the trace: its global traffic and its first accesses.
void drawThreadTrace(const TestCase& tc, const Trace& trace, const TraceAnalysis* analysis,
                     uint64_t inv) {
    const Palette& pal = palette();
    ImGui::Separator();
    if (analysis && inv < analysis->traffic.size()) {
        const ThreadTraffic& t = analysis->traffic[inv];
        const Limits& limits = analysis->limits; // this case's own values
        std::string reads =
            "global reads " + std::to_string(t.globalReads) +
            (limits.globalReads ? " (limit " + std::to_string(*limits.globalReads) + ")" : "");
        std::string writes =
            "writes " + std::to_string(t.globalWrites) +
            (limits.globalWrites ? " (limit " + std::to_string(*limits.globalWrites) + ")" : "");
        bool over = (limits.globalReads && t.globalReads > *limits.globalReads) ||
                    (limits.globalWrites && t.globalWrites > *limits.globalWrites);
        colouredText(over ? pal.fail : pal.text, reads + ", " + writes);
    }
    if (inv >= trace.threads.size() || trace.threads[inv].empty())
        return dimText("It read and wrote nothing.");
    const auto& events = trace.threads[inv];
    constexpr size_t kShown = 14;
    ImGui::PushFont(fonts().mono);
    for (size_t k = 0; k < events.size() && k < kShown; ++k) {
        const TraceEvent& e = events[k];
        ImU32 c = e.kind == TraceEventKind::Write     ? pal.cellWritten
                  : e.kind == TraceEventKind::Barrier ? pal.dimText
                                                      : pal.text;
        colouredText(c, eventText(trace, e, inv));
    }
    ImGui::PopFont();
    if (events.size() > kShown)
        dimText("\xE2\x80\xA6 and " + std::to_string(events.size() - kShown) + " more");
    if (analysis)
        for (const Finding& f : analysis->findings)
            if (f.failsCase &&
                std::find(f.threads.begin(), f.threads.end(), inv) != f.threads.end()) {
                ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
                colouredText(pal.fail, std::string(findingKindName(f.kind)) + ": " + f.message);
                ImGui::PopTextWrapPos();
            }
}

} // namespace

std::optional<Uvec3> threadAt(const TestCase& c, const ThreadGridLayout& l, ImVec2 pos) {
    const Uvec3& ws = c.workgroupSize;
    const Uvec3& n = c.workgroups;
    for (uint32_t wz = 0; wz < n[2]; ++wz)
        for (uint32_t wy = 0; wy < n[1]; ++wy)
            for (uint32_t wx = 0; wx < n[0]; ++wx) {
                ImVec2 b = l.boxOrigin(c, {wx, wy, wz});
                float rx = pos.x - b.x - l.boxPad, ry = pos.y - b.y - l.titleH - l.boxPad;
                if (rx < 0 || ry < 0 || pos.x >= b.x + l.boxSize.x || pos.y >= b.y + l.boxSize.y)
                    continue;
                auto col = static_cast<uint32_t>(rx / l.cell);
                if (l.dims == 1) {
                    uint32_t lx = static_cast<uint32_t>(ry / l.cell) * l.perRow + col;
                    if (col >= l.perRow || lx >= ws[0]) return std::nullopt;
                    return Uvec3{wx * ws[0] + lx, 0, 0};
                }
                float sliceH = ws[1] * l.cell + l.boxPad * 2;
                auto lz = static_cast<uint32_t>(ry / sliceH);
                float inSlice = ry - lz * sliceH;
                auto ly = static_cast<uint32_t>(inSlice / l.cell);
                if (col >= ws[0] || lz >= ws[2] || ly >= ws[1] || inSlice >= ws[1] * l.cell)
                    return std::nullopt;
                return Uvec3{wx * ws[0] + col, wy * ws[1] + ly, wz * ws[2] + lz};
            }
    return std::nullopt;
}

ImVec2 ThreadGridLayout::boxOrigin(const TestCase& c, const Uvec3& wg) const {
    if (dims == 1)
        return ImVec2((wg[0] % boxesPerRow) * (boxSize.x + gap),
                      (wg[0] / boxesPerRow) * (boxSize.y + gap));
    return ImVec2(wg[0] * (boxSize.x + gap), (wg[2] * c.workgroups[1] + wg[1]) * (boxSize.y + gap));
}

ImVec2 ThreadGridLayout::threadOrigin(const TestCase& c, const Uvec3& global) const {
    const Uvec3& ws = c.workgroupSize;
    Uvec3 wg{global[0] / ws[0], global[1] / ws[1], global[2] / ws[2]};
    Uvec3 local{global[0] % ws[0], global[1] % ws[1], global[2] % ws[2]};
    ImVec2 box = boxOrigin(c, wg);
    float x0 = box.x + boxPad, y0 = box.y + titleH + boxPad;
    if (dims == 1) return ImVec2(x0 + (local[0] % perRow) * cell, y0 + (local[0] / perRow) * cell);
    return ImVec2(x0 + local[0] * cell,
                  y0 + local[2] * (ws[1] * cell + boxPad * 2) + local[1] * cell);
}

float labelledCell(float fontSize) {
    return std::ceil(fontSize * 1.6f);
}

ThreadGridLayout layoutThreads(const TestCase& c, float width, float height, float fontSize,
                               float smallFontSize) {
    float maxCell = std::round(fontSize * 2.4f),
          minCell = std::max(6.0f, std::round(fontSize * 0.55f));
    if (c.threadCount() <= kLabelledThreads) minCell = labelledCell(fontSize);
    float cell = maxCell;
    ThreadGridLayout l = layoutWithCell(c, width, cell, fontSize, smallFontSize);
    // Shrink until the grid fits the panel (or the threads get as small as is still readable).
    while (cell > minCell && (l.size.x > width || l.size.y > height)) {
        cell = std::max(minCell, std::floor(cell * 0.9f));
        l = layoutWithCell(c, width, cell, fontSize, smallFontSize);
    }
    return l;
}

void applyFinding(ViewState& view, const ShownCase& sc, const Finding& f) {
    const Trace* trace = sc.trace();
    if (!trace || !sc.testCase) return;
    FindingTarget t = findingTarget(*trace, f);
    showLine(view, sc, static_cast<uint32_t>(std::max(0, t.line)));
    view.focus.clear();
    view.focus.threads = t.threads;
    if (t.cell) view.focus.cells = {*t.cell};
    if (t.line > 0) view.focus.lines = {static_cast<uint32_t>(t.line)};
    if (!t.threads.empty()) view.selection.thread = globalIdOf(*sc.testCase, t.threads.front());
    view.selection.cell = t.cell;
    view.timelineWorkgroup = t.workgroup;
    // Races and unwritten reads happen in a round: the timeline shows it, with shared memory.
    if (f.kind == FindingKind::SharedRace || f.kind == FindingKind::UninitialisedRead) {
        view.seekRound = t.round;
        view.showMemoryTab = MemoryTab::Timeline;
    } else {
        view.showMemoryTab = MemoryTab::Buffers;
    }
}

void drawFindings(ViewState& view, const ShownCase& sc, size_t presenterLines) {
    const TraceAnalysis* analysis = sc.analysis();
    if (!analysis || analysis->findings.empty()) return;
    const Palette& pal = palette();
    const Finding* first = nullptr;
    size_t failing = 0;
    for (const Finding& f : analysis->findings) {
        if (!f.failsCase) continue;
        if (!first) first = &f;
        ++failing;
    }
    if (!first) first = &analysis->findings.front();
    std::string more =
        analysis->findings.size() > 1
            ? "  (" + std::to_string(analysis->findings.size()) + " findings \xE2\x96\xBE)"
            : "";
    std::string text =
        "\xE2\x9A\xA0 " + std::string(findingKindName(first->kind)) + ": " + first->message;
    float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(more.c_str()).x;
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::ColorConvertU32ToFloat4(failing ? pal.fail : pal.warn));
    // Presenter mode: the finding wrapped over up to `presenterLines` lines (a projector's text is
    // read, not scanned), the grid keeping the rest; the tooltip and the click have it whole.
    bool clicked = false;
    if (presenterMode()) {
        std::string whole = text + more, shown;
        for (const std::string& l : wrapLinesWith(
                 whole, ImGui::GetContentRegionAvail().x, presenterLines, [](std::string_view s) {
                     return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
                 }))
            shown += (shown.empty() ? "" : "\n") + l;
        ImGui::TextUnformatted(shown.c_str());
        clicked = ImGui::IsItemClicked();
        layout::fact("finding", shown);
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
            ImGui::TextUnformatted(whole.c_str());
            ImGui::PopTextWrapPos();
            dimText(analysis->findings.size() == 1 ? "Click: go to its line, threads and cells"
                                                   : "Click: every finding, each clickable");
            ImGui::EndTooltip();
        }
    } else {
        clicked = ImGui::Selectable((ellipsize(text, room) + more).c_str(), false);
    }
    if (clicked) {
        if (analysis->findings.size() == 1)
            applyFinding(view, sc, *first);
        else
            ImGui::OpenPopup("findings");
    }
    ImGui::PopStyleColor();
    if (!presenterMode() && ImGui::IsItemHovered())
        ImGui::SetTooltip("Click: %s", analysis->findings.size() == 1
                                           ? "go to its line, threads and cells"
                                           : "every finding, each clickable");
    if (!ImGui::BeginPopup("findings")) return;
    dimText("Findings from the trace of this case. Click one: its line, threads and cells.");
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
    for (size_t i = 0; i < analysis->findings.size(); ++i) {
        const Finding& f = analysis->findings[i];
        ImGui::PushID(static_cast<int>(i));
        ImGui::PushStyleColor(ImGuiCol_Text,
                              ImGui::ColorConvertU32ToFloat4(f.failsCase ? pal.fail : pal.warn));
        std::string line = std::string(findingKindName(f.kind)) +
                           (f.line ? " (line " + std::to_string(f.line) + ")" : "") + ": " +
                           f.message;
        if (ImGui::Selectable(line.c_str())) applyFinding(view, sc, f);
        ImGui::PopStyleColor();
        ImGui::PopID();
    }
    ImGui::PopTextWrapPos();
    ImGui::EndPopup();
}

void ThreadGridPanel::drawLegend(const ShownCase& sc, uint32_t sg, bool laneArrows) {
    const Palette& pal = palette();
    std::vector<LegendItem> items{{pal.threadBg[0], sg ? "even" : "thread"}};
    if (sg) items.push_back({pal.threadBg[1], "odd subgroup"});
    items.push_back({pal.threadIdle, "spare"});
    items.push_back({pal.threadLinked, "touched the cell"});
    items.push_back({pal.threadBg[0], "selected", pal.accent});
    items.push_back({pal.threadBg[0], "finding", pal.threadFinding});
    if (sc.trace() && (sc.puzzle->limits.globalReads || sc.puzzle->limits.globalWrites))
        items.push_back({pal.fail, "over a limit"});
    if (laneArrows) items.push_back({pal.arrow, "lane \xE2\x86\x92 lane (shuffle)"});
    std::string lanes =
        laneArrows
            ? " Arrows: the values the hovered (else the selected) thread took from other lanes "
              "of its subgroup through a shuffle or broadcast (subgroupShuffleXor, "
              "subgroupBroadcast, ...), each labelled with the op and, for one value, what "
              "arrived (\"xor 1: 3\"; \xC3\x97n: n values); lighter arrows go to the lanes that "
              "took values from it. A subgroupBroadcastFirst's arrow comes from the first active "
              "lane, the one whose value every lane got."
            : "";
    legend(items, "Each square is a thread, inside its workgroup's box, shaded by subgroup; spare "
                  "threads (grey) have no element "
                  "to work on: no buffer has an element at their global id. Hover a thread for its "
                  "ids and what it did; click it to keep it "
                  "selected: its reads and writes light up in the memory panel with their order "
                  "numbers, the editor marks the lines it "
                  "ran, and its accesses are listed below. Threads that read or wrote the hovered "
                  "or selected cell are filled (for the "
                  "selected cell, numbered in the order they touched it). A red corner: more "
                  "global reads or writes than the puzzle "
                  "allows. Esc clears the selection. Right-click: save the grid as a PNG." +
                      lanes);
}

// A thread selected elsewhere (a finding, a script, a click in the inspector) is scrolled into
// view once; one clicked in the grid is on screen already and the grid stays put.
void ThreadGridPanel::scrollToSelected(const ViewState& view, const TestCase& tc,
                                       const ThreadGridLayout& l, ImVec2 room) {
    // Again when the grid's height changed (the inspector opening under it once the trace came):
    // the thread may have gone under its lower edge.
    if (view.selection.thread == m_scrolledTo && room.y == m_scrolledRoom) return;
    m_scrolledTo = view.selection.thread;
    m_scrolledRoom = room.y;
    if (!m_scrolledTo) return;
    const Uvec3& g = *m_scrolledTo;
    Uvec3 launch = launchSize(tc);
    if (g[0] >= launch[0] || g[1] >= launch[1] || g[2] >= launch[2]) return;
    ImVec2 t = l.threadOrigin(tc, g);
    float sx = ImGui::GetScrollX(), sy = ImGui::GetScrollY();
    if (t.x < sx || t.x + l.cell > sx + room.x)
        ImGui::SetScrollX(std::max(0.0f, t.x - room.x * 0.4f));
    if (t.y < sy || t.y + l.cell > sy + room.y)
        ImGui::SetScrollY(std::max(0.0f, t.y - room.y * 0.4f));
}

namespace {

// Tests click threads by their place in the layout probe; the first ones are enough.
constexpr uint64_t kProbedThreads = 64;

// What the grid marks on its threads this frame, gathered once.
struct ThreadMarks {
    std::set<uint64_t> linked; // touched the hovered cell (trace), else the one at its index
    std::map<uint64_t, size_t> cellOrder; // touched the selected cell, numbered in order
    const std::set<uint64_t>* flagged;    // named by a finding
    const std::set<uint64_t>* over;       // over a global read or write limit
    std::set<uint64_t> focus;             // a walkthrough step's or a finding's threads
};

ThreadMarks threadMarks(ViewState& view, const ShownCase& sc) {
    static const std::set<uint64_t> kNone;
    const Puzzle& p = *sc.puzzle;
    const TestCase& tc = *sc.testCase;
    const Trace* trace = sc.trace();
    const TraceAnalysis* analysis = sc.analysis();
    ThreadMarks m;
    if (view.hover.cell && trace) {
        for (uint64_t t : view.traces.cells().threads(*view.hover.cell))
            m.linked.insert(t);
    } else if (view.hover.cell && !view.hover.cell->shared &&
               view.hover.cell->array < p.buffers.size() && tc.data[view.hover.cell->array]) {
        if (auto g =
                threadOfCell(tc.data[view.hover.cell->array]->shape, view.hover.cell->index, tc))
            m.linked.insert(invocationIndex(tc, *g));
    }
    if (view.selection.cell && trace)
        for (uint64_t t : view.traces.cells().threads(*view.selection.cell))
            m.cellOrder.emplace(t, m.cellOrder.size() + 1);
    m.flagged = analysis ? &view.traces.inFindings() : &kNone;
    m.over = analysis ? &view.traces.overLimit(analysis->limits) : &kNone;
    m.focus = std::set<uint64_t>(view.focus.threads.begin(), view.focus.threads.end());
    return m;
}

// Where the grid lies on screen this frame, and what the pointer does on it.
struct ThreadGridFrame {
    ThreadGridLayout layout;
    ImVec2 origin; // the grid's top-left corner
    bool hovered = false, clicked = false;
    bool labels = false;      // squares large enough for a label
    bool globalLabels = true; // labels are global ids (else local ids)
    uint32_t subgroupSize = 0;
};

// A workgroup's box and its title.
void drawWorkgroupBox(ImDrawList* dl, const ThreadGridFrame& f, const TestCase& tc, const Uvec3& wg,
                      ImVec2 a, ImVec2 e) {
    const Palette& pal = palette();
    const ThreadGridLayout& l = f.layout;
    ImFont* small = fonts().small;
    dl->AddRectFilled(a, e, pal.workgroupBg, 3);
    dl->AddRect(a, e, pal.workgroupBorder, 3);
    if (l.titleH <= 0) return;
    std::string t = vec3(wg, launchDims(tc));
    if (small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, ("workgroup " + t).c_str()).x <
        l.boxSize.x - 2 * l.boxPad)
        t = "workgroup " + t;
    ImVec4 clip(a.x, a.y, e.x, e.y);
    dl->AddText(small, small->FontSize, ImVec2(a.x + l.boxPad + 1, a.y + l.boxPad * 0.5f),
                pal.dimText, t.c_str(), nullptr, 0, &clip);
}

// What the styling needs to know of thread g (local id `local`).
ThreadCellFacts threadFacts(const ThreadGridFrame& f, const ThreadMarks& m, const ViewState& view,
                            const TestCase& tc, const Uvec3& g, const Uvec3& local) {
    uint64_t inv = invocationIndex(tc, g);
    auto order = m.cellOrder.find(inv);
    ThreadCellFacts t;
    t.linked = m.linked.count(inv) > 0 || order != m.cellOrder.end();
    t.spare = isSpareThread(tc, g);
    t.subgroupParity = f.subgroupSize ? threadIds(tc, g, f.subgroupSize).subgroup % 2 : 0;
    t.flagged = m.flagged->count(inv) > 0;
    t.focused = m.focus.count(inv) > 0;
    t.overLimit = m.over->count(inv) > 0;
    t.selected = view.selection.thread && *view.selection.thread == g;
    t.hovered = view.hover.thread && *view.hover.thread == g;
    t.emphasis = emphasis();
    if (order != m.cellOrder.end()) t.order = order->second;
    t.cell = f.layout.cell;
    t.roomForOrder = f.layout.cell >= fonts().small->FontSize * 1.1f;
    t.labelled = f.labels;
    if (f.labels)
        t.label = f.globalLabels ? threadLabel(g[0], g[1], f.layout.dims)
                                 : threadLabel(local[0], local[1], f.layout.dims);
    return t;
}

void drawOutline(ImDrawList* dl, ImVec2 a, ImVec2 b, const CellOutline& o) {
    dl->AddRect(ImVec2(a.x - o.grow, a.y - o.grow), ImVec2(b.x + o.grow, b.y + o.grow), o.colour,
                o.rounding, 0, o.thickness);
}

// A thread's square from ta to tb, as styled.
void drawThread(ImDrawList* dl, ImVec2 ta, ImVec2 tb, const ThreadCellStyle& s) {
    ImFont* small = fonts().small;
    dl->AddRectFilled(ta, tb, s.background, s.rounding);
    for (const CellOutline& o : s.under)
        drawOutline(dl, ta, tb, o);
    if (s.corner)
        dl->AddTriangleFilled(ImVec2(tb.x - s.cornerSize, ta.y), ImVec2(tb.x, ta.y),
                              ImVec2(tb.x, ta.y + s.cornerSize), s.cornerColour);
    for (const CellOutline& o : s.over)
        drawOutline(dl, ta, tb, o);
    if (s.textKind == ThreadText::Order)
        dl->AddText(small, small->FontSize * 0.85f, ImVec2(ta.x + 2, ta.y + 1), s.textColour,
                    s.text.c_str());
    else if (s.textKind == ThreadText::Label)
        centredText(dl, small, ta, tb, s.textColour, s.text.c_str());
}

// The threads of one workgroup, each styled from its facts.
void drawWorkgroupThreads(ImDrawList* dl, const ThreadGridFrame& f, const ThreadMarks& m,
                          const ViewState& view, const TestCase& tc, const Uvec3& wg) {
    const Uvec3& ws = tc.workgroupSize;
    for (uint32_t lz = 0; lz < ws[2]; ++lz)
        for (uint32_t ly = 0; ly < ws[1]; ++ly)
            for (uint32_t lx = 0; lx < ws[0]; ++lx) {
                Uvec3 g{wg[0] * ws[0] + lx, wg[1] * ws[1] + ly, wg[2] * ws[2] + lz};
                ImVec2 t = f.layout.threadOrigin(tc, g);
                ImVec2 ta(f.origin.x + t.x, f.origin.y + t.y),
                    tb(ta.x + f.layout.cell - 1, ta.y + f.layout.cell - 1);
                if (layout::enabled() && invocationIndex(tc, g) < kProbedThreads)
                    layout::rect("thread/" + std::to_string(g[0]) + "," + std::to_string(g[1]) +
                                     "," + std::to_string(g[2]),
                                 ta, tb);
                drawThread(
                    dl, ta, tb,
                    threadCellStyle(threadFacts(f, m, view, tc, g, {lx, ly, lz}), palette()));
            }
}

// Every visible workgroup box with its threads.
void drawWorkgroups(const ThreadGridFrame& f, const ThreadMarks& m, const ViewState& view,
                    const TestCase& tc) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Uvec3& n = tc.workgroups;
    for (uint32_t wz = 0; wz < n[2]; ++wz)
        for (uint32_t wy = 0; wy < n[1]; ++wy)
            for (uint32_t wx = 0; wx < n[0]; ++wx) {
                ImVec2 b = f.layout.boxOrigin(tc, {wx, wy, wz});
                ImVec2 a(f.origin.x + b.x, f.origin.y + b.y),
                    e(a.x + f.layout.boxSize.x, a.y + f.layout.boxSize.y);
                if (!ImGui::IsRectVisible(a, e)) continue;
                drawWorkgroupBox(dl, f, tc, {wx, wy, wz}, a, e);
                drawWorkgroupThreads(dl, f, m, view, tc, {wx, wy, wz});
            }
}

// The hovered thread's ids, and with a trace what it did.
void threadTooltip(const ShownCase& sc, const Uvec3& g, uint32_t sg, const LaneArrowView& lanes) {
    const TestCase& tc = *sc.testCase;
    const Trace* trace = sc.trace();
    ThreadIds ids = threadIds(tc, g, sg);
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts().mono);
    ImGui::TextUnformatted(("gl_GlobalInvocationID  " + vec3(ids.global, 3)).c_str());
    ImGui::TextUnformatted(("gl_LocalInvocationID   " + vec3(ids.local, 3)).c_str());
    ImGui::TextUnformatted(("gl_WorkGroupID         " + vec3(ids.workgroup, 3)).c_str());
    ImGui::TextUnformatted(("gl_LocalInvocationIndex " + std::to_string(ids.localIndex)).c_str());
    if (sg)
        ImGui::TextUnformatted(
            ("subgroup " + std::to_string(ids.subgroup) + ", lane " + std::to_string(ids.lane))
                .c_str());
    ImGui::PopFont();
    if (trace) {
        uint64_t inv = invocationIndex(tc, g);
        drawThreadTrace(tc, *trace, sc.analysis(), inv);
        if (lanes.invocation == inv) laneTooltipLines(tc, lanes, trace->subgroupSize);
        dimText("Click: select it (its accesses are listed below the grid).");
    } else if (isSpareThread(tc, g)) {
        colouredText(palette().warn, "No buffer has an element at this global id: a spare thread, "
                                     "it must not read or write them.");
    }
    ImGui::EndTooltip();
}

} // namespace

const LaneArrowView& ThreadGridPanel::laneArrowsOnShow(ViewState& view, const ShownCase& sc) {
    std::optional<uint64_t> inv;
    if (sc.trace() && m_detail) inv = invocationIndex(*sc.testCase, *m_detail);
    if (m_lanes.generation == view.traces.generation() && m_lanes.invocation == inv) return m_lanes;
    m_lanes = inv ? laneArrowView(*sc.trace(), *inv) : LaneArrowView{};
    m_lanes.generation = view.traces.generation();
    return m_lanes;
}

bool ThreadGridPanel::traceHasLaneHandoffs(ViewState& view) {
    const Trace* trace = view.traces.trace();
    if (!trace) return false;
    if (!m_hasHandoffs || m_hasHandoffs->first != view.traces.generation())
        m_hasHandoffs = std::pair{view.traces.generation(), hasLaneHandoffs(*trace)};
    return m_hasHandoffs->second;
}

void ThreadGridPanel::drawGrid(ViewState& view, const ShownCase& sc, uint32_t sg, ImVec2 size) {
    const TestCase& tc = *sc.testCase;
    ImGui::BeginChild("grid", size, false, ImGuiWindowFlags_HorizontalScrollbar);
    exportMenu(view, "grid");
    ImVec2 room = ImGui::GetContentRegionAvail();
    ThreadGridFrame f;
    f.layout = layoutThreads(tc, room.x - ImGui::GetStyle().ScrollbarSize,
                             room.y - ImGui::GetStyle().ScrollbarSize, ImGui::GetFontSize(),
                             fonts().small->FontSize);
    f.origin = ImGui::GetCursorScreenPos();
    scrollToSelected(view, tc, f.layout, room);
    ImGui::InvisibleButton(
        "threads", ImVec2(std::max(1.0f, f.layout.size.x), std::max(1.0f, f.layout.size.y)));
    f.hovered = ImGui::IsItemHovered(), f.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    f.labels = f.layout.cell >= labelledCell(ImGui::GetFontSize());
    f.globalLabels = m_globalLabels;
    f.subgroupSize = sg;
    drawWorkgroups(f, threadMarks(view, sc), view, tc);
    const LaneArrowView& lanes = laneArrowsOnShow(view, sc);
    drawLaneArrows(f.layout, f.origin, f.labels, tc, lanes);
    probeLaneArrows(tc, lanes);
    if (f.hovered) {
        ImVec2 mp = ImGui::GetIO().MousePos;
        view.nextHover.thread =
            threadAt(tc, f.layout, ImVec2(mp.x - f.origin.x, mp.y - f.origin.y));
        if (f.clicked && view.nextHover.thread) view.selection.clickThread(*view.nextHover.thread);
    }
    if (f.hovered && view.nextHover.thread) threadTooltip(sc, *view.nextHover.thread, sg, lanes);
    ImGui::EndChild();
}

// "labels: (o) global id ( ) local id": what each thread's square shows.
void ThreadGridPanel::labelsChoice() {
    flowSameLine(ImGui::CalcTextSize("labels: global id local id").x + ImGui::GetFontSize() * 4);
    dimText("labels:");
    ImGui::SameLine();
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, 0));
    if (ImGui::RadioButton("global id", m_globalLabels)) m_globalLabels = true;
    itemTooltip("Label each thread with its gl_GlobalInvocationID (x, y)");
    ImGui::SameLine();
    if (ImGui::RadioButton("local id", !m_globalLabels)) m_globalLabels = false;
    itemTooltip("Label each thread with its gl_LocalInvocationID (x, y) inside its workgroup");
    ImGui::PopStyleVar();
}

void ThreadGridPanel::draw(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 size) {
    if (!sc.puzzle || !sc.testCase) {
        beginPanel("threads", "Threads", size);
        return endPanel();
    }
    const Palette& pal = palette();
    const TestCase& tc = *sc.testCase;
    uint32_t sg = wb.snapshot().device ? wb.snapshot().device->subgroupSize : 0;
    std::string info = std::to_string(tc.threadCount()) + " threads" +
                       (sg ? ", subgroup size " + std::to_string(sg) : "");
    // On a projector the dispatch and whose run it is are left to the memory panel beside, which
    // says both (its title, its dispatch picker): the strip has no room to spare.
    bool secondary = !presenterMode();
    if (secondary && sc.entry && view.dispatches.entries().size() > 1)
        info = "dispatch " + std::to_string(sc.dispatch + 1) + " of " +
               std::to_string(view.dispatches.entries().size()) + ", " + info;
    std::string title = "Threads \xE2\x80\x94 case " + std::to_string(sc.index + 1) +
                        (secondary && sc.entry ? ", " + sc.entry->label : "") +
                        (secondary && sc.official ? " (official solution)" : "");
    beginPanel("threads", title.c_str(), size, info);
    // A short panel (a projector's 200% on 1280x800) keeps its height for the grid: the labels
    // choice is left out and the inspector gets what the grid's rows do not need.
    bool cramped = ImGui::GetContentRegionAvail().y < ImGui::GetTextLineHeightWithSpacing() * 10;
    drawLegend(sc, sg, traceHasLaneHandoffs(view));
    if (!cramped) labelsChoice();
    // The detail line: the hovered thread's ids, else the selected one's, else a hint.
    int dims = launchDims(tc);
    m_detail = view.hover.thread ? view.hover.thread : view.selection.thread;
    Uvec3 launch = launchSize(tc);
    if (m_detail &&
        ((*m_detail)[0] >= launch[0] || (*m_detail)[1] >= launch[1] || (*m_detail)[2] >= launch[2]))
        m_detail.reset();
    if (m_detail) {
        ThreadIds t = threadIds(tc, *m_detail, sg);
        std::string s =
            "global " + vec3(t.global, dims) + "  local " + vec3(t.local, dims) + "  group " +
            vec3(t.workgroup, dims) +
            (sg ? "  subgroup " + std::to_string(t.subgroup) + " lane " + std::to_string(t.lane)
                : "");
        ImGui::PushFont(fonts().mono);
        if (presenterMode()) { // whole, wrapped at the ids' gaps
            ImGui::PushTextWrapPos(0);
            colouredText(pal.text, s);
            ImGui::PopTextWrapPos();
        } else {
            colouredText(pal.text, ellipsize(s, ImGui::GetContentRegionAvail().x));
            itemTooltip(s);
        }
        ImGui::PopFont();
    } else if (!presenterMode()) { // on a projector the room goes to the grid
        dimText(sc.trace() ? "Hover a thread: its ids and cells. Click: select it."
                           : "Hover a thread: its ids, and its cells light up.");
    }
    drawFindings(view, sc, cramped ? 2 : 3);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    bool inspect = sc.trace() && !view.selection.empty();
    // The inspector takes at most half, and leaves the grid room for a few labelled rows.
    float fewRows = fonts().small->FontSize * 1.25f + labelledCell(ImGui::GetFontSize()) * 3 +
                    ImGui::GetStyle().ScrollbarSize + ImGui::GetFontSize();
    float inspectorMin = ImGui::GetTextLineHeightWithSpacing() * (cramped ? 1.5f : 4.0f);
    float gridH =
        inspect ? std::min(avail.y - inspectorMin, std::max(std::round(avail.y * 0.5f), fewRows))
                : avail.y;
    gridH = std::max(gridH, std::round(avail.y * 0.3f));
    drawGrid(view, sc, sg, ImVec2(0, gridH));
    if (inspect) {
        ImGui::Separator();
        ImGui::BeginChild("inspector", ImVec2(0, 0), false);
        m_inspector.draw(view, sc);
        ImGui::EndChild();
    }
    endPanel();
}

} // namespace vkp::ui
