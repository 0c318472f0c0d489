#include "views/dispatch_model.h"

#include <algorithm>
#include <unordered_map>

#include "judge/statement_rules.h"
#include "puzzle/kernel_sections.h"
#include "puzzle/passes.h"
#include "views/trace_model.h"

namespace vkp::views {

std::vector<DispatchEntry> dispatchEntries(const Puzzle& puzzle, size_t caseIndex,
                                           const CaseOutcome* outcome) {
    std::vector<DispatchEntry> out;
    if (caseIndex >= puzzle.cases.size()) return out;
    auto dispatches = caseDispatches(puzzle, caseIndex);
    if (!dispatches) return out;
    for (size_t d = 0; d < dispatches->size(); ++d) {
        const CaseDispatch& cd = (*dispatches)[d];
        DispatchEntry e{cd.label(puzzle), cd.kernel, cd.workgroups, cd.bufferAt};
        if (outcome && puzzle.multiPass() && d < outcome->dispatches.size()) {
            e.trace = outcome->dispatches[d].trace;
            e.analysis = outcome->dispatches[d].analysis;
        } else if (outcome && !puzzle.multiPass()) {
            e.trace = outcome->trace;
            e.analysis = outcome->analysis;
        }
        if (e.analysis)
            for (const Finding& f : e.analysis->findings)
                (f.failsCase ? e.errors : e.warnings) += 1;
        out.push_back(std::move(e));
    }
    return out;
}

size_t defaultDispatch(const std::vector<DispatchEntry>& entries, const CaseOutcome* outcome) {
    if (!outcome || !outcome->trace) return 0;
    for (size_t d = 0; d < entries.size(); ++d)
        if (entries[d].trace == outcome->trace) return d;
    return 0;
}

std::string dispatchTitle(const std::vector<DispatchEntry>& entries, size_t d) {
    if (d >= entries.size()) return "";
    return std::to_string(d + 1) + " of " + std::to_string(entries.size()) + " \xC2\xB7 " +
           entries[d].label;
}

std::string swappedText(const Puzzle& puzzle, const DispatchEntry& entry) {
    std::string out;
    for (size_t b : puzzle.kernels.at(entry.kernel).buffers) {
        if (b >= entry.bufferAt.size() || entry.bufferAt[b] == b) continue;
        out += (out.empty() ? "" : ", ") + puzzle.buffers[b].name +
               " is the memory that started as " + puzzle.buffers[entry.bufferAt[b]].name;
    }
    return out;
}

std::vector<uint32_t> kernelLineOffsets(const Puzzle& puzzle, const std::string& wholeText) {
    std::vector<uint32_t> out(std::max<size_t>(1, puzzle.kernels.size()), 0);
    if (puzzle.kernels.size() <= 1) return out;
    auto sections = splitKernelText(puzzle, wholeText);
    if (!sections) return out;
    for (size_t k = 0; k < puzzle.kernels.size(); ++k)
        for (const KernelSection& s : *sections)
            if (s.source.name == puzzle.kernels[k].name)
                out[k] = static_cast<uint32_t>(s.firstLine - 1);
    return out;
}

uint32_t wholeTextLine(const std::vector<uint32_t>& offsets, size_t kernel, uint32_t line) {
    if (line == 0 || kernel >= offsets.size()) return line;
    return line + offsets[kernel];
}

std::optional<size_t> kernelOfLine(const Puzzle& puzzle, const std::vector<uint32_t>& offsets,
                                   uint32_t line) {
    if (puzzle.kernels.size() <= 1) return 0;
    std::optional<size_t> best;
    for (size_t k = 0; k < offsets.size() && k < puzzle.kernels.size(); ++k)
        if (line > offsets[k] && (!best || offsets[k] > offsets[*best])) best = k;
    return best;
}

Trace traceWithLineOffset(const Trace& trace, uint32_t offset) {
    Trace out = trace;
    if (offset == 0) return out;
    for (auto& events : out.threads)
        for (TraceEvent& e : events)
            if (e.line > 0) e.line += offset;
    for (PrintfRecord& p : out.prints)
        if (p.line > 0) p.line += offset;
    return out;
}

namespace {

// One write (or atomic) to a buffer cell in a dispatch.
struct WriteRec {
    uint64_t invocation = 0;
    const TraceEvent* event = nullptr;
    size_t buffer = 0; // the binding's Puzzle::buffers index, for messages
};

std::string cellName(const Puzzle& p, size_t buffer, uint64_t index) {
    return p.buffers[buffer].name + "[" + std::to_string(index) + "]";
}

std::string count(uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Contents of every binding: per Puzzle::buffers b, the memory at b's binding.
std::vector<BufferData> boundAs(const Puzzle& p, const std::vector<BufferData>& initial,
                                const std::vector<std::vector<uint32_t>>& memory,
                                const std::vector<size_t>& bufferAt) {
    std::vector<BufferData> out;
    for (size_t b = 0; b < p.buffers.size() && b < initial.size(); ++b) {
        size_t m =
            b < bufferAt.size() && bufferAt[b] < memory.size() && bufferAt[b] < initial.size()
                ? bufferAt[b]
                : b;
        BufferData data{p.buffers[b].type, initial[m].shape, memory[m]};
        if (initial[b].words.size() == memory[m].size()) data.shape = initial[b].shape;
        out.push_back(std::move(data));
    }
    return out;
}

// The final value of one cell from all writes a dispatch made to it; false when the trace cannot
// tell which of several values came last.
bool resolveCell(const Trace& trace, const std::vector<WriteRec>& recs, uint32_t before,
                 const std::map<uint32_t, AtomicOpKind>& atomics, uint32_t& value) {
    bool oneThread = std::all_of(recs.begin(), recs.end(), [&](const WriteRec& r) {
        return r.invocation == recs.front().invocation;
    });
    if (oneThread) { // program order is known
        value = before;
        for (const WriteRec& r : recs)
            value = valueWritten(trace, *r.event, atomics);
        return true;
    }
    bool anyAtomic = std::any_of(recs.begin(), recs.end(), [](const WriteRec& r) {
        return r.event->kind == TraceEventKind::Atomic;
    });
    bool allAtomic = std::all_of(recs.begin(), recs.end(), [](const WriteRec& r) {
        return r.event->kind == TraceEventKind::Atomic;
    });
    if (!anyAtomic) {
        // Each thread's last write is a candidate; in one round or not, their order is not traced.
        std::map<uint64_t, uint32_t> last;
        for (const WriteRec& r : recs)
            last[r.invocation] = r.event->value;
        value = last.rbegin()->second;
        return std::all_of(last.begin(), last.end(),
                           [&](const auto& kv) { return kv.second == value; });
    }
    if (!allAtomic) {
        value = valueWritten(trace, *recs.back().event, atomics);
        return false;
    }
    // Atomics form one chain: each one's old value is the previous one's result, so the results
    // less the old values leave exactly the last result.
    std::map<uint32_t, int64_t> balance;
    for (const WriteRec& r : recs) {
        ++balance[valueWritten(trace, *r.event, atomics)];
        --balance[r.event->value];
    }
    std::vector<uint32_t> ends;
    for (const auto& [v, n] : balance)
        if (n > 0) ends.insert(ends.end(), static_cast<size_t>(n), v);
    if (ends.size() == 1) {
        value = ends.front();
        return true;
    }
    value = valueWritten(trace, *recs.back().event, atomics);
    return false;
}

// Every buffer's memory, by the memory's own index (not the binding's).
using Memory = std::vector<std::vector<uint32_t>>;

// A buffer cell of the replay: its memory and element index in one key.
uint64_t cellKey(size_t memory, uint64_t index) {
    return (uint64_t(memory) << 40) | index;
}
size_t keyMemory(uint64_t key) {
    return static_cast<size_t>(key >> 40);
}
uint64_t keyIndex(uint64_t key) {
    return key & ((uint64_t(1) << 40) - 1);
}

// What one dispatch is replayed from: the puzzle, the initial data, the entry and its atomics.
struct Dispatch {
    const Puzzle& puzzle;
    const std::vector<BufferData>& initial;
    const DispatchEntry& entry;
    const std::map<uint32_t, AtomicOpKind>& atomics;

    // The memory at buffer b's binding during this dispatch.
    size_t memoryAt(size_t b) const { return b < entry.bufferAt.size() ? entry.bufferAt[b] : b; }
    // The puzzle buffer an event of the trace touched; nullopt for shared memory and other
    // variables.
    std::optional<size_t> bufferOf(const TraceEvent& e) const {
        const Trace& t = *entry.trace;
        if (e.variable >= t.variables.size()) return std::nullopt;
        const TraceVariableInfo& v = t.variables[e.variable];
        if (v.decl.shared || v.puzzleBuffer < 0 ||
            static_cast<size_t>(v.puzzleBuffer) >= puzzle.buffers.size())
            return std::nullopt;
        return static_cast<size_t>(v.puzzleBuffer);
    }
};

// The writes one dispatch made to puzzle buffers, grouped per cell.
struct DispatchWrites {
    std::unordered_map<uint64_t, std::vector<WriteRec>> cells; // key: cellKey
    std::vector<bool> wrote;        // per Puzzle::buffers: written at that binding
    std::vector<std::string> notes; // buffers whose writes are not replayed (not 32-bit arrays)
    uint64_t outside = 0;           // writes past the end of a buffer, not replayed
};

DispatchWrites collectWrites(const Dispatch& step, const Memory& memory) {
    const Trace& t = *step.entry.trace;
    DispatchWrites out;
    out.wrote.assign(step.puzzle.buffers.size(), false);
    std::vector<bool> vectorsNoted(t.variables.size(), false);
    for (uint64_t inv = 0; inv < t.threads.size(); ++inv)
        for (const TraceEvent& e : t.threads[inv]) {
            std::optional<size_t> b = writesCell(e) ? step.bufferOf(e) : std::nullopt;
            if (!b) continue;
            size_t m = step.memoryAt(*b);
            out.wrote[*b] = true;
            if (!t.variables[e.variable].decl.elementType) {
                if (!vectorsNoted[e.variable])
                    out.notes.push_back(
                        step.puzzle.buffers[*b].name +
                        " is not an array of 32-bit numbers: its writes are not replayed");
                vectorsNoted[e.variable] = true;
            } else if (m >= memory.size() || e.index >= memory[m].size()) {
                ++out.outside;
            } else {
                out.cells[cellKey(m, e.index)].push_back({inv, &e, *b});
            }
        }
    return out;
}

// The final value of every cell the dispatch wrote, and the cells whose value the trace cannot
// tell.
struct ResolvedCells {
    std::vector<std::pair<uint64_t, uint32_t>> finals; // (cellKey, value)
    uint64_t unsure = 0;
    std::string firstUnsure; // the unsure cell whose name sorts first
};

ResolvedCells resolveCells(const Dispatch& step, const DispatchWrites& writes,
                           const Memory& memory) {
    ResolvedCells out;
    for (const auto& [key, recs] : writes.cells) {
        uint32_t value = 0;
        if (!resolveCell(*step.entry.trace, recs, memory[keyMemory(key)][keyIndex(key)],
                         step.atomics, value)) {
            std::string name = cellName(step.puzzle, recs.front().buffer, keyIndex(key));
            if (!out.unsure || name < out.firstUnsure) out.firstUnsure = name;
            ++out.unsure;
        }
        out.finals.push_back({key, value});
    }
    return out;
}

// The values this dispatch's reads returned, where it did not write the cell itself, are what the
// memory held before it: they must agree with the replay. Returns the note when some do not.
std::optional<std::string> misreadNote(const Dispatch& step, const DispatchWrites& writes,
                                       const Memory& memory) {
    const Trace& t = *step.entry.trace;
    uint64_t misread = 0;
    std::string first;
    for (uint64_t inv = 0; inv < t.threads.size(); ++inv)
        for (const TraceEvent& e : t.threads[inv]) {
            std::optional<size_t> b =
                e.kind == TraceEventKind::Read ? step.bufferOf(e) : std::nullopt;
            if (!b || !t.variables[e.variable].decl.elementType) continue;
            size_t m = step.memoryAt(*b);
            if (m >= memory.size() || e.index >= memory[m].size() ||
                writes.cells.count(cellKey(m, e.index)))
                continue;
            if (memory[m][e.index] == e.value) continue;
            if (!misread++)
                first = cellName(step.puzzle, *b, e.index) + " read " + std::to_string(e.value) +
                        ", the replay has " + std::to_string(memory[m][e.index]);
        }
    if (!misread) return std::nullopt;
    return count(misread, "read", "reads") +
           " of this dispatch returned another value than the replay shows (" + first +
           "): its starting data is not exact";
}

// What the replay of this dispatch leaves out, in the order the notes list it.
std::vector<std::string> ownNotes(const Trace& t, const DispatchWrites& writes,
                                  const ResolvedCells& resolved) {
    std::vector<std::string> own = writes.notes;
    if (t.dropped)
        own.push_back("its trace dropped " + count(t.dropped, "record", "records") +
                      ": some writes are not known");
    if (resolved.unsure)
        own.push_back(count(resolved.unsure, "cell was", "cells were") +
                      " written with different values by several threads (" + resolved.firstUnsure +
                      "): which came last is not traced; the replay keeps one");
    if (writes.outside)
        own.push_back(count(writes.outside, "write", "writes") +
                      " past the end of a buffer are not replayed");
    return own;
}

// Replays dispatch d on `memory` (changed to what it holds after the dispatch); `carried` gains
// the notes later dispatches inherit.
DispatchMemory replayDispatch(const Dispatch& step, size_t d, Memory& memory,
                              std::vector<std::string>& carried) {
    DispatchMemory dm;
    dm.before = boundAs(step.puzzle, step.initial, memory, step.entry.bufferAt);
    dm.wrote.assign(step.puzzle.buffers.size(), false);
    std::string which = "dispatch " + std::to_string(d + 1) + " (" + step.entry.label + ")";
    if (!step.entry.trace) {
        carried.push_back(which + " has no trace: what it wrote is not known");
        dm.notes = carried;
        dm.after = dm.before;
        dm.exact = false;
        return dm;
    }
    dm.notes = carried;
    DispatchWrites writes = collectWrites(step, memory);
    ResolvedCells resolved = resolveCells(step, writes, memory);
    std::optional<std::string> misread = misreadNote(step, writes, memory);
    for (const auto& [key, value] : resolved.finals)
        memory[keyMemory(key)][keyIndex(key)] = value;
    dm.after = boundAs(step.puzzle, step.initial, memory, step.entry.bufferAt);
    dm.wrote = writes.wrote;
    if (misread) dm.notes.push_back(*misread);
    for (const std::string& n : ownNotes(*step.entry.trace, writes, resolved)) {
        dm.notes.push_back("this dispatch: " + n);
        carried.push_back(which + ": " + n);
    }
    dm.exact = dm.notes.empty();
    return dm;
}

} // namespace

DispatchReplay::DispatchReplay(const Puzzle& p, const std::vector<BufferData>& initial,
                               const std::vector<DispatchEntry>& entries,
                               const std::vector<std::map<uint32_t, AtomicOpKind>>& atomics)
    : m_puzzle(p) {
    Memory memory;
    for (const BufferData& b : initial)
        memory.push_back(b.words);
    memory.resize(p.buffers.size());
    std::vector<std::string> carried; // notes about values that later dispatches start from
    static const std::map<uint32_t, AtomicOpKind> kNoAtomics;
    for (size_t d = 0; d < entries.size(); ++d) {
        Dispatch step{p, initial, entries[d], d < atomics.size() ? atomics[d] : kNoAtomics};
        m_memory.push_back(replayDispatch(step, d, memory, carried));
    }
    m_end = std::move(memory);
    m_finalAt = entries.empty() ? std::vector<size_t>{} : entries.back().bufferAt;
}

void DispatchReplay::verifyOutputs(const CaseOutcome& outcome) {
    for (const BufferOutcome& o : outcome.outputs) {
        size_t m = o.buffer < m_finalAt.size() ? m_finalAt[o.buffer] : o.buffer;
        if (m >= m_end.size() || m_end[m] == o.actual.words) continue;
        uint64_t differ = 0;
        for (size_t i = 0; i < o.actual.words.size(); ++i)
            differ += i >= m_end[m].size() || m_end[m][i] != o.actual.words[i];
        std::string note = "replaying the traces ends with " + count(differ, "cell", "cells") +
                           " of " + m_puzzle.buffers[o.buffer].name +
                           " other than the device read back: the values shown here may be off";
        for (DispatchMemory& dm : m_memory) {
            dm.notes.push_back(note);
            dm.exact = false;
        }
    }
}

void DispatchCache::use(const Puzzle* puzzle, size_t caseIndex, const CaseOutcome* outcome,
                        std::shared_ptr<const std::string> source) {
    std::shared_ptr<const Trace> key = outcome ? outcome->trace : nullptr;
    bool sameSource = source == m_source || (source && m_source && *source == *m_source);
    if (m_keyed && puzzle == m_puzzle && (!puzzle || puzzle->key() == m_puzzleFolder) &&
        caseIndex == m_case && outcome == m_outcome && key == m_key && sameSource)
        return;
    m_keyed = true;
    m_puzzle = puzzle;
    m_puzzleFolder = puzzle ? puzzle->key() : "";
    m_case = caseIndex;
    m_outcome = outcome;
    m_key = key;
    m_source = std::move(source);
    m_entries.clear();
    m_shifted.clear();
    m_launch.clear();
    m_replay.reset();
    m_traced = m_default = 0;
    m_offsets.assign(1, 0);
    if (!puzzle || caseIndex >= puzzle->cases.size()) return;
    m_entries = dispatchEntries(*puzzle, caseIndex, outcome);
    m_traced = static_cast<size_t>(
        std::count_if(m_entries.begin(), m_entries.end(),
                      [](const DispatchEntry& e) { return e.trace != nullptr; }));
    m_default = defaultDispatch(m_entries, outcome);
    m_offsets = m_source ? kernelLineOffsets(*puzzle, *m_source)
                         : std::vector<uint32_t>(std::max<size_t>(1, puzzle->kernels.size()), 0);
}

std::shared_ptr<const Trace> DispatchCache::trace(size_t d) {
    if (d >= m_entries.size()) return m_outcome ? m_outcome->trace : nullptr;
    const DispatchEntry& e = m_entries[d];
    uint32_t offset = e.kernel < m_offsets.size() ? m_offsets[e.kernel] : 0;
    if (!e.trace || offset == 0) return e.trace;
    auto it = m_shifted.find(d);
    if (it == m_shifted.end()) {
        // Lines of the whole text everywhere (events, and the findings' lines and messages): the
        // analysis is made again from the moved trace, exactly as the check made it.
        auto moved = std::make_shared<const Trace>(traceWithLineOffset(*e.trace, offset));
        auto analysis = std::make_shared<const TraceAnalysis>(analyzeCase(
            *moved, m_case < m_puzzle->cases.size() ? caseChecks(*m_puzzle, m_puzzle->cases[m_case])
                                                    : CaseChecks{m_puzzle->limits, {}}));
        it = m_shifted.emplace(d, std::make_pair(std::move(moved), std::move(analysis))).first;
    }
    return it->second.first;
}

std::shared_ptr<const TraceAnalysis> DispatchCache::analysis(size_t d) {
    if (d >= m_entries.size()) return m_outcome ? m_outcome->analysis : nullptr;
    const DispatchEntry& e = m_entries[d];
    uint32_t offset = e.kernel < m_offsets.size() ? m_offsets[e.kernel] : 0;
    if (!e.trace || offset == 0) return e.analysis;
    trace(d);
    return m_shifted.at(d).second;
}

const TestCase* DispatchCache::launchCase(size_t d) {
    if (!m_puzzle || m_case >= m_puzzle->cases.size()) return nullptr;
    const TestCase& c = m_puzzle->cases[m_case];
    if (!m_puzzle->multiPass() || d >= m_entries.size()) return &c;
    auto it = m_launch.find(d);
    if (it == m_launch.end()) {
        TestCase copy = c;
        copy.workgroups = m_entries[d].workgroups;
        it = m_launch.emplace(d, std::move(copy)).first;
    }
    return &it->second;
}

const DispatchMemory* DispatchCache::memory(size_t d) {
    if (!m_puzzle || !m_puzzle->multiPass() || !m_outcome || m_outcome->error ||
        d >= m_entries.size() || m_traced == 0 ||
        m_outcome->inputs.size() != m_puzzle->buffers.size())
        return nullptr;
    if (!m_replay) {
        // Atomics apply the operation of their line, read from their kernel's own section.
        std::vector<std::map<uint32_t, AtomicOpKind>> ops(m_entries.size());
        auto sections = m_source ? splitKernelText(*m_puzzle, *m_source)
                                 : Result<std::vector<KernelSection>>(Error{ErrorKind::Usage, ""});
        if (sections)
            for (size_t i = 0; i < m_entries.size(); ++i)
                for (const KernelSection& s : *sections)
                    if (s.source.name == m_puzzle->kernels[m_entries[i].kernel].name)
                        ops[i] = atomicOpsFromSource(s.source.text);
        m_replay = std::make_unique<DispatchReplay>(*m_puzzle, m_outcome->inputs, m_entries, ops);
        m_replay->verifyOutputs(*m_outcome);
    }
    return d < m_replay->size() ? &m_replay->at(d) : nullptr;
}

} // namespace vkp::views
