#include "panels/cases_panel.h"

#include <algorithm>

#include "check/hidden_cases.h"
#include "check/subgroup_sizes.h"
#include "store/own_cases.h"
#include "views/dispatch_model.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

ImU32 toneColour(Tone tone) {
    const Palette& pal = palette();
    const ImU32 colours[] = {pal.dimText, pal.pass, pal.warn, pal.fail}; // in Tone's order
    return colours[static_cast<size_t>(tone)];
}

// The heading of a run beside the check under the case list (its tooltip says what the run is),
// and the wrapping its lines take; the caller pops the wrap.
void besideHeading(const std::string& title, const std::string& tooltip) {
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopFont();
    itemTooltip(tooltip);
}

} // namespace

// One case of the list: its badge, name, launch and constants, what it came to, and the author's
// explanation of a recognised wrong answer (whole when selected); a click selects it.
void CasesPanel::drawCase(ViewState& view, const CaseRow& row) {
    const Palette& pal = palette();
    float pad = ImGui::GetFontSize() * 0.3f, line = ImGui::GetTextLineHeight();
    int i = static_cast<int>(row.index);
    ImU32 colour = toneColour(badgeTone(row.badge.kind));
    ImGui::PushID(i);
    ImVec2 pos = ImGui::GetCursorScreenPos();
    float width = ImGui::GetContentRegionAvail().x;
    float h = line * 3 + ImGui::GetStyle().ItemSpacing.y * 2;
    // The author's explanation of a recognised wrong answer: whole under the selected case,
    // one line (the rest in the tooltip) under the others.
    std::string why = row.why;
    bool selected = view.selectedCase == i;
    float textX = pad + ImGui::GetFontSize() * 1.3f,
          wrap = std::max(ImGui::GetFontSize() * 4, width - textX - pad);
    if (!why.empty() && !selected) why = ellipsize(why, wrap);
    float whyH = why.empty() ? 0 : ImGui::CalcTextSize(why.c_str(), nullptr, false, wrap).y;
    h += whyH;
    if (ImGui::Selectable("##case", view.selectedCase == i, 0, ImVec2(0, h))) view.selectedCase = i;
    layout::item("case/" + std::to_string(i + 1));
    layout::fact("case/" + std::to_string(i + 1), row.probe);
    if (view.selectedCase == i && m_scrolledTo != view.selectedCase) {
        ImGui::SetScrollHereY(0.5f); // keep the selected case in view (also when chosen elsewhere)
        m_scrolledTo = view.selectedCase;
    }
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec4 clip(pos.x, pos.y, pos.x + width, pos.y + h);
    float x = pos.x + pad, y = pos.y + ImGui::GetStyle().ItemSpacing.y * 0.5f;
    dl->AddText(fonts().bold, fonts().bold->FontSize, ImVec2(x, y), colour,
                badgeIcon(row.badge.kind));
    float x2 = x + ImGui::GetFontSize() * 1.3f;
    // Lines too long for the panel end in an ellipsis (the tooltip has them whole), never cut
    // mid-value ("SHARED_SIZE =" without its value read as a bug).
    float room = x + width - pad - x2;
    dl->AddText(fonts().bold, fonts().bold->FontSize, ImVec2(x2, y), pal.text,
                ellipsize(row.title, room, fonts().bold, fonts().bold->FontSize).c_str(), nullptr,
                0, &clip);
    float monoSize = fonts().small->FontSize * 1.1f;
    auto fits = [&](const std::string& text) {
        return fonts().mono->CalcTextSizeA(monoSize, FLT_MAX, 0, text.c_str()).x <= room;
    };
    const std::string& launch = fits(row.launch) ? row.launch : row.shortLaunch;
    dl->AddText(fonts().mono, monoSize, ImVec2(x2, y + line), pal.dimText,
                ellipsize(launch, room, fonts().mono, monoSize).c_str(), nullptr, 0, &clip);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x2, y + line * 2), colour,
                ellipsize(row.badge.text, room).c_str(), nullptr, 0, &clip);
    if (!why.empty()) {
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x2, y + line * 3), pal.warn,
                    why.c_str(), nullptr, wrap, &clip);
        layout::rect("why/" + std::to_string(i + 1), ImVec2(x2, y + line * 3),
                     ImVec2(x2 + wrap, y + line * 3 + whyH));
    }
    if (hovered) drawCaseTooltip(row);
    ImGui::PopID();
}

// The case's tooltip: its name, launch, constants and verdict whole, and why, or its schedule.
void CasesPanel::drawCaseTooltip(const CaseRow& row) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(row.title.c_str());
    dimText(row.tooltipLaunch);
    if (!row.constants.empty()) dimText(row.constants);
    colouredText(toneColour(badgeTone(row.badge.kind)), row.badge.text);
    if (!row.why.empty()) colouredText(palette().warn, row.why);
    for (const std::string& schedule : row.schedules)
        dimText(schedule);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// What the list is drawn from: the workbench's puzzle and results, its session's runs beside
