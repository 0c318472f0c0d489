#include "cli/profile_command.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>

#include "check/hidden_cases.h"
#include "cli/command_context.h"
#include "cli/json_report.h"
#include "cli/text_report.h"
#include "judge/efficiency_text.h"

namespace vkp::cli {
namespace {

uint64_t threadsOf(const TestCase& c) {
    uint64_t n = 1;
    for (uint32_t d = 0; d < 3; ++d)
        n *= uint64_t(c.workgroupSize[d]) * c.workgroups[d];
    return n;
}

// What the table shows for one source line: its sites' figures together.
struct LineRow {
    uint32_t line = 0;
    uint64_t requests = 0, activeLanes = 0, subgroupLanes = 0;
    uint64_t sectors = 0, neededSectors = 0;
    bool global = false, shared = false, atomic = false;
    uint32_t ways = 1, atomicsPerAddress = 0;
    uint64_t repeatedReads = 0;
    const LineEfficiency* cost = nullptr; // none: nothing worth saying
};

std::vector<LineRow> rowsOf(const Trace& t, const EfficiencyReport& r) {
    std::map<uint32_t, LineRow> byLine;
    for (const SiteEfficiency& s : r.sites) {
        LineRow& row = byLine[s.site.line];
        row.line = s.site.line;
        row.requests += s.requests;
        row.activeLanes += s.activeLanes;
        row.subgroupLanes += s.subgroupLanes;
        bool shared =
            s.site.variable < t.variables.size() && t.variables[s.site.variable].decl.shared;
        if (shared) {
            row.shared = true;
            row.ways = std::max(row.ways, s.worstWays);
        } else {
            row.global = true;
            row.sectors += s.sectors;
            row.neededSectors += s.neededSectors;
        }
        if (s.site.kind == TraceEventKind::Atomic) {
            row.atomic = true;
            row.atomicsPerAddress = std::max(row.atomicsPerAddress, s.worstAtomicsPerAddress);
        }
        row.repeatedReads += s.repeatedReads;
    }
    std::vector<LineRow> out;
    for (const LineEfficiency& l : r.lines) { // the costly lines first, in the report's order
        auto it = byLine.find(l.line);
        if (it == byLine.end()) continue;
        it->second.cost = &l;
        out.push_back(it->second);
        byLine.erase(it);
    }
    for (auto& [line, row] : byLine)
        out.push_back(row);
    return out;
}

std::string sourceLine(const std::string& text, uint32_t line) {
    std::istringstream in(text);
    std::string s;
    for (uint32_t n = 1; std::getline(in, s); ++n)
        if (n == line) {
            size_t a = s.find_first_not_of(" \t");
            return a == std::string::npos ? "" : s.substr(a);
        }
    return "";
}

std::string percent(uint64_t part, uint64_t whole) {
    return whole ? std::to_string((part * 100 + whole / 2) / whole) + "%" : "-";
}

std::string perCell(uint64_t reads, uint64_t cells) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(reads % cells ? 2 : 0) << double(reads) / double(cells);
    return s.str();
}

// "reads per output cell: 64 from buffers, 0 from shared arrays (16384 and 0 reads, 256 cells
// written)": the fair measure when a thread owns several cells (register tiling).
std::string readsPerCellText(const EfficiencyReport& e) {
    if (!e.cellsWritten) return "";
    return "reads per output cell: " + perCell(e.globalReads, e.cellsWritten) + " from buffers, " +
           perCell(e.sharedReads, e.cellsWritten) + " from shared arrays (" +
           std::to_string(e.globalReads) + " and " + std::to_string(e.sharedReads) + " reads, " +
           std::to_string(e.cellsWritten) + " cells written)";
}

// "buffer accesses per thread: 7.50 reads, 7.50 writes (768 threads) ...": several items per
// thread show here.
std::string perThreadText(const EfficiencyReport& e) {
    if (!e.threads || !(e.globalReads + e.globalWrites)) return "";
    return "buffer accesses per thread: " + perCell(e.globalReads, e.threads) + " reads, " +
           perCell(e.globalWrites, e.threads) + " writes (" + std::to_string(e.threads) +
           " threads); how many a thread has in flight at once is not modelled: `bench` times it";
}

// The dispatches of the profiled case: (label, kernel index, trace, analysis).
struct Profiled {
    std::string label;
    size_t kernel = 0;
    const Trace* trace = nullptr;
    const TraceAnalysis* analysis = nullptr;
};
std::vector<Profiled> profiledOf(const CaseOutcome& c) {
    std::vector<Profiled> out;
    for (size_t k = 0; k < c.dispatches.size(); ++k)
        out.push_back({"dispatch " + std::to_string(k + 1) + " of " +
                           std::to_string(c.dispatches.size()) + ": " + c.dispatches[k].label,
                       c.dispatches[k].kernel, c.dispatches[k].trace.get(),
                       c.dispatches[k].analysis.get()});
    if (out.empty() && c.trace) out.push_back({"", 0, c.trace.get(), c.analysis.get()});
    return out;
}

std::string styled(const Style& st, CostKind cost, const std::string& s) {
    switch (cost) {
    case CostKind::Severe:
        return st.fail(s);
    case CostKind::Notable:
        return st.warn(s);
    case CostKind::Minor:
        return s;
    case CostKind::None:
        break;
    }
    return st.dim(s);
}

void printTable(std::ostream& os, const Profiled& d, const std::string& source, const Style& st) {
    std::vector<LineRow> rows = rowsOf(*d.trace, d.analysis->efficiency);
    if (rows.empty()) {
        os << "  no accesses to buffers or shared arrays were traced\n";
        return;
    }
    os << st.dim("  line  requests  active   sectors touched/needed  ways  re-reads  "
                 "atomics/addr  source")
       << "\n";
    for (const LineRow& r : rows) {
        std::ostringstream row;
        row << "  " << std::setw(4) << r.line << "  " << std::setw(8) << r.requests << "  "
            << std::setw(6) << percent(r.activeLanes, r.subgroupLanes) << "   " << std::setw(22)
            << (r.global ? std::to_string(r.sectors) + "/" + std::to_string(r.neededSectors) : "-")
            << "  " << std::setw(4) << (r.shared ? std::to_string(r.ways) : "-") << "  "
            << std::setw(8) << (r.repeatedReads ? std::to_string(r.repeatedReads) : "-") << "  "
            << std::setw(12) << (r.atomic ? std::to_string(r.atomicsPerAddress) : "-") << "  "
            << sourceLine(source, r.line);
        os << row.str() << "\n";
        if (r.cost)
            os << "        " << styled(st, r.cost->cost, "[" + r.cost->badge + "] ")
               << r.cost->sentence << "\n";
    }
}

nlohmann::json siteJson(const Trace& t, const MemoryModel& m, const SiteEfficiency& s) {
    bool shared = s.site.variable < t.variables.size() && t.variables[s.site.variable].decl.shared;
    nlohmann::json j = {{"line", s.site.line},
                        {"variable", s.site.variable < t.variables.size()
                                         ? t.variables[s.site.variable].decl.name
                                         : ""},
                        {"shared", shared},
                        {"kind", traceEventKindName(s.site.kind)},
                        {"requests", s.requests},
                        {"active_lanes", s.activeLanes},
                        {"subgroup_lanes", s.subgroupLanes},
                        {"divergent_requests", s.divergentRequests},
                        {"repeated_reads", s.repeatedReads},
                        {"workgroup_refetches", s.workgroupRefetches},
                        {"most_subgroups_on_one_element", s.mostSubgroupsOnOne},
                        {"worst_atomics_per_address", s.worstAtomicsPerAddress},
                        {"worst_request",
                         {{"workgroup", s.worst.workgroup},
                          {"subgroup", s.worst.subgroup},
                          {"execution", s.worst.execution},
                          {"lanes", s.worst.lanes},
                          {"indices", s.worst.indices}}}};
    if (shared) {
        j["wavefronts"] = s.wavefronts;
        j["worst_ways"] = s.worstWays;
        j["worst_bank"] = s.worstBank;
    } else {
        RequestSectors w = worstRequestSectors(m, s);
        j["sectors"] = s.sectors;
        j["needed_sectors"] = s.neededSectors;
        j["worst_efficiency"] = s.worstEfficiency;
        j["worst_request"]["sectors"] = w.touched;
        j["worst_request"]["needed_sectors"] = w.needed;
    }
    return j;
}

} // namespace

