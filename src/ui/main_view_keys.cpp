// The main view's keys: the shortcuts of the whole window, a presenter's clicker, Escape and the
// timeline's keys (the rest of MainView is in main_view.cpp).
#include <optional>

#include <imgui_internal.h> // ClosePopupsExceptModals (in 1.86 and 1.90 alike)

#include "ui/main_view.h"
#include "widgets/keys.h"

namespace vkp::ui {

using namespace views;
namespace {

bool keyPressed(ShortcutKey key) {
    return shortcutPressed(key);
}

} // namespace

void MainView::handleShortcuts(Workbench& wb, ViewState& view) {
    ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && (keyPressed(kKeyEqual) || keyPressed(kKeyKeypadAdd))) view.fontBigger = true;
    if (io.KeyCtrl && (keyPressed(kKeyMinus) || keyPressed(kKeyKeypadSubtract)))
        view.fontSmaller = true;
    if (io.KeyCtrl && keyPressed(kKeyZero)) view.fontReset = true;
    if (keyPressed(kKeyF1)) view.showShortcuts = true;
    if (io.KeyCtrl && keyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown)))
        wb.requestPuzzle(wb.puzzleIndex() + 1);
    if (io.KeyCtrl && keyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp)))
        wb.requestPuzzle(wb.puzzleIndex() - 1);
    if (io.KeyCtrl && keyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) wb.session().recheck();
    if (io.KeyCtrl && keyPressed(kKeyQ)) view.quit = true;
    if (io.KeyCtrl && io.KeyShift && keyPressed(kKeyS)) exportKernel(wb);
    if (io.KeyCtrl && !io.KeyShift && !io.KeyAlt && keyPressed(kKeyO)) m_caseFiles.askForFile(wb);
    CodeEditor& editor = m_editor.codeEditor();
    if (io.KeyCtrl && !io.KeyAlt && keyPressed(kKeyF)) editor.openFind(wb.document());
    if (!io.KeyCtrl && !io.KeyAlt && shortcutPressed(kKeyF3, true))
        editor.findNext(wb.document(), !io.KeyShift);
    if (keyPressed(kKeyF11)) view.toggleFullscreen = true;
    if (!io.KeyCtrl && !io.KeyAlt && keyPressed(kKeyF5)) togglePresenter(wb);
    if (wb.settings().presenter && !io.KeyCtrl && !io.KeyAlt) {
        if (keyPressed(kKeyF6)) m_folds.browser = !m_folds.browser;
        if (keyPressed(kKeyF7)) m_folds.side = !m_folds.side;
        if (keyPressed(kKeyF8)) m_folds.cases = !m_folds.cases;
    }
    handleClickerKeys(wb, view);
    if (io.KeyCtrl && !io.KeyAlt && !io.KeyShift && keyPressed(kKeyM)) toggleMaximised();
    if (keyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) handleEscape(wb, view);
    handleTimelineKeys(view);
}

// Ctrl+M: the panel under the pointer over the whole work area, or back to all panels.
void MainView::toggleMaximised() {
    if (m_maximised) return m_maximised.reset();
    ImVec2 mouse = ImGui::GetIO().MousePos;
    m_maximised = panelAt(m_arranged, mouse.x, mouse.y);
}

// F5 (and View > Presenter mode): the projection layout with its own text size, or back. The
// folded panels start folded each time.
void MainView::togglePresenter(Workbench& wb) {
    Settings& s = wb.settings();
    s.presenter = !s.presenter;
    m_folds = {};
    m_maximised.reset();
    wb.saveSettings();
}

// PgDn / PgUp, what a presenter's clicker sends: the next / previous step of the walkthrough
// being played, else the next / previous barrier round of the timeline. In presenter mode always
// (the code editors leave these keys alone then); otherwise only while no editor or text field
// has the keyboard, where they move the cursor by a page.
void MainView::handleClickerKeys(Workbench& wb, ViewState& view) {
    ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl || io.KeyAlt || io.KeyShift) return;
    bool typing = m_editor.codeEditor().focused() || io.WantTextInput;
    if (!wb.settings().presenter && typing) return;
    int step = 0;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))) step = 1;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))) step = -1;
    if (step == 0) return;
    if (view.walkthroughActive) {
        view.walkthroughMove = step;
        view.showTab = SideTab::Solution; // the walkthrough steps only where it is drawn
        return;
    }
    view.timelineMove = step > 0 ? TimelineMove::NextRound : TimelineMove::PrevRound;
    view.showMemoryTab = MemoryTab::Timeline;
}

// Escape closes the innermost thing: an open menu or popup (the dialogs close themselves), else
// the find bar, else the maximised panel, else (presenter mode) the unfolded panels, then
// presenter mode itself, else it lets go of the selected thread and cell. ImGui closes popups on
// Escape only with keyboard navigation on, which would take the editor's arrow keys.
void MainView::handleEscape(Workbench& wb, ViewState& view) {
    if (ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel))
        return ImGui::ClosePopupsExceptModals();
    if (m_editor.codeEditor().findOpen()) return m_editor.codeEditor().closeFind();
    if (m_maximised) return m_maximised.reset();
    if (wb.settings().presenter) {
        if (m_folds.any()) return void(m_folds = {});
        return togglePresenter(wb);
    }
    view.selection.clear();
    view.focus.clear();
}

// Alt with the arrows, Home and End steps the timeline, with PgUp and PgDn picks the dispatch
// (the editor leaves these keys alone).
void MainView::handleTimelineKeys(ViewState& view) {
    ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyAlt || io.KeyCtrl) return;
    std::optional<TimelineMove> move;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
        move = TimelineMove::PrevAccess;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
        move = TimelineMove::NextAccess;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) move = TimelineMove::PrevRound;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) move = TimelineMove::NextRound;
    if (keyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) move = TimelineMove::Start;
    if (keyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) move = TimelineMove::End;
    // Alt+PgUp / Alt+PgDn: the previous / next dispatch of a multi-pass case (Ctrl+PgUp / PgDn
    // are the puzzles).
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))) view.dispatchStep = -1;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))) view.dispatchStep = 1;
    if (!move) return;
    view.timelineMove = move;
    view.showMemoryTab = MemoryTab::Timeline;
}

} // namespace vkp::ui
