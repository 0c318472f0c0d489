// What the Memory and Threads panels show of a case the teacher hid (`hidden = true`): a notice
// in place of its buffers, threads and trace, which the learner's report no longer holds.
#pragma once

#include <imgui.h>

#include "workbench/shown_case.h"

namespace vkp::ui {

// True when the shown case is one the learner may not look into (a hidden case of their own run).
bool shownCaseHidden(const ShownCase& sc);

// Draws the notice as the panel `id` ("buffers", "threads") titled `what` ("Memory", "Threads").
void drawHiddenCasePanel(const char* id, const char* what, const ShownCase& sc, ImVec2 size);

} // namespace vkp::ui
