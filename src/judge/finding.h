// What the judgement of a trace reports: a finding, its kind and the kind's name. Apart from the
// analysis (judge/trace_analysis.h) so that the judges it calls (the efficiency limits, the
// statement's rules) report findings without including the analysis that calls them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vkp {

enum class FindingKind {
    SharedRace,          // two threads of a workgroup, same shared cell, same round, a write
    GlobalWriteConflict, // two threads wrote the same buffer cell
    OutOfBounds,         // an index past the end of a buffer or shared array
    UninitialisedRead,   // a shared cell read before anything wrote it
    ReadLimit,           // more global reads in a thread than the puzzle allows
    WriteLimit,          // more global writes in a thread than the puzzle allows
    LoopBudget,          // a thread ran out of loop iterations (endless loop?)
    DivergentBarrier,    // threads of a workgroup reached different barriers, or unequally many
    TraceOverflow,       // records were dropped: the analysis saw only part of the run
    Rule,                // a rule of the statement ([[rules]]) broken, quoted in the message
    // Efficiency limits of [limits] broken (judge/efficiency.h), even when the values are right:
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

} // namespace vkp
