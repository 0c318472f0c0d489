// Where the main window's panels go: the fractions of LayoutSettings turned into rectangles, with
// what a large text size (a projector at 150-200%) needs, and one panel maximised (Ctrl+M).
// Plain arithmetic, no ImGui: the tests check it without a window.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "store/user_state.h"

namespace vkp::ui {

enum class PanelKind { Browser, Side, Editor, Cases, Memory, Threads };
inline constexpr size_t kPanelCount = 6;
// "browser", "side", "editor", "cases", "memory", "threads" (the layout probe's names).
std::string_view panelName(PanelKind kind);

struct PanelBox {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
    bool empty() const { return width() <= 0 || height() <= 0; }
    bool contains(float x, float y) const {
        return !empty() && x >= x0 && x < x1 && y >= y0 && y < y1;
    }
};

// A browser narrower than this many text heights shows no readable title: it is drawn compact
// (solved mark and number; the tooltip names the puzzle) and its width goes to the editor row.
inline constexpr float kBrowserReadableEms = 9.0f;
inline constexpr float kBrowserCompactEms = 5.0f;

struct PanelArrangement {
    std::array<PanelBox, kPanelCount> panels; // empty: not drawn (another panel is maximised)
    bool browserCompact = false;
    float browserExpandFraction = 0; // LayoutSettings::browserWidth that leaves compact
    bool maximised = false;
    bool columnOverAll = false; // presenter mode: the unfolded column took the whole top row

    const PanelBox& operator[](PanelKind k) const { return panels[static_cast<size_t>(k)]; }
    PanelBox& operator[](PanelKind k) { return panels[static_cast<size_t>(k)]; }
};

// The six panels in `area`, `split` pixels apart, for text `fontSize` pixels high.
PanelArrangement arrangePanels(const LayoutSettings& layout, PanelBox area, float split,
                               float fontSize);
// Presenter mode (F5): the projection layout. The memory and thread panels share the bottom row,
// always; the editor (during a walkthrough the side panel, which plays it) has the top row. The
// puzzle list, the side tabs and the test cases are folded away; each unfolds with its key into
// a column at the left of the top row, stacked in that order. The column is never squeezed
// (kPresenterColumnEms wide at least, the side tabs' labels whole): when the editor would be left
// narrower than kPresenterMainEms, the column takes the whole top row while it is open.
inline constexpr float kPresenterColumnEms = 18.0f;
inline constexpr float kPresenterMainEms = 26.0f;
inline constexpr float kPresenterTopShare = 0.5f;
// The most of the height the top row takes when what it shows asks for more than its share (a
// walkthrough step's whole text on a 1280x720 projector): the bottom row keeps the rest, and at
// least kPresenterBottomEms text heights.
inline constexpr float kPresenterTopMostShare = 0.75f;
inline constexpr float kPresenterBottomEms = 5.0f;

struct PresenterFolds {
    bool browser = false, side = false, cases = false; // unfolded
    bool any() const { return browser || side || cases; }
};

// `sideWidth`: what the side panel needs for its tab labels whole, in pixels. `topWanted`: the
// height the top row's panel asks for (0: its share), granted up to kPresenterTopMostShare.
PanelArrangement arrangePresenter(const PresenterFolds& open, bool walkthrough, PanelBox area,
                                  float split, float fontSize, float sideWidth,
                                  float topWanted = 0);
// The tallest the presenter's top row may grow in `area`.
float presenterTopMost(PanelBox area, float split, float fontSize);
// One panel over the whole area, the others not drawn.
PanelArrangement maximisePanel(PanelKind kind, PanelBox area);
// The panel under a point (the pointer), if any.
std::optional<PanelKind> panelAt(const PanelArrangement& arrangement, float x, float y);

} // namespace vkp::ui
