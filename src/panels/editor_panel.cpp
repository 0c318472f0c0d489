#include "panels/editor_panel.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "base/os.h"
#include "panels/status_bar.h"
#include "views/trace_view.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

std::string previousLabel(const Draft& d) {
    if (d.previousReason == "reset to starter") return "Undo reset";
    if (d.previousReason == "loaded the official solution") return "Back to my kernel";
    // Not "Redo": the toolbar has that button already (it redoes an edit).
    if (d.previousReason == "restored the earlier text") return "Undo restore";
    if (d.previousReason == UserState::kOtherWindowReason) return "Other window's text";
    return "Restore earlier text";
}

} // namespace

void EditorPanel::drawToolbar(Workbench& wb) {
    text::TextDocument& doc = wb.document();
    ImGui::BeginDisabled(!doc.canUndo());
    if (ImGui::Button("Undo")) doc.undo();
    layout::item("button/Undo");
    ImGui::EndDisabled();
    itemTooltip("Undo (Ctrl+Z)");
    ImGui::SameLine();
    ImGui::BeginDisabled(!doc.canRedo());
    if (ImGui::Button("Redo")) doc.redo();
    layout::item("button/Redo");
    ImGui::EndDisabled();
    itemTooltip("Redo (Ctrl+Y or Ctrl+Shift+Z)");
    // On a narrow editor (large text) the long labels shorten; the tooltips say it all.
    const Draft& d = wb.draft();
    auto buttonW = [](const std::string& label) {
        return ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2 +
               ImGui::GetStyle().ItemSpacing.x;
    };
    float room = ImGui::GetContentRegionAvail().x - ImGui::GetItemRectMax().x +
                 ImGui::GetWindowPos().x - ImGui::GetFontSize();
    bool shortLabels =
        buttonW("Reset to starter") + (d.previous ? buttonW(previousLabel(d)) : 0) > room;
    const std::string reset = shortLabels ? "Reset" : "Reset to starter";
    flowSameLine(buttonW(reset) + ImGui::GetFontSize());
    bool atStarter = doc.text() == wb.starterText();
    ImGui::BeginDisabled(atStarter);
    if (ImGui::Button((reset + "###reset").c_str())) wb.resetToStarter();
    layout::item("button/Reset to starter");
    ImGui::EndDisabled();
    itemTooltip(atStarter ? "The editor holds the starter kernel."
                          : "Start again from the puzzle's starter kernel. Your text is kept and "
                            "can be restored.");
    if (d.previous) {
        const std::string restore = shortLabels ? "Restore" : previousLabel(d);
        flowSameLine(buttonW(restore));
        if (ImGui::Button((restore + "###restore").c_str())) wb.restorePrevious();
        layout::item("button/restore previous");
        itemTooltip("Puts back the text from before: " + d.previousReason + ".");
    }
    // The truth about the draft on disk: saved, about to be, or not (and why).
    std::string saved = "not saved (scripted run)", why;
    ImU32 colour = palette().dimText;
    if (wb.persistent()) {
        switch (wb.draftSaved()) {
        case Workbench::DraftSaved::Saved:
            saved = "draft saved", why = "Drafts, hints and progress are kept in " + wb.dataDir();
            break;
        case Workbench::DraftSaved::Pending:
            saved = "saving\xE2\x80\xA6", why = "Saved after a pause in typing, in " + wb.dataDir();
            break;
        case Workbench::DraftSaved::Failed:
            saved = "NOT SAVED", colour = palette().fail;
            why = "Your draft could not be saved: " + wb.saveProblem() +
                  ". It is still in the editor; the next edit tries again.";
            break;
        }
    }
    layout::fact("draftSaved", saved);
    float w = ImGui::CalcTextSize(saved.c_str()).x;
    if (ImGui::GetItemRectMax().x + ImGui::GetFontSize() + w >
        ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        return;
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - w);
    ImGui::AlignTextToFramePadding();
    colouredText(colour, saved);
    if (!why.empty()) itemTooltip(why);
}

