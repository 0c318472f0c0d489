#include "panels/memory_panel.h"

#include "panels/cases_panel.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws

void drawDispatchPicker(ViewState& view, const ShownCase& sc) {
    if (!sc.outcome || sc.outcome->dispatches.size() <= 1 || !sc.entry) return;
    const Palette& pal = palette();
    const std::vector<DispatchEntry>& entries = view.dispatches.entries();
    auto mark = [](const DispatchEntry& e) {
        if (e.errors)
            return "  \xE2\x9C\x97 " + std::to_string(e.errors) +
                   (e.errors == 1 ? " finding" : " findings");
        if (e.warnings)
            return "  \xE2\x9A\xA0 " + std::to_string(e.warnings) +
                   (e.warnings == 1 ? " warning" : " warnings");
        return std::string();
    };
    ImGui::PushID("dispatch");
    ImGui::AlignTextToFramePadding();
    dimText("dispatch");
    ImGui::SameLine();
    ImGui::BeginDisabled(sc.dispatch == 0);
    if (ImGui::ArrowButton("prev", ImGuiDir_Left)) view.dispatchStep = -1;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("The previous dispatch (Alt+PgUp)");
    ImGui::SameLine(0, 2);
    const DispatchEntry& shown = *sc.entry;
    std::string current = dispatchTitle(entries, sc.dispatch) + mark(shown);
    ImGui::SetNextItemWidth(
        std::min(ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() * 2,
                 ImGui::CalcTextSize(current.c_str()).x + ImGui::GetFontSize() * 3));
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::ColorConvertU32ToFloat4(shown.errors     ? pal.fail
                                                         : shown.warnings ? pal.warn
                                                                          : pal.text));
    bool open = ImGui::BeginCombo("##pick", current.c_str(), ImGuiComboFlags_HeightLarge);
    ImGui::PopStyleColor();
    if (open) {
        for (size_t d = 0; d < entries.size(); ++d) {
            const DispatchEntry& e = entries[d];
            ImGui::PushStyleColor(ImGuiCol_Text,
                                  ImGui::ColorConvertU32ToFloat4(e.errors     ? pal.fail
                                                                 : e.warnings ? pal.warn
                                                                              : pal.text));
            std::string label = dispatchTitle(entries, d) + "  " + dimsText(e.workgroups) +
                                mark(e) + "##" + std::to_string(d);
            if (ImGui::Selectable(label.c_str(), d == sc.dispatch)) view.pickedDispatch = d;
            ImGui::PopStyleColor();
            if (d == sc.dispatch) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("This case runs %zu dispatches, one after the other on the same buffers. "
                          "Every view below and the thread grid "
                          "show the one picked here. Alt+PgUp / Alt+PgDn: the previous / next one.",
                          entries.size());
    ImGui::SameLine(0, 2);
    ImGui::BeginDisabled(sc.dispatch + 1 >= entries.size());
    if (ImGui::ArrowButton("next", ImGuiDir_Right)) view.dispatchStep = 1;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("The next dispatch (Alt+PgDn)");
    if (std::string swapped = swappedText(*sc.puzzle, shown); !swapped.empty()) {
        ImGui::SameLine(0, ImGui::GetFontSize());
        std::string text = "\xE2\x87\x84 " + swapped;
        ImGui::AlignTextToFramePadding();
        dimText(ellipsize(text, ImGui::GetContentRegionAvail().x));
        itemTooltip("Between repetitions (or rounds) the puzzle swaps these buffers' bindings: "
                    "each buffer is named as the kernel calls it in this dispatch (" +
                    swapped + ").");
    }
    ImGui::PopID();
}

void MemoryPanel::draw(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 size) {
    if (!sc.puzzle || !sc.testCase) {
        beginPanel("buffers", "Buffers", size);
        return endPanel();
    }
    std::string info = launchText(*sc.testCase);
    // The dispatch's label, which the dispatch picker under the title shows too: left out on a
    // projector, where the strip has no room to spare.
    if (sc.entry && !presenterMode()) info = sc.entry->label + ": " + info;
    if (std::string k = constantsText(*sc.puzzle, *sc.testCase); !k.empty()) info += ", " + k;
    std::string title = std::string(sc.official ? "Official solution" : "Memory") +
                        " \xE2\x80\x94 case " + std::to_string(sc.index + 1);
    beginPanel("buffers", title.c_str(), size, info);
    drawDispatchPicker(view, sc);
    std::string watches = "Watches" + (wb.watchedLines().empty()
                                           ? std::string()
                                           : " (" + std::to_string(wb.watchedLines().size()) + ")");
    std::vector<std::string> full{"Buffers", "Timeline", watches, m_console.tabLabel(sc)};
    bool lookback = sc.puzzle->lookback.has_value();
    if (lookback) full.push_back("Look-back");
    const std::vector<std::string> shown = fitTabLabels(full); // elided with a tooltip, never cut
    if (ImGui::BeginTabBar("memorytabs")) {
        auto tab = [&](MemoryTab which) {
            static const char* kNames[] = {"buffers", "timeline", "watches", "console", "lookback"};
            size_t i = static_cast<size_t>(which);
            ImGuiTabItemFlags flags =
                view.showMemoryTab == which ? ImGuiTabItemFlags_SetSelected : 0;
            bool open = ImGui::BeginTabItem((shown[i] + "###" + kNames[i]).c_str(), nullptr, flags);
            elidedItem(std::string("tab/") + kNames[i], shown[i], full[i]);
            if (open) m_current = which, layout::fact("memoryTab", kNames[i]);
            return open;
        };
        if (tab(MemoryTab::Buffers)) {
            m_buffers.draw(wb, view, sc);
            ImGui::EndTabItem();
        }
        if (tab(MemoryTab::Timeline)) {
            m_timeline.draw(wb, view, sc);
            ImGui::EndTabItem();
        }
        if (tab(MemoryTab::Watches)) {
            m_watches.draw(wb, view, sc);
            ImGui::EndTabItem();
        }
        if (tab(MemoryTab::Console)) {
            m_console.draw(view, sc);
            ImGui::EndTabItem();
        }
        if (lookback && tab(MemoryTab::Lookback)) {
            m_lookback.draw(view, sc);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    view.showMemoryTab.reset();
    endPanel();
}

} // namespace vkp::ui
