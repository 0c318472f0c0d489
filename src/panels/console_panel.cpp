#include "panels/console_panel.h"

#include <algorithm>

#include "panels/inspector_panel.h"
#include "views/trace_view.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws

// Formatted once per trace: a kernel that prints from every thread has many lines.
const std::vector<PrintfLine>& ConsoleView::linesOf(const ShownCase& sc) {
    if (m_trace != sc.shownTrace) {
        m_trace = sc.shownTrace;
        m_lines = m_trace ? printfLines(*m_trace) : std::vector<PrintfLine>{};
    }
    return m_lines;
}

std::string ConsoleView::tabLabel(const ShownCase& sc) {
    size_t n = linesOf(sc).size();
    return n ? "Console (" + std::to_string(n) + ")" : "Console";
}

void ConsoleView::draw(ViewState& view, const ShownCase& sc) {
    const std::vector<PrintfLine>& lines = linesOf(sc);
    layout::fact("consoleLines", std::to_string(lines.size()));
    if (!sc.trace() || !sc.testCase)
        return dimText(
            "The console shows debugPrintfEXT output of a traced run; this case has no trace yet.");
    const Trace& trace = *sc.trace();
    uint64_t lost = printfDroppedTotal(trace);
    if (lines.empty() && !lost) {
        dimText("No printf output. To print from a kernel, add  #extension GL_EXT_debug_printf : "
                "enable  under #version and call");
        dimText("debugPrintfEXT(\"i=%u a=%f\\n\", i, a[i]);  Each thread's lines appear here and "
                "in the inspector.");
        return;
    }
    std::optional<uint64_t> selected;
    if (view.selection.thread) selected = invocationIndex(*sc.testCase, *view.selection.thread);
    ImGui::Checkbox("Only the selected thread", &m_onlySelected);
    layout::item("console/only-selected");
    itemTooltip("Show only the lines of the thread selected in the grid, the inspector or here.");
    std::vector<size_t> rows;
    for (size_t i = 0; i < lines.size(); ++i)
        if (!m_onlySelected || (selected && lines[i].invocation == *selected)) rows.push_back(i);
    ImGui::SameLine(0, ImGui::GetFontSize());
    std::string count = std::to_string(rows.size()) + (rows.size() == 1 ? " line" : " lines");
    if (lost)
        count += ", " + std::to_string(lost) + " more not recorded (at most " +
                 std::to_string(kPrintfLinesPerThread) + " per thread)";
    ImGui::AlignTextToFramePadding();
    colouredText(lost ? palette().warn : palette().dimText, count);
    if (m_onlySelected && !selected)
        return dimText("Select a thread (click one in the grid or a line below) to see its lines.");
    drawRows(view, sc, rows);
}

void ConsoleView::drawRows(ViewState& view, const ShownCase& sc, const std::vector<size_t>& rows) {
    if (!ImGui::BeginTable("console", 3,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                               ImGuiTableFlags_SizingFixedFit,
                           ImVec2(0, 0)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("thread");
    ImGui::TableSetupColumn("line");
    ImGui::TableSetupColumn("output", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(rows.size()));
    ImGui::PushFont(fonts().mono);
    while (clip.Step())
        for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
            const PrintfLine& l = m_lines[rows[r]];
            Uvec3 g = globalIdOf(*sc.testCase, l.invocation);
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushID(r);
            bool isSelected = view.selection.thread && *view.selection.thread == g;
            if (ImGui::Selectable(idText(*sc.testCase, g).c_str(), isSelected,
                                  ImGuiSelectableFlags_SpanAllColumns)) {
                view.selection.thread = g;
                showLine(view, sc, l.sourceLine);
            }
            layout::item("console/row/" + std::to_string(r));
            layout::fact("console/row/" + std::to_string(r), std::to_string(g[0]) + "," +
                                                                 std::to_string(g[1]) + "," +
                                                                 std::to_string(g[2]));
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip(
                    "Click: select this thread (the inspector shows it) and go to line %u.",
                    l.sourceLine);
            ImGui::PopID();
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(std::to_string(l.sourceLine).c_str());
            ImGui::TableSetColumnIndex(2);
            ImGui::TextUnformatted(l.text.c_str());
        }
    ImGui::PopFont();
    ImGui::EndTable();
}

} // namespace vkp::ui