// A case file on show: what it is, where it came from, that it is read-only, and the way back.
bool EditorPanel::drawCaseFileBar(Workbench& wb) {
    const OpenedCaseFile* f = wb.caseFile();
    if (!f) return false;
    const Palette& pal = palette();
    ImGui::AlignTextToFramePadding();
    badge("CASE FILE", pal.accent, pal.panelBg);
    layout::item("caseFileBadge");
    ImGui::SameLine();
    std::string name = os::pathText(os::toPath(f->path).filename());
    std::string text = name + " \xC2\xB7 " + caseFileSummary(*f) + " \xC2\xB7 read-only";
    float button = ImGui::CalcTextSize("Close").x + ImGui::GetStyle().FramePadding.x * 2 +
                   ImGui::GetFontSize();
    float room = ImGui::GetContentRegionAvail().x - button;
    ImGui::TextUnformatted(ellipsize(text, room).c_str());
    layout::fact("caseFile", name);
    itemTooltip(caseFileSummary(*f) + "\n" + f->file.madeBy + ", " + f->file.madeAt + "\nFrom " +
                f->path +
                "\nNothing runs: the views show the run as it was recorded. Your own kernel "
                "waits behind it; Close (or another puzzle) brings it back.");
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - button + ImGui::GetFontSize());
    if (ImGui::Button("Close")) wb.closeCaseFile();
    layout::item("button/Close case file");
    itemTooltip("Back to your own kernel");
    return true;
}

void EditorPanel::drawHeldLine(Workbench& wb) {
    if (wb.snapshot().status != LiveStatusKind::Held) return;
    ImGui::AlignTextToFramePadding();
    colouredText(
        palette().warn,
        "This draft crashed the compiler last time, so it was not compiled. Simplify it, or:");
    ImGui::SameLine();
    if (ImGui::Button("Compile anyway")) wb.compileAnyway();
    layout::item("button/Compile anyway");
    itemTooltip("Compiles the text as it is. If the compiler crashes again, you get its message on "
                "the kernel; the app and your text are safe.");
}

float EditorPanel::drawDiagnostics(Workbench& wb, ViewState& view,
                                   const std::vector<Diagnostic>& diagnostics, float width,
                                   bool measureOnly) {
    if (diagnostics.empty()) return 0;
    float row = ImGui::GetTextLineHeightWithSpacing();
    float height =
        std::min<size_t>(diagnostics.size(), 5) * row + ImGui::GetStyle().WindowPadding.y * 2 + 2;
    if (measureOnly) return height;
    const Palette& pal = palette();
    ImGui::BeginChild("diagnostics", ImVec2(width, height), true);
    for (size_t i = 0; i < diagnostics.size(); ++i) {
        const Diagnostic& d = diagnostics[i];
        ImGui::PushID(static_cast<int>(i));
        bool error = d.severity == SeverityKind::Error;
        std::string where = d.line > 0 ? "line " + std::to_string(d.line) +
                                             (d.column ? ":" + std::to_string(d.column) : "")
                                       : "kernel";
        if (ImGui::Selectable("##d", false, ImGuiSelectableFlags_AllowItemOverlap) && d.line > 0)
            view.jumpTo = std::make_pair(d.line, d.column);
        if (ImGui::IsItemHovered() && d.line > 0) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        ImGui::SameLine(ImGui::GetStyle().WindowPadding.x);
        colouredText(error ? pal.fail : pal.warn,
                     error ? "\xE2\x97\x8F error" : "\xE2\x96\xB2 warning");
        ImGui::SameLine();
        ImGui::PushFont(fonts().mono);
        colouredText(pal.accent, where);
        ImGui::PopFont();
        ImGui::SameLine();
        ImGui::TextUnformatted(d.message.c_str());
        ImGui::PopID();
    }
    ImGui::EndChild();
    (void)wb;
    return height;
}

