#include "panels/timeline_panel.h"

#include <algorithm>

#include "panels/buffers_panel.h"
#include "widgets/cell_grid.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/view_export.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

bool stepButton(const char* label, const char* tip, bool enabled) {
    ImGui::BeginDisabled(!enabled);
    bool pressed = ImGui::Button(label);
    layout::item(std::string("button/") + label);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tip);
    return pressed && enabled;
}

void workgroupPicker(ViewState& view, const ShownCase& sc) {
    uint64_t n = sc.workgroups();
    if (n <= 1) return;
    ImGui::AlignTextToFramePadding();
    dimText("workgroup");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    std::string current = workgroupName(*sc.testCase, view.timelineWorkgroup);
    if (ImGui::BeginCombo("##wg", current.c_str(), ImGuiComboFlags_HeightLarge)) {
        ImGuiListClipper clip;
        clip.Begin(static_cast<int>(std::min<uint64_t>(n, 1u << 20)));
        while (clip.Step())
            for (int g = clip.DisplayStart; g < clip.DisplayEnd; ++g)
                if (ImGui::Selectable(workgroupName(*sc.testCase, g).c_str(),
                                      uint64_t(g) == view.timelineWorkgroup))
                    view.timelineWorkgroup = g;
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The workgroup to step through: its threads, its shared memory.");
    ImGui::SameLine(0, ImGui::GetFontSize());
}

// Ticks under the scrubber where each barrier round ends.
void roundTicks(const Timeline& tl, ImVec2 min, ImVec2 max) {
    if (tl.size() == 0) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float pad = ImGui::GetStyle().GrabMinSize * 0.5f + ImGui::GetStyle().FramePadding.x;
    for (uint32_t r = 0; r + 1 < tl.rounds(); ++r) {
        float x =
            min.x + pad + (max.x - min.x - 2 * pad) * float(tl.roundEnd(r)) / float(tl.size());
        dl->AddLine(ImVec2(x, max.y - 4), ImVec2(x, max.y + 2), palette().warn, 2);
    }
}

} // namespace

void TimelineView::drawControls(ViewState& view, const ShownCase& sc, Timeline& tl) {
    workgroupPicker(view, sc);
    bool atStart = tl.position() == 0, atEnd = tl.position() == tl.size();
    if (stepButton("|<", "To the start: the initial data (Alt+Home)", !atStart)) tl.toStart();
    ImGui::SameLine(0, 2);
    if (stepButton("< round", "To the end of the previous barrier round (Alt+Up)", !atStart))
        tl.prevRound();
    ImGui::SameLine(0, 2);
    if (stepButton("round >", "To the end of this barrier round, or the next (Alt+Down)", !atEnd))
        tl.nextRound();
    ImGui::SameLine(0, 2);
    if (stepButton(">|", "To the end of the kernel (Alt+End)", !atEnd)) tl.toEnd();
    ImGuiStyle& st = ImGui::GetStyle();
    flowSameLine(ImGui::CalcTextSize("< accessaccess >").x + st.FramePadding.x * 4 +
                 ImGui::GetFontSize());
    if (stepButton("< access", "One access back (Alt+Left)", !atStart)) tl.prevAccess();
    ImGui::SameLine(0, 2);
    if (stepButton("access >", "One access on (Alt+Right)", !atEnd)) tl.nextAccess();
    int pos = static_cast<int>(tl.position());
    ImGui::SetNextItemWidth(-1);
    std::string label = positionText(tl);
    if (ImGui::SliderInt("##scrub", &pos, 0, static_cast<int>(tl.size()), label.c_str(),
                         ImGuiSliderFlags_AlwaysClamp))
        tl.seek(pos);
    roundTicks(tl, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    // What the step just taken did; click: the editor shows its line, the thread is selected.
    const Palette& pal = palette();
    if (std::optional<TimelineStep> step = timelineStep(tl, *sc.trace(), *sc.testCase)) {
        ImGui::PushFont(fonts().mono);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(
                                                 step->read ? pal.accent : pal.cellWritten));
        if (ImGui::Selectable(ellipsize(step->text, ImGui::GetContentRegionAvail().x).c_str(),
                              false))
            showTimelineStep(view, *step, sc.official);
        ImGui::PopStyleColor();
        ImGui::PopFont();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "The access just applied. Click: select its thread and show its line.");
    } else {
        dimText(timelineStartText(sc.entry && sc.dispatch > 0));
    }
}

