// What a trace says about a kernel: per-thread global traffic against the puzzle's limits,
// out-of-bounds accesses, races, reads of never-written shared cells, loop budgets, and the
// shared memory of each workgroup after every barrier round.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/efficiency.h"
#include "core/puzzle.h"
#include "core/trace.h"

namespace vkp {

enum class FindingKind {
    SharedRace,          // two threads of a workgroup, same shared cell, same round, a write
    GlobalWriteConflict, // two threads wrote the same buffer cell
    OutOfBounds,         // an index past the end of a buffer or shared array
    UninitialisedRead,   // a shared cell read before anything wrote it
    ReadLimit,           // more global reads in a thread than the puzzle allows
    WriteLimit,          // more global writes in a thread than the puzzle allows
    LoopBudget,          // a thread ran out of loop iterations (endless loop?)
    DivergentBarrier,    // threads of a workgroup passed different numbers of barriers
    TraceOverflow,       // records were dropped: the analysis saw only part of the run
    Rule,                // a rule of the statement ([[rules]]) broken, quoted in the message
    // Efficiency limits of [limits] broken (core/efficiency.h), even when the values are right:
    Uncoalesced,   // a global request touched more sectors than global_efficiency allows
    BankConflict,  // a shared request took more wavefronts than bank_conflicts allows
    Divergence,    // a workgroup had more divergent requests than divergent_requests allows
    GlobalAtomics, // a workgroup made more atomics on buffers than global_atomics_per_workgroup
    // A thread read a buffer cell that a thread of another workgroup wrote in the same dispatch
    // (plain loads and stores; atomics are left out): nothing orders workgroups.
    GlobalRace,
    // A subgroup shuffle or broadcast took its value from a lane of its subgroup that did not
    // run it (not active there): the value is undefined.
    UndefinedShuffle,
    // The kernel changed an input buffer (found in the buffers read back, traced or not): the
    // puzzle's inputs are read-only, and a kernel that uses one as its scratch space is wrong.
    InputWritten,
};
const char* findingKindName(FindingKind kind); // "race", "out-of-bounds", ...
// An efficiency limit's finding ([limits] global_efficiency, bank_conflicts, divergent_requests,
// global_atomics_per_workgroup): about how a kernel touches memory, not what it computes.
bool isEfficiencyFinding(FindingKind kind);

struct Finding {
    FindingKind kind = FindingKind::SharedRace;
    std::string message;           // one sentence naming threads, cells and lines
    uint32_t line = 0;             // kernel line of the (first) offending access
    std::vector<uint64_t> threads; // invocations involved, the first ones
    int variable = -1;             // index into Trace::variables, -1 if none
    uint32_t index = 0;            // the cell
    uint32_t round = 0;
    uint64_t occurrences = 1; // how many accesses or cells share this finding
    bool failsCase = true;    // false for TraceOverflow (a warning)
};

struct ThreadTraffic {
    uint32_t globalReads = 0;
    uint32_t globalWrites = 0;
};

// Shared arrays of one workgroup after one barrier round (round r = after the r-th barrier;
// the last snapshot is the end of the kernel).
struct SharedSnapshot {
    uint32_t round = 0;
    std::vector<std::vector<uint32_t>> values; // per shared variable (others empty)
    std::vector<std::vector<uint8_t>> written; // 1 where some thread has written the cell
};

struct TraceAnalysis {
    std::vector<ThreadTraffic> traffic; // per invocation
    uint64_t maxReadsThread = 0, maxWritesThread = 0;
    uint32_t maxReads = 0, maxWrites = 0;
    std::vector<Finding> findings;
    std::vector<std::vector<SharedSnapshot>> rounds; // per workgroup, when it has shared arrays
    uint64_t events = 0;
    Limits limits; // the per-thread limits the case was judged against (its own values)
    EfficiencyReport efficiency; // under the default memory model

    bool failsCase() const;
};

// What a loop-guard buffer (core/trace.h) says after an untraced run: the same loop-budget finding
// a trace gives, naming the first thread that ran out; none when every loop ended in time.
std::optional<Finding> loopGuardFinding(std::span<const uint32_t> guard, const TraceLaunch& launch,
                                        const std::vector<uint32_t>& siteLines = {});

// `limits` are the puzzle's per-thread budgets (unset: unlimited).
TraceAnalysis analyzeTrace(const Trace& trace, const Limits& limits);
// The same with a case's limits and the statement's rules that apply to it
// (core/statement_rules.h).
struct CaseChecks;
TraceAnalysis analyzeCase(const Trace& trace, const CaseChecks& checks);

// "a[3]", "tile[1][2]": a cell of a traced variable, by its flattened index.
std::string traceCellName(const Trace& trace, uint32_t variable, uint32_t index);

} // namespace vkp