// What GUI tests wait for after editing keys: the cursor, the scroll, the find bar.
void EditorPanel::probeEditor(const text::TextDocument& doc) const {
    if (!layout::enabled()) return;
    layout::fact("editorCursor", std::to_string(doc.cursor().line + 1) + ":" +
                                     std::to_string(doc.cursor().column + 1));
    ImVec2 scroll = m_editor.scroll();
    layout::fact("editorScroll", std::to_string(std::lround(scroll.x)) + "," +
                                     std::to_string(std::lround(scroll.y)));
    layout::fact("editorBytes", std::to_string(doc.text().size()));
    layout::fact("findOpen", m_editor.findOpen() ? "1" : "0");
    layout::fact("findSummary", m_editor.findSummary(doc));
}

void EditorPanel::draw(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 size) {
    const LiveSnapshot& s = wb.snapshot();
    StatusLook look = statusLook(s);
    const Puzzle* p = wb.puzzle();
    std::string title = p ? "Kernel \xE2\x80\x94 " + p->displayName() : "Kernel";
    beginPanel("editor", title.c_str(), size, look.icon + " " + look.text, look.colour);
    if (m_openedPuzzle != wb.puzzleGeneration()) {
        m_openedPuzzle = wb.puzzleGeneration();
        m_editor.focus();
        m_editor.resetView();
    }
    // Presenter mode leaves the toolbar out (its buttons are in the menus): a row more of code.
    if (!drawCaseFileBar(wb) && !presenterMode()) drawToolbar(wb);
    drawHeldLine(wb);
    if (view.jumpTo) {
        m_editor.jumpTo(wb.document(), view.jumpTo->first, view.jumpTo->second);
        view.jumpTo.reset();
    }
    if (view.scrollEditorTo) {
        m_editor.scrollToLine(*view.scrollEditorTo);
        view.scrollEditorTo.reset();
    }
    static const std::vector<Diagnostic> kNone;
    const std::vector<Diagnostic>& diags = wb.report() ? wb.report()->diagnostics : kNone;
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float diagHeight = drawDiagnostics(wb, view, diags, avail.x, true);
    float editorHeight =
        avail.y - diagHeight - (diagHeight > 0 ? ImGui::GetStyle().ItemSpacing.y : 0);
    EditorDecorations deco;
    deco.offerWatch = true;
    deco.watched = wb.watchedLines();
    // The learner's run only: during a walkthrough the views show the official solution's lines.
    if (!sc.official) {
        if (view.selection.thread && sc.trace() && sc.testCase)
            deco.executed =
                view.traces.footprint(invocationIndex(*sc.testCase, *view.selection.thread)).lines;
        else if (view.hover.thread && sc.trace() && sc.testCase)
            deco.executed =
                threadFootprint(*sc.trace(), invocationIndex(*sc.testCase, *view.hover.thread))
                    .lines;
        deco.focus = view.focus.lines;
    }
    std::vector<EditorMarker> markers = markersFrom(diags);
    // The shown case's findings, on the learner's own run (a walkthrough shows the official one's).
    if (!sc.official && sc.analysis()) {
        std::vector<EditorMarker> found = markersFrom(*sc.analysis());
        markers.insert(markers.end(), found.begin(), found.end());
        deco.badges = badgesFrom(sc.analysis()->efficiency);
    }
    ImVec2 at = ImGui::GetCursorScreenPos(),
           editorSize(avail.x, std::max(editorHeight, ImGui::GetFontSize() * 4));
    m_editor.draw("code", wb.document(), markers, editorSize, wb.caseFile() != nullptr, &deco);
    layout::rect("editor", at, ImVec2(at.x + editorSize.x, at.y + editorSize.y));
    layout::fact("editorFocused", m_editor.focused() ? "1" : "0");
    probeEditor(wb.document());
    if (auto line = m_editor.takeWatchToggle()) {
        wb.toggleWatch(*line);
        view.showMemoryTab = MemoryTab::Watches;
    }
    if (diagHeight > 0) drawDiagnostics(wb, view, diags, avail.x, false);
    endPanel();
}

} // namespace vkp::ui
