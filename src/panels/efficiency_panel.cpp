#include "panels/efficiency_panel.h"

#include "editor/code_editor.h"
#include "panels/hidden_case_panel.h"
#include "panels/inspector_panel.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws

void resolveRequest(ViewState& view, const ShownCase& sc) {
    view.requestCells.reset();
    const Trace* trace = sc.trace();
    const TraceAnalysis* analysis = sc.analysis();
    if (!trace || !analysis || shownCaseHidden(sc)) return;
    const MemoryModel& model = analysis->efficiency.model;
    std::optional<ShownRequest> shown;
    if (view.hover.access)
        shown = requestOfAccess(*trace, model, view.hover.access->first, view.hover.access->second);
    if (!shown && view.request && view.requestGeneration == view.traces.generation())
        shown = view.request;
    if (shown) view.requestCells = requestCells(*trace, model, *shown);
    layout::fact("efficiencyRequest", view.requestCells ? view.requestCells->summary : "");
}

void pickLineRequest(ViewState& view, const EfficiencyReport& report, const LineEfficiency& line) {
    auto s = worstSiteOf(report, line);
    if (!s || report.sites[*s].worst.lanes.empty()) return;
    const SiteEfficiency& site = report.sites[*s];
    view.request = ShownRequest{site.site, site.worst};
    view.requestGeneration = view.traces.generation();
    view.timelineWorkgroup = site.worst.workgroup; // shared arrays: its workgroup's copy
    view.showMemoryTab = MemoryTab::Buffers;
    view.scrollToRequest = true;
}

void EfficiencyPanel::drawLines(ViewState& view, const ShownCase& sc,
                                const EfficiencyReport& report) {
    const Palette& pal = palette();
    std::string probe;
    if (!ImGui::BeginTable("efficiency", 3,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                               ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("line");
    ImGui::TableSetupColumn("figure");
    ImGui::TableSetupColumn("why", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < report.lines.size(); ++i) {
        const LineEfficiency& l = report.lines[i];
        probe += (probe.empty() ? "" : ";") + std::to_string(l.line) + ":" + l.badge;
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::PushID(static_cast<int>(i));
        bool picked = view.request && view.request->site.line == l.line &&
                      view.requestGeneration == view.traces.generation();
        ImGui::PushFont(fonts().mono);
        if (ImGui::Selectable(std::to_string(l.line).c_str(), picked,
                              ImGuiSelectableFlags_SpanAllColumns)) {
            showLine(view, sc, l.line);
            pickLineRequest(view, report, l);
        }
        ImGui::PopFont();
        layout::item("efficiency/line/" + std::to_string(l.line));
        itemTooltip("Click: the editor goes to line " + std::to_string(l.line) +
                    " and the Buffers tab colours its worst request (the lanes of one modelled "
                    "subgroup).");
        ImGui::PopID();
        ImGui::TableSetColumnIndex(1);
        colouredText(costColour(l.cost), l.badge);
        ImGui::TableSetColumnIndex(2);
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(l.sentence.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
    layout::fact("efficiencyLines", probe);
    (void)pal;
}

void EfficiencyPanel::draw(ViewState& view, const ShownCase& sc, ImVec2 size) {
    (void)size;
    const TraceAnalysis* a = sc.analysis();
    ImGui::PushTextWrapPos(0);
    if (!sc.puzzle || !sc.testCase) {
        dimText("Open a puzzle: its case's efficiency figures show here.");
        return ImGui::PopTextWrapPos();
    }
    dimText(modelSentence(a ? a->efficiency.model : MemoryModel{}));
    std::string title = std::string(sc.official ? "The official solution's run" : "Your run") +
                        ", case " + std::to_string(sc.index + 1) +
                        (sc.multiPass() ? ", dispatch " + std::to_string(sc.dispatch + 1) : "");
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopFont();
    std::string absence;
    if (shownCaseHidden(sc))
        absence = "A hidden case: its trace is not shown, nor its figures.";
    else
        absence = efficiencyAbsence(sc.outcome && !sc.outcome->error, sc.trace() != nullptr,
                                    a ? &a->efficiency : nullptr);
    layout::fact("efficiencyNote", absence);
    if (!absence.empty()) {
        ImGui::TextUnformatted(absence.c_str());
        layout::fact("efficiencyLines", "");
        return ImGui::PopTextWrapPos();
    }
    if (sc.outcome && sc.outcome->inconclusive)
        colouredText(palette().warn, "\xE2\x9A\xA0 The trace did not fit: these figures cover "
                                     "the part of the run it holds.");
    if (view.requestCells)
        colouredText(palette().sectorLine, "In the buffers: " + view.requestCells->summary);
    ImGui::PopTextWrapPos();
    drawLines(view, sc, a->efficiency);
}

} // namespace vkp::ui
