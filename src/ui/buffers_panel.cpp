#include "ui/buffers_panel.h"

#include <algorithm>
#include <cmath>

#include "ui/cases_panel.h"
#include "ui/fonts.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace vkp::ui {
namespace {

struct GridLayout {
    uint64_t count = 0, rows = 0, cols = 0;
    bool twoD = false;
    float cellW = 0, cellH = 0, labelW = 0, headerH = 0;
    ImVec2 size;
};

GridLayout layoutGrid(const BufferData& data, const BufferData* expected, float width) {
    ImFont* f = fonts().mono;
    float cw = f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, "0").x;
    GridLayout g;
    g.count = data.shape.count();
    g.twoD = data.shape.dims.size() == 2;
    size_t widest = 2;
    for (uint64_t i = 0; i < g.count; ++i) {
        widest = std::max(widest, data.format(i).size());
        if (expected && i < expected->shape.count()) widest = std::max(widest, expected->format(i).size());
    }
    g.cellW = std::ceil(widest * cw + cw * 1.4f);
    g.cellH = std::ceil(f->FontSize * 1.5f);
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

std::string cellLabel(const BufferDecl& decl, const Shape& s, uint64_t i) {
    if (s.dims.size() == 2) return decl.name + "[" + std::to_string(i / s.cols()) + "][" + std::to_string(i % s.cols()) + "]";
    return decl.name + "[" + std::to_string(i) + "]";
}

std::string threadList(const TestCase& tc, const std::vector<uint64_t>& invocations) {
    std::string s;
    for (size_t k = 0; k < invocations.size() && k < 4; ++k) {
        Uvec3 g = globalIdOf(tc, invocations[k]);
        s += (k ? ", " : "") + std::string("(") + std::to_string(g[0]) + ", " + std::to_string(g[1]) + ")";
    }
    if (invocations.size() > 4) s += " and " + std::to_string(invocations.size() - 4) + " more";
    return s;
}

void traceLines(const CellLinks& links, size_t buffer, uint64_t i) {
    std::vector<uint64_t> readers, writers;
    for (const auto& [t, a] : threadsAccessing(*links.trace, static_cast<int>(buffer), static_cast<uint32_t>(i))) {
        if (a.read) readers.push_back(t);
        if (a.written) writers.push_back(t);
    }
    if (writers.empty() && readers.empty()) return dimText("no thread read or wrote it");
    if (!writers.empty()) dimText("written by thread " + threadList(*links.testCase, writers));
    if (!readers.empty()) dimText("read by thread " + threadList(*links.testCase, readers));
}

void cellTooltip(const BufferDecl& decl, const BufferData& data, const BufferData* expected, uint64_t i, const CellLinks& links,
                 size_t buffer, bool wrong) {
    const TestCase& tc = *links.testCase;
    const Palette& pal = palette();
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts().mono);
    ImGui::TextUnformatted(cellLabel(decl, data.shape, i).c_str());
    ImGui::PopFont();
    if (expected) {
        colouredText(wrong ? pal.fail : pal.pass, "actual " + data.format(i) + (wrong ? "  \xE2\x89\xA0  " : "  =  ") + "expected " + expected->format(i));
    } else {
        ImGui::TextUnformatted(("value " + data.format(i)).c_str());
    }
    if (links.trace) traceLines(links, buffer, i);
    else if (auto t = threadOfCell(data.shape, i, tc))
        dimText("thread with this global id: (" + std::to_string((*t)[0]) + ", " + std::to_string((*t)[1]) + ", " + std::to_string((*t)[2]) + ")");
    else
        colouredText(pal.warn, "no thread has this global id: the launch does not reach it");
    ImGui::EndTooltip();
}

std::string shapeText(const BufferDecl& decl, const Shape& shape) {
    std::string dims = shape.dims.size() == 2 ? std::to_string(shape.rows()) + " \xC3\x97 " + std::to_string(shape.cols())
                                              : std::to_string(shape.count());
    return std::string(roleKindName(decl.role)) + " \xC2\xB7 " + elementKindName(decl.type) + " [" + dims + "]";
}

float titleWidth(const BufferDecl& decl, const Shape& shape) {
    return ImGui::CalcTextSize((decl.name + "  " + shapeText(decl, shape)).c_str()).x;
}

