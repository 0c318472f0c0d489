#include "panels/walkthrough_panel.h"

#include <algorithm>
#include <cmath>

#include "panels/statement_panel.h"
#include "puzzle/device_needs.h"
#include "views/trace_view.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws

void WalkthroughPanel::start(Workbench& wb, ViewState& view, size_t step) {
    const Walkthrough* w = wb.walkthrough();
    if (!w || w->steps.empty()) return;
    m_player.start(w->steps.size());
    m_player.go(step);
    m_puzzle = wb.puzzleGeneration();
    m_scrolledStep = SIZE_MAX;
    view.walkthroughActive = true;
    view.walkthroughCase = stepCase(*w, w->steps[m_player.step()]);
    view.selection.clear();
    view.focus.clear();
    wb.requestOfficialRun(view.walkthroughCase);
}

void WalkthroughPanel::stop(ViewState& view) {
    m_player.stop();
    view.walkthroughActive = false;
    view.selection.clear();
    view.focus.clear();
}

// Points the views at the step, once per step and per trace of the official solution: first at
// the step's case (run aside when it was not yet), then at what it shows in that case's trace.
void WalkthroughPanel::applyStep(Workbench& wb, ViewState& view, const ShownCase& sc) {
    const Walkthrough* w = wb.walkthrough();
    if (!w || !m_player.active()) return;
    const WalkthroughStep& step = w->steps[m_player.step()];
    size_t caseIndex = stepCase(*w, step);
    if (view.walkthroughCase != caseIndex) {
        view.walkthroughCase = caseIndex;
        view.selection.clear();
        view.focus.clear();
        m_player.reapply();
    }
    wb.requestOfficialRun(caseIndex);
    if (!sc.official || sc.index != caseIndex || !sc.trace() || !sc.analysis() ||
        !m_player.needsApply(view.traces.generation()))
        return;
    // A step of another dispatch: put that one on show, and point at it once it is.
    size_t dispatch = step.focus.dispatch;
    if (sc.multiPass() && dispatch != sc.dispatch && dispatch < view.dispatches.entries().size()) {
        view.pickedDispatch = dispatch;
        m_player.reapply();
        return;
    }
    PlayerFocus pf = playerFocus(step, *sc.puzzle, *sc.testCase, *sc.trace(), *sc.analysis());
    pf.focus.lines = stepLines(wb, view, sc, step);
    view.focus = pf.focus;
    view.selection.clear();
    view.selection.thread = pf.thread;
    view.timelineWorkgroup = pf.workgroup;
    if (step.focus.lookback) {
        view.showMemoryTab = MemoryTab::Lookback;
        if (pf.round) view.seekRound = *pf.round;
    } else if (pf.round) {
        view.seekRound = *pf.round;
        view.showMemoryTab = MemoryTab::Timeline;
    } else {
        view.showMemoryTab = MemoryTab::Buffers;
    }
}

std::vector<uint32_t> WalkthroughPanel::stepLines(Workbench& wb, const ViewState& view,
                                                  const ShownCase& sc,
                                                  const WalkthroughStep& step) const {
    if (!sc.puzzle || sc.puzzle->kernels.size() <= 1) return step.focus.lines;
    const auto& entries = view.dispatches.entries();
    size_t kernel = step.focus.dispatch < entries.size() ? entries[step.focus.dispatch].kernel : 0;
    std::vector<uint32_t> offsets = kernelLineOffsets(*sc.puzzle, wb.solutionText());
    std::vector<uint32_t> out;
    for (uint32_t line : step.focus.lines)
        out.push_back(wholeTextLine(offsets, kernel, line));
    return out;
}

void WalkthroughPanel::drawHeader(Workbench& wb, ViewState& view, const std::string& tip) {
    const Walkthrough& w = *wb.walkthrough();
    const WalkthroughStep& step = w.steps[m_player.step()];
    ImGui::BeginDisabled(m_player.step() == 0);
    if (ImGui::Button("< Prev")) m_player.prev();
    layout::item("button/< Prev");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(
        ("step " + std::to_string(m_player.step() + 1) + " of " + std::to_string(m_player.steps()))
            .c_str());
    if (!tip.empty()) itemTooltip(tip);
    layout::fact("walkthroughStep", std::to_string(m_player.step() + 1));
    ImGui::SameLine();
    ImGui::BeginDisabled(m_player.step() + 1 >= m_player.steps());
    if (ImGui::Button("Next >")) m_player.next();
    layout::item("button/Next >");
    ImGui::EndDisabled();
    float close =
        ImGui::CalcTextSize("End the walkthrough").x + ImGui::GetStyle().FramePadding.x * 2;
    // At the row's right end when there is room after Next (at 200% there may be none: the
    // cursor's x is then the next row's start, and the button used to be drawn over Next).
    float afterNext =
        ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x;
    float right = ImGui::GetWindowContentRegionMax().x - close;
    if (right >= afterNext) ImGui::SameLine(right);
    bool end = ImGui::Button("End the walkthrough");
    layout::item("button/End the walkthrough");
    if (end) return stop(view);
    itemTooltip("Back to your kernel's run in the panels below (your kernel was never touched).");
    ImGui::PushFont(fonts().bold);
    colouredText(palette().accent, step.title);
    ImGui::PopFont();
}

