#include "ui/memory_panel.h"

#include "ui/cases_panel.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace vkp::ui {

void MemoryPanel::draw(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 size) {
    if (!sc.puzzle || !sc.testCase) {
        beginPanel("buffers", "Buffers", size);
        return endPanel();
    }
    std::string info = launchText(*sc.testCase);
    if (std::string k = constantsText(*sc.puzzle, *sc.testCase); !k.empty()) info += ", " + k;
    std::string title = std::string(sc.official ? "Official solution" : "Memory") + " \xE2\x80\x94 case " + std::to_string(sc.index + 1);
    beginPanel("buffers", title.c_str(), size, info);
    if (ImGui::BeginTabBar("memorytabs")) {
        auto tab = [&](MemoryTab which, const char* label) {
            ImGuiTabItemFlags flags = view.showMemoryTab == which ? ImGuiTabItemFlags_SetSelected : 0;
            bool open = ImGui::BeginTabItem(label, nullptr, flags);
            if (open) m_current = which;
            return open;
        };
        if (tab(MemoryTab::Buffers, "Buffers")) {
            m_buffers.draw(wb, view, sc);
            ImGui::EndTabItem();
        }
        if (tab(MemoryTab::Timeline, "Timeline")) {
            m_timeline.draw(wb, view, sc);
            ImGui::EndTabItem();
        }
        std::string watches = "Watches" + (wb.watchedLines().empty() ? std::string() : " (" + std::to_string(wb.watchedLines().size()) + ")") + "###watches";
        if (tab(MemoryTab::Watches, watches.c_str())) {
            m_watches.draw(wb, view, sc);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    view.showMemoryTab.reset();
    endPanel();
}

} // namespace vkp::ui