void sectionTitle(const BufferDecl& decl, const Shape& shape) {
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(decl.name.c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    dimText(shapeText(decl, shape));
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

void drawBufferGrid(const char* id, const BufferDecl& decl, const BufferData& data, const BufferData* expected,
                    double tolerance, const CellLinks& links, size_t linkBuffer, ViewState& view, float width) {
    const Palette& pal = palette();
    GridLayout g = layoutGrid(data, expected, width);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* mono = fonts().mono;
    ImFont* small = fonts().small;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::PushID(id);
    ImGui::InvisibleButton("grid", ImVec2(std::max(1.0f, g.size.x), std::max(1.0f, g.size.y)));
    bool hovered = ImGui::IsItemHovered();
    ImGui::PopID();
    ImVec2 cells(origin.x + g.labelW, origin.y + g.headerH);
    // Column indices on top, row indices (or a row's first index) on the left.
    for (uint64_t c = 0; c < g.cols && (g.twoD || g.rows == 1); ++c) {
        std::string s = std::to_string(c);
        centredText(dl, small, ImVec2(cells.x + c * g.cellW, origin.y), ImVec2(cells.x + (c + 1) * g.cellW, cells.y), pal.dimText, s.c_str());
    }
    // Cells the hovered thread touches: from the trace (reads filled, writes outlined), else by index.
    auto touched = [&](uint64_t i, bool& read, bool& written) {
        read = written = false;
        if (!view.hover.thread) return;
        if (!links.trace) {
            auto c = cellOfThread(data.shape, *view.hover.thread);
            read = c && *c == i;
            return;
        }
        for (const CellAccess& a : links.hoveredThread)
            if (a.buffer == static_cast<int>(linkBuffer) && a.index == i) read = a.read, written = a.written;
    };
    std::optional<uint64_t> hoveredCell;
    if (hovered) {
        ImVec2 m = ImGui::GetIO().MousePos;
        int c = static_cast<int>(std::floor((m.x - cells.x) / g.cellW)), r = static_cast<int>(std::floor((m.y - cells.y) / g.cellH));
        if (c >= 0 && r >= 0 && uint64_t(c) < g.cols && uint64_t(r) < g.rows && uint64_t(r) * g.cols + c < g.count) hoveredCell = uint64_t(r) * g.cols + c;
    }
    bool peerHovered = view.hover.cell && view.hover.cell->first == linkBuffer;
    for (uint64_t r = 0; r < g.rows; ++r) {
        float y = cells.y + r * g.cellH;
        if (!ImGui::IsRectVisible(ImVec2(origin.x, y), ImVec2(origin.x + g.size.x, y + g.cellH))) continue;
        std::string rl = std::to_string(g.twoD ? r : r * g.cols);
        centredText(dl, small, ImVec2(origin.x, y), ImVec2(cells.x - 2, y + g.cellH), pal.dimText, rl.c_str());
        for (uint64_t c = 0; c < g.cols; ++c) {
            uint64_t i = r * g.cols + c;
            if (i >= g.count) break;
            ImVec2 a(cells.x + c * g.cellW, y), b(a.x + g.cellW - 2, a.y + g.cellH - 2);
            bool wrong = expected && cellWrong(data, *expected, i, tolerance);
            bool read = false, written = false;
            touched(i, read, written);
            ImU32 bg = wrong ? pal.cellWrongBg : read ? pal.cellLinkedBg : pal.cellBg;
            dl->AddRectFilled(a, b, bg, 2);
            if (read) dl->AddRect(a, b, pal.accent, 2, 0, 1.5f);
            if (written) dl->AddRect(a, b, pal.cellWritten, 2, 0, 2.5f);
            if ((hoveredCell && *hoveredCell == i) || (peerHovered && view.hover.cell->second == i && !hoveredCell))
                dl->AddRect(a, b, pal.text, 2, 0, 1.5f);
            std::string v = data.format(i);
            centredText(dl, mono, a, b, wrong ? pal.cellWrongText : pal.text, v.c_str());
        }
    }
    if (hoveredCell) {
        view.nextHover.cell = std::make_pair(linkBuffer, *hoveredCell);
        bool wrong = expected && cellWrong(data, *expected, *hoveredCell, tolerance);
        cellTooltip(decl, data, expected, *hoveredCell, links, linkBuffer, wrong);
    }
}

const CaseData* BuffersPanel::fallbackData(const Puzzle& p, size_t caseIndex) {
    auto key = std::make_pair(p.folder, caseIndex);
    auto it = m_materialised.find(key);
    if (it == m_materialised.end()) {
        auto d = materializeCase(p, caseIndex);
        it = m_materialised.emplace(key, d ? std::optional<CaseData>(std::move(*d)) : std::nullopt).first;
    }
    return it->second ? &*it->second : nullptr;
}

void BuffersPanel::draw(Workbench& wb, ViewState& view, ImVec2 size) {
    const Puzzle* p = wb.puzzle();
    if (!p || p->cases.empty()) {
        beginPanel("buffers", "Buffers", size);
        return endPanel();
    }
    size_t ci = std::min<size_t>(view.selectedCase, p->cases.size() - 1);
    const TestCase& tc = p->cases[ci];
    std::string info = launchText(tc);
    if (std::string k = constantsText(*p, tc); !k.empty()) info += ", " + k;
    std::string title = "Buffers \xE2\x80\x94 case " + std::to_string(ci + 1);
    beginPanel("buffers", title.c_str(), size, info);
    const Palette& pal = palette();
    const CheckReport* r = wb.report();
    const CaseOutcome* outcome = wb.outcome(ci);
    const CaseData* fallback = outcome ? nullptr : fallbackData(*p, ci);
    CellLinks links;
    links.testCase = &tc;
    if (outcome && outcome->trace) {
        links.trace = outcome->trace.get();
        if (view.hover.thread) links.hoveredThread = cellsAccessed(*links.trace, invocationIndex(tc, *view.hover.thread));
    }
    legendSwatch(pal.cellWrongBg, "wrong value");
    if (links.trace) {
        flowSameLine(legendWidth("read by the hovered thread"));
        legendSwatch(pal.cellLinkedBg, "read by the hovered thread", pal.accent);
        flowSameLine(legendWidth("written by it"));
        legendSwatch(pal.cellBg, "written by it", pal.cellWritten);
    } else {
        flowSameLine(legendWidth("index = hovered thread's global id"));
        legendSwatch(pal.cellLinkedBg, "index = hovered thread's global id", pal.accent);
    }
    ImGui::SameLine();
    helpMarker(links.trace ? "Hover a thread in the thread grid: the cells it read light up, and those it wrote are outlined "
                             "(from the trace of this run). Hover a cell to see its expected value and which threads read or wrote it."
                           : "Hover a cell to see its expected value and the thread whose global id equals its index "
                             "(cell [i] \xE2\x86\x94 thread (i, 0, 0); cell [row][col] \xE2\x86\x94 thread (col, row, 0)). "
                             "Hover a thread in the thread grid to light up its cells here.");
    ImGui::BeginChild("bufferlist", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::BeginGroup();
    float width = ImGui::GetContentRegionAvail().x;
    if (!outcome) {
        std::string why = !r ? "Not checked yet: showing the case's inputs and expected outputs."
                              : "Not run (see the messages under the editor): showing the inputs and expected outputs.";
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
        dimText(why);
        ImGui::PopTextWrapPos();
    } else if (outcome->error) {
        colouredText(pal.fail, outcome->error->message);
    }
    int placedInputs = 0;
    for (size_t b = 0; b < p->buffers.size(); ++b) {
        const BufferDecl& decl = p->buffers[b];
        ImGui::PushID(static_cast<int>(b));
        if (decl.role != RoleKind::Output) {
            const BufferData* data = outcome && b < outcome->inputs.size() ? &outcome->inputs[b] : fallback ? &fallback->initial[b] : nullptr;
            if (data) {
                // Inputs sit side by side while they fit.
                float w = std::max(layoutGrid(*data, nullptr, width).size.x, titleWidth(decl, data->shape));
                if (placedInputs++) flowSameLine(w + ImGui::GetFontSize());
                ImGui::BeginGroup();
                sectionTitle(decl, data->shape);
                drawBufferGrid("in", decl, *data, nullptr, 0, links, b, view, width);
                ImGui::EndGroup();
            }
        }
        ImGui::PopID();
    }
    if (placedInputs) ImGui::Spacing();
    for (size_t b = 0; b < p->buffers.size(); ++b) {
        const BufferDecl& decl = p->buffers[b];
        if (decl.role != RoleKind::Output) continue;
        ImGui::PushID(static_cast<int>(b));
        const BufferOutcome* bo = nullptr;
        if (outcome)
            for (const BufferOutcome& o : outcome->outputs)
                if (o.buffer == b) bo = &o;
        const BufferData* expected = bo ? &bo->expected : fallback && fallback->expected[b] ? &*fallback->expected[b] : nullptr;
        if (!expected) {
            ImGui::PopID();
            continue;
        }
        sectionTitle(decl, expected->shape);
        if (bo) {
            ImGui::SameLine();
            if (bo->verdict.pass) colouredText(pal.pass, "\xE2\x9C\x93 matches");
            else colouredText(pal.fail, "\xE2\x9C\x97 " + std::to_string(bo->verdict.mismatchCount) + " of " + std::to_string(expected->shape.count()) + " cells wrong");
        }
        float gap = ImGui::GetFontSize() * 1.5f;
        GridLayout g = layoutGrid(*expected, bo ? &bo->actual : nullptr, (width - gap) * 0.5f);
        bool sideBySide = bo && g.size.x * 2 + gap <= width;
        float each = sideBySide ? (width - gap) * 0.5f : width;
        if (bo) {
            ImGui::BeginGroup();
            dimText("actual (your kernel)");
            drawBufferGrid("actual", decl, bo->actual, &bo->expected, p->tolerance, links, b, view, each);
            ImGui::EndGroup();
            if (sideBySide) ImGui::SameLine(0, gap);
        }
        ImGui::BeginGroup();
        dimText("expected");
        drawBufferGrid("expected", decl, *expected, nullptr, 0, links, b, view, each);
        ImGui::EndGroup();
        ImGui::Spacing();
        ImGui::PopID();
    }
    ImGui::EndGroup();
    ImGui::EndChild();
    endPanel();
}

} // namespace vkp::ui
