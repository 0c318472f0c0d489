// The memory model's figures for one request of an access site (docs/puzzle-format.md,
// "Efficiency limits"): the sectors a global request touches, the banks a shared one hits (a
// phase at a time where its lanes move vectors), atomics on one address. Shared by the
// efficiency analysis (judge/efficiency.cpp) and its sentences (judge/efficiency_text.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "judge/efficiency.h"

namespace vkp {

inline constexpr uint64_t kElementBytes = 4; // trace indices count 32-bit scalars

// A read, write or atomic of a traced variable.
bool isAccess(const Trace& t, const TraceEvent& e);
// Its access site (line, variable, kind) as one number.
uint64_t packedSite(const TraceEvent& e);
// A Read or Write of a vector's scalar after its first: the same execution of its site as the
// scalar before it (one instruction moved them together).
bool continuesVector(const TraceEvent& e);

// The sectors one global request touches, and the fewest that could hold its bytes. `sorted`:
// the lanes' indices, ascending (repeats allowed); `laneSpan`: the elements of the lanes from
// the first active one to the last (laneSpan below).
struct Sectors {
    uint64_t touched = 0, needed = 0;
};
Sectors sectorsOf(const MemoryModel& m, const std::vector<uint32_t>& sorted, uint64_t laneSpan);
// The elements a request's lanes span: its lanes from the first active one to the last, each
// as wide as the widest access (a lane that moved a vec4 is four). `lanes`: ascending, a lane
// once per scalar it moved.
uint64_t laneSpan(const std::vector<uint32_t>& lanes);

// Wavefronts of one shared request of scalars: the most distinct words one bank serves, and
// that bank. `perBank`: scratch.
struct Banks {
    uint32_t ways = 1, bank = 0;
};
Banks banksOf(const MemoryModel& m, const std::vector<uint32_t>& sorted,
              std::vector<uint32_t>& perBank);

// A shared request whose lanes may move vectors, judged a phase at a time (see its definition).
struct PhasedBanks {
    Banks banks;
    uint32_t wavefronts = 1;
    uint32_t firstLane = 0, lastLane = ~0u; // the worst phase's lanes (all, for scalars)
};
PhasedBanks phasedBanks(const MemoryModel& m, const std::vector<uint32_t>& lanes,
                        const std::vector<uint32_t>& indices, std::vector<uint32_t>& phase,
                        std::vector<uint32_t>& perBank);

// The most lanes of one request on one address (`sorted` ascending).
uint32_t mostOnOneAddress(const std::vector<uint32_t>& sorted);

} // namespace vkp
