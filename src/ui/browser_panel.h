// The puzzle browser: puzzles by track with their numbers, solved marks and a search box.
#pragma once

#include <string>

#include <imgui.h>

#include "ui/view_state.h"
#include "ui/workbench.h"

namespace vkp::ui {

// Whether a puzzle matches the browser's search text (title, slug, number, folder; any case).
bool matchesSearch(const Puzzle& p, const std::string& query);

class BrowserPanel {
  public:
    void draw(Workbench& wb, ViewState& view, ImVec2 size);

  private:
    char m_search[128] = {};
    int m_scrolledTo = -1; // puzzle index last scrolled into view
};

} // namespace vkp::ui
