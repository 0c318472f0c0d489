#include "widgets/cell_grid.h"

#include <algorithm>
#include <cmath>

#include "trace/trace.h"
#include "views/trace_view.h"
#include "widgets/cell_style.h"
#include "widgets/curved_arrow.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

std::string valueText(const Trace& trace, const CellRef& c, uint32_t word) {
    std::optional<ElementKind> type;
    if (c.shared && c.array < trace.variables.size())
        type = trace.variables[c.array].decl.elementType;
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
        std::string s = std::to_string(k + 1) + ". round " + std::to_string(t.round) + "  thread " +
                        idText(*m.testCase, globalIdOf(*m.testCase, t.invocation)) + "  line " +
                        std::to_string(t.line) + "  " + traceEventKindName(t.kind) + " " +
                        valueText(*m.trace, c, t.value);
        colouredText(t.kind == TraceEventKind::Read ? palette().accent : palette().cellWritten, s);
    }
    ImGui::PopFont();
    if (h.size() > kShown)
        dimText("\xE2\x80\xA6 and " + std::to_string(h.size() - kShown) +
                " more (click the cell: the full list)");
}

// What the efficiency request on show says about the cell: its lanes, its sector or bank.
void requestLines(const GridMarks& m, const CellRef& c) {
    if (!m.request || !m.model) return;
    const RequestCells& r = *m.request;
    if (r.base.shared != c.shared || r.base.array != c.array ||
        (c.shared && r.base.workgroup != c.workgroup))
        return;
    std::string where = r.shared ? "bank " + std::to_string(bankOf(*m.model, c.index))
                                 : "sector " + std::to_string(c.index / r.elementsPerSector) +
                                       " (" + std::to_string(m.model->sectorBytes) + " bytes)";
    auto it = r.lanes.find(c.index);
    std::string lanes;
    if (it != r.lanes.end())
        for (size_t k = 0; k < it->second.size() && k < 4; ++k)
            lanes += (k ? ", " : "") + std::to_string(it->second[k]);
    colouredText(palette().sectorLine,
                 it == r.lanes.end()
                     ? where + (r.inSector(c) ? ": moved by the request, not used" : "")
                     : where + ", lane" + (it->second.size() > 1 ? "s " : " ") + lanes +
                           (it->second.size() > 4 ? " \xE2\x80\xA6" : "") + " of the request");
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
        colouredText(wrong ? pal.fail : pal.pass, "actual " + d.values->format(i) +
                                                      (wrong ? "  \xE2\x89\xA0  " : "  =  ") +
                                                      "expected " + d.expected->format(i));
    else if (d.written && i < d.written->size() && !(*d.written)[i])
        dimText("not written yet (shows 0)");
    else
        ImGui::TextUnformatted(("value " + d.values->format(i)).c_str());
    requestLines(m, c);
    if (m.trace && m.traces) {
        historyLines(m, c);
    } else if (!c.shared) {
        if (auto t = threadOfCell(d.values->shape, i, *m.testCase))
            dimText("thread with this global id: " + idText(*m.testCase, *t));
        else
            colouredText(pal.warn, "no thread has this global id: the launch does not reach it");
    }
    ImGui::EndTooltip();
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
    if (auto g = sharedGrid(v, values.size()))
        d.shape = Shape{{g->rows, g->cols}};
    else
        d.shape = Shape{{values.size()}};
    d.words = values;
    return d;
}

namespace {

// A row of a multiple of `multiple` cells, else of a power of two dividing it (at least 4), else
// `fit` as it is.
uint64_t alignedColumns(uint64_t fit, uint64_t multiple) {
    if (fit >= multiple) return fit - fit % multiple;
    uint64_t p = 1;
    while (p * 2 <= fit && multiple % (p * 2) == 0)
        p *= 2;
    return p >= 4 ? p : fit;
}

} // namespace

GridLayout layoutGrid(const BufferData& data, const BufferData* expected, float width, bool tall,
                      uint64_t colsMultiple, size_t minChars) {
    ImFont* f = fonts().mono;
    float cw = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, "0").x;
    GridLayout g;
    g.count = data.shape.count();
    g.twoD = data.shape.dims.size() == 2;
    size_t widest = minChars;
    // Widths from a sample of cells: formatting every cell of a large buffer each frame costs.
    uint64_t step = std::max<uint64_t>(1, g.count / 512);
    for (uint64_t i = 0; i < g.count; i += step) {
        widest = std::max(widest, data.format(i).size());
        if (expected && i < expected->shape.count())
            widest = std::max(widest, expected->format(i).size());
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
        if (colsMultiple > 1 && g.count > fit) fit = alignedColumns(fit, colsMultiple);
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
        if (view.selection.thread)
            m.selected = &view.traces.footprint(invocationIndex(tc, *view.selection.thread));
        if (view.hover.thread &&
            !(view.selection.thread && *view.selection.thread == *view.hover.thread))
            m.hovered = threadFootprint(*m.trace, invocationIndex(tc, *view.hover.thread)).cells;
    }
    m.selectedCell = view.selection.cell;
    m.hoveredCell = view.hover.cell;
    m.focus = view.focus.cells;
    if (view.requestCells && m.trace && view.traces.analysis()) {
        m.request = &*view.requestCells;
        m.model = &view.traces.analysis()->efficiency.model;
    }
    return m;
}