// Under the step's text, why the official solution's run is not there to show: the device lacks
// what it needs, it ran untraced, it is still running, or it did not run.
void WalkthroughPanel::drawRunNote(Workbench& wb, const ShownCase& sc, size_t shownCase) {
    const std::optional<DeviceInfo>& device = wb.snapshot().device;
    DeviceNeeds missing =
        device && wb.puzzle() ? missingOn(wb.puzzle()->needs, *device) : DeviceNeeds{};
    const CheckReport* official = wb.officialReport(shownCase);
    const Palette& pal = palette();
    if (!missing.empty()) {
        ImGui::PushTextWrapPos(0);
        dimText("Not run here: " + device->name + " lacks " + needsText(missing) +
                ", which the official solution needs. Its steps and lines can still be read.");
        ImGui::PopTextWrapPos();
    } else if (official && !official->untraced.empty()) {
        ImGui::PushTextWrapPos(0);
        dimText("The official solution ran untraced: " + official->untraced + ".");
        ImGui::PopTextWrapPos();
    } else if (!sc.outcome) {
        const CheckReport* r = official;
        if (!r)
            colouredText(pal.warn, "Running the official solution on case " +
                                       std::to_string(shownCase + 1) + "\xE2\x80\xA6");
        else
            colouredText(pal.fail,
                         "The official solution did not run: " +
                             (r->error ? r->error->message : std::string("see the Device tab")));
    }
}

