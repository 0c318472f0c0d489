// The app's fonts, rasterised from TTF files at the exact pixel size of the current scale so text
// stays crisp in presentation mode (no bitmap stretching).
#pragma once

#include <string>

struct ImFont;

namespace vkp::ui {

struct Fonts {
    ImFont* ui = nullptr;    // body text (DejaVu Sans)
    ImFont* bold = nullptr;  // panel titles, emphasis
    ImFont* title = nullptr; // the puzzle's title
    ImFont* mono = nullptr;  // kernels, buffer values, ids (DejaVu Sans Mono)
    ImFont* small = nullptr; // small monospace labels inside cells and threads
    float scale = 1;         // what they were built for
    std::string source;      // the TTF folder used, or "ImGui's built-in font"
};

// Rebuilds ImGui's font atlas for `scale` (font scale x content scale). The renderer must upload
// the atlas afterwards.
Fonts buildFonts(float scale);
const Fonts& fonts(); // as built last

inline constexpr float kBaseFontPx = 15.0f;

} // namespace vkp::ui
