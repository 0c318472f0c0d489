#include "judge/statement_rules.h"

#include <algorithm>
#include <map>

#include "puzzle/passes.h"

namespace vkp {
namespace {

// The value of a limit's expression in the case, or nothing when it has none there.
std::optional<uint32_t> limitIn(const std::optional<uint32_t>& stated, const std::optional<Expr>& e,
                                const ExprVars& vars) {
    if (!e) return stated;
    auto v = e->evaluateChecked(vars);
    if (!v || *v > UINT32_MAX) return std::nullopt;
    return static_cast<uint32_t>(*v);
}

std::string quoted(const RuleDecl& r) {
    return "; the statement says: \"" + r.text + "\"";
}

std::string lineText(uint32_t line) {
    return line ? "line " + std::to_string(line) + ": " : "";
}

bool isAbout(const Trace& t, const TraceEvent& e, const CaseRule& r) {
    if (e.variable >= t.variables.size()) return false;
    const TracedVariable& v = t.variables[e.variable].decl;
    switch (r.decl.target) {
    case RuleTargetKind::Shared:
        return v.shared;
    case RuleTargetKind::Global:
        return !v.shared;
    case RuleTargetKind::Buffer:
        return !v.shared && v.set == 0 &&
               std::count(r.bindings.begin(), r.bindings.end(), v.binding) > 0;
    }
    return false;
}

bool counts(const TraceEvent& e, RuleCountKind kind) {
    bool read = e.kind == TraceEventKind::Read || e.kind == TraceEventKind::Atomic;
    bool write = e.kind == TraceEventKind::Write || e.kind == TraceEventKind::Atomic;
    switch (kind) {
    case RuleCountKind::Reads:
        return read;
    case RuleCountKind::Writes:
        return write;
    case RuleCountKind::Accesses:
        return read || write; // an atomic is one access
    }
    return false;
}

// "read shared memory", "wrote the buffer 'flags'", ...
std::string countedText(const CaseRule& r, const Trace& t) {
    const char* verb = r.decl.count == RuleCountKind::Reads    ? "read "
                       : r.decl.count == RuleCountKind::Writes ? "wrote "
                                                               : "accessed ";
    if (r.decl.target == RuleTargetKind::Shared) return verb + std::string("shared memory");
    if (r.decl.target == RuleTargetKind::Global) return verb + std::string("global memory");
    for (const TraceVariableInfo& v : t.variables)
        if (!v.decl.shared && v.decl.set == 0 && !r.bindings.empty() &&
            v.decl.binding == r.bindings[0])
            return verb + std::string("the buffer '") + v.decl.name + "'";
    return verb + std::string("its buffer");
}

// "the rule allows 3 per thread", or for an expression "... allows WG - 1 = 3 per thread in
// this case".
std::string boundText(const CaseRule& r, const char* per) {
    const std::string& text = r.decl.atMost ? r.decl.atMost->text() : std::string();
    std::string s = "the rule allows ";
    if (text.find_first_not_of("0123456789 ") == std::string::npos)
        return s + std::to_string(r.atMost) + " per " + per;
    return s + text + " = " + std::to_string(r.atMost) + " per " + per + " in this case";
}

std::optional<Finding> atomicOnlyFinding(const Trace& t, const CaseRule& r) {
    uint64_t plain = 0;
    Finding f{FindingKind::Rule};
    for (uint64_t inv = 0; inv < t.threads.size(); ++inv)
        for (const TraceEvent& e : t.threads[inv]) {
            if (e.kind != TraceEventKind::Write || !isAbout(t, e, r)) continue;
            if (plain++ > 0) continue;
            f.message = lineText(e.line) + invocationName(t.launch, inv) + " wrote " +
                        traceCellName(t, e.variable, e.index) + " with a plain store" +
                        quoted(r.decl);
            f.line = e.line;
            f.threads = {inv};
            f.variable = static_cast<int>(e.variable);
            f.index = e.index;
        }
    if (plain == 0) return std::nullopt;
    f.occurrences = plain;
    if (plain > 1) f.message += " (" + std::to_string(plain) + " plain stores in all)";
    return f;
}

// reads_together: a thread's reads of the named buffers come in one run. The first write or
// atomic of its own between two of them breaks the run: the thread waited on a load before it
// had issued the next (a loop that loads and counts one element at a time).
std::optional<Finding> readsTogetherFinding(const Trace& t, const CaseRule& r) {
    uint64_t broken = 0;
    Finding f{FindingKind::Rule};
    for (uint64_t inv = 0; inv < t.threads.size(); ++inv) {
        const std::vector<TraceEvent>& events = t.threads[inv];
        const TraceEvent *lastRead = nullptr, *between = nullptr;
        for (const TraceEvent& e : events) {
            bool read = e.kind == TraceEventKind::Read && isAbout(t, e, r);
            if (read && between) {
                if (broken++ == 0) {
                    f.message = lineText(between->line) + invocationName(t.launch, inv) + " " +
                                (between->kind == TraceEventKind::Atomic ? "made an atomic on "
                                                                         : "wrote ") +
                                traceCellName(t, between->variable, between->index) +
                                " between its reads of " +
                                traceCellName(t, lastRead->variable, lastRead->index) + " (line " +
                                std::to_string(lastRead->line) + ") and " +
                                traceCellName(t, e.variable, e.index) + " (line " +
                                std::to_string(e.line) + ")" + quoted(r.decl);
                    f.line = between->line;
                    f.threads = {inv};
                    f.variable = static_cast<int>(between->variable);
                    f.index = between->index;
                }
                break;
            }
            if (read) lastRead = &e;
            bool store = e.kind == TraceEventKind::Write || e.kind == TraceEventKind::Atomic;
            if (store && lastRead && !between && e.variable < t.variables.size()) between = &e;
        }
    }
    if (broken == 0) return std::nullopt;
    f.occurrences = broken;
    if (broken > 1) f.message += " (" + std::to_string(broken) + " threads)";
    return f;
}

std::optional<Finding> perThreadFinding(const Trace& t, const CaseRule& r) {
    uint64_t worst = 0, worstCount = 0, over = 0;
    uint32_t worstLine = 0;
    for (uint64_t inv = 0; inv < t.threads.size(); ++inv) {
        uint64_t n = 0;
        uint32_t crossedAt = 0;
        for (const TraceEvent& e : t.threads[inv])
            if (counts(e, r.decl.count) && isAbout(t, e, r) && ++n == r.atMost + 1)
                crossedAt = e.line;
        if (n > r.atMost) ++over;
        if (n > worstCount) worst = inv, worstCount = n, worstLine = crossedAt;
    }
    if (over == 0) return std::nullopt;
    Finding f{FindingKind::Rule,
              lineText(worstLine) + invocationName(t.launch, worst) + " " + countedText(r, t) +
                  " " + std::to_string(worstCount) + " times; " + boundText(r, "thread") +
                  (over > 1 ? " (" + std::to_string(over) + " threads over)" : "") +
                  quoted(r.decl)};
    f.line = worstLine;
    f.threads = {worst};
    f.occurrences = over;
    return f;
}

std::optional<Finding> perWorkgroupFinding(const Trace& t, const CaseRule& r) {
    uint32_t per = t.launch.invocationsPerGroup();
    uint64_t worst = 0, worstCount = 0, over = 0, worstBound = r.atMost;
    std::map<uint32_t, uint64_t> worstLines;
    // The workgroup most over its bound (for a bound naming the workgroup, the most reads past
    // its own bound; else simply the busiest).
    uint64_t worstExcess = 0;
    for (uint64_t g = 0; per && g * per < t.threads.size(); ++g) {
        uint64_t n = 0;
        std::map<uint32_t, uint64_t> lines;
        for (uint64_t inv = g * per; inv < std::min<uint64_t>((g + 1) * per, t.threads.size());
             ++inv)
            for (const TraceEvent& e : t.threads[inv])
                if (counts(e, r.decl.count) && isAbout(t, e, r)) ++n, ++lines[e.line];
        const auto& groups = t.launch.workgroups;
        uint64_t bound =
            r.byGroup ? r.boundFor(uint32_t(g % groups[0]), uint32_t(g / groups[0] % groups[1]),
                                   uint32_t(g / groups[0] / groups[1]))
                      : r.atMost;
        if (n > bound) ++over;
        uint64_t excess = n > bound ? n - bound : 0;
        bool worse =
            r.byGroup ? excess > worstExcess || (over == 0 && n > worstCount) : n > worstCount;
        if (worse)
            worst = g, worstCount = n, worstLines = std::move(lines), worstBound = bound,
            worstExcess = excess;
    }
    if (over == 0) return std::nullopt;
    // Threads run side by side, so no single access "went over": name the busiest line.
    auto busiest =
        std::max_element(worstLines.begin(), worstLines.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    uint32_t line = busiest == worstLines.end() ? 0 : busiest->first;
    Finding f{
        FindingKind::Rule,
        lineText(line) + workgroupName(t.launch, worst) + " " + countedText(r, t) + " " +
            std::to_string(worstCount) + " times, its threads together" +
            (line ? " (" + std::to_string(busiest->second) + " of them at this line)" : "") + "; " +
            (r.byGroup ? "the rule allows " + r.decl.atMost->text() + " = " +
                             std::to_string(worstBound) + " for this workgroup"
                       : boundText(r, "workgroup")) +
            (over > 1 ? " (" + std::to_string(over) + " workgroups over)" : "") + quoted(r.decl)};
    f.line = line;
    f.threads = {worst * per};
    f.occurrences = over;
    return f;
}

} // namespace

uint64_t CaseRule::boundFor(uint32_t x, uint32_t y, uint32_t z) const {
    if (!byGroup || !decl.atMost) return atMost;
    std::map<std::string, uint64_t> withGroup = names;
    withGroup["group_x"] = x, withGroup["group_y"] = y, withGroup["group_z"] = z;
    auto v = decl.atMost->evaluateChecked(ExprVars{n, wg, &withGroup});
    return v ? *v : atMost; // an error of the file's (a division by zero): workgroup 0's bound
}

CaseChecks caseChecks(const Puzzle& puzzle, const TestCase& c) {
    auto names = caseNames(puzzle, c, 0);
    ExprVars vars = caseVars(puzzle, c, names);
    CaseChecks out;
    out.limits = puzzle.limits;
    out.limits.globalReads =
        limitIn(puzzle.limits.globalReads, puzzle.limits.globalReadsExpr, vars);
    out.limits.globalWrites =
        limitIn(puzzle.limits.globalWrites, puzzle.limits.globalWritesExpr, vars);
    out.limits.divergentRequests =
        limitIn(puzzle.limits.divergentRequests, puzzle.limits.divergentRequestsExpr, vars);
    out.limits.globalAtomicsPerWorkgroup = limitIn(
        puzzle.limits.globalAtomicsPerWorkgroup, puzzle.limits.globalAtomicsPerWorkgroupExpr, vars);
    for (const RuleDecl& d : puzzle.rules) {
        if (judgedOnCompiledKernels(d.check)) continue;
        if (c.workgroupSize[0] < d.fromWorkgroupSize) continue;
        CaseRule r{d};
        if (d.atMost) {
            auto v = d.atMost->evaluateChecked(vars);
            if (!v) continue;
            r.atMost = *v;
            for (const std::string& name : d.atMost->names())
                r.byGroup = r.byGroup || std::find(std::begin(kGroupNames), std::end(kGroupNames),
                                                   name) != std::end(kGroupNames);
            if (r.byGroup) r.names = names, r.n = vars.n, r.wg = vars.wg;
        }
        std::vector<size_t> named = d.buffers;
        if (d.check == RuleCheckKind::Count && d.target == RuleTargetKind::Buffer)
            named = {d.buffer};
        for (size_t b : named)
            if (b < puzzle.buffers.size()) r.bindings.push_back(puzzle.buffers[b].binding);
        out.rules.push_back(std::move(r));
    }
    return out;
}

std::vector<Finding> ruleFindings(const Trace& trace, const std::vector<CaseRule>& rules) {
    std::vector<Finding> out;
    for (const CaseRule& r : rules) {
        std::optional<Finding> f;
        if (r.decl.check == RuleCheckKind::ReadsTogether)
            f = readsTogetherFinding(trace, r);
        else if (r.decl.check == RuleCheckKind::AtomicWritesOnly)
            f = atomicOnlyFinding(trace, r);
        else if (r.decl.per == RuleScopeKind::Thread)
            f = perThreadFinding(trace, r);
        else
            f = perWorkgroupFinding(trace, r);
        if (f) out.push_back(std::move(*f));
    }
    return out;
}

} // namespace vkp