void WalkthroughPanel::draw(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 size) {
    const Walkthrough* w = wb.walkthrough();
    if (!w || m_puzzle != wb.puzzleGeneration()) return stop(view);
    if (view.walkthroughMove > 0) m_player.next();
    if (view.walkthroughMove < 0) m_player.prev();
    view.walkthroughMove = 0;
    applyStep(wb, view, sc);
    // Presenter mode's wide, short top row: the text on the left, the solution beside it; the
    // walkthrough's title goes into the step counter's tooltip (a row more for the text).
    bool beside = presenterMode() && size.x > ImGui::GetFontSize() * 40;
    size_t shownCase = view.walkthroughCase;
    std::string title =
        w->title + " \xC2\xB7 case " + std::to_string(shownCase + 1) +
        (wb.puzzle() && wb.puzzle()->scheduleFor(shownCase) ? ", forced schedule" : "");
    if (!beside) dimText(title);
    drawHeader(wb, view, beside ? title : "");
    if (!m_player.active()) return;
    const WalkthroughStep& step = w->steps[m_player.step()];
    // The text above, the solution below; the text gets what it needs up to half the height.
    float font = ImGui::GetFontSize();
    float wrap = ImGui::GetContentRegionAvail().x;
    float textH =
        std::clamp(ImGui::CalcTextSize(step.text.c_str(), nullptr, false, wrap).y + font * 2.5f,
                   font * 4, size.y * 0.5f);
    float scale = 1;
    view.walkthroughTextLack = 0;
    if (beside) {
        // The whole text beside the code: the row grows by what the text lacked when last drawn
        // (MainView, next frame); where the row can grow no more, the text takes more of the
        // width, then a smaller font, a stage a frame, each measured as drawn; only past the
        // last stage does it scroll.
        textH = ImGui::GetContentRegionAvail().y;
        if (m_fitStep != m_player.step() || m_fitWidth != size.x) {
            m_fitStep = m_player.step();
            m_fitWidth = size.x;
            m_fitStage = 0;
            m_fitMeasured = 0;
            m_fitStuck = 0;
        }
        constexpr int kLastStage = 7; // 52% of the width, 70% of the font
        if (m_fitMeasured > 0) {
            float lack = m_fitMeasured - m_fitShown;
            // The row gives back only what is worth a line: no swing over a few pixels.
            view.walkthroughTextLack =
                lack > 0 || lack < -ImGui::GetTextLineHeightWithSpacing() ? lack : 0;
            // Two frames in a row: a frame drawn while the row was still growing is no answer.
            bool stuck = lack > 1 && lack > view.walkthroughRowRoom + 1;
            m_fitStuck = stuck ? m_fitStuck + 1 : 0;
            if (m_fitStuck > 0 && m_fitStage < kLastStage) view.layoutSettling = true;
            if (m_fitStuck >= 2 && m_fitStage < kLastStage) {
                ++m_fitStage;
                m_fitStuck = 0;
            }
        }
        wrap = std::round(size.x * (m_fitStage == 0 ? 0.42f : 0.52f));
        scale = 1.0f - 0.05f * static_cast<float>(std::max(0, m_fitStage - 1));
        layout::fact("walkthroughTextScale", std::to_string(std::lround(scale * 100)));
        layout::fact("walkthroughTextWhole",
                     m_fitMeasured > 0 && m_fitMeasured <= m_fitShown + 1 ? "1" : "0");
    }
    if (beside) ImGui::BeginGroup();
    // Beside the code the scrollbar's room is always kept: a scrollbar that came and went would
    // re-wrap the text, and the fit would swing between two heights.
    ImGui::BeginChild("steptext", ImVec2(beside ? wrap : 0, beside ? 0 : textH), false,
                      beside ? ImGuiWindowFlags_AlwaysVerticalScrollbar : 0);
    if (scale < 1) ImGui::SetWindowFontScale(scale);
    // Beside the code, the lines of a paragraph sit closer: a short projector's rows are few.
    if (beside)
        ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing,
                            ImVec2(ImGui::GetStyle().ItemSpacing.x, std::round(font * 0.12f)));
    drawTextBlocks(step.text, "walkthrough");
    if (beside) ImGui::PopStyleVar();
    drawRunNote(wb, sc, shownCase);
    if (beside) {
        // What the text takes at this stage; the legend (no part of the step) only where a line
        // is left below it.
        m_fitMeasured = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
        m_fitShown = ImGui::GetWindowHeight();
        if (m_fitMeasured + ImGui::GetTextLineHeightWithSpacing() <= m_fitShown)
            drawLegend(sc, shownCase);
    }
    ImGui::EndChild();
    if (beside) {
        ImGui::EndGroup();
        ImGui::SameLine();
    } else {
        drawLegend(sc, shownCase);
    }
    drawViewer(wb, view, sc, step);
}

void WalkthroughPanel::drawLegend(const ShownCase&, size_t caseIndex) {
    const Palette& pal = palette();
    legend({{withAlpha(pal.focus, 0.5f), "the step's lines", pal.focus},
            {pal.executedLine, "lines the selected thread ran"}},
           "The official solution, read-only. The panels below show its own traced run of case " +
               std::to_string(caseIndex + 1) +
               " (titled Official solution): the step's threads are selected and outlined, its "
               "cells ringed, the timeline at its "
               "workgroup and round. Your kernel and its results are not touched; End the "
               "walkthrough brings them back.");
}

void WalkthroughPanel::drawViewer(Workbench& wb, ViewState& view, const ShownCase& sc,
                                  const WalkthroughStep& step) {
    if (m_loadedText != wb.solutionText()) {
        m_loadedText = wb.solutionText();
        m_solution.setText(m_loadedText);
    }
    EditorDecorations deco;
    deco.focus = stepLines(wb, view, sc, step);
    if (view.selection.thread && sc.official && sc.trace())
        deco.executed =
            view.traces.footprint(invocationIndex(*sc.testCase, *view.selection.thread)).lines;
    for (uint32_t line : view.focus.lines)
        if (std::find(deco.focus.begin(), deco.focus.end(), line) == deco.focus.end())
            deco.focus.push_back(line);
    if (m_scrolledStep != m_player.step() && !step.focus.lines.empty()) {
        std::vector<uint32_t> lines = stepLines(wb, view, sc, step);
        m_viewer.scrollToLine(static_cast<int>(*std::min_element(lines.begin(), lines.end())));
        m_scrolledStep = m_player.step();
    }
    m_viewer.draw("walkthrough-solution", m_solution, {}, ImGui::GetContentRegionAvail(), true,
                  &deco);
}

} // namespace vkp::ui
