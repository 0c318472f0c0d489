// Saving a view as a PNG: a right-click menu in the view asks for it; the app captures the next
// frame drawn without the menu and crops it to the panel holding the view (see app.cpp).
#pragma once

#include <string>

#include "views/view_state.h"

namespace vkp::ui {

// In the current window: right-click opens "Save this view as PNG" for the view `name`
// ("buffers", "timeline", "watches", "grid").
void exportMenu(views::ViewState& view, const char* name);
// The panel a view is drawn in, as MainView records its rectangle: "memory", "threads" or
// "window" (the whole window, for handouts and bug reports).
const char* panelOfView(const std::string& name);
// "matmul-timeline.png": where an export of `view` goes inside the export folder.
std::string exportFileName(const std::string& puzzleSlug, const std::string& view);
// The folder exports go to: $VKPUZZLES_EXPORT_DIR, else ~/`homeFolder`/vkpuzzles when that
// folder exists (pictures to ~/Pictures, kernels to ~/Documents), else `dataDir`/exports.
std::string exportDirectory(const std::string& dataDir, const char* homeFolder = "Pictures");

} // namespace vkp::ui