namespace {

// Where one grid lies on screen this frame, and what the pointer does on it.
struct GridFrame {
    GridLayout layout;
    ImVec2 origin;                   // top-left corner of the grid (row labels, column header)
    ImVec2 cells;                    // top-left corner of cell 0
    bool tall = false;               // a strip above each value for order numbers
    float orderSize = 0, orderH = 0; // order numbers' text height and strip height
    bool hovered = false, clicked = false;
};

// The grid holds the array of the request on show.
bool onRequestArray(const GridData& d, const GridMarks& m) {
    if (!d.marks || !m.request || !m.model) return false;
    const CellRef& r = m.request->base;
    return d.base.shared == r.shared && d.base.array == r.array &&
           (!r.shared || d.base.workgroup == r.workgroup);
}

// A strip above each value: for the selected thread's order numbers, and for the banks of a
// shared request (labelled there so that a wide value never runs under its bank).
bool tallGrid(const GridData& d, const GridMarks& m) {
    return (d.marks && m.selected) || (onRequestArray(d, m) && m.request->shared);
}

// Lays the grid out at the cursor and claims its area for the pointer.
GridFrame placeGrid(const GridData& d, const GridMarks& m, float width) {
    GridFrame f;
    f.tall = tallGrid(d, m);
    f.layout = gridLayout(d, m, width);
    const GridLayout& g = f.layout;
    f.origin = ImGui::GetCursorScreenPos();
    ImGui::PushID(d.id.c_str());
    ImGui::InvisibleButton("grid", ImVec2(std::max(1.0f, g.size.x), std::max(1.0f, g.size.y)));
    f.hovered = ImGui::IsItemHovered(), f.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
    ImGui::PopID();
    f.cells = ImVec2(f.origin.x + g.labelW, f.origin.y + g.headerH);
    f.orderSize = fonts().small->FontSize * 0.85f;
    f.orderH = f.tall ? std::ceil(f.orderSize) : 0;
    return f;
}

// Column indices on top: every column of a matrix, or of a 1D array on one row.
void drawColumnHeader(ImDrawList* dl, const GridFrame& f) {
    const GridLayout& g = f.layout;
    for (uint64_t c = 0; c < g.cols && (g.twoD || g.rows == 1); ++c) {
        std::string s = std::to_string(c);
        centredText(dl, fonts().small, ImVec2(f.cells.x + c * g.cellW, f.origin.y),
                    ImVec2(f.cells.x + (c + 1) * g.cellW, f.cells.y), palette().dimText, s.c_str());
    }
}

// The index of the cell under the pointer, if it is on one.
std::optional<uint64_t> hoveredIndex(const GridFrame& f) {
    if (!f.hovered) return std::nullopt;
    const GridLayout& g = f.layout;
    ImVec2 mp = ImGui::GetIO().MousePos;
    int c = static_cast<int>(std::floor((mp.x - f.cells.x) / g.cellW)),
        r = static_cast<int>(std::floor((mp.y - f.cells.y) / g.cellH));
    if (c >= 0 && r >= 0 && uint64_t(c) < g.cols && uint64_t(r) < g.rows &&
        uint64_t(r) * g.cols + c < g.count)
        return uint64_t(r) * g.cols + c;
    return std::nullopt;
}

// What the styling of every cell of one grid needs from the pointer and the hovered thread.
struct CellContext {
    std::optional<uint64_t>
        conventionCell; // without a trace: the cell at the hovered thread's global id
    std::optional<uint64_t> hoveredCell; // the cell under the pointer in this grid
};

BufferCellFacts cellFacts(const GridData& d, const GridMarks& m, const CellContext& ctx,
                          const CellRef& c) {
    uint64_t i = c.index;
    const CellMark* sel = nullptr;
    const CellMark* hov = nullptr;
    if (d.marks && m.selected)
        if (auto it = m.selected->cells.find(c); it != m.selected->cells.end()) sel = &it->second;
    if (d.marks)
        if (auto it = m.hovered.find(c); it != m.hovered.end()) hov = &it->second;
    BufferCellFacts f;
    f.wrong = d.expected && cellWrong(*d.values, *d.expected, i, d.tolerance);
    f.changed = d.marks && m.timeline && m.timeline->wasChanged(c);
    f.unwritten = d.written && i < d.written->size() && !(*d.written)[i];
    f.read = (sel && sel->read) || (hov && hov->read) ||
             (ctx.conventionCell && *ctx.conventionCell == i);
    f.written = (sel && sel->written) || (hov && hov->written);
    f.focused = d.marks && std::find(m.focus.begin(), m.focus.end(), c) != m.focus.end();
    f.step = d.marks && m.stepCell && *m.stepCell == c;
    f.selected = m.selectedCell && *m.selectedCell == c;
    f.emphasis = emphasis();
    f.hovered = (ctx.hoveredCell && *ctx.hoveredCell == i) ||
                (!ctx.hoveredCell && m.hoveredCell && *m.hoveredCell == c);
    if (d.marks && m.request) {
        f.inRequest = m.request->contains(c);
        f.inSector = !f.inRequest && m.request->inSector(c);
    }
    if (!f.unwritten) f.value = d.values->format(i);
    if (sel) f.orders = &sel->orders, f.ordersWritten = sel->written;
    return f;
}

void drawOutline(ImDrawList* dl, ImVec2 a, ImVec2 b, const CellOutline& o) {
    dl->AddRect(ImVec2(a.x - o.grow, a.y - o.grow), ImVec2(b.x + o.grow, b.y + o.grow), o.colour,
                o.rounding, 0, o.thickness);
}

// One cell from a to b: background, outlines, value, and the order numbers in the strip above it.
// A cell: its value below the strip of a tall grid; in the strip, the bank of a shared request's
// cell on the left ("b3") and the selected thread's order numbers on the right, clipped where
// they would run into the bank.
void drawCell(ImDrawList* dl, const GridFrame& f, ImVec2 a, ImVec2 b, const BufferCellStyle& s,
              const std::string& bank) {
    dl->AddRectFilled(a, b, s.background, 2);
    for (const CellOutline& o : s.outlines)
        drawOutline(dl, a, b, o);
    centredText(dl, fonts().mono, ImVec2(a.x, a.y + f.orderH * 0.8f), b, s.textColour,
                s.text.c_str());
    if (!f.tall) return;
    ImFont* small = fonts().small;
    float ordersFrom = a.x;
    if (!bank.empty()) {
        ImVec4 clip(a.x, a.y, b.x, b.y);
        dl->AddText(small, f.orderSize, ImVec2(a.x + 2, a.y + 1), palette().sectorLine,
                    bank.c_str(), nullptr, 0, &clip);
        ordersFrom = a.x + 4 + small->CalcTextSizeA(f.orderSize, FLT_MAX, 0, bank.c_str()).x;
    }
    if (s.orders.empty()) return;
    ImVec2 ts = small->CalcTextSizeA(f.orderSize, FLT_MAX, 0, s.orders.c_str());
    ImVec4 clip(ordersFrom, a.y, b.x, b.y);
    dl->AddText(small, f.orderSize, ImVec2(std::max(ordersFrom, b.x - ts.x - 2), a.y + 1),
                s.ordersColour, s.orders.c_str(), nullptr, 0, &clip);
}

// Tests find cells by their place in the layout probe: "cell/buffer0/in/3" (array, grid, index).
void probeCell(const GridData& d, uint64_t i, ImVec2 a, ImVec2 b) {
    if (layout::enabled() && i < 64)
        layout::rect("cell/" + std::string(d.base.shared ? "shared" : "buffer") +
                         std::to_string(d.base.array) + "/" + d.id + "/" + std::to_string(i),
                     a, b);
}

// A global buffer under a request: a bar where each sector starts.
void drawSectorMark(ImDrawList* dl, const GridMarks& m, const CellRef& c, ImVec2 a, ImVec2 b) {
    if (m.request->shared || c.index % m.request->elementsPerSector != 0) return;
    float scale = fonts().mono->FontSize / kBaseFontPx;
    dl->AddRectFilled(ImVec2(a.x - 2.5f * scale, a.y - 1), ImVec2(a.x, b.y + 1),
                      palette().sectorLine);
}

// A shared array under a request: the bank of each cell the request touched ("" elsewhere).
std::string bankLabel(const GridMarks& m, const CellRef& c) {
    if (!m.request->shared || !m.request->contains(c)) return "";
    return "b" + std::to_string(bankOf(*m.model, c.index));
}

// The visible rows: row labels, then each cell styled from its facts.
void drawRows(ImDrawList* dl, const GridFrame& f, const GridData& d, const GridMarks& m,
              const CellContext& ctx) {
    const GridLayout& g = f.layout;
    CellRef c = d.base;
    for (uint64_t r = 0; r < g.rows; ++r) {
        float y = f.cells.y + r * g.cellH;
        if (!ImGui::IsRectVisible(ImVec2(f.origin.x, y),
                                  ImVec2(f.origin.x + g.size.x, y + g.cellH)))
            continue;
        std::string rl = std::to_string(g.twoD ? r : r * g.cols);
        centredText(dl, fonts().small, ImVec2(f.origin.x, y), ImVec2(f.cells.x - 2, y + g.cellH),
                    palette().dimText, rl.c_str());
        for (uint64_t col = 0; col < g.cols; ++col) {
            uint64_t i = r * g.cols + col;
            if (i >= g.count) break;
            c.index = i;
            ImVec2 a(f.cells.x + col * g.cellW, y), b(a.x + g.cellW - 2, a.y + g.cellH - 2);
            probeCell(d, i, a, b);
            bool request = onRequestArray(d, m);
            drawCell(dl, f, a, b, bufferCellStyle(cellFacts(d, m, ctx, c), palette()),
                     request ? bankLabel(m, c) : "");
            if (request) drawSectorMark(dl, m, c, a, b);
        }
    }
}

// Centres of the cells arrows may join (visible or not).
void recordCentres(CellCanvas* canvas, const GridFrame& f, const GridData& d) {
    if (!canvas || !d.marks) return;
    const GridLayout& g = f.layout;
    for (const CellRef& cell : canvas->wanted) {
        if (cell.shared != d.base.shared || cell.array != d.base.array ||
            cell.workgroup != d.base.workgroup || cell.index >= g.count)
            continue;
        uint64_t r = cell.index / g.cols, col = cell.index % g.cols;
        canvas->centres[cell] = ImVec2(f.cells.x + col * g.cellW + g.cellW * 0.5f - 1,
                                       f.cells.y + r * g.cellH + g.cellH * 0.5f - 1);
    }
}

} // namespace

