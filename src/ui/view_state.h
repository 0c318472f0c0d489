// View state shared by the panels of one window: the selected test case and what the pointer is
// over (so a thread hovered in the grid lights up its cells in the buffers panel and back).
// Only view state lives here; the truth is in the Workbench.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "ui/thread_map.h"

namespace vkp::ui {

struct HoverLink {
    std::optional<Uvec3> thread;                         // global id of a thread under the pointer
    std::optional<std::pair<size_t, uint64_t>> cell;     // (buffer index, flat index) under the pointer
};

enum class SideTab { Statement, Hints, Solution, Device };

struct ViewState {
    int selectedCase = 0;             // index into the open puzzle's cases
    HoverLink hover;                  // last frame's hover: what panels draw from
    HoverLink nextHover;              // this frame's: written by the panel under the pointer
    std::optional<SideTab> showTab;   // a request to bring a tab to the front
    std::optional<std::pair<int, int>> jumpTo; // 1-based line, column for the editor
    bool showShortcuts = false;
    bool showAbout = false;
    bool fontBigger = false, fontSmaller = false, fontReset = false; // requests for the app
    bool toggleTheme = false;
    bool resetLayout = false;
    bool quit = false;                // Ctrl+Q
};

} // namespace vkp::ui
