#include "views/walkthrough_player.h"

#include <algorithm>

#include "judge/walkthrough_steps.h"
#include "views/trace_view.h"

namespace vkp::views {

PlayerFocus playerFocus(const WalkthroughStep& step, const Puzzle& p, const TestCase& tc,
                        const Trace& trace, const TraceAnalysis& analysis) {
    PlayerFocus out;
    WalkthroughStepState s = resolveStep(step.focus, trace, analysis);
    out.workgroup = s.workgroup;
    out.round = s.round;
    out.focus.threads = s.invocations;
    out.focus.lines = step.focus.lines;
    if (!s.invocations.empty()) out.thread = globalIdOf(tc, s.invocations.front());
    for (const WalkthroughCell& c : step.focus.cells) {
        // Buffers by the case's shape (what the buffers view draws), shared arrays as resolved.
        if (auto b = p.bufferIndex(c.variable)) {
            if (*b >= tc.data.size() || !tc.data[*b]) continue;
            const Shape& shape = tc.data[*b]->shape;
            uint64_t flat = c.index.size() == 2 ? uint64_t(c.index[0]) * shape.cols() + c.index[1]
                            : c.index.empty()   ? 0
                                                : c.index[0];
            bool inside =
                flat < shape.count() && (c.index.size() != 2 || c.index[1] < shape.cols());
            if (inside) out.focus.cells.push_back(CellRef::buffer(static_cast<uint32_t>(*b), flat));
            continue;
        }
        for (const ResolvedCell& r : s.cells)
            if (trace.variables[r.variable].decl.name == c.variable &&
                trace.variables[r.variable].decl.shared) {
                CellRef ref =
                    CellRef::sharedCell(static_cast<uint32_t>(r.variable), s.workgroup, r.flat);
                if (std::find(out.focus.cells.begin(), out.focus.cells.end(), ref) ==
                    out.focus.cells.end())
                    out.focus.cells.push_back(ref);
            }
    }
    // A step about shared cells without a round shows them at the end, in the timeline.
    bool shared = std::any_of(out.focus.cells.begin(), out.focus.cells.end(),
                              [](const CellRef& c) { return c.shared; });
    if (!out.round && shared && s.round) out.round = s.round;
    return out;
}

void WalkthroughPlayer::start(size_t steps) {
    m_active = true;
    m_steps = steps;
    m_step = 0;
    m_applied.reset();
}

void WalkthroughPlayer::go(size_t step) {
    if (m_steps == 0) return;
    m_step = std::min(step, m_steps - 1);
}

bool WalkthroughPlayer::needsApply(uint64_t generation) {
    auto key = std::make_pair(m_step, generation);
    if (m_applied && *m_applied == key) return false;
    m_applied = key;
    return true;
}

} // namespace vkp::views
