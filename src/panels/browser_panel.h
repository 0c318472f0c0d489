// The puzzle browser: puzzles by track with their numbers, solved marks and a search box.
#pragma once

#include <string>

#include <imgui.h>

#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

// Whether a puzzle matches the browser's search text (title, slug, number, folder; any case).
bool matchesSearch(const Puzzle& p, const std::string& query);

// How the list and the statement show a puzzle's progress: a glyph, its colour, a short badge
// ("solved", "solution ran") and words for a tooltip ("solved after opening the solution").
struct SolvedMark {
    const char* glyph;
    ImU32 colour;
    std::string badge;
    std::string words;
};
SolvedMark solvedMark(const PuzzleProgress& progress);

class BrowserPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, ImVec2 size);

  private:
    char m_search[128] = {};
    int m_scrolledTo = -1; // puzzle index last scrolled into view
};

} // namespace vkp::ui
