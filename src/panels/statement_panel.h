// The puzzle's statement: title, a small picture of the buffers' shapes for the selected case,
// the text, and the per-thread limits.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

// Statement text split into blocks: paragraphs, "- " bullets and indented code lines.
struct TextBlock {
    enum class Kind { Paragraph, Bullet, Code, Blank } kind = Kind::Paragraph;
    std::string text;
    std::string label; // bullets: "•", or "1." for numbered steps
};
std::vector<TextBlock> statementBlocks(const std::string& statement);
// Draws text split that way (paragraphs with `code`, bullets, indented code lines). A run of
// code lines wider than the panel scrolls sideways; the layout probe names it PROBE/code/K (the
// K-th run) with the fact "scroll/max" in pixels.
void drawTextBlocks(const std::string& text, const std::string& probe);

class StatementPanel {
  public:
    void draw(Workbench& wb, views::ViewState& view, ImVec2 size);

  private:
    void drawNeeds(Workbench& wb, const Puzzle& p);
};

// The buffers of one case as small grids with names, types and shapes (inputs -> outputs).
void drawShapesPicture(const Puzzle& p, size_t caseIndex);

} // namespace vkp::ui
