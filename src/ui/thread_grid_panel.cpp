#include "ui/thread_grid_panel.h"

#include <algorithm>
#include <set>
#include <cmath>

#include "ui/cases_panel.h"
#include "ui/fonts.h"
#include "ui/theme.h"
#include "ui/trace_view.h"
#include "ui/widgets.h"

namespace vkp::ui {
namespace {

std::string vec3(const Uvec3& v, int dims) {
    std::string s = "(";
    for (int i = 0; i < std::max(dims, 1); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + ")";
}

int launchDims(const TestCase& c) {
    Uvec3 n = launchSize(c);
    return n[2] > 1 ? 3 : n[1] > 1 ? 2 : 1;
}

// The layout for a given thread size; the caller searches for a size that fits.
ThreadGridLayout layoutWithCell(const TestCase& c, float width, float cell, float fontSize) {
    ThreadGridLayout l;
    l.dims = launchDims(c);
    l.cell = cell;
    l.boxPad = std::max(2.0f, std::round(cell * 0.12f));
    l.gap = std::round(fontSize * 0.5f);
    l.titleH = cell >= fontSize * 1.1f ? std::round(fonts().small->FontSize * 1.25f) : 0;
    const Uvec3& ws = c.workgroupSize;
    const Uvec3& n = c.workgroups;
    if (l.dims == 1) {
        uint32_t fit = static_cast<uint32_t>(std::max(1.0f, std::floor((width - 2 * l.boxPad) / cell)));
        l.perRow = std::max(1u, std::min(ws[0], fit));
        uint32_t rows = (ws[0] + l.perRow - 1) / l.perRow;
        l.boxSize = ImVec2(l.perRow * cell + 2 * l.boxPad, l.titleH + rows * cell + 2 * l.boxPad);
        l.boxesPerRow = std::max(1u, static_cast<uint32_t>(std::floor((width + l.gap) / (l.boxSize.x + l.gap))));
        l.boxesPerRow = std::min(l.boxesPerRow, n[0]);
        uint32_t boxRows = (n[0] + l.boxesPerRow - 1) / l.boxesPerRow;
        l.size = ImVec2(l.boxesPerRow * (l.boxSize.x + l.gap) - l.gap, boxRows * (l.boxSize.y + l.gap) - l.gap);
        return l;
    }
    float zGap = l.boxPad * 2;
    l.boxSize = ImVec2(ws[0] * cell + 2 * l.boxPad, l.titleH + ws[2] * ws[1] * cell + (ws[2] - 1) * zGap + 2 * l.boxPad);
    l.size = ImVec2(n[0] * (l.boxSize.x + l.gap) - l.gap, n[2] * n[1] * (l.boxSize.y + l.gap) - l.gap);
    return l;
}

// The hovered thread's part of the trace: its global traffic and its first accesses.
void drawThreadTrace(const Puzzle& p, const TestCase& tc, const Trace& trace, const TraceAnalysis* analysis, uint64_t inv) {
    const Palette& pal = palette();
    ImGui::Separator();
    if (analysis && inv < analysis->traffic.size()) {
        const ThreadTraffic& t = analysis->traffic[inv];
        std::string reads = "global reads " + std::to_string(t.globalReads) + (p.limits.globalReads ? " (limit " + std::to_string(*p.limits.globalReads) + ")" : "");
        std::string writes = "writes " + std::to_string(t.globalWrites) + (p.limits.globalWrites ? " (limit " + std::to_string(*p.limits.globalWrites) + ")" : "");
        bool over = (p.limits.globalReads && t.globalReads > *p.limits.globalReads) || (p.limits.globalWrites && t.globalWrites > *p.limits.globalWrites);
        colouredText(over ? pal.fail : pal.text, reads + ", " + writes);
    }
    if (inv >= trace.threads.size() || trace.threads[inv].empty()) return dimText("It read and wrote nothing.");
    const auto& events = trace.threads[inv];
    constexpr size_t kShown = 14;
    ImGui::PushFont(fonts().mono);
    for (size_t k = 0; k < events.size() && k < kShown; ++k) {
        const TraceEvent& e = events[k];
        ImU32 c = e.kind == TraceEventKind::Write ? pal.cellWritten : e.kind == TraceEventKind::Barrier ? pal.dimText : pal.text;
        colouredText(c, eventText(trace, e, &tc));
    }
    ImGui::PopFont();
    if (events.size() > kShown) dimText("\xE2\x80\xA6 and " + std::to_string(events.size() - kShown) + " more");
    if (analysis)
        for (const Finding& f : analysis->findings)
            if (f.failsCase && std::find(f.threads.begin(), f.threads.end(), inv) != f.threads.end()) {
                ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
                colouredText(pal.fail, std::string(findingKindName(f.kind)) + ": " + f.message);
                ImGui::PopTextWrapPos();
            }
}

// One line naming the case's findings (races, out of bounds, limits...); click: go to the line.
void drawFindings(const TraceAnalysis& analysis, ViewState& view) {
    const Palette& pal = palette();
    const Finding* first = nullptr;
    size_t failing = 0;
    for (const Finding& f : analysis.findings) {
        if (!f.failsCase) continue;
        if (!first) first = &f;
        ++failing;
    }
    if (!first) return;
    std::string text = "\xE2\x9A\xA0 " + std::string(findingKindName(first->kind)) + ": " + first->message;
    std::string shown = ellipsize(text + (failing > 1 ? "" : ""), ImGui::GetContentRegionAvail().x);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.fail));
    if (ImGui::Selectable(shown.c_str(), false) && first->line > 0) view.jumpTo = std::make_pair(static_cast<int>(first->line), 0);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
        dimText(std::to_string(failing) + (failing == 1 ? " finding" : " findings") + " from the trace of this case (click: go to the line; outlined threads are involved):");
        for (const Finding& f : analysis.findings)
            if (f.failsCase) colouredText(pal.fail, "\xE2\x80\xA2 " + std::string(findingKindName(f.kind)) + ": " + f.message);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
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
                if (rx < 0 || ry < 0 || pos.x >= b.x + l.boxSize.x || pos.y >= b.y + l.boxSize.y) continue;
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
                if (col >= ws[0] || lz >= ws[2] || ly >= ws[1] || inSlice >= ws[1] * l.cell) return std::nullopt;
                return Uvec3{wx * ws[0] + col, wy * ws[1] + ly, wz * ws[2] + lz};
            }
    return std::nullopt;
}

