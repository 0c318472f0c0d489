#include "panels/buffers_panel.h"

#include <algorithm>
#include <cmath>

#include "panels/cases_panel.h"
#include "views/trace_view.h"
#include "widgets/fonts.h"
#include "widgets/theme.h"
#include "widgets/view_export.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws

std::string workgroupName(const TestCase& tc, uint64_t flat) {
    const Uvec3& n = tc.workgroups;
    Uvec3 g{uint32_t(flat % n[0]), uint32_t((flat / n[0]) % n[1]),
            uint32_t(flat / (uint64_t(n[0]) * n[1]))};
    Uvec3 l = launchSize(tc);
    int dims = l[2] > 1 ? 3 : l[1] > 1 ? 2 : 1;
    std::string s = "(";
    for (int d = 0; d < dims; ++d)
        s += (d ? ", " : "") + std::to_string(g[d]);
    return s + ")";
}

// Scrolls the buffers view to the grid at the cursor once, when it holds the request just picked
// in the Efficiency panel (an output buffer is often far below the inputs).
void scrollToPickedRequest(ViewState& view, const CellRef& grid) {
    if (!view.scrollToRequest || !view.requestCells) return;
    const CellRef& base = view.requestCells->base;
    if (base.shared != grid.shared || base.array != grid.array) return;
    ImGui::SetScrollHereY(0.1f);
    view.scrollToRequest = false;
}