Result<ProfileCase> profileCase(const Puzzle& p, uint64_t requested, bool revealHidden) {
    if (requested) {
        size_t i = requested - 1;
        if (caseHidden(p, i) && !revealHidden)
            return Error{ErrorKind::Usage,
                         "case " + std::to_string(requested) + " of " + p.slug + " is " +
                             kHiddenCaseText +
                             ", so `profile` cannot show it: pick a visible case with --case N "
                             "(`" +
                             p.command("show") + "` lists them)"};
        return ProfileCase{i, "asked for with --case"};
    }
    if (p.benchCase < p.cases.size() && (!caseHidden(p, p.benchCase) || revealHidden))
        return ProfileCase{p.benchCase,
                           "the case `vkpuzzles bench` scales; --case N profiles another"};
    std::optional<size_t> largest;
    for (size_t i = 0; i < p.cases.size(); ++i)
        if ((!caseHidden(p, i) || revealHidden) &&
            (!largest || threadsOf(p.cases[i]) > threadsOf(p.cases[*largest])))
            largest = i;
    if (!largest)
        return Error{ErrorKind::Usage, "every case of " + p.slug + " is " + kHiddenCaseText +
                                           ": there is no case `profile` may show"};
    return ProfileCase{*largest, "the largest visible case; --case N profiles another"};
}