ImVec2 ThreadGridLayout::boxOrigin(const TestCase& c, const Uvec3& wg) const {
    if (dims == 1) return ImVec2((wg[0] % boxesPerRow) * (boxSize.x + gap), (wg[0] / boxesPerRow) * (boxSize.y + gap));
    return ImVec2(wg[0] * (boxSize.x + gap), (wg[2] * c.workgroups[1] + wg[1]) * (boxSize.y + gap));
}

ImVec2 ThreadGridLayout::threadOrigin(const TestCase& c, const Uvec3& global) const {
    const Uvec3& ws = c.workgroupSize;
    Uvec3 wg{global[0] / ws[0], global[1] / ws[1], global[2] / ws[2]};
    Uvec3 local{global[0] % ws[0], global[1] % ws[1], global[2] % ws[2]};
    ImVec2 box = boxOrigin(c, wg);
    float x0 = box.x + boxPad, y0 = box.y + titleH + boxPad;
    if (dims == 1) return ImVec2(x0 + (local[0] % perRow) * cell, y0 + (local[0] / perRow) * cell);
    return ImVec2(x0 + local[0] * cell, y0 + local[2] * (ws[1] * cell + boxPad * 2) + local[1] * cell);
}

ThreadGridLayout layoutThreads(const TestCase& c, float width, float height, float fontSize) {
    float maxCell = std::round(fontSize * 2.4f), minCell = std::max(6.0f, std::round(fontSize * 0.55f));
    float cell = maxCell;
    ThreadGridLayout l = layoutWithCell(c, width, cell, fontSize);
    // Shrink until the grid fits the panel (or the threads get as small as is still usable).
    while (cell > minCell && (l.size.x > width || l.size.y > height)) {
        cell = std::max(minCell, std::floor(cell * 0.9f));
        l = layoutWithCell(c, width, cell, fontSize);
    }
    return l;
}