namespace {

// The buffers as replayed at this step: outputs first (they change), then inputs. A dispatch of a
// multi-pass case: the buffers it binds, as it calls them.
void drawReplayedBuffers(ViewState& view, const ShownCase& sc, const Timeline& tl,
                         const std::vector<BufferData>& start, const GridMarks& marks, float width,
                         CellCanvas& canvas) {
    const Puzzle& p = *sc.puzzle;
    for (const ReplayedBuffer& r :
         replayedBuffers(p, *sc.trace(), tl, start,
                         sc.entry ? &p.kernels.at(sc.entry->kernel).buffers : nullptr,
                         sc.entry ? &sc.entry->bufferAt : nullptr)) {
        size_t b = r.buffer;
        ImGui::PushID(static_cast<int>(b));
        std::string what = shapeWords(r.now.shape, r.now.type, roleKindName(p.buffers[b].role));
        if (!r.startedAs.empty()) what += " \xC2\xB7 the memory that started as " + r.startedAs;
        gridTitle(p.buffers[b].name, what + " \xC2\xB7 this workgroup's writes");
        GridData d{"tl", &r.now, nullptr, 0, nullptr, CellRef::buffer(static_cast<uint32_t>(b), 0),
                   true};
        if (auto clicked = drawCellGrid(d, marks, view, width, &canvas))
            view.selection.clickCell(*clicked);
        ImGui::PopID();
        ImGui::Spacing();
    }
}

} // namespace

void TimelineView::draw(Workbench& wb, ViewState& view, const ShownCase& sc) {
    const Palette& pal = palette();
    const Trace* trace = sc.trace();
    if (!trace || !sc.outcome) {
        ImGui::PushTextWrapPos(0);
        dimText("The timeline steps through a traced run of the case: it appears once the kernel "
                "compiles and runs.");
        ImGui::PopTextWrapPos();
        return;
    }
    const std::vector<BufferData>& start = *sc.startData();
    Timeline& tl = view.traces.timeline(view.timelineWorkgroup, start);
    applyTimelineRequests(view, tl);
    // Where the timeline stands ("12/96", "0/96" at the start), for tests that step it with keys.
    layout::fact("timeline", std::to_string(tl.position()) + "/" + std::to_string(tl.size()));
    drawControls(view, sc, tl);
    legend(
        {{pal.cellChangedBg, "changed by the last step"},
         {pal.cellBg, "this step's cell", pal.stepOutline},
         {pal.arrow, "what this write read"},
         {pal.cellLinkedBg, "read by the selected thread", pal.accent},
         {pal.cellBg, "written by it", pal.cellWritten}},
        std::string(sc.entry ? "One workgroup of this dispatch, replayed from the buffers as they "
                               "were before the dispatch (the case's initial "
                               "data, then what each earlier dispatch wrote, from its trace). "
                             : "One workgroup, replayed from the case's initial data. ") +
            "Steps go barrier round by barrier round (round r = the "
            "accesses between a thread's r-th and (r+1)-th barrier()); within a round thread by "
            "thread in local-index order, each "
            "thread's accesses in program order. Inside one round the real order between threads "
            "is unknown: that is why two "
            "threads touching one cell in the same round is a race. Shared cells nobody wrote yet "
            "show \xC2\xB7. The buffers show "
            "this workgroup's writes only. When the step is a write, arrows come from the reads "
            "that fed it. Atomics apply the operation written on their line. Keys: Alt+Left/Right "
            "one access, "
            "Alt+Up/Down one round, Alt+Home/End start/end. Right-click: save this view as a PNG.");
    GridMarks marks = gridMarks(*sc.puzzle, *sc.testCase, view);
    marks.timeline = &tl;
    if (std::optional<TimelineStep> step = timelineStep(tl, *trace, *sc.testCase))
        marks.stepCell = step->cell;
    ImGui::BeginChild("timelinelist", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    exportMenu(view, "timeline");
    ImGui::BeginGroup();
    float width = ImGui::GetContentRegionAvail().x;
    if (sc.memory) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
        if (sc.dispatch > 0) dimText(dispatchStartText(sc.dispatch, sc.entry->label));
        if (!sc.memory->exact)
            for (const std::string& n : sc.memory->notes)
                colouredText(pal.warn, "\xE2\x9A\xA0 " + n);
        ImGui::PopTextWrapPos();
    }
    // Arrows for the step just taken, when it wrote: from the reads that fed that write.
    CellCanvas canvas;
    std::vector<Arrow> arrows = stepArrows(tl, *trace);
    canvas.want(arrows);
    drawSharedArrays(*trace, tl.workgroup(), tl.state().values, tl.state().written, marks, view,
                     width, &canvas, tl.position() == tl.size() ? "at the end" : "at this step");
    drawReplayedBuffers(view, sc, tl, start, marks, width, canvas);
    drawArrows(ImGui::GetWindowDrawList(), arrows, canvas);
    ImGui::EndGroup();
    ImGui::EndChild();
    (void)wb;
}

} // namespace vkp::ui
