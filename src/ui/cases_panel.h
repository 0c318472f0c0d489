// Test cases and results: per case pass/fail, the launch shape, and what went wrong; selecting a
// case shows it in the buffers panel and the thread grid.
#pragma once

#include <string>

#include <imgui.h>

#include "ui/view_state.h"
#include "ui/workbench.h"

namespace vkp::ui {

std::string dimsText(const std::array<uint32_t, 3>& d); // "(4, 4)", "(6)"
std::string launchText(const TestCase& c);              // "(4, 4) x (3, 3) = 144 threads"
std::string constantsText(const Puzzle& p, const TestCase& c); // "SIZE = 3, TILE = 4"

class CasesPanel {
  public:
    void draw(Workbench& wb, ViewState& view, ImVec2 size);

  private:
    int m_scrolledTo = -1; // the case last scrolled into view
};

} // namespace vkp::ui
