// Hints, revealed one at a time, and the official solution: revealed on request, read-only, with
// a line diff against the learner's kernel and "load into editor" (the draft stays recoverable),
// and, where the puzzle has one, its walkthrough (walkthrough_panel.h).
#pragma once

#include <string>

#include <imgui.h>

#include "editor/code_editor.h"
#include "panels/walkthrough_panel.h"
#include "views/view_state.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class HintsPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, ImVec2 size);
};

class SolutionPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, const ShownCase& sc, ImVec2 size);
    // Starts the walkthrough player (scripted runs: at a step, 0-based).
    void startWalkthrough(Workbench& wb, views::ViewState& view, size_t step) {
        m_walkthrough.start(wb, view, step);
    }
    void forgetPuzzle() { m_walkthrough.stop(), m_diffScrolledFor = UINT64_MAX; }

  private:
    void drawDiff(Workbench& wb, ImVec2 size);
    bool m_showDiff = true;
    CodeEditor m_viewer;           // read-only
    text::TextDocument m_solution; // what the viewer shows
    std::string m_loadedText;      // m_solution's source text
    uint64_t m_diffScrolledFor =
        UINT64_MAX; // editor revision whose diff was scrolled to its first change
    WalkthroughPanel m_walkthrough;
};

} // namespace vkp::ui
