// The efficiency lens in words: the sentences that explain one access site's figures
// (judge/efficiency.h), shared by the lines of an EfficiencyReport and the findings that judge
// [limits] (judge/trace_analysis.h), and the figures they quote.
#pragma once

#include <string>

#include "judge/efficiency.h"

namespace vkp {

const char* costKindName(CostKind kind); // "none", "minor", "notable", "severe"
std::string fixed1(double v);            // "1.5": one decimal
const char* verbOf(TraceEventKind kind); // "read", "write", "update"

// The worst request of a global site: the sectors it touched and the fewest that hold its bytes.
struct RequestSectors {
    uint64_t touched = 0, needed = 0;
};
RequestSectors worstRequestSectors(const MemoryModel& model, const SiteEfficiency& site);
// One request's figures from the elements its lanes accessed (any order, repeats allowed): the
// sectors touched and needed (global), and its wavefronts with the bank behind them (shared).
// `laneSpan`: the elements of its lanes from the first active one to the last (lanes 5, 6 and 8
// of floats: 4; of vec4s: 16; laneSpan in judge/request_model.h).
RequestSectors requestSectors(const MemoryModel& model, std::vector<uint32_t> indices,
                              uint64_t laneSpan);
struct RequestBanks {
    uint32_t ways = 1, bank = 0;
};
// A shared request's worst bank, a phase at a time where its lanes move vectors (see
// docs/puzzle-format.md, "Efficiency limits").
RequestBanks requestBanks(const MemoryModel& model, const RequestExample& request);
double worstSectorRatio(const MemoryModel& model, const SiteEfficiency& site); // touched / needed

// "neighbouring threads write addresses 132 bytes apart" (or "... scattered addresses (a[3], …)")
std::string spacingText(const Trace& trace, const SiteEfficiency& site);
// "8.0x the sectors needed: neighbouring threads read addresses 128 bytes apart (a request of 32
// lanes touched 32 sectors where 4 would hold its bytes)"
std::string uncoalescedText(const Trace& trace, const MemoryModel& model,
                            const SiteEfficiency& site);
// "8-way bank conflict on tile: lanes 0, 4, 8… hit bank 3 (tile[0][3], tile[4][3], …)"
std::string conflictText(const Trace& trace, const MemoryModel& model, const SiteEfficiency& site);
// "half the lanes idle at line 14: the condition tid % 2u == 0u (the if at line 13) splits every
// subgroup (64 of 64 requests ran with only some lanes, e.g. lanes 0, 2, 4… of subgroup 0)". The
// condition is read from Trace::source (base/source_text.h); without one, the sentence says
// "64 of 128 requests ran with only some lanes of their subgroup (...)".
std::string divergenceText(const Trace& trace, const SiteEfficiency& site);
int idlePercent(const SiteEfficiency& site); // of the lanes its requests' subgroups have

} // namespace vkp
