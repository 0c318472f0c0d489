// What the views draw of the efficiency lens (judge/efficiency.h): the request on show as cells of
// a buffer or shared array (with the sectors it touched, or the bank of each word), the site that
// stands for a line, and the words for a case without figures. Windowless: the tests check it
// with hand-built reports and traces.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "judge/efficiency.h"
#include "trace/trace.h"
#include "views/trace_model.h"

namespace vkp::views {

// A request the learner asked to see: one site's k-th execution by the lanes of one modelled
// subgroup (from an access of a thread, or the worst request of a line).
struct ShownRequest {
    SiteKey site;
    RequestExample example;
};

// Its cells, as the buffers view colours them.
struct RequestCells {
    CellRef base; // the buffer or shared array (and workgroup) its cells are in; index 0
    bool shared = false;
    std::map<uint64_t, std::vector<uint32_t>> lanes; // element index -> the lanes that accessed it
    std::set<uint64_t> sectors; // global: the sectors it touched (element index / per sector)
    uint64_t neededSectors = 0; // global: the fewest sectors that could hold its bytes
    uint32_t elementsPerSector = 8;
    uint32_t ways = 1;   // shared: the most distinct words one bank served
    std::string summary; // one line: who, and what it cost
    bool contains(const CellRef& c) const {
        return c.shared == base.shared && c.array == base.array && c.workgroup == base.workgroup &&
               lanes.count(c.index);
    }
    bool inSector(const CellRef& c) const {
        return !shared && c.shared == base.shared && c.array == base.array &&
               sectors.count(c.index / elementsPerSector);
    }
};

// The bank of a shared array's element under `model` (element i at byte 4 * i, bank 0 first).
uint32_t bankOf(const MemoryModel& model, uint64_t index);
// Elements of 4 bytes per global sector (8 for 32-byte sectors).
uint32_t elementsPerSector(const MemoryModel& model);

// The cells of a request; nullopt for a variable that is neither a puzzle buffer nor shared.
std::optional<RequestCells> requestCells(const Trace& trace, const MemoryModel& model,
                                         const ShownRequest& request);

// The request of one access of a thread (its event index), through the judge's requestOf.
std::optional<ShownRequest> requestOfAccess(const Trace& trace, const MemoryModel& model,
                                            uint64_t invocation, size_t eventIndex);

// The site that stands for a line: the one with the worst figure (lowest global efficiency, then
// most bank ways, then most divergent requests). nullopt for a line without sites.
std::optional<size_t> worstSiteOf(const EfficiencyReport& report, const LineEfficiency& line);

// Why a case shows no efficiency figures, in words; empty when it has some.
// `ran`: the case ran; `traced`: it has a trace.
std::string efficiencyAbsence(bool ran, bool traced, const EfficiencyReport* report);

// "the modelled GPU: 32 lanes, ... whatever device runs the kernel" (the panel's first line).
std::string modelSentence(const MemoryModel& model);

} // namespace vkp::views
