// Stepping through one workgroup of one case, headless: its accesses in one global order, a
// position in it, and the contents of the shared arrays and the buffers at that position,
// replayed from the case's initial data, with the cells the last step changed.
//
// The order: barrier round by barrier round; within a round, thread by thread in local-index
// order, each thread's accesses in program order. The trace has no clock across threads, and
// within a round their order is not known; this is the order the trace analysis replays (a race
// is exactly a round where the order would matter). A position is the number of accesses applied:
// 0 is the start (initial data), size() the end of the kernel; the end of round r is where
// SharedSnapshot r of the analysis is taken.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "reference/buffer_data.h"
#include "trace/atomic_ops.h"
#include "trace/trace.h"
#include "views/trace_model.h"

namespace vkp::views {

// Contents of every traced variable (per Trace::variables): values and whether written yet.
struct MemoryState {
    std::vector<std::vector<uint32_t>> values;
    std::vector<std::vector<uint8_t>> written; // 1 once a write of this workgroup reached the cell
};

struct TimelineAccess {
    uint64_t invocation = 0;
    uint32_t event = 0; // index into Trace::threads[invocation]
    uint32_t round = 0;
};

class Timeline {
  public:
    // `initial`: every puzzle buffer's initial contents (CaseOutcome::inputs); shared arrays start
    // as zeros, not written. `atomics`: see atomicOpsFromSource.
    Timeline(const Trace& trace, uint64_t workgroup, const std::vector<BufferData>& initial,
             std::map<uint32_t, AtomicOpKind> atomics = {});

    uint64_t workgroup() const { return m_workgroup; }
    size_t size() const { return m_accesses.size(); }
    uint32_t rounds() const {
        return static_cast<uint32_t>(m_roundEnd.size());
    } // barrier rounds with accesses
    size_t position() const { return m_pos; }
    const TimelineAccess& access(size_t i) const { return m_accesses[i]; }
    // The step applied last (nullopt at the start).
    std::optional<TimelineAccess> current() const;
    // Round of the position: that of the last applied step (0 at the start).
    uint32_t round() const;
    size_t roundStart(uint32_t r) const; // position before round r's first access
    size_t roundEnd(uint32_t r) const;   // position after its last access
    bool atRoundEnd() const;

    void seek(size_t position);
    void toStart() { seekRounds(0); }
    void toEnd() { seekRounds(size()); }
    void nextAccess() { seek(m_pos + 1); }
    void prevAccess() { seek(m_pos ? m_pos - 1 : 0); }
    // To the end of the current round, or of the next one when already there.
    void nextRound();
    // To the end of the previous round (the start before round 0).
    void prevRound();
    void seekRoundEnd(uint32_t r) {
        seekRounds(roundEnd(std::min(r, rounds() ? rounds() - 1 : 0)));
    }
    // The position just after a thread's event (its access), if that thread is in this workgroup.
    std::optional<size_t> positionAfter(uint64_t invocation, uint32_t event) const;

    const MemoryState& state() const { return m_state; }
    // The cells "the step" changed: after a round move (next/previous round, a round's end, start,
    // end) the cells written in the round that ends at the position; after an access move, those
    // the move itself wrote or put back (one cell for a single step). current() is the last access.
    const std::vector<CellRef>& changed() const { return m_changed; }
    bool wasChanged(const CellRef& c) const { return m_changedSet.count(c) > 0; }

  private:
    void applyAccess(size_t i, MemoryState& s) const;
    void
    seekRounds(size_t position); // a round move: changed = the writes of the round ending there
    void markWrites(size_t from, size_t to);
    void replayTo(size_t position);

    const Trace& m_trace;
    uint64_t m_workgroup = 0;
    std::map<uint32_t, AtomicOpKind> m_atomics;
    std::vector<TimelineAccess> m_accesses;
    std::vector<size_t> m_roundEnd; // per round
    MemoryState m_initial, m_state;
    size_t m_pos = 0;
    std::vector<CellRef> m_changed;
    std::unordered_set<CellRef, CellRefHash> m_changedSet;
};

} // namespace vkp::views
