// Test-only: the screen rectangles of named widgets in the frame just built, so GUI tests can
// drive the app with real X events (xdotool) at the places a person would click, without
// hard-coded pixel positions. Off unless the app turns it on (VKPUZZLES_LAYOUT=FILE); it draws
// nothing and changes no state, so what users see is the same either way.
#pragma once

#include <cstdint>
#include <string>

#include <imgui.h>

namespace vkp::ui::layout {

void enable(bool on);
bool enabled();
// Forgets the last frame's rectangles and facts.
void beginFrame();
// The last ImGui item under `name`, clipped to what is visible of it (nothing when hidden).
void item(const std::string& name);
// A rectangle in screen space under `name`, clipped to the current clip rectangle.
void rect(const std::string& name, ImVec2 min, ImVec2 max);
// A fact about the frame a test waits for ("puzzle": "02-zip", "editorFocused": "1").
void fact(const std::string& key, const std::string& value);
// The frame as JSON: {"frame": N, "facts": {...}, "rects": {"name": [x0, y0, x1, y1], ...}}.
std::string json(uint64_t frame);

} // namespace vkp::ui::layout
