#include "ui/case_file_menu.h"

#include <algorithm>
#include <filesystem>

#include <imgui.h>

#include "base/os.h"
#include "ui/menu_items.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/view_export.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

namespace fs = std::filesystem;

constexpr size_t kRecentShown = 12;

// The case files in `dir`, newest first.
std::vector<std::string> caseFilesIn(const std::string& dir) {
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    std::error_code ec;
    for (fs::directory_iterator it(os::toPath(dir), ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != kCaseFileExtension || !it->is_regular_file(ec)) continue;
        found.emplace_back(it->last_write_time(ec), os::pathText(it->path()));
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a > b; });
    std::vector<std::string> paths;
    for (auto& f : found)
        if (paths.size() < kRecentShown) paths.push_back(f.second);
    return paths;
}

} // namespace

std::string caseFileDirectory(const Workbench& wb) {
    return exportDirectory(wb.dataDir(), "Documents");
}

void CaseFileMenu::drawMenu(Workbench& wb, const views::ViewState& view) {
    if (!beginMenu("File")) return;
    if (menuItem("Open case file\xE2\x80\xA6", "Ctrl+O")) askForFile(wb);
    const Puzzle* p = wb.puzzle();
    const CaseOutcome* shown = wb.outcome(view.selectedCase);
    bool canSave = p && !wb.caseFile() && wb.currentReport() && shown && !shown->hidden &&
                   static_cast<size_t>(view.selectedCase) < p->puzzleCaseCount();
    std::string save = "Save case " + std::to_string(view.selectedCase + 1) + " as a case file";
    if (menuItem(save.c_str(), nullptr, false, canSave)) saveShownCase(wb, view);
    if (!canSave && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        itemTooltip(wb.caseFile()            ? "This is a case file: it is saved already."
                    : shown && shown->hidden ? "This case is hidden by your teacher."
                                             : "Once the case has run (your own cases stay with "
                                               "you).");
    if (menuItem("Close case file", nullptr, false, wb.caseFile() != nullptr)) wb.closeCaseFile();
    endMenu();
}

void CaseFileMenu::askForFile(Workbench& wb) {
    m_ask = true;
    m_problem.clear();
    m_recent = caseFilesIn(caseFileDirectory(wb));
    if (m_path.empty()) m_path = caseFileDirectory(wb) + "/";
}

bool CaseFileMenu::tryOpen(Workbench& wb, const std::string& path) {
    if (Status s = wb.openCaseFile(path); !s) {
        m_problem = s.error().str();
        return false;
    }
    m_problem.clear();
    return true;
}

void CaseFileMenu::open(Workbench& wb, const std::string& path) {
    if (!tryOpen(wb, path))
        wb.messages().push_back("The case file could not be opened: " + m_problem);
}

void CaseFileMenu::drop(Workbench& wb, const std::string& path) {
    if (os::toPath(path).extension() == kCaseFileExtension || looksLikeCaseFile(path))
        return open(wb, path);
    if (Status s = wb.openKernelFile(path); !s)
        wb.messages().push_back(os::pathText(os::toPath(path).filename()) +
                                " was dropped, but it is neither a case file nor a kernel for "
                                "this puzzle: " +
                                s.error().message);
}

void CaseFileMenu::saveShownCase(Workbench& wb, const views::ViewState& view) {
    auto written = wb.exportCaseFile(caseFileDirectory(wb), static_cast<size_t>(view.selectedCase));
    if (!written) {
        wb.messages().push_back("The case file could not be saved: " + written.error().message);
        return;
    }
    wb.messages().push_back("Case " + std::to_string(view.selectedCase + 1) + " saved as " +
                            *written +
                            ": send it to anyone; it opens read-only, with every view, by File > "
                            "Open case file, a drop on the window, or `vkpuzzles open " +
                            os::shellWord(*written) + "`.");
}

void CaseFileMenu::drawDialog(Workbench& wb) {
    const char* title = "Open a case file";
    if (m_ask) ImGui::OpenPopup(title);
    m_ask = false;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    float width = ImGui::GetFontSize() * 36;
    ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Appearing);
    if (!ImGui::BeginPopupModal(title, nullptr)) return;
    richText("A case file (" + std::string(kCaseFileExtension) +
             ") holds a puzzle, a kernel and one of its cases with the trace, as someone saw "
             "them. It opens read-only: nothing runs, and your own kernel waits behind it.");
    ImGui::Spacing();
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    bool enter = stringField("##path", m_path, "/path/to/file.vkpcase", false, -1,
                             ImGuiInputTextFlags_EnterReturnsTrue);
    layout::item("caseFile/path");
    layout::fact("caseFileProblem", m_problem);
    if (!m_problem.empty()) {
        ImGui::PushTextWrapPos(0);
        colouredText(palette().fail, m_problem);
        ImGui::PopTextWrapPos();
    }
    bool done = false;
    if ((ImGui::Button("Open") || enter) && tryOpen(wb, m_path)) done = true;
    layout::item("button/Open case file");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
        done = true;
    if (!m_recent.empty()) {
        ImGui::Spacing();
        dimText("In " + caseFileDirectory(wb) + ", newest first:");
        for (const std::string& path : m_recent) {
            std::string name = os::pathText(os::toPath(path).filename());
            if (ImGui::Selectable(name.c_str()) && tryOpen(wb, path)) done = true;
            layout::item("caseFile/recent/" + name);
        }
    }
    if (done) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

} // namespace vkp::ui