void printProfile(std::ostream& os, const ProfileView& v, const Style& st) {
    const CheckReport& r = v.report;
    const CaseOutcome* c = r.cases.empty() ? nullptr : &r.cases.front();
    os << st.dim("memory model: " + MemoryModel{}.name +
                 "; the figures are exact for this model, whatever the device")
       << "\n";
    const TestCase& tc = v.puzzle.cases[v.chosen.index];
    os << st.bold("case " + std::to_string(v.chosen.index + 1)) << ": " << launchText(v.puzzle, tc)
       << st.dim("  (" + v.chosen.why + ")") << "\n";
    if (r.error) os << st.fail("error: ") << r.error->message << "\n";
    if (c && c->error) os << st.fail("error: ") << c->error->message << "\n";
    if (!c || c->error || !c->trace) return;
    os << "  " << (c->outputsMatch ? st.pass("outputs right") : st.fail("outputs wrong"));
    bool judged = v.puzzle.limits.anyEfficiency();
    if (judged) os << (c->pass ? st.pass(", the case passes") : st.fail(", the case fails"));
    os << "\n";
    for (const Profiled& d : profiledOf(*c)) {
        if (!d.label.empty()) os << "\n" << st.bold(d.label) << "\n";
        const std::string& source =
            d.kernel < v.kernels.size() ? v.kernels[d.kernel].text : v.kernels.front().text;
        if (d.trace->dropped)
            os << st.warn("  the trace did not hold every record: the figures cover the start of "
                          "each thread only")
               << "\n";
        printTable(os, d, source, st);
        if (std::string cells = readsPerCellText(d.analysis->efficiency); !cells.empty())
            os << "  " << cells << "\n";
        if (std::string work = perThreadText(d.analysis->efficiency); !work.empty())
            os << "  " << work << "\n";
        if (d.analysis->efficiency.lines.empty())
            os << st.pass("  no uncoalesced accesses, bank conflicts, idle lanes, repeated reads "
                          "or contended atomics")
               << "\n";
    }
    if (c && !c->pass) {
        os << "\n";
        printCaseFindings(os, *c, "  ", st);
    }
}

