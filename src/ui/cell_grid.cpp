#include "ui/cell_grid.h"

#include <algorithm>
#include <cmath>

#include "ui/fonts.h"
#include "ui/layout_probe.h"
#include "ui/theme.h"
#include "analysis/trace_view.h"
#include "ui/widgets.h"

namespace vkp::ui {

using namespace analysis; // the windowless models of the trace this file draws
namespace {

const char* kindWord(TraceEventKind k) {
    switch (k) {
    case TraceEventKind::Read: return "read";
    case TraceEventKind::Write: return "write";
    case TraceEventKind::Atomic: return "atomic";
    default: return "?";
    }
}

std::string valueText(const Trace& trace, const CellRef& c, uint32_t word) {
    std::optional<ElementKind> type;
    if (c.shared && c.array < trace.variables.size()) type = trace.variables[c.array].decl.elementType;
    if (!c.shared)
        if (auto v = variableOfBuffer(trace, c.array)) type = trace.variables[*v].decl.elementType;
    if (!type) return std::to_string(word);
    BufferData one{*type, Shape{{1}}, {word}};
    return one.format(0);
}

// Who touched the cell, in order (round, then thread, then program order), the first few.
void historyLines(const GridMarks& m, const CellRef& c) {
    const auto& h = m.traces->cells().history(c);
    if (h.empty()) return dimText("no thread read or wrote it");
    constexpr size_t kShown = 8;
    ImGui::PushFont(fonts().mono);
    for (size_t k = 0; k < h.size() && k < kShown; ++k) {
        const CellTouch& t = h[k];
        std::string s = std::to_string(k + 1) + ". round " + std::to_string(t.round) + "  thread " + idText(*m.testCase, globalIdOf(*m.testCase, t.invocation)) +
                        "  line " + std::to_string(t.line) + "  " + kindWord(t.kind) + " " + valueText(*m.trace, c, t.value);
        colouredText(t.kind == TraceEventKind::Read ? palette().accent : palette().cellWritten, s);
    }
    ImGui::PopFont();
    if (h.size() > kShown) dimText("\xE2\x80\xA6 and " + std::to_string(h.size() - kShown) + " more (click the cell: the full list)");
}

void cellTooltip(const GridData& d, const GridMarks& m, uint64_t i, bool wrong) {
    const Palette& pal = palette();
    CellRef c = d.base;
    c.index = i;
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts().mono);
    ImGui::TextUnformatted(cellText(m.trace, *m.puzzle, *m.testCase, c).c_str());
    ImGui::PopFont();
    if (d.expected)
        colouredText(wrong ? pal.fail : pal.pass,
                     "actual " + d.values->format(i) + (wrong ? "  \xE2\x89\xA0  " : "  =  ") + "expected " + d.expected->format(i));
    else if (d.written && i < d.written->size() && !(*d.written)[i])
        dimText("not written yet (shows 0)");
    else
        ImGui::TextUnformatted(("value " + d.values->format(i)).c_str());
    if (m.trace && m.traces) {
        historyLines(m, c);
    } else if (!c.shared) {
        if (auto t = threadOfCell(d.values->shape, i, *m.testCase)) dimText("thread with this global id: " + idText(*m.testCase, *t));
        else colouredText(pal.warn, "no thread has this global id: the launch does not reach it");
    }
    ImGui::EndTooltip();
}

// "3", "3,7", "3,7+": order numbers of the selected thread's accesses to a cell.
std::string ordersText(const std::vector<uint32_t>& orders) {
    std::string s;
    for (size_t k = 0; k < orders.size() && k < 2; ++k) s += (k ? "," : "") + std::to_string(orders[k]);
    if (orders.size() > 2) s += "+";
    return s;
}

} // namespace

bool cellWrong(const BufferData& actual, const BufferData& expected, uint64_t i, double tolerance) {
    if (i >= expected.shape.count() || i >= actual.shape.count()) return false;
    if (actual.type != ElementKind::Float) return actual.words[i] != expected.words[i];
    double a = actual.get(i), e = expected.get(i);
    if (std::isnan(a) || std::isnan(e)) return true;
    if (std::isinf(a) || std::isinf(e)) return a != e;
    return std::fabs(a - e) > tolerance * std::max(1.0, std::fabs(e));
}