// the check, and the session's words for them.
CaseListFacts CasesPanel::facts(Workbench& wb, const ViewState& view) {
    CaseListFacts f;
    const Puzzle* p = wb.puzzle();
    const LiveSnapshot& s = wb.snapshot();
    const CheckReport* r = wb.report();
    f.puzzle = p;
    f.report = r;
    f.current = s.current();
    // A check under way: the report holds the cases decided so far (LiveSnapshot::report).
    f.checking = r && s.current() && s.status == LiveStatusKind::Running;
    f.besideDue = s.besideDue();
    if (const OpenedCaseFile* file = wb.caseFile()) f.caseFileCase = file->file.caseIndex();
    f.selectedCase = view.selectedCase;
    if (p && r) {
        f.casesPassed = puzzleCasesPassed(*r, *p);
        f.solved = puzzleCasesPass(*r, *p);
    }
    if (wb.puzzleIndex() + 1 < static_cast<int>(wb.puzzles().puzzles.size()))
        f.nextPuzzle = wb.puzzles().puzzles[wb.puzzleIndex() + 1].displayName();
    f.hiddenText = kHiddenCaseText;
    std::shared_ptr<const std::string> source = wb.reportSource();
    if (p && source != m_offsetsFor) {
        m_offsetsFor = source;
        m_offsets = source ? kernelLineOffsets(*p, *source) : std::vector<uint32_t>{};
    }
    f.lineOffsets = &m_offsets;
    if (s.current() && !f.checking) {
        f.beside = s.report.get();
        for (const SubgroupSizeRun& run : s.report->otherSizes)
            f.sizeWords.push_back({sizeName(run.lanes), carriedText(run)});
        if (!s.sizesDue.empty()) f.sizesDue = lanesText(s.sizesDue);
        if (p) f.sizeVerdict = subgroupSizeVerdict(*p, *s.report);
        f.atomicOrderDue = s.atomicOrderDue;
        f.searchDue = s.searchDue;
    }
    f.notice = s.notice;
    return f;
}

void CasesPanel::draw(Workbench& wb, ViewState& view, ImVec2 size) {
    CaseList list = caseList(facts(wb, view));
    beginPanel("cases", "Test cases", size, list.info,
               list.info.empty() ? 0 : toneColour(list.infoTone));
    const Puzzle* p = wb.puzzle();
    if (!p) return endPanel();
    // All cases pass: on to the next puzzle (above the list, which scrolls to the selected case).
    if (!list.next.empty()) {
        if (ImGui::Button(list.next.c_str())) wb.requestPuzzle(wb.puzzleIndex() + 1);
        layout::item("button/Next puzzle");
        itemTooltip("Ctrl+PgDn");
    }
    drawActions(wb, list);
    ImGui::BeginChild("caselist", ImVec2(0, 0), false);
    if (!list.stale.empty()) dimText(list.stale);
    if (!list.untraced.empty()) {
        ImGui::PushTextWrapPos(0);
        dimText(list.untraced);
        ImGui::PopTextWrapPos();
    }
    for (const CaseRow& row : list.rows)
        drawCase(view, row);
    drawOwnCaseRemove(wb, view);
    for (const BesideRun& run : list.beside)
        drawBeside(wb, view, run);
    auto wrapped = [](ImU32 colour, const std::string& text) {
        if (text.empty()) return;
        ImGui::PushTextWrapPos(0);
        colouredText(colour, text);
        ImGui::PopTextWrapPos();
    };
    wrapped(palette().fail, list.error);
    wrapped(palette().warn, list.notice);
    ImGui::EndChild();
    endPanel();
    m_form.draw(wb, view);
    m_bench.drawWindow(wb);
}

void CasesPanel::drawBeside(Workbench& wb, ViewState& view, const BesideRun& run) {
    besideHeading(run.title, run.tooltip);
    for (const BesideLine& line : run.lines)
        colouredText(toneColour(line.tone), line.text);
    if (run.keep) {
        if (ImGui::SmallButton("Keep it as my case"))
            if (auto added = wb.addOwnCase(*run.keep)) view.selectedCase = static_cast<int>(*added);
        layout::item("button/Keep it as my case");
    }
    if (run.fact) layout::fact(run.probe, *run.fact);
    ImGui::PopTextWrapPos();
}

void CasesPanel::drawActions(Workbench& wb, const CaseList& list) {
    if (!list.caseFileNote.empty()) {
        ImGui::PushTextWrapPos(0);
        dimText(list.caseFileNote);
        return ImGui::PopTextWrapPos();
    }
    ImGui::BeginDisabled(list.addCaseBlocked);
    if (ImGui::SmallButton("Add a case\xE2\x80\xA6")) m_form.open(*wb.puzzle(), list.addCaseFrom);
    ImGui::EndDisabled();
    layout::item("button/Add a case");
    itemTooltip(list.addCaseTip);
    m_bench.drawButton(wb); // its own line: the panel is narrow
}

void CasesPanel::drawOwnCaseRemove(Workbench& wb, ViewState& view) {
    // Read after the list: a click on a case this frame has changed the selection.
    std::optional<std::string> remove = ownCaseRemoval(*wb.puzzle(), view.selectedCase);
    if (!remove) return;
    if (ImGui::SmallButton(remove->c_str())) {
        wb.removeOwnCase(static_cast<size_t>(view.selectedCase));
        view.selectedCase -= 1; // the case above it (the list changes before the next frame)
    }
    layout::item("button/Remove own case");
}

} // namespace vkp::ui
