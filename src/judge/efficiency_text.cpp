#include "judge/efficiency_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/source_text.h"
#include "judge/request_model.h"

namespace vkp {
namespace {

// "lanes 0, 4, 8…"
std::string laneList(const std::vector<uint32_t>& lanes) {
    std::string s = lanes.size() == 1 ? "lane " : "lanes ";
    for (size_t i = 0; i < lanes.size() && i < 3; ++i)
        s += (i ? ", " : "") + std::to_string(lanes[i]);
    if (lanes.size() > 3) s += "\u2026";
    return s;
}

} // namespace

std::string fixed1(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

const char* verbOf(TraceEventKind kind) {
    return kind == TraceEventKind::Read    ? "read"
           : kind == TraceEventKind::Write ? "write"
                                           : "update";
}

const char* costKindName(CostKind kind) {
    switch (kind) {
    case CostKind::None:
        return "none";
    case CostKind::Minor:
        return "minor";
    case CostKind::Notable:
        return "notable";
    case CostKind::Severe:
        return "severe";
    }
    return "?";
}

RequestSectors requestSectors(const MemoryModel& model, std::vector<uint32_t> indices,
                              uint64_t laneSpan) {
    std::sort(indices.begin(), indices.end());
    Sectors s = sectorsOf(model, indices, laneSpan);
    return {s.touched, s.needed};
}

RequestBanks requestBanks(const MemoryModel& model, const RequestExample& request) {
    std::vector<uint32_t> phase, perBank;
    Banks b = phasedBanks(model, request.lanes, request.indices, phase, perBank).banks;
    return {b.ways, b.bank};
}

RequestSectors worstRequestSectors(const MemoryModel& model, const SiteEfficiency& site) {
    return requestSectors(model, site.worst.indices, laneSpan(site.worst.lanes));
}

double worstSectorRatio(const MemoryModel& model, const SiteEfficiency& site) {
    RequestSectors s = worstRequestSectors(model, site);
    return s.needed ? double(s.touched) / double(s.needed) : 1;
}

std::string spacingText(const Trace& trace, const SiteEfficiency& s) {
    const RequestExample& ex = s.worst;
    std::string verb = verbOf(s.site.kind);
    // Each lane by the first scalar it moved (a lane that moved a vector has one per scalar).
    std::vector<uint32_t> lanes, indices;
    for (size_t k = 0; k < ex.lanes.size(); ++k)
        if (k == 0 || ex.lanes[k] != ex.lanes[k - 1])
            lanes.push_back(ex.lanes[k]), indices.push_back(ex.indices[k]);
    std::optional<int64_t> stride;
    bool constant = lanes.size() >= 2;
    for (size_t k = 1; constant && k < lanes.size(); ++k) {
        int64_t dl = int64_t(lanes[k]) - int64_t(lanes[k - 1]);
        int64_t di = int64_t(indices[k]) - int64_t(indices[k - 1]);
        if (dl <= 0 || di % dl) {
            constant = false;
            break;
        }
        if (stride && *stride != di / dl) constant = false;
        stride = di / dl;
    }
    if (constant && stride && *stride != 0)
        return "neighbouring threads " + verb + " addresses " +
               std::to_string(std::llabs(*stride) * int64_t(kElementBytes)) + " bytes apart";
    std::string cells;
    for (size_t k = 0; k < indices.size() && k < 3; ++k)
        cells += (k ? ", " : "") + traceCellName(trace, s.site.variable, indices[k]);
    if (indices.size() > 3) cells += ", \u2026";
    return "neighbouring threads " + verb + " scattered addresses (" + cells + ")";
}

std::string uncoalescedText(const Trace& trace, const MemoryModel& model, const SiteEfficiency& s) {
    RequestSectors sec = worstRequestSectors(model, s);
    return fixed1(worstSectorRatio(model, s)) + "x the sectors needed: " + spacingText(trace, s) +
           " (a request of " + std::to_string(s.worst.activeLanes().size()) + " lanes touched " +
           std::to_string(sec.touched) + " sectors where " + std::to_string(sec.needed) +
           " would hold its bytes)";
}

std::string conflictText(const Trace& trace, const MemoryModel& model, const SiteEfficiency& s) {
    // The lanes of the worst request whose distinct words lie in the worst bank.
    std::vector<uint32_t> lanes;
    std::vector<uint64_t> words;
    std::string cells;
    uint64_t width = std::max<uint32_t>(1, model.bankBytes);
    uint32_t banks = std::max<uint32_t>(1, model.banks);
    for (size_t k = 0; k < s.worst.lanes.size(); ++k) {
        uint64_t word = s.worst.indices[k] * kElementBytes / width;
        if (word % banks != s.worstBank ||
            std::find(words.begin(), words.end(), word) != words.end())
            continue;
        words.push_back(word);
        lanes.push_back(s.worst.lanes[k]);
        if (lanes.size() <= 2)
            cells += (lanes.size() > 1 ? ", " : "") +
                     traceCellName(trace, s.site.variable, s.worst.indices[k]);
    }
    if (lanes.size() > 2) cells += ", \u2026";
    return std::to_string(s.worstWays) + "-way bank conflict on " +
           trace.variables[s.site.variable].decl.name + ": " + laneList(lanes) + " hit bank " +
           std::to_string(s.worstBank) + " (" + cells + ")";
}

int idlePercent(const SiteEfficiency& s) {
    if (!s.subgroupLanes || s.activeLanes >= s.subgroupLanes) return 0;
    double idle = 1 - double(s.activeLanes) / double(s.subgroupLanes);
    return std::max(1, int(std::lround(idle * 100)));
}

std::string divergenceText(const Trace& trace, const SiteEfficiency& s) {
    int percent = idlePercent(s);
    std::string share =
        percent == 50 ? "half the lanes" : std::to_string(percent) + "% of the lanes";
    std::string head = share + " idle at line " + std::to_string(s.site.line) + ": ";
    std::string counts = std::to_string(s.divergentRequests) + " of " + std::to_string(s.requests);
    std::string example =
        laneList(s.worst.activeLanes()) + " of subgroup " + std::to_string(s.worst.subgroup);
    auto cond = enclosingCondition(trace.source, int(s.site.line));
    if (!cond || cond->condition.empty())
        return head + counts + " requests ran with only some lanes of their subgroup (e.g. " +
               example + ")";
    std::string quoted =
        cond->condition.size() > 60 ? cond->condition.substr(0, 57) + "\u2026" : cond->condition;
    std::string where = cond->keyword == "else" ? "the else of the if at line "
                        : cond->keyword == "if" ? "the if at line "
                                                : "the " + cond->keyword + " loop at line ";
    std::string splits = s.divergentRequests == s.requests
                             ? "splits every subgroup that gets there ("
                             : "splits some subgroups (";
    return head + "the condition " + quoted + " (" + where + std::to_string(cond->line) + ") " +
           splits + counts + " requests ran with only some lanes, e.g. " + example + ")";
}

} // namespace vkp
