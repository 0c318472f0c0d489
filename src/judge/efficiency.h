// The efficiency lens: why a correct kernel is slow, computed exactly from its trace under a stated
// memory model (coalescing into sectors, shared-memory bank conflicts, divergent lanes, redundant
// global reads, atomic contention), per access site and per source line. Windowless: the check
// judges [limits] with it (judge/trace_analysis.h), `vkpuzzles profile` prints it, the app draws
// it.
//
// It lives in judge, not views, because a case's verdict depends on it and the check (session)
// sits below views.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/trace.h"

namespace vkp {

// The modelled machine. A subgroup is `lanes` consecutive local invocation indices of one
// workgroup executing in lock-step (the last subgroup of a workgroup may have fewer lanes).
struct MemoryModel {
    uint32_t lanes = 32;       // lanes per modelled subgroup
    uint32_t sectorBytes = 32; // global memory moves in sectors of this size
    uint32_t banks = 32;       // shared memory banks
    uint32_t bankBytes = 4;    // bytes per bank word
    std::string name = "32 lanes, 32-byte sectors, 32 banks of 4 bytes (NVIDIA-like)";
};

// An access site: one kind of access to one variable on one source line. The k-th execution of a
// site by the lanes of one modelled subgroup is one *request*.
struct SiteKey {
    uint32_t line = 0;
    uint32_t variable = kTraceVariableNone; // index into Trace::variables
    TraceEventKind kind = TraceEventKind::Read;
    auto operator<=>(const SiteKey&) const = default;
};

// One request, for the sentence that explains a site and for the buffers view.
struct RequestExample {
    uint64_t workgroup = 0;        // flat workgroup index
    uint32_t subgroup = 0;         // modelled subgroup in the workgroup
    uint32_t execution = 0;        // k: the lanes' k-th execution of the site
    std::vector<uint32_t> lanes;   // active lanes, ascending; a lane that moved a vector once
                                   // per scalar
    std::vector<uint32_t> indices; // the element each entry of `lanes` accessed (same order)

    std::vector<uint32_t> activeLanes() const; // each active lane once
};

struct SiteEfficiency {
    SiteKey site;
    uint64_t requests = 0;
    uint64_t activeLanes = 0;       // summed over requests
    uint64_t subgroupLanes = 0;     // lanes the requests' subgroups have, summed over requests
    uint64_t divergentRequests = 0; // requests with 0 < active lanes < the subgroup's lanes
    // Global buffers (Read, Write, Atomic on a buffer):
    uint64_t sectors = 0;       // sectors touched, summed over requests
    uint64_t neededSectors = 0; // the fewest sectors that could hold each request's bytes, summed
    double worstEfficiency = 1; // the lowest needed / touched of one request
    // Shared arrays:
    uint64_t wavefronts = 0; // summed over requests (1 per request without conflicts)
    uint32_t worstWays = 1;  // the most wavefronts of one request
    uint32_t worstBank = 0;  // the bank of that request that served the most distinct words
    // Reads of an address its thread had already read from global memory (Read sites only).
    uint64_t repeatedReads = 0;
    // Fetches of an element that another modelled subgroup of the same workgroup also fetched at
    // this site (global Read sites): what a tile in shared memory would load once per workgroup
    // (matmul's a and b). Lanes of one request reading one address are a broadcast, not counted.
    uint64_t workgroupRefetches = 0;
    uint32_t mostSubgroupsOnOne = 0; // the most subgroups of one workgroup that fetched one element
    uint32_t mostFetchedElement = 0; // that element
    uint64_t mostFetchedWorkgroup = 0;
    // Atomics: the most lanes of one request that hit one address.
    uint32_t worstAtomicsPerAddress = 0;
    RequestExample worst; // the request behind the worst figure above
};

// How much a line costs: the gutter badge's colour (none: nothing worth a badge).
enum class CostKind { None, Minor, Notable, Severe };

// One source line: its sites and the worst figure, said as a sentence a learner reads
// ("4.0x the sectors needed: neighbouring threads read addresses 128 bytes apart").
struct LineEfficiency {
    uint32_t line = 0;
    CostKind cost = CostKind::None;
    std::string badge;    // short: "4.0x sectors", "8-way", "50% idle", "3x re-read"
    std::string sentence; // the whole explanation
    double extra = 0;     // extra work this line causes (wasted sectors + extra wavefronts ...),
                          // the order of the lines panel
    std::vector<size_t> sites; // indices into EfficiencyReport::sites
};

struct EfficiencyReport {
    MemoryModel model;
    std::vector<SiteEfficiency> sites;
    std::vector<LineEfficiency> lines; // most costly first; lines with no finding left out
    // What [limits] are judged on (puzzle/puzzle.h Limits):
    double globalEfficiency = 1;         // the lowest of any global request (1: none)
    uint32_t worstBankWays = 1;          // the most wavefronts of any shared request
    uint64_t mostDivergentRequests = 0;  // per workgroup, the most over workgroups
    uint64_t mostGlobalAtomics = 0;      // atomics on buffers per workgroup, the most
    uint64_t mostDivergentWorkgroup = 0; // the workgroups behind the two figures above
    uint64_t mostAtomicsWorkgroup = 0;
    // Reads per output cell, the fair measure of a kernel whose threads own several cells
    // (register tiling): reads of buffers and of shared arrays, and the distinct buffer elements
    // written (plain stores and atomics). Elements, not requests: a vec4 read whole is four (the
    // per-thread limits, TraceAnalysis::traffic, count it as one).
    uint64_t globalReads = 0, sharedReads = 0, cellsWritten = 0;
    // Work per thread: global stores and atomics (every one, not distinct cells), and the threads
    // of the trace. Several items per thread show here as more reads and writes per thread; the
    // model counts them but not how many a thread has in flight at once (latency is not modelled:
    // `vkpuzzles bench` times it).
    uint64_t globalWrites = 0, threads = 0;
};

// Every event of `trace` (complete or not: the caller knows whether it overflowed).
EfficiencyReport analyzeEfficiency(const Trace& trace, const MemoryModel& model = {});

// The request that the `eventIndex`-th event of `invocation` belongs to: the same site's same
// execution by the other active lanes of its modelled subgroup (the buffers view colours them).
// nullopt for barriers and for an event outside the trace.
std::optional<RequestExample> requestOf(const Trace& trace, const MemoryModel& model,
                                        uint64_t invocation, size_t eventIndex);

} // namespace vkp
