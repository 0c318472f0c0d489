// The walkthrough player in the Solution tab: the official solution played as annotated steps
// (step text, Prev / Next, step k of n) beside a read-only view of the solution with the step's
// lines marked. Each step points the bottom panels (memory, timeline, thread grid) at the
// official solution's own traced run of the walkthrough's case; the learner's kernel is never
// touched.
#pragma once

#include <imgui.h>

#include "editor/code_editor.h"
#include "views/view_state.h"
#include "views/walkthrough_player.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class WalkthroughPanel {
  public:
    void start(Workbench& wb, views::ViewState& view, size_t step = 0);
    void stop(views::ViewState& view);
    void stop() { m_player.stop(); } // another puzzle opened (the view state was reset with it)
    bool active() const { return m_player.active(); }
    void draw(Workbench& wb, views::ViewState& view, const ShownCase& sc, ImVec2 size);

  private:
    void applyStep(Workbench& wb, views::ViewState& view, const ShownCase& sc);
    // The step's lines (of its dispatch's kernel) on the lines of the whole solution text.
    std::vector<uint32_t> stepLines(Workbench& wb, const views::ViewState& view,
                                    const ShownCase& sc, const WalkthroughStep& step) const;
    // `tip`: the walkthrough's title, shown over the step counter (presenter mode), or empty.
    void drawHeader(Workbench& wb, views::ViewState& view, const std::string& tip);
    void drawRunNote(Workbench& wb, const ShownCase& sc, size_t shownCase);
    void drawLegend(const ShownCase& sc, size_t caseIndex);
    void drawViewer(Workbench& wb, views::ViewState& view, const ShownCase& sc,
                    const WalkthroughStep& step);
    views::WalkthroughPlayer m_player;
    CodeEditor m_viewer;
    text::TextDocument m_solution;
    std::string m_loadedText;
    uint64_t m_puzzle = 0; // the Workbench's puzzle generation it was started on
    size_t m_scrolledStep = SIZE_MAX;
    // Fitting a step's whole text beside the code (presenter mode): the stage reached for this
    // step and panel width (0: 42% of the width; 1: 52%; then a font 5% smaller a stage, down to
    // 70%), the height the text took in the last frame and the height it was shown in, and the
    // frames in a row it lacked more than the row could still grow.
    size_t m_fitStep = SIZE_MAX;
    float m_fitWidth = 0;
    int m_fitStage = 0;
    float m_fitMeasured = 0;
    float m_fitShown = 0;
    int m_fitStuck = 0;
};

} // namespace vkp::ui