nlohmann::json profileJson(const ProfileView& v) {
    const CheckReport& r = v.report;
    const CaseOutcome* c = r.cases.empty() ? nullptr : &r.cases.front();
    MemoryModel model;
    nlohmann::json j = {{"puzzle", v.puzzle.slug},
                        {"case", v.chosen.index + 1},
                        {"case_choice", v.chosen.why},
                        {"model",
                         {{"name", model.name},
                          {"lanes", model.lanes},
                          {"sector_bytes", model.sectorBytes},
                          {"banks", model.banks},
                          {"bank_bytes", model.bankBytes}}},
                        {"error", r.error ? errorJson(*r.error) : nlohmann::json(nullptr)},
                        {"pass", c && c->pass},
                        {"outputs_match", c && c->outputsMatch}};
    if (c && c->error) j["error"] = errorJson(*c->error);
    nlohmann::json dispatches = nlohmann::json::array();
    for (const Profiled& d : c ? profiledOf(*c) : std::vector<Profiled>{}) {
        const EfficiencyReport& e = d.analysis->efficiency;
        const std::string& source =
            d.kernel < v.kernels.size() ? v.kernels[d.kernel].text : v.kernels.front().text;
        nlohmann::json lines = nlohmann::json::array();
        for (const LineRow& row : rowsOf(*d.trace, e))
            lines.push_back(
                {{"line", row.line},
                 {"source", sourceLine(source, row.line)},
                 {"requests", row.requests},
                 {"active_lanes", row.activeLanes},
                 {"subgroup_lanes", row.subgroupLanes},
                 {"sectors", row.global ? nlohmann::json(row.sectors) : nlohmann::json(nullptr)},
                 {"needed_sectors",
                  row.global ? nlohmann::json(row.neededSectors) : nlohmann::json(nullptr)},
                 {"bank_ways", row.shared ? nlohmann::json(row.ways) : nlohmann::json(nullptr)},
                 {"repeated_reads", row.repeatedReads},
                 {"atomics_per_address",
                  row.atomic ? nlohmann::json(row.atomicsPerAddress) : nlohmann::json(nullptr)},
                 {"cost", costKindName(row.cost ? row.cost->cost : CostKind::None)},
                 {"badge", row.cost ? row.cost->badge : ""},
                 {"sentence", row.cost ? row.cost->sentence : ""},
                 {"extra", row.cost ? row.cost->extra : 0.0}});
        nlohmann::json sites = nlohmann::json::array();
        for (const SiteEfficiency& s : e.sites)
            sites.push_back(siteJson(*d.trace, e.model, s));
        dispatches.push_back(
            {{"label", d.label},
             {"kernel", d.kernel < v.kernels.size() ? v.kernels[d.kernel].name : "kernel"},
             {"complete", d.trace->dropped == 0},
             {"global_efficiency", e.globalEfficiency},
             {"worst_bank_ways", e.worstBankWays},
             {"most_divergent_requests", e.mostDivergentRequests},
             {"most_global_atomics", e.mostGlobalAtomics},
             {"global_reads", e.globalReads},
             {"shared_reads", e.sharedReads},
             {"cells_written", e.cellsWritten},
             {"global_writes", e.globalWrites},
             {"threads", e.threads},
             {"lines", lines},
             {"sites", sites}});
    }
    j["dispatches"] = dispatches;
    return j;
}

// `profile`: the case chosen, run traced alone, and its table per kernel.
int profileCommand(CommandContext& ctx) {
    auto pk = ctx.puzzleKernelsArg();
    if (!pk) return ctx.report(pk.error());
    const Puzzle& p = *pk->puzzle;
    const std::vector<KernelSource>& kernels = pk->kernels;
    auto requested = ctx.number("case", 1, p.cases.size(), 0);
    if (!requested) return ctx.report(requested.error());
    auto chosen = profileCase(p, *requested, ctx.args.has("reveal-hidden"));
    if (!chosen) return ctx.report(chosen.error());
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    ctx.options.trace = true;
    ctx.options.onlyCase = chosen->index;
    CheckReport r = checkProgram(ctx.compiler, *ctx.runner, p, kernels, ctx.options);
    ProfileView view{p, r, *chosen, kernels};
    if (ctx.json()) {
        ctx.out << jsonText(ctx.withDevice(profileJson(view))) << "\n";
        return ctx.finish(r);
    }
    ctx.printRanLine(p, kernels);
    printDiagnostics(ctx.out, r, kernels, ctx.style);
    printProfile(ctx.out, view, ctx.style);
    return ctx.finish(r);
}

} // namespace vkp::cli
