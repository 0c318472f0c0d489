// The menu bar's menus and items, named in the layout probe by their path ("menu/View/Save as
// PNG/The buffers") so tests can open them with real clicks.
#pragma once

namespace vkp::ui {

bool beginMenu(const char* label);
void endMenu(); // after a beginMenu that returned true
bool menuItem(const char* label, const char* shortcut = nullptr, bool selected = false,
              bool enabled = true);

} // namespace vkp::ui