void ThreadGridPanel::draw(Workbench& wb, ViewState& view, ImVec2 size) {
    const Puzzle* p = wb.puzzle();
    if (!p || p->cases.empty()) {
        beginPanel("threads", "Threads", size);
        return endPanel();
    }
    const Palette& pal = palette();
    size_t ci = std::min<size_t>(view.selectedCase, p->cases.size() - 1);
    const TestCase& tc = p->cases[ci];
    uint32_t sg = wb.snapshot().device ? wb.snapshot().device->subgroupSize : 0;
    std::string info = std::to_string(tc.threadCount()) + " threads" + (sg ? ", subgroup size " + std::to_string(sg) : "");
    std::string title = "Threads \xE2\x80\x94 case " + std::to_string(ci + 1);
    beginPanel("threads", title.c_str(), size, info);
    const char* subgroups = sg ? "even subgroups" : "threads";
    legendSwatch(pal.threadBg[0], subgroups);
    if (sg) {
        flowSameLine(legendWidth("odd subgroups"));
        legendSwatch(pal.threadBg[1], "odd subgroups");
    }
    flowSameLine(legendWidth("no output cell at its id"));
    legendSwatch(pal.threadIdle, "no output cell at its id");
    flowSameLine(legendWidth("touches the hovered cell"));
    legendSwatch(pal.threadLinked, "touches the hovered cell");
    flowSameLine(legendWidth("named by a finding"));
    legendSwatch(pal.threadBg[0], "named by a finding", pal.threadFinding);
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
    // The detail line: the hovered (or last hovered) thread's ids; the label choice on the right.
    int dims = launchDims(tc);
    if (view.hover.thread) m_detail = view.hover.thread;
    Uvec3 launch = launchSize(tc);
    if (m_detail && ((*m_detail)[0] >= launch[0] || (*m_detail)[1] >= launch[1] || (*m_detail)[2] >= launch[2])) m_detail.reset();
    ImGui::PushFont(fonts().mono);
    if (m_detail) {
        ThreadIds t = threadIds(tc, *m_detail, sg);
        std::string s = "global " + vec3(t.global, dims) + "  local " + vec3(t.local, dims) + "  group " + vec3(t.workgroup, dims) +
                        (sg ? "  subgroup " + std::to_string(t.subgroup) + " lane " + std::to_string(t.lane) : "");
        colouredText(pal.text, s);
    } else {
        ImGui::PopFont();
        ImGui::PushFont(fonts().ui);
        dimText("Hover a thread: its ids, and its cells light up.");
    }
    ImGui::PopFont();

    const CaseOutcome* outcome = wb.outcome(ci);
    const Trace* trace = outcome && outcome->trace ? outcome->trace.get() : nullptr;
    const TraceAnalysis* analysis = outcome && outcome->analysis ? outcome->analysis.get() : nullptr;
    std::set<uint64_t> flagged = analysis ? threadsInFindings(*analysis) : std::set<uint64_t>{};
    if (analysis) drawFindings(*analysis, view);

    // The grid.
    ImGui::BeginChild("grid", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImVec2 room = ImGui::GetContentRegionAvail();
    ThreadGridLayout l = layoutThreads(tc, room.x - ImGui::GetStyle().ScrollbarSize, room.y, ImGui::GetFontSize());
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("threads", ImVec2(std::max(1.0f, l.size.x), std::max(1.0f, l.size.y)));
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* small = fonts().small;

    // Which buffer's shape decides "spare" threads: the first output.
    const Shape* outShape = nullptr;
    for (size_t b = 0; b < p->buffers.size(); ++b)
        if (p->buffers[b].role == RoleKind::Output && tc.data[b]) {
            outShape = &tc.data[b]->shape;
            break;
        }
    // Threads linked to the hovered cell: those that touched it (trace), else the one at its index.
    std::set<uint64_t> linked;
    if (view.hover.cell && view.hover.cell->first < p->buffers.size() && tc.data[view.hover.cell->first]) {
        if (trace) {
            for (const auto& [t, a] : threadsAccessing(*trace, static_cast<int>(view.hover.cell->first), static_cast<uint32_t>(view.hover.cell->second)))
                linked.insert(t);
        } else if (auto g = threadOfCell(tc.data[view.hover.cell->first]->shape, view.hover.cell->second, tc)) {
            linked.insert(invocationIndex(tc, *g));
        }
    }

    const Uvec3& ws = tc.workgroupSize;
    const Uvec3& n = tc.workgroups;
    for (uint32_t wz = 0; wz < n[2]; ++wz)
        for (uint32_t wy = 0; wy < n[1]; ++wy)
            for (uint32_t wx = 0; wx < n[0]; ++wx) {
                ImVec2 b = l.boxOrigin(tc, {wx, wy, wz});
                ImVec2 a(origin.x + b.x, origin.y + b.y), e(a.x + l.boxSize.x, a.y + l.boxSize.y);
                if (!ImGui::IsRectVisible(a, e)) continue;
                dl->AddRectFilled(a, e, pal.workgroupBg, 3);
                dl->AddRect(a, e, pal.workgroupBorder, 3);
                if (l.titleH > 0) {
                    std::string t = vec3({wx, wy, wz}, dims);
                    if (small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, ("workgroup " + t).c_str()).x < l.boxSize.x - 2 * l.boxPad) t = "workgroup " + t;
                    ImVec4 clip(a.x, a.y, e.x, e.y);
                    dl->AddText(small, small->FontSize, ImVec2(a.x + l.boxPad + 1, a.y + l.boxPad * 0.5f), pal.dimText, t.c_str(), nullptr, 0, &clip);
                }
                for (uint32_t lz = 0; lz < ws[2]; ++lz)
                    for (uint32_t ly = 0; ly < ws[1]; ++ly)
                        for (uint32_t lx = 0; lx < ws[0]; ++lx) {
                            Uvec3 g{wx * ws[0] + lx, wy * ws[1] + ly, wz * ws[2] + lz};
                            ImVec2 t = l.threadOrigin(tc, g);
                            ImVec2 ta(origin.x + t.x, origin.y + t.y), tb(ta.x + l.cell - 1, ta.y + l.cell - 1);
                            ThreadIds ids = threadIds(tc, g, sg);
                            bool spare = outShape && !cellOfThread(*outShape, g);
                            uint64_t inv = invocationIndex(tc, g);
                            bool isLinked = linked.count(inv) > 0;
                            ImU32 bg = isLinked ? pal.threadLinked : spare ? pal.threadIdle : pal.threadBg[sg ? ids.subgroup % 2 : 0];
                            dl->AddRectFilled(ta, tb, bg, l.cell > 12 ? 2.0f : 0.0f);
                            if (flagged.count(inv)) dl->AddRect(ta, tb, pal.threadFinding, 2, 0, 2.0f);
                            if (view.hover.thread && *view.hover.thread == g) dl->AddRect(ta, tb, pal.text, 2, 0, 1.5f);
                            if (l.cell >= ImGui::GetFontSize() * 1.6f) {
                                std::string label = m_globalLabels ? (dims == 1 ? std::to_string(g[0]) : std::to_string(g[0]) + "," + std::to_string(g[1]))
                                                                   : (dims == 1 ? std::to_string(lx) : std::to_string(lx) + "," + std::to_string(ly));
                                centredText(dl, small, ta, tb, spare ? pal.dimText : pal.text, label.c_str());
                            }
                        }
            }
    if (hovered) view.nextHover.thread = threadAt(tc, l, ImVec2(ImGui::GetIO().MousePos.x - origin.x, ImGui::GetIO().MousePos.y - origin.y));
    if (hovered) {
        if (view.nextHover.thread) {
            Uvec3 g = *view.nextHover.thread;
            ThreadIds ids = threadIds(tc, g, sg);
            ImGui::BeginTooltip();
            ImGui::PushFont(fonts().mono);
            ImGui::TextUnformatted(("gl_GlobalInvocationID  " + vec3(ids.global, 3)).c_str());
            ImGui::TextUnformatted(("gl_LocalInvocationID   " + vec3(ids.local, 3)).c_str());
            ImGui::TextUnformatted(("gl_WorkGroupID         " + vec3(ids.workgroup, 3)).c_str());
            ImGui::TextUnformatted(("gl_LocalInvocationIndex " + std::to_string(ids.localIndex)).c_str());
            if (sg) ImGui::TextUnformatted(("subgroup " + std::to_string(ids.subgroup) + ", lane " + std::to_string(ids.lane)).c_str());
            ImGui::PopFont();
            std::string cells;
            for (size_t b = 0; b < p->buffers.size(); ++b) {
                if (!tc.data[b]) continue;
                const Shape& s = tc.data[b]->shape;
                if (auto i = cellOfThread(s, g))
                    cells += (cells.empty() ? "" : ", ") + p->buffers[b].name +
                             (s.dims.size() == 2 ? "[" + std::to_string(*i / s.cols()) + "][" + std::to_string(*i % s.cols()) + "]" : "[" + std::to_string(*i) + "]");
            }
            if (trace) {
                drawThreadTrace(*p, tc, *trace, analysis, invocationIndex(tc, g));
            } else if (cells.empty()) {
                colouredText(pal.warn, "No buffer has a cell at this global id: this thread must not write.");
            } else {
                dimText("Cells at its global id: " + cells);
            }
            ImGui::EndTooltip();
        }
    }
    ImGui::EndChild();
    endPanel();
}

} // namespace vkp::ui
