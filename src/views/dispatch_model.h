// The dispatches of a multi-pass case, headless, for the views: the list the dispatch picker
// offers (label, kernel, real workgroup count, the buffers swapped to each binding, findings),
// the one shown by default, each dispatch's trace with its lines on the lines of the whole text
// the app edits (`//// kernel NAME` sections), and the buffers' contents before and after each
// dispatch, replayed from the initial data through the writes of the traces in order.
//
// The replay is exact when each cell a dispatch wrote has one final value the trace can tell: one
// thread wrote it, or several wrote the same value, or atomics form one chain (each one's old
// value the previous one's result). Where it cannot tell (different values from several threads,
// a compare-and-swap, dropped records, an array of vectors), the dispatch says so in `notes`, and
// every later dispatch inherits the note. Two checks catch what slipped through: the values this
// dispatch's reads returned against the replay, and the last dispatch's outputs against the
// real read-back.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "judge/trace_analysis.h"
#include "puzzle/puzzle.h"
#include "reference/buffer_data.h"
#include "report/check_report.h"
#include "trace/trace.h"
#include "views/timeline.h"

namespace vkp::views {

// One dispatch of a case, as the picker lists it.
struct DispatchEntry {
    std::string label;                           // "scan_tiles", "step (3 of 10)"
    size_t kernel = 0;                           // index into Puzzle::kernels
    std::array<uint32_t, 3> workgroups{1, 1, 1}; // this dispatch's real launch
    std::vector<size_t> bufferAt;    // per Puzzle::buffers b: whose memory is at b's binding
    size_t errors = 0, warnings = 0; // findings of its trace: failing ones, warnings
    std::shared_ptr<const Trace>
        trace; // as the check recorded it (kernel-section lines); null: not run
    std::shared_ptr<const TraceAnalysis> analysis;
};

// The dispatches of a case: from puzzle/passes (launch, bindings), with the outcome's per-dispatch
// traces when it ran. One entry for a single-pass puzzle. Empty when the case's passes do not
// evaluate (the loader's errors say why).
std::vector<DispatchEntry> dispatchEntries(const Puzzle& puzzle, size_t caseIndex,
                                           const CaseOutcome* outcome);
// The dispatch the views show first: the one CaseOutcome::trace is (the first with a failing
// finding, else the first).
size_t defaultDispatch(const std::vector<DispatchEntry>& entries, const CaseOutcome* outcome);
// "3 of 10 · step (3 of 10)".
std::string dispatchTitle(const std::vector<DispatchEntry>& entries, size_t d);
// "src (the memory that started as dst), dst (... as src)": the bindings a swap moved, or "".
std::string swappedText(const Puzzle& puzzle, const DispatchEntry& entry);

// Per Puzzle::kernels: how far its section's lines sit below line 1 of the whole text (0 for a
// single-kernel puzzle, or a text that does not split).
std::vector<uint32_t> kernelLineOffsets(const Puzzle& puzzle, const std::string& wholeText);
// A line of a kernel's own text as a line of the whole text.
uint32_t wholeTextLine(const std::vector<uint32_t>& offsets, size_t kernel, uint32_t line);
// The kernel whose section holds a line of the whole text (nullopt: a marker line, or before).
std::optional<size_t> kernelOfLine(const Puzzle& puzzle, const std::vector<uint32_t>& offsets,
                                   uint32_t line);
// A copy of a trace with every line moved down by `offset`.
Trace traceWithLineOffset(const Trace& trace, uint32_t offset);

// Buffers around one dispatch, as its bindings see them (per Puzzle::buffers b: the memory at
// b's binding during the dispatch).
struct DispatchMemory {
    std::vector<BufferData> before, after;
    std::vector<bool> wrote; // per Puzzle::buffers: the dispatch wrote at that binding
    bool exact = true;       // false: `notes` say which values may be off
    std::vector<std::string> notes;
};

// Replays a case's dispatches in order from the initial contents of every buffer.
class DispatchReplay {
  public:
    // `atomics`: per dispatch, the operation of each atomic line (see atomicOpsFromSource), in
    // the lines its trace uses; may be empty.
    DispatchReplay(const Puzzle& puzzle, const std::vector<BufferData>& initial,
                   const std::vector<DispatchEntry>& entries,
                   const std::vector<std::map<uint32_t, AtomicOpKind>>& atomics = {});
    size_t size() const { return m_memory.size(); }
    const DispatchMemory& at(size_t d) const { return m_memory.at(d); }
    // Compares the replay's end with the outputs the device read back; a difference is noted on
    // every dispatch after the first (their starting data came from the replay).
    void verifyOutputs(const CaseOutcome& outcome);

  private:
    std::vector<DispatchMemory> m_memory;
    std::vector<std::vector<uint32_t>> m_end; // every buffer's memory after the last dispatch
    std::vector<size_t> m_finalAt;
    const Puzzle& m_puzzle;
};

// The dispatches of the case on show, derived once per outcome and kept (keyed on it).
class DispatchCache {
  public:
    // Points the cache at a case and its outcome (null: not run), with the text that ran.
    void use(const Puzzle* puzzle, size_t caseIndex, const CaseOutcome* outcome,
             std::shared_ptr<const std::string> source);
    // Another puzzle opened: drop everything (the outcome pointer included) until the next use().
    void reset() { *this = DispatchCache{}; }

    const std::vector<DispatchEntry>& entries() const { return m_entries; }
    size_t traced() const { return m_traced; } // dispatches with a trace (> 1: the picker is shown)
    size_t defaultIndex() const { return m_default; }
    // The dispatch's trace and analysis with the lines of the whole text (single kernel: as run).
    std::shared_ptr<const Trace> trace(size_t d);
    std::shared_ptr<const TraceAnalysis> analysis(size_t d);
    // The case with this dispatch's workgroup count (a multi-pass case's own is not a launch).
    const TestCase* launchCase(size_t d);
    // Buffers before and after the dispatch (null: not run, or a single-pass case).
    const DispatchMemory* memory(size_t d);
    const std::vector<uint32_t>& lineOffsets() const { return m_offsets; }

  private:
    const Puzzle* m_puzzle = nullptr;
    size_t m_case = 0;
    const CaseOutcome* m_outcome = nullptr;
    std::shared_ptr<const Trace> m_key; // the outcome's trace: held, so its address stays unique
    std::shared_ptr<const std::string> m_source;
    std::string m_puzzleFolder;
    bool m_keyed = false;
    std::vector<DispatchEntry> m_entries;
    size_t m_traced = 0, m_default = 0;
    std::vector<uint32_t> m_offsets;
    std::map<size_t, std::pair<std::shared_ptr<const Trace>, std::shared_ptr<const TraceAnalysis>>>
        m_shifted;
    std::map<size_t, TestCase> m_launch;
    std::unique_ptr<DispatchReplay> m_replay;
};

} // namespace vkp::views
