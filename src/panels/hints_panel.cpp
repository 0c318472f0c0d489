#include "panels/hints_panel.h"

#include <cmath>

#include "text/line_diff.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace text; // the line diff and the lexer of the solution viewer
namespace {

void hintCard(int number, const std::string& text) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float width = ImGui::GetContentRegionAvail().x, pad = ImGui::GetFontSize() * 0.6f;
    ImVec2 start = ImGui::GetCursorScreenPos();
    dl->ChannelsSplit(2);
    dl->ChannelsSetCurrent(1);
    ImGui::SetCursorScreenPos(ImVec2(start.x + pad, start.y + pad * 0.7f));
    ImGui::BeginGroup();
    ImGui::PushFont(fonts().bold);
    colouredText(pal.accent, "Hint " + std::to_string(number));
    ImGui::PopFont();
    richText(text, width - 2 * pad);
    ImGui::EndGroup();
    ImVec2 end(start.x + width, ImGui::GetItemRectMax().y + pad * 0.7f);
    dl->ChannelsSetCurrent(0);
    dl->AddRectFilled(start, end, withAlpha(pal.accent, 0.10f), 4);
    dl->AddRectFilled(start, ImVec2(start.x + 3, end.y), pal.accent, 2);
    dl->ChannelsMerge();
    ImGui::SetCursorScreenPos(start);
    ImGui::Dummy(ImVec2(width, end.y - start.y));
}

} // namespace

void HintsPanel::draw(Workbench& wb, views::ViewState& view, ImVec2) {
    const Puzzle* p = wb.puzzle();
    if (!p) return;
    PuzzleProgress pr = wb.progress(*p);
    int total = static_cast<int>(p->hints.size());
    if (total == 0) return dimText("This puzzle has no hints.");
    dimText("Hints go from gentle to nearly the answer. " + std::to_string(pr.hintsRevealed) +
            " of " + std::to_string(total) + " shown.");
    ImGui::Spacing();
    for (int i = 0; i < pr.hintsRevealed && i < total; ++i)
        hintCard(i + 1, p->hints[i]);
    if (pr.hintsRevealed < total) {
        std::string label =
            "Show hint " + std::to_string(pr.hintsRevealed + 1) + " of " + std::to_string(total);
        if (ImGui::Button(label.c_str())) wb.revealNextHint();
        layout::item("button/Show hint");
    } else {
        dimText("That was the last hint.");
        ImGui::SameLine();
        if (ImGui::SmallButton("See the solution")) view.showTab = views::SideTab::Solution;
    }
}

void SolutionPanel::draw(Workbench& wb, views::ViewState& view, const ShownCase& sc, ImVec2 size) {
    const Puzzle* p = wb.puzzle();
    if (!p) return;
    const Palette& pal = palette();
    if (m_walkthrough.active())
        return m_walkthrough.draw(wb, view, sc, ImGui::GetContentRegionAvail());
    if (wb.caseFile()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted("A case file holds no official solution, only the kernel it shows.");
        dimText("Close the case file (the Close button above the kernel) to come back to your own "
                "kernel and this puzzle's solution.");
        ImGui::PopTextWrapPos();
        return;
    }
    if (!wb.progress(*p).solutionRevealed) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(
            "The official solution is a complete kernel, commented to teach the idea.");
        dimText("Try the hints first: working it out yourself is where the learning is.");
        ImGui::PopTextWrapPos();
        ImGui::Spacing();
        if (ImGui::Button("Reveal the official solution")) wb.revealSolution();
        layout::item("button/Reveal the official solution");
        return;
    }
    if (m_loadedText != wb.solutionText()) {
        m_loadedText = wb.solutionText();
        m_solution.setText(m_loadedText);
    }
    if (const Walkthrough* w = wb.walkthrough(); w && !w->steps.empty()) {
        std::string label = "\xE2\x96\xB6 Walk through the official solution (" +
                            std::to_string(w->steps.size()) + " steps)";
        if (ImGui::Button(label.c_str())) m_walkthrough.start(wb, view);
        layout::item("button/Walk through the official solution");
        itemTooltip(w->title + ": step by step on case " + std::to_string(w->caseIndex + 1) +
                    ", with the panels below showing the official solution's own run. Your kernel "
                    "is not touched.");
    }
    bool same = wb.document().text() == wb.solutionText();
    ImGui::BeginDisabled(same);
    if (ImGui::Button("Load into editor")) wb.loadSolution();
    layout::item("button/Load into editor");
    ImGui::EndDisabled();
    itemTooltip(same ? "The editor already holds the solution."
                     : "Replaces the editor's text. Your kernel is kept: the button above the "
                       "editor brings it back.");
    float radios = ImGui::CalcTextSize("Diff with yours").x + ImGui::CalcTextSize("Solution").x +
                   ImGui::GetFontSize() * 5;
    flowSameLine(radios);
    if (ImGui::RadioButton("Diff with yours", m_showDiff)) m_showDiff = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("Solution", !m_showDiff)) m_showDiff = false;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    (void)size;
    if (m_showDiff) return drawDiff(wb, avail);
    m_viewer.draw("solution", m_solution, {}, avail, true);
    (void)pal;
}