// Under a request, a row holds whole sectors or all the banks; a shared request's cells are
// wide enough for "b31" beside an order number.
GridLayout gridLayout(const GridData& d, const GridMarks& m, float width) {
    bool request = onRequestArray(d, m);
    uint64_t multiple = !request            ? 1
                        : m.request->shared ? m.model->banks
                                            : m.request->elementsPerSector;
    bool banks = request && m.request->shared;
    return layoutGrid(*d.values, d.expected, width, tallGrid(d, m), multiple, banks ? 5 : 2);
}

std::optional<CellRef> drawCellGrid(const GridData& d, const GridMarks& m, ViewState& view,
                                    float width, CellCanvas* canvas) {
    GridFrame f = placeGrid(d, m, width);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    drawColumnHeader(dl, f);
    CellContext ctx;
    ctx.hoveredCell = hoveredIndex(f);
    // Without a trace the hovered thread links to the cell at its global id (the convention).
    if (!m.trace && view.hover.thread && !d.base.shared)
        ctx.conventionCell = cellOfThread(d.values->shape, *view.hover.thread);
    drawRows(dl, f, d, m, ctx);
    recordCentres(canvas, f, d);
    if (!ctx.hoveredCell) return std::nullopt;
    CellRef h = d.base;
    h.index = *ctx.hoveredCell;
    view.nextHover.cell = h;
    cellTooltip(d, m, *ctx.hoveredCell,
                d.expected && cellWrong(*d.values, *d.expected, *ctx.hoveredCell, d.tolerance));
    if (f.clicked) return h;
    return std::nullopt;
}

void CellCanvas::want(const std::vector<Arrow>& arrows) {
    for (const Arrow& a : arrows)
        wanted.insert(a.from), wanted.insert(a.to);
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
        ArrowCurve c = arrowCurve(p0, p3, std::min(40.0f * scale, len * 0.2f));
        drawArrowCurve(dl, c,
                       {pal.arrow, (a.count > 1 ? 2.2f : 1.4f) * scale, 7 * scale, 2.5f * scale});
        if (a.count > 1) {
            // The count near the start, where the reads it stands for are.
            std::string label = "\xC3\x97" + std::to_string(a.count);
            ImVec2 box = arrowLabelSize(label);
            drawArrowLabel(dl,
                           ImVec2((c.p0.x + c.p1.x) * 0.5f - 2 + box.x * 0.5f,
                                  (c.p0.y + c.p1.y) * 0.5f - 1 + box.y * 0.5f),
                           label, pal.arrow);
        }
    }
}

} // namespace vkp::ui
