#include "widgets/view_export.h"

#include <cstdlib>
#include <filesystem>

#include <imgui.h>

#include "widgets/layout_probe.h"

namespace vkp::ui {

void exportMenu(ViewState& view, const char* name) {
    if (!ImGui::BeginPopupContextWindow("##export", ImGuiPopupFlags_MouseButtonRight)) return;
    if (ImGui::MenuItem("Save this view as PNG\xE2\x80\xA6"))
        view.exportRequest = ExportRequest{name, 2};
    layout::item("menu/export/Save this view as PNG");
    ImGui::EndPopup();
}

const char* panelOfView(const std::string& name) {
    if (name == "window") return "window";
    return name == "grid" ? "threads" : "memory";
}

std::string exportFileName(const std::string& slug, const std::string& view) {
    std::string safe;
    for (char c : slug)
        safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    return (safe.empty() ? std::string("puzzle") : safe) + "-" + view + ".png";
}

std::string exportDirectory(const std::string& dataDir, const char* homeFolder) {
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("VKPUZZLES_EXPORT_DIR"); env && *env) return env;
    std::error_code ec;
    if (const char* home = std::getenv("HOME");
        home && *home && fs::is_directory(fs::path(home) / homeFolder, ec))
        return (fs::path(home) / homeFolder / "vkpuzzles").string();
    return (fs::path(dataDir) / "exports").string();
}

} // namespace vkp::ui
