#include "judge/efficiency_limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "judge/efficiency_text.h"

namespace vkp {
namespace {

// "divergent_requests = 0", or for an expression "divergent_requests = N / WG, which is 4 in
// this case"
std::string allowedText(const char* key, uint32_t limit, const std::optional<Expr>& e) {
    if (!e) return std::string(key) + " = " + std::to_string(limit);
    return std::string(key) + " = " + e->text() + ", which is " + std::to_string(limit) +
           " in this case";
}

// 0.13, 1.0, 0.25: two decimals at most, one at least (0.125 rounds up, as a reader would).
std::string twoDecimals(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", std::round(v * 100) / 100);
    std::string s = buf;
    while (s.size() > 3 && s.back() == '0' && s[s.size() - 2] != '.')
        s.pop_back();
    return s;
}

// The first thread of a site's worst request, to point at.
uint64_t firstThread(const Trace& t, const MemoryModel& m, const RequestExample& ex) {
    uint64_t per = t.launch.invocationsPerGroup();
    return ex.workgroup * per + uint64_t(ex.subgroup) * m.lanes +
           (ex.lanes.empty() ? 0 : ex.lanes.front());
}

Finding siteFinding(const Trace& t, const EfficiencyReport& r, FindingKind kind,
                    const SiteEfficiency& s, std::string message, uint64_t occurrences) {
    Finding f;
    f.kind = kind;
    f.message = std::move(message);
    f.line = s.site.line;
    f.threads = {firstThread(t, r.model, s.worst)};
    f.variable = static_cast<int>(s.site.variable);
    f.index = s.worst.indices.empty() ? 0 : s.worst.indices.front();
    f.occurrences = occurrences;
    return f;
}

bool sharedSite(const Trace& t, const SiteEfficiency& s) {
    return s.site.variable < t.variables.size() && t.variables[s.site.variable].decl.shared;
}

// ", and 3 other lines (20, 31, 40)"
std::string otherLines(const std::vector<uint32_t>& lines, uint32_t worst) {
    std::vector<uint32_t> others;
    for (uint32_t l : lines)
        if (l != worst && std::find(others.begin(), others.end(), l) == others.end())
            others.push_back(l);
    if (others.empty()) return "";
    std::sort(others.begin(), others.end());
    std::string s = "; also over at line" + std::string(others.size() > 1 ? "s " : " ");
    for (size_t i = 0; i < others.size() && i < 5; ++i)
        s += (i ? ", " : "") + std::to_string(others[i]);
    if (others.size() > 5) s += ", \u2026";
    return s;
}

void coalescing(const Trace& t, const EfficiencyReport& r, double limit,
                std::vector<Finding>& out) {
    const SiteEfficiency* worst = nullptr;
    std::vector<uint32_t> lines;
    for (const SiteEfficiency& s : r.sites) {
        if (sharedSite(t, s) || s.worstEfficiency >= limit - 1e-9) continue;
        lines.push_back(s.site.line);
        if (!worst || s.worstEfficiency < worst->worstEfficiency) worst = &s;
    }
    if (!worst) return;
    RequestSectors sec = worstRequestSectors(r.model, *worst);
    std::string msg = "line " + std::to_string(worst->site.line) + ": a request of " +
                      std::to_string(worst->worst.activeLanes().size()) + " lanes touched " +
                      std::to_string(sec.touched) + " sectors where " + std::to_string(sec.needed) +
                      " would hold its bytes (" + twoDecimals(worst->worstEfficiency) +
                      "; the puzzle allows global_efficiency = " + twoDecimals(limit) +
                      "): " + spacingText(t, *worst) + otherLines(lines, worst->site.line);
    out.push_back(siteFinding(t, r, FindingKind::Uncoalesced, *worst, msg, lines.size()));
}

void conflicts(const Trace& t, const EfficiencyReport& r, uint32_t limit,
               std::vector<Finding>& out) {
    const SiteEfficiency* worst = nullptr;
    std::vector<uint32_t> lines;
    for (const SiteEfficiency& s : r.sites) {
        if (!sharedSite(t, s) || s.worstWays <= limit) continue;
        lines.push_back(s.site.line);
        if (!worst || s.worstWays > worst->worstWays) worst = &s;
    }
    if (!worst) return;
    std::string msg = "line " + std::to_string(worst->site.line) + ": " +
                      conflictText(t, r.model, *worst) +
                      "; the puzzle allows bank_conflicts = " + std::to_string(limit) +
                      (limit == 1 ? " (no conflicts)" : "") + otherLines(lines, worst->site.line);
    out.push_back(siteFinding(t, r, FindingKind::BankConflict, *worst, msg, lines.size()));
}

void divergence(const Trace& t, const EfficiencyReport& r, const Limits& l,
                std::vector<Finding>& out) {
    if (r.mostDivergentRequests <= *l.divergentRequests) return;
    const SiteEfficiency* worst = nullptr;
    for (const SiteEfficiency& s : r.sites)
        if (s.divergentRequests && (!worst || s.divergentRequests > worst->divergentRequests))
            worst = &s;
    if (!worst) return;
    std::string msg =
        "line " + std::to_string(worst->site.line) + ": " +
        workgroupName(t.launch, r.mostDivergentWorkgroup) + " made " +
        std::to_string(r.mostDivergentRequests) +
        " requests in which only some lanes of a subgroup ran; the puzzle allows " +
        allowedText("divergent_requests", *l.divergentRequests, l.divergentRequestsExpr) +
        " per workgroup. The most are at this line: " + divergenceText(t, *worst);
    out.push_back(siteFinding(t, r, FindingKind::Divergence, *worst, msg, r.mostDivergentRequests));
}

void atomics(const Trace& t, const EfficiencyReport& r, const Limits& l,
             std::vector<Finding>& out) {
    if (r.mostGlobalAtomics <= *l.globalAtomicsPerWorkgroup) return;
    const SiteEfficiency* worst = nullptr;
    for (const SiteEfficiency& s : r.sites)
        if (s.site.kind == TraceEventKind::Atomic && !sharedSite(t, s) &&
            (!worst || s.activeLanes > worst->activeLanes))
            worst = &s;
    if (!worst) return;
    std::string msg =
        "line " + std::to_string(worst->site.line) + ": " +
        workgroupName(t.launch, r.mostAtomicsWorkgroup) + " made " +
        std::to_string(r.mostGlobalAtomics) + " atomic operations on buffers; the puzzle allows " +
        allowedText("global_atomics_per_workgroup", *l.globalAtomicsPerWorkgroup,
                    l.globalAtomicsPerWorkgroupExpr) +
        " (most of them on " + t.variables[worst->site.variable].decl.name +
        " at this line: combine them in shared memory first, then one thread adds the result)";
    if (t.dropped) msg += " (counted in the part of the trace that fit: at least this many)";
    out.push_back(siteFinding(t, r, FindingKind::GlobalAtomics, *worst, msg, r.mostGlobalAtomics));
}

} // namespace

std::vector<Finding> efficiencyFindings(const Trace& trace, const EfficiencyReport& report,
                                        const Limits& limits) {
    std::vector<Finding> out;
    if (!trace.dropped) {
        if (limits.globalEfficiency) coalescing(trace, report, *limits.globalEfficiency, out);
        if (limits.bankConflicts) conflicts(trace, report, *limits.bankConflicts, out);
        if (limits.divergentRequests) divergence(trace, report, limits, out);
    }
    if (limits.globalAtomicsPerWorkgroup) atomics(trace, report, limits, out);
    return out;
}

} // namespace vkp
