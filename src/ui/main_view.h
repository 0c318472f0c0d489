// The whole window: menu bar, the panels in a fixed layout with draggable dividers (ImGui 1.86
// has no docking), the status bar, messages, and the global shortcuts.
#pragma once

#include <optional>
#include <string>

#include "panels/browser_panel.h"
#include "panels/cases_panel.h"
#include "panels/device_panel.h"
#include "panels/editor_panel.h"
#include "panels/efficiency_panel.h"
#include "panels/hints_panel.h"
#include "panels/memory_panel.h"
#include "panels/statement_panel.h"
#include "panels/status_bar.h"
#include "panels/thread_grid_panel.h"
#include "ui/case_file_menu.h"
#include "ui/panel_layout.h"
#include "views/view_state.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

struct FrameInfo {
    float fontScale = 1;  // the learner's text size (1 = 100%)
    std::string uiDevice; // the device drawing the window
    std::string version;
    std::string fontSource;
    bool fullscreen = false; // the window covers its monitor (F11)
};

class MainView {
  public:
    void draw(Workbench& wb, views::ViewState& view, const FrameInfo& info);
    // Scripted runs: open the Solution tab and play the walkthrough from a step (0-based).
    void startWalkthrough(Workbench& wb, views::ViewState& view, size_t step);
    // A file dropped on the window: a case file opens, a kernel file goes into the editor (the
    // learner's text kept for Restore); else the message strip says why not.
    void dropFile(Workbench& wb, const std::string& path) { m_caseFiles.drop(wb, path); }

  private:
    void drawMenu(Workbench& wb, views::ViewState& view);
    void drawMessages(Workbench& wb);
    void drawSide(Workbench& wb, views::ViewState& view, const ShownCase& sc, ImVec2 size,
                  const FrameInfo& info);
    void drawPanels(Workbench& wb, views::ViewState& view, const ShownCase& sc, ImVec2 origin,
                    ImVec2 size, const FrameInfo& info);
    void drawViewMenu(Workbench& wb, views::ViewState& view);
    void handleTimelineKeys(views::ViewState& view);
    void handleEscape(Workbench& wb, views::ViewState& view);
    void togglePresenter(Workbench& wb);
    void handleClickerKeys(Workbench& wb, views::ViewState& view);
    void drawPresenterHint(const views::ViewState& view);
    float sideTabsWidth(Workbench& wb) const;
    void exportKernel(Workbench& wb);
    void drawShortcuts(views::ViewState& view);
    void drawAbout(Workbench& wb, views::ViewState& view, const FrameInfo& info);
    void handleShortcuts(Workbench& wb, views::ViewState& view);
    void followDispatch(views::ViewState& view, const ShownCase& sc);
    void forgetPuzzle(views::ViewState& view);
    void probeFacts(Workbench& wb, const views::ViewState& view, const ShownCase& sc);
    void toggleMaximised();
    void drawPanel(PanelKind kind, Workbench& wb, views::ViewState& view, const ShownCase& sc,
                   const PanelBox& box, const FrameInfo& info);
    void drawDividers(Workbench& wb, const PanelArrangement& a, PanelBox area, float split);

    BrowserPanel m_browser;
    StatementPanel m_statement;
    HintsPanel m_hints;
    SolutionPanel m_solution;
    DevicePanel m_device;
    EfficiencyPanel m_efficiency;
    EditorPanel m_editor;
    CasesPanel m_cases;
    MemoryPanel m_memory;
    ThreadGridPanel m_threads;
    StatusBar m_status;
    CaseFileMenu m_caseFiles;
    bool m_layoutDragged = false;
    std::optional<PanelKind> m_maximised; // Ctrl+M: one panel over the whole work area
    PresenterFolds m_folds;               // presenter mode: the panels unfolded (F6, F7, F8)
    bool m_fullscreen = false;            // the frame's FrameInfo::fullscreen, for the View menu
    PanelArrangement m_arranged; // where the panels were drawn last (Ctrl+M picks by the pointer)
    std::optional<uint64_t> m_shownPuzzle; // the Workbench's puzzle generation drawn last
    std::optional<views::Uvec3>
        m_lastSelected; // a newly selected thread takes the timeline to its workgroup
    std::optional<size_t>
        m_lastKernel; // the kernel of the dispatch shown last (multi-kernel puzzles)
};

} // namespace vkp::ui
