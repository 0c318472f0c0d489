// Small drawing helpers shared by the panels: panel frames, badges, legends, rich text.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

namespace vkp::ui {

// A bordered child region with a title strip (none when `title` is null); `info` is drawn
// right-aligned in the strip.
// Always pair with endPanel(). Returns the content size below the strip.
ImVec2 beginPanel(const char* id, const char* title, ImVec2 size, const std::string& info = "", ImU32 infoColour = 0);
void endPanel();

// A rounded label with a coloured background, on the current line.
void badge(const std::string& text, ImU32 background, ImU32 textColour);
// A small filled square and its meaning, on the current line (for legends).
void legendSwatch(ImU32 colour, const char* meaning, ImU32 border = 0);
void colouredText(ImU32 colour, const std::string& text);
void dimText(const std::string& text);
// Paragraph text wrapped to `width` (0: the available width); `code` spans in the monospace font.
void richText(const std::string& paragraph, float width = 0);
// Before an item of `nextWidth`: stays on the line when it fits, else starts a new one.
void flowSameLine(float nextWidth);
float legendWidth(const char* meaning); // what legendSwatch() takes

// Help marker "(?)" with a tooltip.
void helpMarker(const char* text);

// Legends and their "(?)" explanations can each be turned off (View menu, kept in settings).
void setLegendOptions(bool legends, bool explanations);
bool legendsShown();
bool explanationsShown();
struct LegendItem {
    ImU32 fill = 0;
    std::string meaning;
    ImU32 border = 0;
};
// One legend: swatches flowing over as many lines as they need, then "(?)" with `explanation`
// (empty: none); draws only the parts that are turned on.
void legend(const std::vector<LegendItem>& items, const std::string& explanation);
// A tooltip with wrapped text, shown when the last item is hovered.
void itemTooltip(const std::string& text);

// Draggable divider between two panels; returns the pixel delta moved this frame.
float splitter(const char* id, bool vertical, ImVec2 pos, ImVec2 size);

// `text` shortened with an ellipsis to fit `maxWidth` pixels in the current font.
std::string ellipsize(const std::string& text, float maxWidth);
// The same for text drawn in `font` at `size` (draw-list text), so a cut never falls mid-word unseen.
std::string ellipsize(const std::string& text, float maxWidth, ImFont* font, float size);

// Text centred in a rectangle, clipped to it.
void centredText(ImDrawList* dl, ImFont* font, ImVec2 min, ImVec2 max, ImU32 colour, const char* text);

} // namespace vkp::ui
