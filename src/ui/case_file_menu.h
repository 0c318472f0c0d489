// The File menu: case files (report/case_file.h) opened from a path or the export folder, saved
// from the case on show, closed; and the dialog that opens one. A file dropped on the window
// opens the same way (App hands its path to open()).
#pragma once

#include <string>
#include <vector>

#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class CaseFileMenu {
  public:
    void drawMenu(Workbench& wb, const views::ViewState& view);
    void drawDialog(Workbench& wb); // the "Open a case file" dialog, when asked for
    void askForFile(Workbench& wb); // Ctrl+O
    // Opens the file in place of the learner's puzzle; what went wrong goes to the message strip.
    void open(Workbench& wb, const std::string& path);
    // A file dropped on the window: a case file (by its name or its first bytes) opens; any
    // other is taken for a kernel of the learner's puzzle (Workbench::openKernelFile).
    void drop(Workbench& wb, const std::string& path);
    // The case on show, written to the export folder; where it went goes to the message strip.
    void saveShownCase(Workbench& wb, const views::ViewState& view);

  private:
    bool tryOpen(Workbench& wb, const std::string& path); // false: m_problem says why
    bool m_ask = false;                                   // open the dialog next frame
    std::string m_path;                                   // the dialog's path field
    std::string m_problem;                                // why the dialog's last attempt failed
    std::vector<std::string> m_recent; // case files in the export folder, newest first
};

// The folder case files are saved to and offered from: as exportDirectory with ~/Documents.
std::string caseFileDirectory(const Workbench& wb);

} // namespace vkp::ui
