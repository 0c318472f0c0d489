// The kernel editor panel: a toolbar (reset to starter, restore, status), the editor, and the
// list of compiler messages that jumps to their lines. The editor marks the lines the selected
// thread executed and the watched lines; right-click a line (or F9) watches it.
#pragma once

#include <imgui.h>

#include "editor/code_editor.h"
#include "views/view_state.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class EditorPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, const ShownCase& sc, ImVec2 size);
    void focusEditor() { m_editor.focus(); }
    CodeEditor& codeEditor() { return m_editor; } // find (Ctrl+F, F3, Esc) from the window's keys

  private:
    void drawToolbar(Workbench& wb);
    void probeEditor(const text::TextDocument& doc) const;
    // A held draft (LiveStatusKind::Held): why, and "Compile anyway".
    void drawHeldLine(Workbench& wb);
    // A case file on show, above the editor in place of the toolbar; false: none is open.
    bool drawCaseFileBar(Workbench& wb);
    float drawDiagnostics(Workbench& wb, views::ViewState& view,
                          const std::vector<Diagnostic>& diagnostics, float width,
                          bool measureOnly);
    CodeEditor m_editor;
    uint64_t m_openedPuzzle = 0; // the Workbench's puzzle generation last drawn
};

} // namespace vkp::ui