BufferData sharedArrayData(const TraceVariableInfo& v, const std::vector<uint32_t>& values) {
    BufferData d;
    d.type = v.decl.elementType.value_or(ElementKind::Uint);
    if (v.dims.size() == 2 && v.decl.elementWidth == 1 && v.dims[0] * v.dims[1] == values.size()) d.shape = Shape{{v.dims[0], v.dims[1]}};
    else d.shape = Shape{{values.size()}};
    d.words = values;
    return d;
}

GridLayout layoutGrid(const BufferData& data, const BufferData* expected, float width, bool tall) {
    ImFont* f = fonts().mono;
    float cw = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, "0").x;
    GridLayout g;
    g.count = data.shape.count();
    g.twoD = data.shape.dims.size() == 2;
    size_t widest = 2;
    // Widths from a sample of cells: formatting every cell of a large buffer each frame costs.
    uint64_t step = std::max<uint64_t>(1, g.count / 512);
    for (uint64_t i = 0; i < g.count; i += step) {
        widest = std::max(widest, data.format(i).size());
        if (expected && i < expected->shape.count()) widest = std::max(widest, expected->format(i).size());
    }
    g.cellW = std::ceil(widest * cw + cw * 1.4f);
    g.cellH = std::ceil(f->FontSize * (tall ? 2.1f : 1.5f));
    uint64_t lastIndex = g.count ? g.count - 1 : 0;
    g.labelW = std::ceil((std::to_string(g.twoD ? data.shape.rows() : lastIndex).size() + 1) * cw);
    g.headerH = std::ceil(fonts().small->FontSize * 1.3f);
    if (g.twoD) {
        g.rows = data.shape.rows();
        g.cols = data.shape.cols();
    } else {
        uint64_t fit = std::max<uint64_t>(1, static_cast<uint64_t>((width - g.labelW) / g.cellW));
        g.cols = std::max<uint64_t>(1, std::min<uint64_t>(g.count, fit));
        g.rows = g.count ? (g.count + g.cols - 1) / g.cols : 0;
    }
    g.size = ImVec2(g.labelW + g.cols * g.cellW, g.headerH + g.rows * g.cellH);
    return g;
}

GridMarks gridMarks(const Puzzle& p, const TestCase& tc, ViewState& view) {
    GridMarks m;
    m.puzzle = &p;
    m.testCase = &tc;
    m.trace = view.traces.trace();
    if (m.trace) {
        m.traces = &view.traces;
        if (view.selection.thread) m.selected = &view.traces.footprint(invocationIndex(tc, *view.selection.thread));
        if (view.hover.thread && !(view.selection.thread && *view.selection.thread == *view.hover.thread))
            m.hovered = threadFootprint(*m.trace, invocationIndex(tc, *view.hover.thread)).cells;
    }
    m.selectedCell = view.selection.cell;
    m.hoveredCell = view.hover.cell;
    m.focus = view.focus.cells;
    return m;
}

