#include "widgets/view_export.h"

#include <cstdlib>
#include <filesystem>

#include <imgui.h>

#include "base/os.h"
#include "widgets/layout_probe.h"

namespace vkp::ui {

void exportMenu(views::ViewState& view, const char* name) {
    if (!ImGui::BeginPopupContextWindow("##export", ImGuiPopupFlags_MouseButtonRight)) return;
    if (ImGui::MenuItem("Save this view as PNG\xE2\x80\xA6"))
        view.exportRequest = views::ExportRequest{name, 2};
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
    if (std::string env = os::environmentVariable("VKPUZZLES_EXPORT_DIR"); !env.empty()) return env;
    std::error_code ec;
    if (std::string home = os::homeFolder();
        !home.empty() && fs::is_directory(os::toPath(home) / homeFolder, ec))
        return os::pathText(os::toPath(home) / homeFolder / "vkpuzzles");
    return os::pathText(os::toPath(dataDir) / "exports");
}

} // namespace vkp::ui
