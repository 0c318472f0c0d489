// The Buffers view of the memory panel: the shown case's inputs, the shared arrays of one
// workgroup at the end of the kernel, and for each output the actual values beside the expected
// ones (2D buffers as matrices, wrong cells red). For a dispatch of a multi-pass case: the
// buffers it binds (named as it calls them) before and after it ran, replayed from the traces. The
// selected (or hovered) thread's reads and writes light up with their order numbers and arrows from
// the cells it read to the cell it wrote.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include <imgui.h>

#include "views/view_state.h"
#include "widgets/cell_grid.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"

namespace vkp::ui {

class BuffersView {
  public:
    void forgetPuzzle() { m_materialised.clear(); } // a reloaded puzzle may have other cases
    void draw(Workbench& wb, views::ViewState& view, const ShownCase& sc);

  private:
    // A dispatch of a multi-pass case: the buffers it binds, before and after it.
    void drawDispatch(views::ViewState& view, const ShownCase& sc);
    // Materialised data of cases that did not run (the kernel does not compile yet).
    const CaseData* fallbackData(const Puzzle& p, size_t caseIndex);
    std::map<std::pair<std::string, size_t>, std::optional<CaseData>> m_materialised;
};

// "(1, 0)": a workgroup's id from its flat index.
std::string workgroupName(const TestCase& tc, uint64_t flat);
// A buffer's or shared array's title: its name in bold, then what it is in dim text.
void gridTitle(const std::string& name, const std::string& what);
std::string shapeWords(const Shape& shape, ElementKind type,
                       const char* role); // "input · float [3 × 3]"
// Every shared array of the trace for one workgroup, from `state` (values and written flags).
void drawSharedArrays(const Trace& trace, uint64_t workgroup,
                      const std::vector<std::vector<uint32_t>>& values,
                      const std::vector<std::vector<uint8_t>>& written, const GridMarks& marks,
                      views::ViewState& view, float width, CellCanvas* canvas,
                      const std::string& when);

} // namespace vkp::ui
