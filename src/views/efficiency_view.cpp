#include "views/efficiency_view.h"

#include <algorithm>

#include "judge/efficiency_text.h"
#include "judge/request_model.h"

namespace vkp::views {
namespace {

// "lanes 0-31", "lanes 0, 2, 4 ... (16)".
std::string lanesText(const std::vector<uint32_t>& lanes) {
    if (lanes.empty()) return "no lanes";
    if (lanes.size() == 1) return "lane " + std::to_string(lanes[0]);
    if (lanes.back() - lanes.front() + 1 == lanes.size())
        return "lanes " + std::to_string(lanes.front()) + "-" + std::to_string(lanes.back());
    std::string s = "lanes ";
    for (size_t i = 0; i < lanes.size() && i < 3; ++i)
        s += (i ? ", " : "") + std::to_string(lanes[i]);
    return s + " \xE2\x80\xA6 (" + std::to_string(lanes.size()) + ")";
}

std::vector<uint32_t> indicesOf(const RequestCells& cells) {
    std::vector<uint32_t> out;
    for (const auto& [index, lanes] : cells.lanes)
        out.push_back(static_cast<uint32_t>(index));
    return out;
}

// The figures are the judge's (judge/efficiency_text.h), so the view says what the check judged.
void globalFigures(const MemoryModel& model, const RequestExample& request, RequestCells& cells) {
    for (const auto& [index, lanes] : cells.lanes)
        cells.sectors.insert(index / cells.elementsPerSector);
    if (cells.lanes.empty()) return;
    cells.neededSectors = requestSectors(model, indicesOf(cells), laneSpan(request.lanes)).needed;
    cells.summary += ": " + std::to_string(cells.sectors.size()) + " sectors touched, " +
                     std::to_string(cells.neededSectors) + " needed";
}

void sharedFigures(const MemoryModel& model, const RequestExample& request, RequestCells& cells) {
    RequestBanks b = requestBanks(model, request);
    cells.ways = b.ways;
    cells.summary += cells.ways > 1 ? ": " + std::to_string(cells.ways) +
                                          "-way bank conflict (bank " + std::to_string(b.bank) +
                                          " serves " + std::to_string(cells.ways) + " words)"
                                    : ": no bank conflict";
}

} // namespace

uint32_t bankOf(const MemoryModel& model, uint64_t index) {
    return static_cast<uint32_t>((index * 4 / std::max(1u, model.bankBytes)) %
                                 std::max(1u, model.banks));
}

uint32_t elementsPerSector(const MemoryModel& model) {
    return std::max(1u, model.sectorBytes / 4);
}

std::optional<RequestCells> requestCells(const Trace& trace, const MemoryModel& model,
                                         const ShownRequest& request) {
    uint32_t v = request.site.variable;
    if (v >= trace.variables.size()) return std::nullopt;
    const TraceVariableInfo& info = trace.variables[v];
    RequestCells cells;
    cells.shared = info.decl.shared;
    if (cells.shared)
        cells.base = CellRef::sharedCell(v, request.example.workgroup, 0);
    else if (info.puzzleBuffer >= 0)
        cells.base = CellRef::buffer(static_cast<uint32_t>(info.puzzleBuffer), 0);
    else
        return std::nullopt;
    cells.elementsPerSector = elementsPerSector(model);
    const RequestExample& ex = request.example;
    for (size_t i = 0; i < ex.lanes.size() && i < ex.indices.size(); ++i)
        cells.lanes[ex.indices[i]].push_back(ex.lanes[i]);
    cells.summary = lanesText(ex.activeLanes()) + " of subgroup " + std::to_string(ex.subgroup) +
                    " (workgroup " + std::to_string(ex.workgroup) + "), " +
                    traceEventKindName(request.site.kind) + " " + info.decl.name + " on line " +
                    std::to_string(request.site.line);
    if (cells.shared)
        sharedFigures(model, ex, cells);
    else
        globalFigures(model, ex, cells);
    return cells;
}

std::optional<ShownRequest> requestOfAccess(const Trace& trace, const MemoryModel& model,
                                            uint64_t invocation, size_t eventIndex) {
    if (invocation >= trace.threads.size() || eventIndex >= trace.threads[invocation].size())
        return std::nullopt;
    const TraceEvent& e = trace.threads[invocation][eventIndex];
    auto example = requestOf(trace, model, invocation, eventIndex);
    if (!example) return std::nullopt;
    return ShownRequest{SiteKey{e.line, e.variable, e.kind}, *example};
}

std::optional<size_t> worstSiteOf(const EfficiencyReport& report, const LineEfficiency& line) {
    std::optional<size_t> best;
    auto worse = [&](const SiteEfficiency& a, const SiteEfficiency& b) {
        if (a.worstEfficiency != b.worstEfficiency) return a.worstEfficiency < b.worstEfficiency;
        if (a.worstWays != b.worstWays) return a.worstWays > b.worstWays;
        return a.divergentRequests > b.divergentRequests;
    };
    for (size_t s : line.sites)
        if (s < report.sites.size() && (!best || worse(report.sites[s], report.sites[*best])))
            best = s;
    return best;
}

std::string efficiencyAbsence(bool ran, bool traced, const EfficiencyReport* report) {
    if (!ran) return "Not run yet: the figures come from the case's trace once it has run.";
    if (!traced)
        return "Not traced: this run kept no trace (it did not fit, or the case's data was "
               "too large), so there are no figures for it.";
    if (!report || report->lines.empty())
        return "Nothing to improve: every request of this case moves the fewest sectors, has no "
               "bank conflict and keeps its lanes together.";
    return "";
}

std::string modelSentence(const MemoryModel& model) {
    return "Figures for a modelled GPU: " + model.name + ", whatever device runs the kernel.";
}

} // namespace vkp::views
