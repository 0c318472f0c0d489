#include "editor/find_bar.h"

#include <algorithm>
#include <cstdio>
#include <imgui.h>

#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace text; // the editor's text model this bar searches

std::string findSummary(const std::vector<TextRange>& matches,
                        std::pair<TextPos, TextPos> selection) {
    if (matches.empty()) return "No results";
    for (size_t i = 0; i < matches.size(); ++i)
        if (matches[i].first == selection.first && matches[i].second == selection.second)
            return std::to_string(i + 1) + " of " + std::to_string(matches.size());
    return std::to_string(matches.size()) + (matches.size() == 1 ? " match" : " matches");
}

void FindBar::open(const TextDocument& doc) {
    if (doc.hasSelection() && doc.selection().first.line == doc.selection().second.line)
        m_query = doc.selectedText();
    m_open = m_focusField = m_selectField = true;
    m_start = doc.selection().first;
}

FindEffect FindBar::close() {
    if (!m_open) return {};
    m_open = false;
    return {.focusText = true}; // the match stays selected
}

FindEffect FindBar::next(TextDocument& doc, bool forward) {
    if (m_query.empty()) return open(doc), FindEffect{};
    m_open = true;
    FindEffect e{.scrollToCursor = doc.findNext(m_query, forward, m_matchCase)};
    m_start = doc.selection().first;
    return e;
}

std::string FindBar::summary(const TextDocument& doc) const {
    if (!m_open || m_query.empty()) return "";
    return findSummary(doc.findAll(m_query, m_matchCase), doc.selection());
}

std::vector<TextRange> FindBar::matches(const TextDocument& doc) const {
    if (!m_open || m_query.empty()) return {};
    return doc.findAll(m_query, m_matchCase);
}

FindEffect FindBar::draw(TextDocument& doc, float width) {
    FindEffect effect;
    auto apply = [&](FindEffect e) {
        effect.scrollToCursor |= e.scrollToCursor;
        effect.focusText |= e.focusText;
    };
    const Palette& pal = palette();
    const ImGuiStyle& style = ImGui::GetStyle();
    float button = ImGui::GetFrameHeight(), gap = style.ItemSpacing.x;
    float summaryW = ImGui::CalcTextSize("888 of 888").x;
    float fieldW = std::max(ImGui::GetFontSize() * 5, width - summaryW - 4 * (button + gap) - gap);
    float x0 = ImGui::GetCursorPosX();
    ImGui::PushID("find");
    // The keyboard goes to the field: its window is focused first (ImGui 1.90.1 moves keyboard
    // focus only inside the focused window's scope, and the editor's own child has it), and the
    // request is made again every few frames (at most three times) until the field is active.
    bool wantFocus = m_focusField;
    if (wantFocus && m_focusTries % 4 == 0) { // a request takes effect a frame or two later in 1.90
        ImGui::SetWindowFocus();
        ImGui::SetKeyboardFocusHere();
    }
    ImGuiInputTextFlags flags = ImGuiInputTextFlags_EnterReturnsTrue |
                                (m_selectField ? ImGuiInputTextFlags_AutoSelectAll : 0);
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s", m_query.c_str());
    ImGui::SetNextItemWidth(fieldW);
    bool enter = ImGui::InputTextWithHint("##query", "Find in the kernel", buf, sizeof buf, flags);
    layout::item("find/field");
    if (wantFocus && (ImGui::IsItemActive() || ++m_focusTries >= 12)) {
        m_focusField = m_selectField = false;
        m_focusTries = 0;
    }
    if (ImGui::IsItemEdited()) {
        m_query = buf;
        effect.scrollToCursor |= doc.selectMatch(m_query, m_start, true, m_matchCase);
    }
    if (enter) {
        apply(next(doc, !ImGui::GetIO().KeyShift));
        m_focusField = true; // Enter leaves a field: stay in it for the next Enter
    }
    std::string said = summary(doc);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    if (said == "No results")
        colouredText(pal.fail, said);
    else
        dimText(said);
    ImGui::SameLine(x0 + fieldW + summaryW + 2 * gap);
    if (ImGui::Button("\xE2\x86\x91", ImVec2(button, button))) apply(next(doc, false));
    layout::item("find/previous");
    itemTooltip("Previous match (Shift+F3, Shift+Enter)");
    ImGui::SameLine();
    if (ImGui::Button("\xE2\x86\x93", ImVec2(button, button))) apply(next(doc, true));
    layout::item("find/next");
    itemTooltip("Next match (F3, Enter)");
    ImGui::SameLine();
    if (m_matchCase)
        ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    bool toggleCase = ImGui::Button("Aa", ImVec2(button, button));
    if (m_matchCase) ImGui::PopStyleColor();
    layout::item("find/match case");
    itemTooltip(m_matchCase ? "Matching case: \"ID\" finds only \"ID\""
                            : "Ignoring case: \"id\" also finds \"ID\". Click to match case.");
    if (toggleCase) {
        m_matchCase = !m_matchCase;
        doc.selectMatch(m_query, m_start, true, m_matchCase);
    }
    ImGui::SameLine();
    if (ImGui::Button("\xC3\x97", ImVec2(button, button))) apply(close());
    layout::item("find/close");
    itemTooltip("Close (Esc)");
    ImGui::PopID();
    return effect;
}

} // namespace vkp::ui