void SolutionPanel::drawDiff(Workbench& wb, ImVec2 size) {
    const Palette& pal = palette();
    std::vector<DiffLine> diff = diffLines(wb.document().text(), wb.solutionText());
    DiffStats st = diffStats(diff);
    if (st.added == 0 && st.removed == 0) {
        colouredText(pal.pass, "Your kernel and the solution are the same, line for line.");
        return;
    }
    legendSwatch(pal.diffRemoved, ("only in yours (" + std::to_string(st.removed) + ")").c_str());
    ImGui::SameLine(0, ImGui::GetFontSize());
    legendSwatch(pal.diffAdded,
                 ("only in the solution (" + std::to_string(st.added) + ")").c_str());
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(pal.editorBg));
    ImGui::BeginChild("diff", ImVec2(size.x, ImGui::GetContentRegionAvail().y), false,
                      ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(fonts().mono);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));
    float lh = std::round(ImGui::GetFontSize() * 1.3f), cw = ImGui::CalcTextSize("M").x;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    LexState state;
    // A new diff opens at its first change (a few lines of context above).
    if (m_diffScrolledFor != wb.document().revision()) {
        m_diffScrolledFor = wb.document().revision();
        size_t first = 0;
        while (first < diff.size() && diff[first].kind == DiffKind::Same)
            ++first;
        ImGui::SetScrollY(std::max(0.0f, (static_cast<float>(first) - 3) * lh));
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(diff.size()), lh);
    // Lexing must see every earlier line (block comments), so lex the lines above the view too.
    int lexed = 0;
    while (clipper.Step()) {
        for (; lexed < clipper.DisplayStart; ++lexed)
            lexGlslLine(diff[lexed].text, state);
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i, ++lexed) {
            const DiffLine& d = diff[i];
            ImVec2 p = ImGui::GetCursorScreenPos();
            float w =
                std::max(ImGui::GetWindowWidth(), (d.text.size() + 8) * cw) + ImGui::GetScrollX();
            if (d.kind != DiffKind::Same)
                dl->AddRectFilled(p, ImVec2(p.x + w, p.y + lh),
                                  d.kind == DiffKind::Added ? pal.diffAdded : pal.diffRemoved);
            const char* sign = d.kind == DiffKind::Added     ? "+"
                               : d.kind == DiffKind::Removed ? "-"
                                                             : " ";
            dl->AddText(ImVec2(p.x + cw * 0.5f, p.y + (lh - ImGui::GetFontSize()) * 0.5f),
                        d.kind == DiffKind::Same ? pal.dimText : pal.text, sign);
            drawGlslLine(dl, ImVec2(p.x + cw * 2.5f, p.y + (lh - ImGui::GetFontSize()) * 0.5f),
                         d.text, state, cw);
            ImGui::Dummy(ImVec2((d.text.size() + 4) * cw, lh));
        }
    }
    ImGui::PopStyleVar();
    ImGui::PopFont();
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

} // namespace vkp::ui
