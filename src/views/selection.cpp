#include "views/selection.h"

namespace vkp::views {

void Selection::clickThread(const Uvec3& global) {
    if (thread && *thread == global)
        thread.reset();
    else
        thread = global;
}

void Selection::clickCell(const CellRef& c) {
    if (cell && *cell == c)
        cell.reset();
    else
        cell = c;
}

void Selection::fitTo(const Puzzle& puzzle, const TestCase& tc, const Trace* trace) {
    Uvec3 n = launchSize(tc);
    if (thread && ((*thread)[0] >= n[0] || (*thread)[1] >= n[1] || (*thread)[2] >= n[2]))
        thread.reset();
    if (!cell) return;
    if (cell->shared) {
        uint64_t groups = uint64_t(tc.workgroups[0]) * tc.workgroups[1] * tc.workgroups[2];
        bool ok = trace && cell->array < trace->variables.size() &&
                  trace->variables[cell->array].decl.shared &&
                  cell->index < trace->variables[cell->array].length && cell->workgroup < groups;
        if (!ok) cell.reset();
        return;
    }
    bool ok = cell->array < puzzle.buffers.size() && cell->array < tc.data.size() &&
              tc.data[cell->array] && cell->index < tc.data[cell->array]->shape.count();
    if (!ok) cell.reset();
}

} // namespace vkp::views