void gridTitle(const std::string& name, const std::string& what) {
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(name.c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    dimText(what);
}

std::string shapeWords(const Shape& shape, ElementKind type, const char* role) {
    std::string dims = shape.dims.size() == 2 ? std::to_string(shape.rows()) + " \xC3\x97 " +
                                                    std::to_string(shape.cols())
                                              : std::to_string(shape.count());
    return std::string(role) + " \xC2\xB7 " + elementKindName(type) + " [" + dims + "]";
}

void drawSharedArrays(const Trace& trace, uint64_t wg,
                      const std::vector<std::vector<uint32_t>>& values,
                      const std::vector<std::vector<uint8_t>>& written, const GridMarks& marks,
                      ViewState& view, float width, CellCanvas* canvas, const std::string& when) {
    int placed = 0;
    for (size_t v = 0; v < trace.variables.size(); ++v) {
        const TraceVariableInfo& info = trace.variables[v];
        if (!info.decl.shared || v >= values.size() || values[v].empty()) continue;
        if (!placed)
            dimText("shared memory of workgroup " + workgroupName(*marks.testCase, wg) + ", " +
                    when);
        BufferData data = sharedArrayData(info, values[v]);
        ImGui::PushID(static_cast<int>(v));
        scrollToPickedRequest(view, CellRef::sharedCell(static_cast<uint32_t>(v), wg, 0));
        // Small arrays sit side by side, as the inputs do.
        std::string what = shapeWords(data.shape, data.type, "shared");
        if (uint32_t w = info.decl.elementWidth; w > 1 && !info.dims.empty()) {
            // vec2 buf[2][8]: named as declared, its components drawn side by side.
            std::string dims;
            for (uint64_t d : info.dims)
                dims += (dims.empty() ? "" : " \xC3\x97 ") + std::to_string(d);
            const char* prefix = data.type == ElementKind::Int    ? "ivec"
                                 : data.type == ElementKind::Uint ? "uvec"
                                                                  : "vec";
            what = "shared \xC2\xB7 " + std::string(prefix) + std::to_string(w) + " [" + dims +
                   "], components side by side";
        }
        GridData d{"shared",
                   &data,
                   nullptr,
                   0,
                   v < written.size() ? &written[v] : nullptr,
                   CellRef::sharedCell(static_cast<uint32_t>(v), wg, 0),
                   true};
        float w = std::max(gridLayout(d, marks, width).size.x,
                           ImGui::CalcTextSize((info.decl.name + "  " + what).c_str()).x);
        if (placed++) flowSameLine(w + ImGui::GetFontSize());
        ImGui::BeginGroup();
        gridTitle(info.decl.name, what);
        if (auto clicked = drawCellGrid(d, marks, view, width, canvas))
            view.selection.clickCell(*clicked);
        ImGui::EndGroup();
        ImGui::PopID();
    }
    if (placed) ImGui::Spacing();
}

const CaseData* BuffersView::fallbackData(const Puzzle& p, size_t caseIndex) {
    auto key = std::make_pair(p.key(), caseIndex);
    auto it = m_materialised.find(key);
    if (it == m_materialised.end()) {
        auto d = materializeCase(p, caseIndex);
        it = m_materialised.emplace(key, d ? std::optional<CaseData>(std::move(*d)) : std::nullopt)
                 .first;
    }
    return it->second ? &*it->second : nullptr;
}

namespace {

// Beside an output's name: whether it matches the expected values, or that there are none.
void outputVerdict(const BufferOutcome& bo) {
    const Palette& pal = palette();
    ImGui::SameLine();
    if (!bo.checked) {
        dimText(ellipsize("not checked: no expected values", ImGui::GetContentRegionAvail().x));
        itemTooltip("A case of your own: this puzzle writes its expected values out by hand, so "
                    "there are none to compare with.");
    } else if (bo.comparison.pass)
        colouredText(pal.pass, "\xE2\x9C\x93 matches");
    else
        colouredText(pal.fail, "\xE2\x9C\x97 " + std::to_string(bo.comparison.mismatchCount) +
                                   " of " + std::to_string(bo.expected.shape.count()) +
                                   " cells wrong");
}

void buffersLegend(bool traced) {
    const Palette& pal = palette();
    if (!traced) {
        legend({{pal.cellWrongBg, "wrong value"},
                {pal.cellLinkedBg, "index = hovered thread's global id", pal.accent}},
               "Hover a cell to see its expected value and the thread whose global id equals its "
               "index (cell [i] \xE2\x86\x94 thread "
               "(i, 0, 0); cell [row][col] \xE2\x86\x94 thread (col, row, 0)). Hover a thread in "
               "the thread grid to light up its cells here.");
        return;
    }
    legend({{pal.cellWrongBg, "wrong value"},
            {pal.cellLinkedBg, "read", pal.accent},
            {pal.cellBg, "written", pal.cellWritten},
            {pal.cellBg, "selected cell", pal.text},
            {pal.arrow, "read \xE2\x86\x92 written"}},
           "Click a thread in the thread grid (or hover one): the cells it read are filled blue "
           "and the cells it wrote outlined "
           "green, each with the order numbers of its accesses (1 = its first access). Arrows join "
           "the cells it read to the cells it "
           "wrote with them (a trace has no data flow: writing the very value a read returned "
           "counts as a copy of that read, any "
           "other write as computed from every read not used yet; many reads of one array become "
           "one arrow with a count). Click a cell: "
           "every thread that touched it, in order, is listed beside the grid. Shared arrays show "
           "the workgroup of the selected "
           "thread at the end of the kernel. Right-click: save this view as a PNG.");
}

// One buffer the dispatch binds: "before" and "after" side by side when the dispatch wrote it
// (the last dispatch's outputs: what the device read back, beside the expected values), else its
// contents during the dispatch.
void dispatchBuffer(ViewState& view, const ShownCase& sc, const GridMarks& marks, size_t b,
                    float width, CellCanvas& canvas) {
    const Puzzle& p = *sc.puzzle;
    const DispatchMemory& mem = *sc.memory;
    const BufferDecl& decl = p.buffers[b];
    const BufferData& before = mem.before[b];
    bool last = sc.dispatch + 1 == view.dispatches.entries().size();
    const BufferOutcome* bo = nullptr;
    if (last)
        for (const BufferOutcome& o : sc.outcome->outputs)
            if (o.buffer == b) bo = &o;
    bool wrote = b < mem.wrote.size() && mem.wrote[b];
    std::string what = shapeWords(before.shape, decl.type, roleKindName(decl.role));
    size_t at = sc.entry->bufferAt[b];
    if (at != b) what += " \xC2\xB7 the memory that started as " + p.buffers[at].name;
    if (!wrote) what += " \xC2\xB7 not written by this dispatch";
    ImGui::PushID(static_cast<int>(b));
    gridTitle(decl.name, what);
    bool unchecked =
        bo && !bo->checked; // a learner's own case of a puzzle with hand-written outputs
    if (bo) outputVerdict(*bo);
    CellRef base = CellRef::buffer(static_cast<uint32_t>(b), 0);
    if (!wrote && !bo) {
        GridData d{"during", &before, nullptr, 0, nullptr, base, true};
        if (auto clicked = drawCellGrid(d, marks, view, width, &canvas))
            view.selection.clickCell(*clicked);
        ImGui::PopID();
        return ImGui::Spacing();
    }
    // Side by side: before | after (| expected).
    std::vector<std::pair<std::string, GridData>> grids;
    grids.push_back(
        {"before this dispatch", GridData{"before", &before, nullptr, 0, nullptr, base, true}});
    if (bo)
        grids.push_back({sc.official ? "after (the official solution, read back)"
                                     : "after (read back from the device)",
                         GridData{"after", &bo->actual, unchecked ? nullptr : &bo->expected,
                                  p.tolerance, nullptr, base, true}});
    else
        grids.push_back({"after this dispatch",
                         GridData{"after", &mem.after[b], nullptr, 0, nullptr, base, true}});
    if (bo && !unchecked)
        grids.push_back({"expected (the case's result)",
                         GridData{"expected", &bo->expected, nullptr, 0, nullptr, base, false}});
    // Side by side only when each grid keeps its shape (a 1D array on one line); else one under
    // the other at full width, so a cell's index lines up in all of them.
    float gap = ImGui::GetFontSize() * 1.5f;
    float each = (width - gap * (grids.size() - 1)) / grids.size();
    bool sideBySide = true;
    for (const auto& [label, g] : grids) {
        GridLayout l = layoutGrid(*g.values, g.expected, each);
        bool fits = l.twoD ? l.size.x <= each : l.rows <= 1;
        sideBySide = sideBySide && fits && ImGui::CalcTextSize(label.c_str()).x <= each;
    }
    if (!sideBySide) each = width;
    for (size_t k = 0; k < grids.size(); ++k) {
        if (k && sideBySide) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        dimText(grids[k].first);
        // Arrows end on the "after" grid: the cells this dispatch wrote.
        bool arrows = k == 1;
        if (auto clicked =
                drawCellGrid(grids[k].second, marks, view, each, arrows ? &canvas : nullptr))
            view.selection.clickCell(*clicked);
        ImGui::EndGroup();
    }
    ImGui::Spacing();
    ImGui::PopID();
}

// The notes that say where the replayed numbers may be off.
void replayNotes(const DispatchMemory& mem, float width) {
    if (mem.exact) return;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    for (const std::string& n : mem.notes)
        colouredText(palette().warn, "\xE2\x9A\xA0 " + n);
    ImGui::PopTextWrapPos();
}

// Between inputs and outputs, as data flows: shared memory at the end of the kernel, of the
// selected (else hovered) thread's workgroup, else the timeline's.
void drawSharedAtEnd(ViewState& view, const ShownCase& sc, const GridMarks& marks, float width,
                     CellCanvas& canvas) {
    const Trace* trace = sc.trace();
    const TraceAnalysis* analysis = sc.analysis();
    if (!trace || !analysis) return;
    std::optional<Uvec3> who = view.selection.thread ? view.selection.thread : view.hover.thread;
    uint64_t wg = who ? invocationIndex(*sc.testCase, *who) /
                            std::max(1u, trace->launch.invocationsPerGroup())
                      : view.timelineWorkgroup;
    // The efficiency lens's request on a shared array: its workgroup's copy, where it is coloured.
    if (view.requestCells && view.requestCells->shared) wg = view.requestCells->base.workgroup;
    if (wg >= analysis->rounds.size() || analysis->rounds[wg].empty()) return;
    const SharedSnapshot& last = analysis->rounds[wg].back();
    drawSharedArrays(*trace, wg, last.values, last.written, marks, view, width, &canvas,
                     "at the end");
}

// Above the grids of a case that did not run: why, and what is shown instead; or its error.
void caseNote(const ShownCase& sc, float width) {
    if (!sc.outcome) {
        std::string why = sc.official && sc.report && sc.report->error
                              ? "The official solution did not run (" + sc.report->error->message +
                                    "): showing the case's inputs and expected outputs."
                          : sc.official ? "The official solution is running: showing the case's "
                                          "inputs and expected outputs."
                          : !sc.report
                              ? "Not checked yet: showing the case's inputs and expected outputs."
                              : "Not run (see the messages under the editor): showing the inputs "
                                "and expected outputs.";
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
        dimText(why);
        ImGui::PopTextWrapPos();
    } else if (sc.outcome->error) {
        colouredText(palette().fail, sc.outcome->error->message);
    }
}

// The buffers of a case as one view: what it ran with, or its materialised data when it did not
// run.
struct CaseBuffers {
    const CaseOutcome* outcome = nullptr;
    const CaseData* fallback = nullptr;

    const BufferData* input(size_t b) const {
        if (outcome && b < outcome->inputs.size()) return &outcome->inputs[b];
        return fallback ? &fallback->initial[b] : nullptr;
    }
    const BufferOutcome* output(size_t b) const {
        const BufferOutcome* bo = nullptr;
        if (outcome)
            for (const BufferOutcome& o : outcome->outputs)
                if (o.buffer == b) bo = &o;
        return bo;
    }
    const BufferData* expected(size_t b, const BufferOutcome* bo) const {
        if (bo) return &bo->expected;
        return fallback && fallback->expected[b] ? &*fallback->expected[b] : nullptr;
    }
};

// The inputs (and anything else that is not an output), small ones side by side.
void drawInputs(ViewState& view, const ShownCase& sc, const CaseBuffers& bufs,
                const GridMarks& marks, float width, CellCanvas& canvas) {
    const Puzzle& p = *sc.puzzle;
    int placed = 0;
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        const BufferDecl& decl = p.buffers[b];
        if (decl.role == RoleKind::Output) continue;
        const BufferData* data = bufs.input(b);
        if (!data) continue;
        ImGui::PushID(static_cast<int>(b));
        std::string what = shapeWords(data->shape, decl.type, roleKindName(decl.role));
        GridData d{"in", data, nullptr, 0, nullptr, CellRef::buffer(static_cast<uint32_t>(b), 0),
                   true};
        float w = std::max(gridLayout(d, marks, width).size.x,
                           ImGui::CalcTextSize((decl.name + "  " + what).c_str()).x);
        if (placed++) flowSameLine(w + ImGui::GetFontSize());
        ImGui::BeginGroup();
        scrollToPickedRequest(view, CellRef::buffer(static_cast<uint32_t>(b), 0));
        gridTitle(decl.name, what);
        if (auto clicked = drawCellGrid(d, marks, view, width, &canvas))
            view.selection.clickCell(*clicked);
        ImGui::EndGroup();
        ImGui::PopID();
    }
    if (placed) ImGui::Spacing();
}

// One output: the actual values (when it ran) beside the expected ones, side by side if both fit.
void drawOutput(ViewState& view, const ShownCase& sc, size_t b, const BufferOutcome* bo,
                const BufferData& expected, const GridMarks& marks, float width,
                CellCanvas& canvas) {
    const Puzzle& p = *sc.puzzle;
    ImGui::PushID(static_cast<int>(b));
    scrollToPickedRequest(view, CellRef::buffer(static_cast<uint32_t>(b), 0));
    gridTitle(p.buffers[b].name, shapeWords(expected.shape, p.buffers[b].type, "output"));
    bool unchecked =
        bo && !bo->checked; // a learner's own case of a puzzle with hand-written outputs
    if (bo) outputVerdict(*bo);
    float gap = ImGui::GetFontSize() * 1.5f;
    GridLayout g = layoutGrid(expected, bo ? &bo->actual : nullptr, (width - gap) * 0.5f);
    bool sideBySide = bo && g.size.x * 2 + gap <= width;
    float each = sideBySide ? (width - gap) * 0.5f : width;
    CellRef base = CellRef::buffer(static_cast<uint32_t>(b), 0);
    if (bo) {
        ImGui::BeginGroup();
        dimText(sc.official ? "actual (the official solution)" : "actual (your kernel)");
        GridData d{"actual", &bo->actual, unchecked ? nullptr : &bo->expected, p.tolerance, nullptr,
                   base,     true};
        if (auto clicked = drawCellGrid(d, marks, view, each, &canvas))
            view.selection.clickCell(*clicked);
        ImGui::EndGroup();
        if (sideBySide && !unchecked) ImGui::SameLine(0, gap);
    }
    if (unchecked) { // nothing to compare with: no column of zeros that seems to match
        ImGui::Spacing();
        ImGui::PopID();
        return;
    }
    ImGui::BeginGroup();
    dimText("expected");
    GridData d{"expected", &expected, nullptr, 0, nullptr, base, !bo};
    if (auto clicked = drawCellGrid(d, marks, view, each, bo ? nullptr : &canvas))
        view.selection.clickCell(*clicked);
    ImGui::EndGroup();
    ImGui::Spacing();
    ImGui::PopID();
}

void drawOutputs(ViewState& view, const ShownCase& sc, const CaseBuffers& bufs,
                 const GridMarks& marks, float width, CellCanvas& canvas) {
    const Puzzle& p = *sc.puzzle;
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        if (p.buffers[b].role != RoleKind::Output) continue;
        const BufferOutcome* bo = bufs.output(b);
        if (const BufferData* expected = bufs.expected(b, bo))
            drawOutput(view, sc, b, bo, *expected, marks, width, canvas);
    }
}

} // namespace