std::optional<CellRef> drawCellGrid(const GridData& d, const GridMarks& m, ViewState& view, float width, CellCanvas* canvas) {
    const Palette& pal = palette();
    const BufferData& data = *d.values;
    bool tall = d.marks && m.selected;
    GridLayout g = layoutGrid(data, d.expected, width, tall);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* mono = fonts().mono;
    ImFont* small = fonts().small;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::PushID(d.id.c_str());
    ImGui::InvisibleButton("grid", ImVec2(std::max(1.0f, g.size.x), std::max(1.0f, g.size.y)));
    bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    ImGui::PopID();
    ImVec2 cells(origin.x + g.labelW, origin.y + g.headerH);
    for (uint64_t c = 0; c < g.cols && (g.twoD || g.rows == 1); ++c) {
        std::string s = std::to_string(c);
        centredText(dl, small, ImVec2(cells.x + c * g.cellW, origin.y), ImVec2(cells.x + (c + 1) * g.cellW, cells.y), pal.dimText, s.c_str());
    }
    std::optional<uint64_t> hoveredCell;
    if (hovered) {
        ImVec2 mp = ImGui::GetIO().MousePos;
        int c = static_cast<int>(std::floor((mp.x - cells.x) / g.cellW)), r = static_cast<int>(std::floor((mp.y - cells.y) / g.cellH));
        if (c >= 0 && r >= 0 && uint64_t(c) < g.cols && uint64_t(r) < g.rows && uint64_t(r) * g.cols + c < g.count) hoveredCell = uint64_t(r) * g.cols + c;
    }
    // Without a trace the hovered thread links to the cell at its global id (the convention).
    std::optional<uint64_t> conventionCell;
    if (!m.trace && view.hover.thread && !d.base.shared) conventionCell = cellOfThread(data.shape, *view.hover.thread);
    float orderSize = small->FontSize * 0.85f, orderH = tall ? std::ceil(orderSize) : 0;
    CellRef c = d.base;
    for (uint64_t r = 0; r < g.rows; ++r) {
        float y = cells.y + r * g.cellH;
        if (!ImGui::IsRectVisible(ImVec2(origin.x, y), ImVec2(origin.x + g.size.x, y + g.cellH))) continue;
        std::string rl = std::to_string(g.twoD ? r : r * g.cols);
        centredText(dl, small, ImVec2(origin.x, y), ImVec2(cells.x - 2, y + g.cellH), pal.dimText, rl.c_str());
        for (uint64_t col = 0; col < g.cols; ++col) {
            uint64_t i = r * g.cols + col;
            if (i >= g.count) break;
            c.index = i;
            ImVec2 a(cells.x + col * g.cellW, y), b(a.x + g.cellW - 2, a.y + g.cellH - 2);
            if (layout::enabled() && i < 64) // "cell/buffer0/in/3": array, grid, index
                layout::rect("cell/" + std::string(d.base.shared ? "shared" : "buffer") + std::to_string(d.base.array) + "/" + d.id + "/" + std::to_string(i), a, b);
            bool wrong = d.expected && cellWrong(data, *d.expected, i, d.tolerance);
            const CellMark* sel = nullptr;
            const CellMark* hov = nullptr;
            if (d.marks && m.selected)
                if (auto it = m.selected->cells.find(c); it != m.selected->cells.end()) sel = &it->second;
            if (d.marks)
                if (auto it = m.hovered.find(c); it != m.hovered.end()) hov = &it->second;
            bool read = (sel && sel->read) || (hov && hov->read) || (conventionCell && *conventionCell == i);
            bool written = (sel && sel->written) || (hov && hov->written);
            bool changed = d.marks && m.timeline && m.timeline->wasChanged(c);
            bool unwritten = d.written && i < d.written->size() && !(*d.written)[i];
            ImU32 bg = wrong ? pal.cellWrongBg : changed ? pal.cellChangedBg : read ? pal.cellLinkedBg : pal.cellBg;
            dl->AddRectFilled(a, b, bg, 2);
            if (read) dl->AddRect(a, b, pal.accent, 2, 0, 1.5f);
            if (written) dl->AddRect(a, b, pal.cellWritten, 2, 0, 2.5f);
            if (d.marks && std::find(m.focus.begin(), m.focus.end(), c) != m.focus.end())
                dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), pal.focus, 3, 0, 2.5f);
            if (d.marks && m.stepCell && *m.stepCell == c) dl->AddRect(a, b, pal.stepOutline, 2, 0, 3.0f);
            if (m.selectedCell && *m.selectedCell == c) dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), pal.text, 3, 0, 2.0f);
            if ((hoveredCell && *hoveredCell == i) || (!hoveredCell && m.hoveredCell && *m.hoveredCell == c)) dl->AddRect(a, b, pal.text, 2, 0, 1.5f);
            std::string v = unwritten ? "\xC2\xB7" : data.format(i);
            centredText(dl, mono, ImVec2(a.x, a.y + orderH * 0.8f), b, wrong ? pal.cellWrongText : unwritten ? pal.dimText : pal.text, v.c_str());
            if (sel && tall) {
                // Order numbers in the strip above the value: which of the thread's accesses these were.
                std::string o = ordersText(sel->orders);
                ImVec2 ts = small->CalcTextSizeA(orderSize, FLT_MAX, 0, o.c_str());
                ImVec4 clip(a.x, a.y, b.x, b.y);
                dl->AddText(small, orderSize, ImVec2(b.x - ts.x - 2, a.y + 1), sel->written ? pal.cellWritten : pal.text, o.c_str(), nullptr, 0, &clip);
            }
        }
    }
    // Centres of the cells arrows may join (visible or not).
    if (canvas && d.marks)
        for (const CellRef& cell : canvas->wanted) {
            if (cell.shared != d.base.shared || cell.array != d.base.array || cell.workgroup != d.base.workgroup || cell.index >= g.count) continue;
            uint64_t r = cell.index / g.cols, col = cell.index % g.cols;
            canvas->centres[cell] = ImVec2(cells.x + col * g.cellW + g.cellW * 0.5f - 1, cells.y + r * g.cellH + g.cellH * 0.5f - 1);
        }
    if (!hoveredCell) return std::nullopt;
    CellRef h = d.base;
    h.index = *hoveredCell;
    view.nextHover.cell = h;
    cellTooltip(d, m, *hoveredCell, d.expected && cellWrong(data, *d.expected, *hoveredCell, d.tolerance));
    if (clicked) return h;
    return std::nullopt;
}

