// The memory panel (bottom middle): the shown case's memory in views, as tabs: Buffers (the end of
// the run), Timeline (one workgroup stepped round by round or access by access), Watches (watched
// lines per thread per iteration), Console (debugPrintfEXT output) and, for a puzzle with a
// [lookback] table, Look-back (the tiles' status words over time).
#pragma once

#include <imgui.h>

#include "panels/buffers_panel.h"
#include "panels/console_panel.h"
#include "panels/lookback_panel.h"
#include "panels/timeline_panel.h"
#include "panels/watch_panel.h"
#include "views/view_state.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class MemoryPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, const ShownCase& sc, ImVec2 size);
    views::MemoryTab current() const { return m_current; }
    void forgetPuzzle() {
        m_watches.forgetPuzzle();
        m_buffers.forgetPuzzle();
    }

  private:
    BuffersView m_buffers;
    TimelineView m_timeline;
    WatchView m_watches;
    ConsoleView m_console;
    LookbackView m_lookback;
    views::MemoryTab m_current = views::MemoryTab::Buffers;
};

// A multi-pass case's dispatch picker: previous, the list (label, workgroups, findings), next; and
// which buffers a swap moved. Nothing for a case of one dispatch.
void drawDispatchPicker(views::ViewState& view, const ShownCase& sc);

} // namespace vkp::ui
