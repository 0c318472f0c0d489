#include "panels/watch_panel.h"

#include <algorithm>

#include "base/source_text.h"
#include "views/trace_view.h"
#include "widgets/fonts.h"
#include "widgets/theme.h"
#include "widgets/view_export.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

constexpr size_t kMaxColumns = 63; // ImGui 1.86 tables hold 64 columns, one is the thread's

} // namespace

void WatchView::drawLines(Workbench& wb, const std::vector<uint32_t>& lines) {
    ImGui::AlignTextToFramePadding();
    dimText("watched lines");
    for (uint32_t line : lines) {
        ImGui::SameLine();
        ImGui::PushID(static_cast<int>(line));
        std::string label = "line " + std::to_string(line);
        if (ImGui::RadioButton(label.c_str(), m_line == line)) m_line = line;
        ImGui::SameLine(0, 2);
        if (ImGui::SmallButton("\xC3\x97")) wb.toggleWatch(line);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Stop watching line %u", line);
        ImGui::PopID();
    }
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 3.5f);
    bool enter = ImGui::InputInt("##add", &m_addLine, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine(0, 2);
    if ((ImGui::Button("Watch") || enter) && m_addLine > 0) {
        if (std::find(lines.begin(), lines.end(), uint32_t(m_addLine)) == lines.end())
            wb.toggleWatch(static_cast<uint32_t>(m_addLine));
        m_line = static_cast<uint32_t>(m_addLine);
        m_addLine = 0;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Watch this line number (or right-click a line in the editor, or F9 on "
                          "the cursor's line)");
}

void WatchView::drawTable(ViewState& view, const ShownCase& sc, const WatchTable& table) {
    const Trace& trace = *sc.trace();
    const Palette& pal = palette();
    bool hasSelected = view.selection.thread.has_value();
    uint64_t selectedInv = hasSelected ? invocationIndex(*sc.testCase, *view.selection.thread) : 0;
    std::vector<size_t> rows = watchRowsShown(
        table, trace, hasSelected ? std::optional(selectedInv) : std::nullopt, m_selectedGroupOnly);
    auto key =
        std::make_tuple(view.traces.generation(), table.line, static_cast<int>(m_text), m_variable);
    if (key != m_textsFor) {
        m_textsFor = key;
        m_texts.assign(table.rows.size(), {});
    }
    int columns = static_cast<int>(watchColumns(table, kMaxColumns));
    if (std::string note = watchColumnsNote(table, kMaxColumns); !note.empty()) dimText(note);
    ImGuiTableFlags flags = ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                            ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("watch", columns + 1, flags)) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("thread");
    for (int c = 0; c < columns; ++c)
        ImGui::TableSetupColumn(watchColumnTitle(c).c_str());
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(rows.size()));
    ImGui::PushFont(fonts().mono);
    while (clip.Step())
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            size_t rowIndex = rows[i];
            const WatchRow& r = table.rows[rowIndex];
            std::vector<std::string>& texts = m_texts[rowIndex];
            if (texts.empty())
                for (size_t k = 0; k < r.executions(); ++k)
                    texts.push_back(
                        watchCellText(trace, r.invocation, r.execution(k), m_text, m_variable));
            ImGui::TableNextRow();
            bool isSelected = hasSelected && selectedInv == r.invocation;
            if (isSelected)
                ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, withAlpha(pal.accent, 0.30f));
            ImGui::TableSetColumnIndex(0);
            Uvec3 g = globalIdOf(*sc.testCase, r.invocation);
            ImGui::PushID(i);
            if (ImGui::Selectable(idText(*sc.testCase, g).c_str(), isSelected,
                                  ImGuiSelectableFlags_SpanAllColumns))
                view.selection.clickThread(g);
            ImGui::PopID();
            for (int c = 0; c < columns && c < static_cast<int>(r.executions()); ++c) {
                if (!ImGui::TableSetColumnIndex(c + 1)) continue; // scrolled out of view
                ImGui::TextUnformatted(texts[c].c_str());
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip(
                        "%s", watchCellTooltip(trace, *sc.testCase, r, c, table.line).c_str());
            }
        }
    ImGui::PopFont();
    ImGui::EndTable();
}

