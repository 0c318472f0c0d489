// Playing a walkthrough of the official solution, headless: which step is on show, and what a
// step points the views at in the official solution's traced run (the threads to select and
// outline, the cells to ring, the lines to mark, the workgroup and round of the timeline).
#pragma once

#include <cstdint>
#include <optional>

#include "puzzle/walkthrough.h"
#include "views/view_state.h"

namespace vkp::views {

struct PlayerFocus {
    ViewFocus focus;             // threads (invocations), cells, lines
    std::optional<Uvec3> thread; // the thread to select: the step's first
    uint64_t workgroup = 0;      // the timeline's workgroup
    std::optional<uint32_t>
        round; // the timeline at the end of this round (else the buffers at the end)
};

// Cells outside the run and threads outside the launch are left out (the walkthrough's validator
// names them); [row, col] of a 2D buffer is flattened over the case's shape.
PlayerFocus playerFocus(const WalkthroughStep& step, const Puzzle& puzzle, const TestCase& testCase,
                        const Trace& trace, const TraceAnalysis& analysis);

class WalkthroughPlayer {
  public:
    void start(size_t steps);
    void stop() { m_active = false; }
    bool active() const { return m_active; }
    size_t step() const { return m_step; } // 0-based
    size_t steps() const { return m_steps; }
    void next() { go(m_step + 1); }
    void prev() { go(m_step ? m_step - 1 : 0); }
    void go(size_t step);
    // True once after each step change or a new trace (generation): point the views again.
    bool needsApply(uint64_t traceGeneration);
    // Point them again next frame (the step's dispatch was not yet on show).
    void reapply() { m_applied.reset(); }

  private:
    bool m_active = false;
    size_t m_step = 0, m_steps = 0;
    std::optional<std::pair<size_t, uint64_t>> m_applied; // (step, trace generation)
};

} // namespace vkp::views
