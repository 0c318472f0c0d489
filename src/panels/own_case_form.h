// The "Add a case" form of the test-cases panel: a text field per input buffer (prefilled from the
// shown case), the launch shape and the puzzle's constants; Run adds the learner's own case.
// Building and checking the case is puzzle/own_case.h's (the same as `vkpuzzles run --input`);
// this only draws the fields and shows the error, keeping what the learner typed.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "views/view_state.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class OwnCaseForm {
  public:
    // Fills the fields from case `caseIndex` of the open puzzle and opens the form.
    void open(const Puzzle& puzzle, size_t caseIndex);
    // The form, while it is open (a modal popup).
    void draw(Workbench& wb, views::ViewState& view);
    bool isOpen() const { return m_open; }

  private:
    struct Field {
        std::string name;  // buffer or constant name
        std::string label; // "a (float, 1D)"
        std::string text;
        std::string hint; // shown when empty ("from N: ceil_div(N, WG)")
    };
    void drawField(const std::string& probeName, Field& f, bool multiline);
    void run(Workbench& wb, views::ViewState& view);

    bool m_open = false, m_requestOpen = false;
    std::string m_folder;  // the puzzle the fields are about
    size_t m_template = 0; // 0-based
    bool m_multiPass = false;
    std::vector<Field> m_inputs;
    Field m_workgroupSize, m_workgroups;
    std::vector<Field> m_constants;
    std::string m_error; // why the last Run was refused
};

} // namespace vkp::ui
