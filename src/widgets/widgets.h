// Small drawing helpers shared by the panels: panel frames, badges, legends, rich text.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

namespace vkp::ui {

// A bordered child region with a title strip (none when `title` is null); `info` is drawn
// right-aligned in the strip.
// Always pair with endPanel(). Returns the content size below the strip.
// A title too long for the strip ends in an ellipsis; hovering the strip shows it whole, with
// the hint set by setPanelHint (how to maximise the panel).
ImVec2 beginPanel(const char* id, const char* title, ImVec2 size, const std::string& info = "",
                  ImU32 infoColour = 0);
void endPanel();
void setPanelHint(const std::string& hint);

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
// A text field on a std::string that grows as the user types: one line `width` wide (negative:
// to the right edge) with `hint` while empty, or three lines; `flags` add to ImGui's (Enter
// returns true with ImGuiInputTextFlags_EnterReturnsTrue). True when the text changed.
bool stringField(const char* id, std::string& text, const std::string& hint = "",
                 bool multiline = false, float width = -1, ImGuiInputTextFlags flags = 0);

// Draggable divider between two panels; returns the pixel delta moved this frame.
float splitter(const char* id, bool vertical, ImVec2 pos, ImVec2 size);

using TextWidth = std::function<float(std::string_view)>;
// `text` shortened with an ellipsis (cut between UTF-8 characters) so that `width` of it fits
// `maxWidth`; empty when not even the ellipsis fits.
std::string ellipsizeWith(const std::string& text, float maxWidth, const TextWidth& width);
// `text` wrapped at its spaces into lines of at most `maxWidth` (a word longer than a line is a
// line of its own), at most `maxLines` of them: the last one shown ends in an ellipsis when more
// text follows.
std::vector<std::string> wrapLinesWith(const std::string& text, float maxWidth, size_t maxLines,
                                       const TextWidth& width);
// Labels side by side in `avail` pixels, each item taking `padding` besides its text: labels that
// fit their share stay whole, the longer ones share what is left and end in an ellipsis.
std::vector<std::string> fitLabels(const std::vector<std::string>& labels, float avail,
                                   float padding, const TextWidth& width);
// fitLabels for the tabs of the tab bar about to begin (its width, ImGui's tab padding), so that
// ImGui never has to squeeze a tab and cut its label.
std::vector<std::string> fitTabLabels(const std::vector<std::string>& labels);
// After an item drawn with `shown` for `full`: the whole text as its tooltip when elided, and
// both for the layout probe (facts "text/NAME", "full/NAME", "textWidth/NAME"; rect NAME).
void elidedItem(const std::string& name, const std::string& shown, const std::string& full);

// `text` shortened with an ellipsis to fit `maxWidth` pixels in the current font.
std::string ellipsize(const std::string& text, float maxWidth);
// The same for text drawn in `font` at `size` (draw-list text), so a cut never falls mid-word
// unseen.
std::string ellipsize(const std::string& text, float maxWidth, ImFont* font, float size);

// Text centred in a rectangle, clipped to it.
void centredText(ImDrawList* dl, ImFont* font, ImVec2 min, ImVec2 max, ImU32 colour,
                 const char* text);

} // namespace vkp::ui