void BuffersView::drawDispatch(ViewState& view, const ShownCase& sc) {
    const Puzzle& p = *sc.puzzle;
    const TestCase& tc = *sc.testCase;
    buffersLegend(true);
    GridMarks marks = gridMarks(p, tc, view);
    ImGui::BeginChild("bufferlist", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    exportMenu(view, "buffers");
    ImGui::BeginGroup();
    float width = ImGui::GetContentRegionAvail().x;
    size_t n = view.dispatches.entries().size();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    dimText("Dispatch " + std::to_string(sc.dispatch + 1) + " of " + std::to_string(n) + " (" +
            sc.entry->label +
            "): the buffers it binds, named as "
            "it calls them, before and after it ran. " +
            (sc.dispatch == 0
                 ? std::string("It starts from the case's initial data.")
                 : "Its starting data is replayed from the traces of the dispatches before it."));
    ImGui::PopTextWrapPos();
    replayNotes(*sc.memory, width);
    CellCanvas canvas;
    std::vector<Arrow> arrows = marks.selected ? arrowsFor(*marks.selected) : std::vector<Arrow>{};
    canvas.want(arrows);
    const std::vector<size_t>& bound = p.kernels.at(sc.entry->kernel).buffers;
    // What it only reads first, then what it writes; shared memory between, as data flows.
    for (int written = 0; written < 2; ++written) {
        for (size_t b : bound)
            if (b < p.buffers.size() &&
                (b < sc.memory->wrote.size() && sc.memory->wrote[b]) == (written == 1))
                dispatchBuffer(view, sc, marks, b, width, canvas);
        if (written == 0) drawSharedAtEnd(view, sc, marks, width, canvas);
    }
    if (sc.dispatch + 1 < n)
        dimText(
            "The case's outputs are compared with the expected values after the last dispatch (" +
            std::to_string(n) + ").");
    drawArrows(ImGui::GetWindowDrawList(), arrows, canvas);
    ImGui::EndGroup();
    ImGui::EndChild();
}

void BuffersView::draw(Workbench& wb, ViewState& view, const ShownCase& sc) {
    if (sc.memory && sc.entry && sc.outcome && !sc.outcome->error) return drawDispatch(view, sc);
    CaseBuffers bufs{sc.outcome, sc.outcome ? nullptr : fallbackData(*sc.puzzle, sc.index)};
    buffersLegend(sc.trace() != nullptr);
    GridMarks marks = gridMarks(*sc.puzzle, *sc.testCase, view);
    ImGui::BeginChild("bufferlist", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    exportMenu(view, "buffers");
    ImGui::BeginGroup();
    float width = ImGui::GetContentRegionAvail().x;
    caseNote(sc, width);
    CellCanvas canvas;
    std::vector<Arrow> arrows = marks.selected ? arrowsFor(*marks.selected) : std::vector<Arrow>{};
    canvas.want(arrows);
    drawInputs(view, sc, bufs, marks, width, canvas);
    drawSharedAtEnd(view, sc, marks, width, canvas);
    drawOutputs(view, sc, bufs, marks, width, canvas);
    drawArrows(ImGui::GetWindowDrawList(), arrows, canvas);
    ImGui::EndGroup();
    ImGui::EndChild();
    (void)wb;
}

} // namespace vkp::ui
