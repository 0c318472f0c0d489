// The selected case's buffers: inputs, and for each output the actual values beside the expected
// ones; 2D buffers as matrices, wrong cells highlighted, cells linked to threads by index.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include <imgui.h>

#include "ui/trace_view.h"
#include "ui/view_state.h"
#include "ui/workbench.h"

namespace vkp::ui {

class BuffersPanel {
  public:
    void draw(Workbench& wb, ViewState& view, ImVec2 size);

  private:
    // Materialised data of cases that did not run (the kernel does not compile yet).
    const CaseData* fallbackData(const Puzzle& p, size_t caseIndex);
    std::map<std::pair<std::string, size_t>, std::optional<CaseData>> m_materialised;
};

// How one case links cells and threads: its trace when it ran traced (real reads and writes),
// otherwise the index convention of thread_map.h.
struct CellLinks {
    const TestCase* testCase = nullptr;
    const Trace* trace = nullptr;           // null: by index
    std::vector<CellAccess> hoveredThread;  // with a trace: what the hovered thread touched
};

// Draws one buffer as a grid. `expected` marks wrong cells (outputs); `linkBuffer` is the
// buffer's index for hover links with the thread grid.
void drawBufferGrid(const char* id, const BufferDecl& decl, const BufferData& data, const BufferData* expected,
                    double tolerance, const CellLinks& links, size_t linkBuffer, ViewState& view, float width);

// Whether cell i of `actual` differs from `expected` by the checker's rule (exact for integers,
// |a - e| <= tolerance * max(1, |e|) for floats).
bool cellWrong(const BufferData& actual, const BufferData& expected, uint64_t i, double tolerance);

} // namespace vkp::ui
