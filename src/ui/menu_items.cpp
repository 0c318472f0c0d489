#include "ui/menu_items.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "widgets/layout_probe.h"

namespace vkp::ui {
namespace {

std::vector<std::string> g_menuPath; // the menus open around the item being drawn
// Each menu's header where it was last drawn closed. Once a menu opens, its popup window is the
// last item and clips what is drawn, so its header is probed after EndMenu, back in the parent,
// where it was (a header stays put while its menu is open).
std::map<std::string, std::pair<ImVec2, ImVec2>> g_headers;

std::string menuName(const char* label) {
    std::string name = "menu";
    for (const std::string& m : g_menuPath)
        name += "/" + m;
    return name + "/" + label;
}

} // namespace

bool beginMenu(const char* label) {
    std::string name = menuName(label);
    bool open = ImGui::BeginMenu(label);
    if (open) {
        g_menuPath.push_back(label); // its header is probed in endMenu, back in the parent
        return true;
    }
    layout::item(name);
    if (layout::enabled()) g_headers[name] = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
    return false;
}

void endMenu() {
    ImGui::EndMenu();
    std::string label = std::move(g_menuPath.back());
    g_menuPath.pop_back();
    std::string name = menuName(label.c_str());
    if (auto seen = g_headers.find(name); seen != g_headers.end())
        layout::rect(name, seen->second.first, seen->second.second);
}

bool menuItem(const char* label, const char* shortcut, bool selected, bool enabled) {
    bool chosen = ImGui::MenuItem(label, shortcut, selected, enabled);
    layout::item(menuName(label));
    return chosen;
}

} // namespace vkp::ui
