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

#include "puzzle/puzzle.h"
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

// What the Timeline view shows of a timeline and its trace, for the panel to draw.

// "round 2 (0–3) · access 12 of 96", "start · access 0 of 96", "end (after round 3) · access
// 96 of 96"; "no accesses in this workgroup".
std::string positionText(const Timeline& tl);

// The access the timeline applied last, as the view's line under the scrubber: what it did, and
// what a click on it selects.
struct TimelineStep {
    std::string text;            // "thread (3)  line 14  write  cache[3] = 3"
    bool read = false;           // a read (coloured as reads are; otherwise as writes)
    Uvec3 thread{};              // its thread's global id: a click selects the thread
    uint32_t line = 0;           // its line (of the whole text): a click shows it
    std::optional<CellRef> cell; // the cell it touched: ringed in the grids
};
// nullopt at the start. `launch`: the case (a multi-pass case's with the dispatch's workgroups).
std::optional<TimelineStep> timelineStep(const Timeline& tl, const Trace& trace,
                                         const TestCase& launch);
// What the view says at the start, before any step: of the first dispatch (or a single-pass
// case), or of a later dispatch of a multi-pass case.
std::string timelineStartText(bool laterDispatch);
// A later dispatch of a multi-pass case: where its replay starts ("Dispatch 3 (add_offsets)
// starts from what dispatches 1 and 2 wrote (replayed from their traces)."); "" for the first.
std::string dispatchStartText(size_t dispatch, const std::string& label);
// Where the step just taken wrote: arrows from the reads that fed that write (none otherwise).
std::vector<Arrow> stepArrows(const Timeline& tl, const Trace& trace);

// One buffer as replayed at the timeline's position.
struct ReplayedBuffer {
    size_t buffer = 0; // index into Puzzle::buffers
    BufferData now;    // its contents: its data at the start, with this workgroup's writes so far
    // A dispatch that binds another buffer's memory at its binding: that buffer's name ("").
    std::string startedAs;
};
// The buffers as replayed at the position, outputs first (they change), then inputs. `start`:
// every buffer's contents at the start. A dispatch of a multi-pass case (`kernelBuffers` and
// `bufferAt` of its DispatchEntry, else null): the buffers its kernel binds, as it calls them.
std::vector<ReplayedBuffer> replayedBuffers(const Puzzle& puzzle, const Trace& trace,
                                            const Timeline& tl,
                                            const std::vector<BufferData>& start,
                                            const std::vector<size_t>* kernelBuffers = nullptr,
                                            const std::vector<size_t>* bufferAt = nullptr);

} // namespace vkp::views
