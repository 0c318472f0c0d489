#include "ui/menu_items.h"

#include <string>
#include <vector>

#include <imgui.h>

#include "widgets/layout_probe.h"

namespace vkp::ui {
namespace {

std::vector<std::string> g_menuPath; // the menus open around the item being drawn

std::string menuName(const char* label) {
    std::string name = "menu";
    for (const std::string& m : g_menuPath)
        name += "/" + m;
    return name + "/" + label;
}

} // namespace

bool beginMenu(const char* label) {
    bool open = ImGui::BeginMenu(label);
    layout::item(menuName(label));
    if (open) g_menuPath.push_back(label);
    return open;
}

void endMenu() {
    ImGui::EndMenu();
    g_menuPath.pop_back();
}

bool menuItem(const char* label, const char* shortcut, bool selected, bool enabled) {
    bool chosen = ImGui::MenuItem(label, shortcut, selected, enabled);
    layout::item(menuName(label));
    return chosen;
}

} // namespace vkp::ui
