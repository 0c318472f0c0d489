#include "panels/hidden_case_panel.h"

#include <string>

#include "check/hidden_cases.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

bool shownCaseHidden(const ShownCase& sc) {
    return sc.puzzle && !sc.official && caseHidden(*sc.puzzle, sc.index);
}

void drawHiddenCasePanel(const char* id, const char* what, const ShownCase& sc, ImVec2 size) {
    std::string title = std::string(what) + " \xE2\x80\x94 case " + std::to_string(sc.index + 1);
    beginPanel(id, title.c_str(), size, "hidden");
    ImGui::PushTextWrapPos(0);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted("This case is hidden by your teacher.");
    ImGui::PopFont();
    layout::item(std::string("hidden/") + id);
    ImGui::TextUnformatted("Your kernel runs on it and the Test cases panel says whether it "
                           "passes, and how it fails (wrong values, a race, out of bounds, an "
                           "endless loop), but not its inputs, sizes, launch or values.");
    dimText("Select a visible case to look at its buffers and threads.");
    ImGui::PopTextWrapPos();
    layout::fact(std::string("hidden/") + id, std::to_string(sc.index + 1));
    endPanel();
}

} // namespace vkp::ui
