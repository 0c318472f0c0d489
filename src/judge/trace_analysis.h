// What a trace says about a kernel: per-thread global traffic against the puzzle's limits,
// out-of-bounds accesses (judge/bounds.h), races, reads of never-written shared cells, loop
// budgets, and the shared memory of each workgroup after every barrier round.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "judge/efficiency.h"
#include "judge/finding.h"
#include "judge/statement_rules.h"
#include "puzzle/puzzle.h"
#include "trace/trace.h"

namespace vkp {

// Requests, as global_reads and global_writes count them: a vec4 moved whole through a buffer's
// vector view is one read or write (docs/puzzle-format.md, "Vector views").
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

// What a loop-guard buffer (trace/trace.h) says after an untraced run: the same loop-budget finding
// a trace gives, naming the first thread that ran out; none when every loop ended in time.
std::optional<Finding> loopGuardFinding(std::span<const uint32_t> guard, const TraceLaunch& launch,
                                        const std::vector<uint32_t>& siteLines = {});

// `limits` are the puzzle's per-thread budgets (unset: unlimited).
TraceAnalysis analyzeTrace(const Trace& trace, const Limits& limits);
// The same with a case's limits and the statement's rules that apply to it
// (judge/statement_rules.h).
TraceAnalysis analyzeCase(const Trace& trace, const CaseChecks& checks);

} // namespace vkp
