#include "cli/trace_report.h"

#include <charconv>
#include <iomanip>
#include <set>
#include <sstream>

#include "trace/debug_printf.h"
#include "views/trace_view.h"

namespace vkp::cli {
namespace {

using nlohmann::json;

constexpr size_t kThreadsListed = 16;

std::string cellText(const Trace& t, const TraceEvent& e) {
    return e.variable < t.variables.size() ? traceCellName(t, e.variable, e.index) : "";
}

std::string eventText(const Trace& t, const TraceEvent& e, uint64_t invocation) {
    switch (e.kind) {
    case TraceEventKind::Barrier:
        return "barrier";
    case TraceEventKind::SubgroupBarrier:
        return "subgroup barrier";
    case TraceEventKind::LoopBudget:
        return "stopped: loop budget spent";
    case TraceEventKind::Read:
        return "read  " + cellText(t, e) + " = " + valueText(t, e.variable, e.value);
    case TraceEventKind::Write:
        return "write " + cellText(t, e) + " = " + valueText(t, e.variable, e.value);
    case TraceEventKind::Atomic:
        return "atomic " + cellText(t, e) + " (was " + valueText(t, e.variable, e.value) + ")";
    case TraceEventKind::Shuffle:
        return "lanes " + shuffleText(t, e, invocation);
    case TraceEventKind::UndefinedUse:
        return "uses an undefined value from another lane";
    case TraceEventKind::Printf:
    case TraceEventKind::PrintfArgs:
        break; // never events: decodeTrace keeps them in Trace::prints
    }
    return "?";
}

std::string droppedWhy() {
    return " (a thread records at most " + std::to_string(kPrintfLinesPerThread) +
           " lines, and only while half its trace slots are free)";
}

std::string shortEvent(const Trace& t, const TraceEvent& e) {
    switch (e.kind) {
    case TraceEventKind::Barrier:
        return "|";
    case TraceEventKind::SubgroupBarrier:
        return ":";
    case TraceEventKind::LoopBudget:
        return "STOP";
    case TraceEventKind::Read:
        return "R " + cellText(t, e);
    case TraceEventKind::Write:
        return "W " + cellText(t, e);
    case TraceEventKind::Atomic:
        return "A " + cellText(t, e);
    case TraceEventKind::Shuffle:
        return "S";
    case TraceEventKind::UndefinedUse:
        return "U";
    case TraceEventKind::Printf:
    case TraceEventKind::PrintfArgs:
        break;
    }
    return "?";
}

void printThreadLines(std::ostream& os, const Trace& t, const TraceAnalysis& a) {
    os << "threads (R read, W write, A atomic, S a value from another lane, | barrier; --thread X "
          "for one in full)\n";
    for (uint64_t inv = 0; inv < t.threads.size() && inv < kThreadsListed; ++inv) {
        std::string line;
        for (const TraceEvent& e : t.threads[inv]) {
            if (line.size() > 90) {
                line += " ...";
                break;
            }
            line += (line.empty() ? "" : "  ") + shortEvent(t, e);
        }
        os << "  " << std::left << std::setw(34) << invocationName(t.launch, inv) << std::right
           << " " << a.traffic[inv].globalReads << "R " << a.traffic[inv].globalWrites << "W  "
           << line << "\n";
    }
    if (t.threads.size() > kThreadsListed)
        os << "  ... " << t.threads.size() - kThreadsListed << " more threads\n";
}

void printRounds(std::ostream& os, const Trace& t, const TraceAnalysis& a, uint64_t group,
                 const Style& st) {
    if (group >= a.rounds.size() || a.rounds[group].empty()) return;
    os << st.bold("shared memory of workgroup " + std::to_string(group) +
                  " after each barrier round")
       << " (. never written)\n";
    for (const SharedSnapshot& s : a.rounds[group])
        for (size_t v = 0; v < s.values.size(); ++v) {
            if (!t.variables[v].decl.shared) continue;
            os << "  round " << std::setw(2) << s.round << "  " << t.variables[v].decl.name << " =";
            for (size_t i = 0; i < s.values[v].size() && i < 64; ++i)
                os << " "
                   << (s.written[v][i] ? valueText(t, static_cast<uint32_t>(v), s.values[v][i])
                                       : ".");
            if (s.values[v].size() > 64) os << " ...";
            os << "\n";
        }
}

void printThreadDropped(std::ostream& os, const Trace& t, uint64_t inv, const Style& st) {
    if (uint32_t lost = printfDropped(t, inv))
        os << st.warn("    " + std::to_string(lost) + " more lines not recorded") << "\n";
}

} // namespace

std::string valueText(const Trace& t, uint32_t var, uint32_t word) {
    return views::wordText(t, var, word);
}

void printThread(std::ostream& os, const Trace& t, uint64_t inv, const Style& st,
                 std::optional<uint32_t> round) {
    os << st.bold(invocationName(t.launch, inv))
       << (round ? ", round " + std::to_string(*round) : "") << "\n";
    os << "    #  round  line  access\n";
    size_t n = 0, shown = 0;
    std::vector<PrintfLine> prints = printfLines(t, inv);
    auto said = prints.begin(); // its printf lines, in program order among the accesses
    auto printsUpTo = [&](size_t events, uint32_t r) {
        for (; said != prints.end() && said->afterEvents <= events; ++said)
            if (!round || r == *round)
                os << std::setw(18) << said->sourceLine << "  printf " << said->text << "\n";
    };
    for (const TraceEvent& e : t.threads[inv]) {
        printsUpTo(n, e.round);
        ++n;
        if (round && e.round != *round) continue;
        os << std::setw(5) << n << std::setw(7) << e.round << std::setw(6) << e.line << "  "
           << eventText(t, e, inv) << "\n";
        ++shown;
    }
    printsUpTo(n, t.threads[inv].empty()
                      ? 0
                      : t.threads[inv].back().round +
                            (t.threads[inv].back().kind == TraceEventKind::Barrier));
    shown += prints.size();
    if (uint32_t lost = printfDropped(t, inv))
        os << st.warn("    " + std::to_string(lost) + " more printf lines not recorded")
           << droppedWhy() << "\n";
    if (t.threads[inv].empty() && prints.empty())
        os << "    (no accesses to buffers or shared memory)\n";
    else if (!shown)
        os << "    (nothing in this round)\n";
}

std::optional<uint64_t> threadArg(const std::string& text, const TraceLaunch& l) {
    std::array<uint64_t, 3> g{0, 0, 0};
    std::istringstream in(text);
    std::string part;
    for (int d = 0; std::getline(in, part, ','); ++d) {
        size_t first = part.find_first_not_of(' '), last = part.find_last_not_of(' ');
        if (d > 2 || first == std::string::npos) return std::nullopt;
        // from_chars, not stoull: a number past 2^64 is a wrong thread, not an exception.
        auto [end, ec] = std::from_chars(part.data() + first, part.data() + last + 1, g[d]);
        if (ec != std::errc() || end != part.data() + last + 1) return std::nullopt;
    }
    for (int d = 0; d < 3; ++d)
        if (g[d] >= uint64_t(l.workgroupSize[d]) * l.workgroups[d]) return std::nullopt;
    return invocationIndex(
        l, {static_cast<uint32_t>(g[0]), static_cast<uint32_t>(g[1]), static_cast<uint32_t>(g[2])});
}

void printFindings(std::ostream& os, const TraceAnalysis& a, const Style& st) {
    if (a.findings.empty()) {
        os << st.pass("no findings")
           << ": no races, nothing out of bounds, every shared read was written first, within the "
              "limits\n";
        return;
    }
    for (const Finding& f : a.findings)
        os << (f.failsCase ? st.fail(findingKindName(f.kind)) : st.warn(findingKindName(f.kind)))
           << ": " << f.message << "\n";
}

void printTrace(std::ostream& os, const Puzzle& p, const Trace& t, const TraceAnalysis& a,
                std::optional<uint64_t> thread, const Style& st) {
    printFindings(os, a, st);
    auto count = [](uint64_t n, const char* what) {
        return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    os << "global traffic per thread: at most " << count(a.maxReads, "read") << " ("
       << invocationName(t.launch, a.maxReadsThread) << "), " << count(a.maxWrites, "write") << " ("
       << invocationName(t.launch, a.maxWritesThread) << ")";
    if (p.limits.globalReads || p.limits.globalWrites)
        os << "; the puzzle allows "
           << (p.limits.globalReads ? std::to_string(*p.limits.globalReads) : "any") << " and "
           << (p.limits.globalWrites ? std::to_string(*p.limits.globalWrites) : "any");
    os << "\n" << a.events << " events traced\n";
    uint64_t group = thread ? *thread / t.launch.invocationsPerGroup() : 0;
    printRounds(os, t, a, group, st);
    if (thread) return printThread(os, t, *thread, st);
    printThreadLines(os, t, a);
    if (!t.prints.empty())
        os << "printf: " << t.prints.size()
           << " calls recorded (--thread X shows one thread's lines, vkpuzzles run all of them)\n";
}

void printThreadPrintf(std::ostream& os, const Trace& t, uint64_t inv, const Style& st) {
    std::vector<PrintfLine> lines = printfLines(t, inv);
    for (const PrintfLine& l : lines)
        os << "    " << st.dim("line " + std::to_string(l.sourceLine) + ":") << " " << l.text
           << "\n";
    if (uint32_t lost = printfDropped(t, inv))
        os << st.warn("    " + std::to_string(lost) + " more lines not recorded") << droppedWhy()
           << "\n";
}

namespace {

// The traced dispatches of a case, named for a multi-pass case.
std::vector<std::pair<std::string, const Trace*>> casePrintTraces(const CaseOutcome& c) {
    std::vector<std::pair<std::string, const Trace*>> out;
    for (size_t k = 0; k < c.dispatches.size(); ++k)
        if (c.dispatches[k].trace)
            out.emplace_back("dispatch " + std::to_string(k + 1) + " (" + c.dispatches[k].label +
                                 ")",
                             c.dispatches[k].trace.get());
    if (out.empty() && c.trace) out.emplace_back("", c.trace.get());
    return out;
}

} // namespace

void printCasePrintf(std::ostream& os, const CaseOutcome& c, const Style& st, size_t maxLines) {
    size_t shown = 0, hiddenLines = 0;
    std::set<uint64_t> hiddenThreads;
    for (const auto& [label, t] : casePrintTraces(c)) {
        std::vector<PrintfLine> lines = printfLines(*t);
        if (lines.empty() && t->printsDropped.empty()) continue;
        os << st.bold("printf output" + (label.empty() ? "" : " of " + label))
           << st.dim(" (debugPrintfEXT, by thread)") << "\n";
        std::optional<uint64_t> current;
        for (const PrintfLine& l : lines) {
            if (shown >= maxLines) {
                ++hiddenLines;
                hiddenThreads.insert(l.invocation);
                continue;
            }
            if (l.invocation != current) {
                if (current) printThreadDropped(os, *t, *current, st);
                os << "  " << invocationName(t->launch, l.invocation) << "\n";
                current = l.invocation;
            }
            os << "    " << st.dim("line " + std::to_string(l.sourceLine) + ":") << " " << l.text
               << "\n";
            ++shown;
        }
        if (current) printThreadDropped(os, *t, *current, st);
        if (uint64_t lost = printfDroppedTotal(*t))
            os << st.warn("  " + std::to_string(lost) + " printf lines were not recorded")
               << droppedWhy() << "\n";
    }
    if (hiddenLines)
        os << st.warn("  ... " + std::to_string(hiddenLines) + " more lines from " +
                      std::to_string(hiddenThreads.size()) + " threads not shown")
           << " (vkpuzzles trace ... --thread X shows one thread's)\n";
}

json printfJson(const Trace& t, std::optional<uint64_t> thread) {
    json lines = json::array();
    for (const PrintfLine& l : printfLines(t, thread))
        lines.push_back({{"invocation", l.invocation},
                         {"global_id", invocationIds(t.launch, l.invocation).global},
                         {"line", l.sourceLine},
                         {"text", l.text}});
    json dropped = json::object();
    for (const auto& [inv, lost] : t.printsDropped)
        if (!thread || inv == *thread) dropped[std::to_string(inv)] = lost;
    return {{"lines", lines}, {"dropped", dropped}};
}

json casePrintfJson(const CaseOutcome& c) {
    json out = json::array();
    for (const auto& [label, t] : casePrintTraces(c)) {
        json j = printfJson(*t);
        j["dispatch"] = label.empty() ? json(nullptr) : json(label);
        out.push_back(j);
    }
    return out;
}

json findingJson(const Trace& t, const Finding& f) {
    return {{"kind", findingKindName(f.kind)},
            {"message", f.message},
            {"line", f.line},
            {"threads", f.threads},
            {"variable", f.variable >= 0 && size_t(f.variable) < t.variables.size()
                             ? json(t.variables[f.variable].decl.name)
                             : json(nullptr)},
            {"index", f.index},
            {"round", f.round},
            {"occurrences", f.occurrences},
            {"fails_case", f.failsCase}};
}

json eventJson(const Trace& t, const TraceEvent& e, uint64_t invocation) {
    json j = {{"kind", traceEventKindName(e.kind)},
              {"variable", e.variable < t.variables.size() ? json(e.variable) : json(nullptr)},
              {"index", e.index},
              {"value", e.value},
              {"line", e.line},
              {"round", e.round}};
    if (e.kind == TraceEventKind::Shuffle) {
        auto from = shuffleSource(t, invocation, e);
        j["op"] = shuffleOpName(shuffleOpOf(e.extra));
        j["from_invocation"] = from ? json(*from) : json(nullptr);
        j["source_ran"] = !shuffleSourceInactive(e.extra);
    }
    return j;
}

json traceJson(const Trace& t, const TraceAnalysis& a, std::optional<uint64_t> thread) {
    json findings = json::array();
    for (const Finding& f : a.findings)
        findings.push_back(findingJson(t, f));
    json vars = json::array();
    for (const TraceVariableInfo& v : t.variables)
        vars.push_back({{"name", v.decl.name},
                        {"shared", v.decl.shared},
                        {"binding", v.decl.shared ? json(nullptr) : json(v.decl.binding)},
                        {"length", v.length},
                        {"dims", v.dims},
                        {"width", v.decl.elementWidth}});
    json threads = json::array();
    for (uint64_t inv = 0; inv < t.threads.size(); ++inv) {
        if (thread && inv != *thread) continue;
        InvocationIds ids = invocationIds(t.launch, inv);
        json events = json::array();
        for (const TraceEvent& e : t.threads[inv])
            events.push_back(eventJson(t, e, inv));
        threads.push_back({{"invocation", inv},
                           {"global_id", ids.global},
                           {"local_id", ids.local},
                           {"workgroup_id", ids.group},
                           {"global_reads", a.traffic[inv].globalReads},
                           {"global_writes", a.traffic[inv].globalWrites},
                           {"events", events}});
    }
    return {{"findings", findings},
            {"variables", vars},
            {"events", a.events},
            {"dropped", t.dropped},
            {"max_global_reads", a.maxReads},
            {"max_global_writes", a.maxWrites},
            {"threads", threads},
            {"printf", printfJson(t, thread)}};
}

} // namespace vkp::cli