void CellCanvas::want(const std::vector<Arrow>& arrows) {
    for (const Arrow& a : arrows) wanted.insert(a.from), wanted.insert(a.to);
}

void drawArrows(ImDrawList* dl, const std::vector<Arrow>& arrows, const CellCanvas& canvas) {
    const Palette& pal = palette();
    float scale = fonts().mono->FontSize / kBaseFontPx;
    for (const Arrow& a : arrows) {
        auto f = canvas.centres.find(a.from), t = canvas.centres.find(a.to);
        if (f == canvas.centres.end() || t == canvas.centres.end()) continue;
        ImVec2 p0 = f->second, p3 = t->second;
        float dx = p3.x - p0.x, dy = p3.y - p0.y, len = std::sqrt(dx * dx + dy * dy);
        if (len < 2) continue;
        // A gentle curve (control points off to one side) keeps arrows to one cell apart.
        ImVec2 n(-dy / len, dx / len);
        float bend = std::min(40.0f * scale, len * 0.2f);
        ImVec2 p1(p0.x + dx * 0.3f + n.x * bend, p0.y + dy * 0.3f + n.y * bend), p2(p0.x + dx * 0.7f + n.x * bend, p0.y + dy * 0.7f + n.y * bend);
        float w = (a.count > 1 ? 2.2f : 1.4f) * scale;
        dl->AddBezierCubic(p0, p1, p2, p3, pal.arrow, w);
        float tx = p3.x - p2.x, ty = p3.y - p2.y, tl = std::max(0.001f, std::sqrt(tx * tx + ty * ty));
        tx /= tl, ty /= tl;
        float head = 7 * scale;
        dl->AddTriangleFilled(p3, ImVec2(p3.x - tx * head - ty * head * 0.5f, p3.y - ty * head + tx * head * 0.5f),
                              ImVec2(p3.x - tx * head + ty * head * 0.5f, p3.y - ty * head - tx * head * 0.5f), pal.arrow);
        dl->AddCircleFilled(p0, 2.5f * scale, pal.arrow);
        if (a.count > 1) {
            std::string label = "\xC3\x97" + std::to_string(a.count);
            ImFont* small = fonts().small;
            ImVec2 at(p0.x * 0.5f + p1.x * 0.5f, p0.y * 0.5f + p1.y * 0.5f);
            ImVec2 ts = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, label.c_str());
            dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + ts.x + 2, at.y + ts.y + 1), withAlpha(pal.panelBg, 0.9f), 3);
            dl->AddText(small, small->FontSize, at, pal.arrow, label.c_str());
        }
    }
}

} // namespace vkp::ui