void WatchView::forgetPuzzle() {
    m_line = 0;
    m_variable = -1;
    m_addLine = 0;
    m_textsFor = {UINT64_MAX, 0, 0, 0};
    m_texts.clear();
}

void WatchView::draw(Workbench& wb, ViewState& view, const ShownCase& sc) {
    std::vector<uint32_t> lines = wb.watchedLines();
    m_line = watchedLineShown(lines, m_line);
    drawLines(wb, lines);
    if (explanationsShown()) ImGui::SameLine();
    legend({}, "Watch a line of your kernel (right-click it in the editor, F9 on the cursor's "
               "line, or type its number): the "
               "table has a row per thread that ran it and a column per time it ran it (1st, 2nd, "
               "... = loop iterations), with the "
               "cells it read (a[3]=5) or wrote (result[1]\xE2\x86\x90"
               "8) there. Only memory accesses are traced: a line that reads "
               "and writes no buffer or shared array has nothing to show. Click a thread to select "
               "it. Right-click: save as PNG.");
    if (lines.empty()) {
        ImGui::PushTextWrapPos(0);
        dimText("No line is watched yet. Right-click a line in the editor and choose \"Watch this "
                "line\", or put the cursor on it and press F9.");
        ImGui::PopTextWrapPos();
        return;
    }
    const Trace* trace = sc.trace();
    if (!trace) return dimText("The table fills in once the kernel compiles and runs (traced).");
    const WatchTable& table = view.traces.watch(m_line);
    if (sc.source) {
        ImGui::PushFont(fonts().mono);
        colouredText(palette().synFunction, std::to_string(m_line) + ":  " +
                                                sourceLine(*sc.source, static_cast<int>(m_line)));
        ImGui::PopFont();
    }
    // Display options: what a cell shows, which array, which rows.
    ImGui::AlignTextToFramePadding();
    dimText("show");
    ImGui::SameLine();
    int kind = static_cast<int>(m_text);
    ImGui::RadioButton("cells", &kind, static_cast<int>(WatchTextKind::Cells));
    ImGui::SameLine();
    ImGui::RadioButton("cells = values", &kind, static_cast<int>(WatchTextKind::CellsAndValues));
    ImGui::SameLine();
    ImGui::RadioButton("values", &kind, static_cast<int>(WatchTextKind::Values));
    m_text = static_cast<WatchTextKind>(kind);
    if (table.variables.size() > 1) {
        ImGui::SameLine(0, ImGui::GetFontSize());
        std::string current = watchVariableName(*trace, m_variable);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
        if (ImGui::BeginCombo("##var", current.c_str())) {
            if (ImGui::Selectable("every array", m_variable < 0)) m_variable = -1;
            for (uint32_t v : table.variables)
                if (ImGui::Selectable(trace->variables[v].decl.name.c_str(),
                                      m_variable == static_cast<int>(v)))
                    m_variable = static_cast<int>(v);
            ImGui::EndCombo();
        }
    }
    if (view.selection.thread) {
        flowSameLine(ImGui::CalcTextSize("selected workgroup only").x + ImGui::GetFontSize() * 2);
        ImGui::Checkbox("selected workgroup only", &m_selectedGroupOnly);
    }
    if (table.rows.empty()) {
        ImGui::PushTextWrapPos(0);
        WatchEmpty empty = watchEmptyNote(*sc.puzzle, view.dispatches.lineOffsets(), m_line,
                                          view.dispatches.entries(), sc.entry);
        dimText(empty.text);
        ImGui::PopTextWrapPos();
        if (empty.dispatch && ImGui::Button(empty.button.c_str()))
            view.pickedDispatch = *empty.dispatch;
        return;
    }
    dimText(watchSummary(table));
    ImGui::BeginChild("watchtable", ImVec2(0, 0), false);
    exportMenu(view, "watches");
    drawTable(view, sc, table);
    ImGui::EndChild();
}

} // namespace vkp::ui
