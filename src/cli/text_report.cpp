#include "cli/text_report.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "base/source_text.h"
#include "check/case_search.h"
#include "check/hidden_cases.h"
#include "check/subgroup_sizes.h"
#include "judge/efficiency.h"
#include "puzzle/passes.h"

namespace vkp::cli {
namespace {

std::string plural(uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string wrapText(const std::string& text, const std::string& indent) {
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line))
        out += (line.empty() ? "" : indent) + line + "\n";
    return out;
}

std::string dataSpecText(const Puzzle& p, const DataSpec& d) {
    switch (d.kind) {
    case DataSpec::Kind::Values:
        return d.shape.str() + " given values";
    case DataSpec::Kind::Unchecked:
        return d.shape.str() + " not known (no reference op for your own case)";
    case DataSpec::Kind::Each:
        return d.shape.str() + " each = " + d.each->text();
    case DataSpec::Kind::Iota: {
        std::ostringstream s;
        s << d.shape.str() << " counting from " << d.start << (d.step != 1 ? " in steps of " : "");
        if (d.step != 1) s << d.step;
        return s.str();
    }
    case DataSpec::Kind::Constant: {
        std::ostringstream s;
        s << d.shape.str() << " all " << d.value;
        return s.str();
    }
    case DataSpec::Kind::Random:
        return d.shape.str() + " random integers in [" + std::to_string(d.min) + ", " +
               std::to_string(d.max) + "]";
    case DataSpec::Kind::Op: {
        std::string args;
        for (size_t a : d.args)
            args += (args.empty() ? "" : ", ") + p.buffers[a].name;
        // The op's parameters too (add_scalar(a, scalar = 10)): without them the rule is half told.
        for (const auto& [name, value] : d.params) {
            std::ostringstream v;
            v << value;
            args += (args.empty() ? "" : ", ") + name + " = " + v.str();
        }
        return d.shape.str() + " = " + d.op + "(" + args + ")";
    }
    }
    return "";
}

// ", 1 hidden": how many of the puzzle's cases the teacher hid (nothing when none).
std::string hiddenCount(const Puzzle& p) {
    auto n =
        std::count_if(p.cases.begin(), p.cases.end(), [](const TestCase& c) { return c.hidden; });
    return n ? ", " + std::to_string(n) + " hidden" : "";
}

} // namespace

std::string launchText(const Puzzle& p, const TestCase& c) {
    if (p.multiPass()) {
        auto d = caseDispatches(p, c);
        size_t n = d ? d->size() : 0;
        return "workgroup " + dimsText(c.workgroupSize) + ", " +
               plural(n, "dispatch", "dispatches");
    }
    return "workgroup " + dimsText(c.workgroupSize) + " x " + dimsText(c.workgroups) + " = " +
           plural(c.threadCount(), "thread", "threads");
}

void printPuzzleList(std::ostream& os, const PuzzleSet& set, const Style& st) {
    size_t width = 0;
    for (const Puzzle& p : set.puzzles)
        width = std::max(width, p.slug.size());
    std::string pack, track;
    bool first = true;
    for (const Puzzle& p : set.puzzles) {
        if (p.pack != pack) {
            pack = p.pack;
            track.clear();
            os << "\n" << st.bold("Pack " + pack) << st.dim("  " + p.packRoot) << "\n";
        }
        if (p.track != track || first) {
            os << (first || track.empty() ? "" : "\n") << st.bold(p.track + " track") << "\n";
            track = p.track;
        }
        first = false;
        os << "  " << std::setw(3) << p.number << "  " << std::left
           << std::setw(static_cast<int>(width) + 2) << p.slug << std::right << p.title
           << st.dim("  (" + plural(p.cases.size(), "case", "cases") + hiddenCount(p) + ")" +
                     (p.needs.empty() ? "" : "  needs " + needsText(p.needs)))
           << "\n";
    }
}

namespace {

// [limits] on efficiency, in words, with the model they are judged under.
void printEfficiencyLimits(std::ostream& os, const Puzzle& p, const Style& st) {
    const Limits& l = p.limits;
    if (!l.anyEfficiency()) return;
    auto expr = [](uint32_t n, const std::optional<Expr>& e) {
        return e ? e->text() + " (" + std::to_string(n) + " in the largest case)"
                 : std::to_string(n);
    };
    os << st.bold("Efficiency limits") << st.dim("  (" + MemoryModel{}.name + ")") << "\n";
    if (l.globalEfficiency) {
        char buf[32];
        std::snprintf(buf, sizeof buf, *l.globalEfficiency == 1 ? "%.1f" : "%g",
                      *l.globalEfficiency);
        os << "  global_efficiency = " << buf
           << ": every global request needs at least this share of the sectors it touches"
           << (*l.globalEfficiency >= 1 ? " (1: the fewest that hold its bytes)" : "") << "\n";
    }
    if (l.bankConflicts)
        os << "  bank_conflicts = " << *l.bankConflicts << ": "
           << (*l.bankConflicts == 1 ? std::string("no shared-memory bank conflicts")
                                     : "at most a " + std::to_string(*l.bankConflicts) +
                                           "-way bank conflict per shared request")
           << "\n";
    if (l.divergentRequests)
        os << "  divergent_requests = " << expr(*l.divergentRequests, l.divergentRequestsExpr)
           << ": requests with idle lanes in a subgroup, per workgroup\n";
    if (l.globalAtomicsPerWorkgroup)
        os << "  global_atomics_per_workgroup = "
           << expr(*l.globalAtomicsPerWorkgroup, l.globalAtomicsPerWorkgroupExpr)
           << ": atomic operations on buffers, per workgroup\n";
}

} // namespace

void printPuzzle(std::ostream& os, const Puzzle& p, const Style& st) {
    os << st.bold(p.displayName()) << st.dim("  [" + p.track + " track, " + p.dir + "]") << "\n";
    if (!p.needs.empty())
        os << st.dim("  the official solution needs " + needsText(p.needs) +
                     " (vkpuzzles devices lists what each device has)")
           << "\n";
    os << "\n";
    os << wrapText(p.statement, "  ") << "\n" << st.bold("Buffers") << "\n";
    // The names' column: as wide as the longest name and a space (at least 8).
    int nameWidth = 8;
    for (const BufferDecl& b : p.buffers)
        nameWidth = std::max(nameWidth, static_cast<int>(b.name.size()) + 1);
    for (const BufferDecl& b : p.buffers)
        os << "  binding " << b.binding << "  " << std::left << std::setw(nameWidth) << b.name
           << std::setw(6) << elementKindName(b.type) << std::setw(8) << roleKindName(b.role)
           << std::right << (b.dims == 2 ? "2D" : "1D") << "\n";
    if (!p.constants.empty()) {
        os << st.bold("Constants") << "\n";
        for (const ConstantDecl& c : p.constants)
            os << "  layout(constant_id = " << c.id << ") const uint " << c.name << "\n";
    }
    if (p.limits.globalReads || p.limits.globalWrites) {
        // A limit written as an expression shows it, and its largest value over the cases.
        auto limit = [&](uint32_t n, const std::optional<Expr>& e, const char* one,
                         const char* many) {
            if (!e) return plural(n, one, many);
            return e->text() + " " + many + " (" + std::to_string(n) + " in the largest case)";
        };
        os << st.bold("Rule") << "\n  per thread at most";
        if (p.limits.globalReads)
            os << " "
               << limit(*p.limits.globalReads, p.limits.globalReadsExpr, "global read",
                        "global reads");
        if (p.limits.globalReads && p.limits.globalWrites) os << " and";
        if (p.limits.globalWrites)
            os << " "
               << limit(*p.limits.globalWrites, p.limits.globalWritesExpr, "global write",
                        "global writes");
        os << "\n";
    }
    printEfficiencyLimits(os, p, st);
    if (!p.rules.empty()) {
        os << st.bold("Rules") << st.dim(" (checked on the trace)") << "\n";
        for (const RuleDecl& r : p.rules)
            os << "  " << r.text
               << (r.fromWorkgroupSize
                       ? " (from " + std::to_string(r.fromWorkgroupSize) + " threads per workgroup)"
                       : "")
               << (judgedOnCompiledKernels(r.check) ? " (checked on the compiled kernel)" : "")
               << "\n";
    }
    os << st.bold("Test cases") << "\n";
    for (size_t i = 0; i < p.cases.size(); ++i) {
        const TestCase& c = p.cases[i];
        if (c.hidden) {
            os << "  " << i + 1 << ". " << st.dim(kHiddenCaseText) << "\n";
            continue;
        }
        os << "  " << i + 1 << ". " << (c.name.empty() ? "" : c.name + ": ") << launchText(p, c);
        for (const ConstantDecl& k : p.constants)
            os << ", " << k.name << " = " << c.constants.at(k.id);
        os << "\n";
        for (size_t b = 0; b < p.buffers.size(); ++b)
            os << "       " << std::left << std::setw(nameWidth) << p.buffers[b].name << std::right
               << (p.buffers[b].role == RoleKind::Output ? "expected " : "")
               << dataSpecText(p, *c.data[b]) << "\n";
    }
    os << "\n" << plural(p.hints.size(), "hint", "hints") << ": " << p.command("hint", "1") << "\n";
    os << "starter kernel: " << p.starterPath << "\n";
}

void printDevice(std::ostream& os, const DeviceInfo& d, bool selected, const Style& st) {
    os << st.bold(std::to_string(d.index) + ": " + d.name) << "  " << deviceTypeName(d.type)
       << ", Vulkan " << d.apiVersion << (selected ? st.pass("  [default]") : "") << "\n";
    if (!d.usable) {
        os << "   " << st.warn("unusable: " + d.whyUnusable) << "\n";
        return;
    }
    if (!d.driver.empty()) os << "   driver: " << d.driver << "\n";
    os << "   subgroup size " << d.subgroupSize << "; up to " << d.maxWorkgroupInvocations
       << " threads per workgroup, " << dimsText(d.maxWorkgroupSize) << " per axis\n";
    os << "   subgroup operations: " << subgroupFeatureList(d.subgroupOperations) << "\n";
    os << "   optional kinds of numbers and storage: " << shaderFeatureList(d.shaderFeatures)
       << "\n";
    os << "   workgroup count up to " << dimsText(d.maxWorkgroupCount) << "; shared memory "
       << d.maxSharedMemoryBytes / 1024 << " KiB; storage buffers up to "
       << d.maxStorageBufferRange / (1024 * 1024) << " MiB\n";
    os << "   timestamps: "
       << (d.timestampPeriodNs > 0 ? std::to_string(d.timestampPeriodNs) + " ns per tick"
                                   : "not on compute")
       << "; robust buffer access: " << (d.robustBufferAccess ? "yes" : "no")
       << "; kernel statistics (registers) in bench: " << (d.pipelineStatistics ? "yes" : "no")
       << "\n";
}

void printDiagnostics(std::ostream& os, const CheckReport& r,
                      const std::vector<KernelSource>& sources, const Style& st) {
    for (const Diagnostic& d : r.diagnostics) {
        std::string head = d.str();
        os << (d.severity == SeverityKind::Error ? st.fail(head) : st.warn(head)) << "\n";
        if (d.line <= 0) continue;
        const KernelSource* k = sources.empty() ? nullptr : &sources[0];
        for (const KernelSource& s : sources)
            if (s.file == d.file) k = &s;
        std::string text = k ? sourceLine(k->text, d.line) : std::string();
        std::string num = std::to_string(d.line);
        // A very long line (a generated expression) is quoted around the column, not whole.
        constexpr size_t kQuoted = 160;
        size_t column = d.column > 0 ? static_cast<size_t>(d.column - 1) : 0, from = 0;
        std::string before, after;
        if (text.size() > kQuoted) {
            if (column > kQuoted / 2) from = std::min(column - kQuoted / 2, text.size() - kQuoted);
            if (from > 0) before = "\xE2\x80\xA6"; // an ellipsis, one column wide
            if (from + kQuoted < text.size())
                after =
                    "\xE2\x80\xA6 (" + std::to_string(text.size()) + " characters on this line)";
            text = text.substr(from, kQuoted);
        }
        os << "  " << num << " | " << before << text << after << "\n";
        if (d.column > 0)
            os << "  " << std::string(num.size(), ' ') << " | "
               << std::string(column - from + (before.empty() ? 0 : 1), ' ') << st.fail("^")
               << "\n";
    }
}

void printCase(std::ostream& os, const Puzzle& p, const CaseOutcome& c, const std::string& runHint,
               const Style& st) {
    const TestCase& tc = p.cases[c.index];
    // A hidden case is named as such; shown to the teacher (--reveal-hidden), it says so.
    std::string launch = c.hidden    ? std::string(kHiddenCaseText)
                         : tc.hidden ? "(hidden) " + launchText(p, tc)
                                     : launchText(p, tc);
    os << "  case " << c.index + 1 << "  " << std::left << std::setw(44) << launch << std::right
       << (c.pass ? st.pass("pass") : st.fail(verdictWord(verdictOf(c))));
    if (c.error) os << "  " << c.error->message;
    os << "\n";
    for (const BufferOutcome& b : c.outputs) {
        if (b.comparison.pass) continue;
        const BufferDecl& decl = p.buffers[b.buffer];
        if (c.hidden) {
            os << "          " << decl.name << ": wrong values\n";
            continue;
        }
        os << "          " << decl.name << ": " << b.comparison.mismatchCount << " of "
           << b.expected.shape.count() << " cells wrong\n";
        for (size_t m = 0; m < std::min<size_t>(3, b.comparison.mismatches.size()); ++m) {
            uint64_t i = b.comparison.mismatches[m].index;
            os << "            " << cellName(decl, b.expected.shape, i) << ": "
               << expectedGotText(b.expected, b.actual, i) << "\n";
        }
    }
    printCaseFindings(os, c, "          ", st);
    if (!c.pass && !c.error && !c.hidden)
        os << st.dim("          all buffers: " + runHint + " --case " +
                     std::to_string(c.index + 1) + (tc.hidden ? " --reveal-hidden" : ""))
           << "\n";
}

void printSubgroupSize(std::ostream& os, const SubgroupSizeRun& s, const Style& st) {
    std::string head = "  with " + sizeName(s.lanes);
    os << std::left << std::setw(54) << head << std::right;
    if (s.error) {
        os << st.warn("not checked") << "  " << s.error->message << "\n";
        return;
    }
    std::string carried = carriedText(s);
    os << (s.pass() ? st.pass("pass") : st.fail("FAIL"))
       << st.dim("  " + std::to_string(s.casesRun - s.failures.size()) + " of " +
                 plural(s.casesRun, "case", "cases") + " pass" +
                 (s.device.empty() ? "" : " on " + s.device) +
                 (carried.empty() ? "" : "; " + carried))
       << "\n";
    for (size_t i = 0; i < std::min<size_t>(3, s.failures.size()); ++i) {
        const CaseFailure& f = s.failures[i];
        os << "          ";
        if (f.error && !f.detail.empty()) // an error's message names its case
            os << f.detail << "\n";
        else
            os << "case " << f.index + 1 << ": "
               << (f.detail.empty() ? std::string("wrong (") + kHiddenCaseText + ")" : f.detail)
               << "\n";
    }
    if (s.failures.size() > 3)
        os << "          and " << plural(s.failures.size() - 3, "case", "cases") << " more\n";
}

void printReversedOrder(std::ostream& os, const ReversedOrderRun& r, const Style& st) {
    std::string head = "  with atomics in reverse lane order";
    if (r.error) {
        os << head << "  " << st.warn("not checked") << "  " << r.error->message << "\n";
        return;
    }
    if (r.pass()) {
        os << st.dim(head + ": " + std::to_string(r.casesRun) +
                     (r.casesRun == 1 ? " case passes" : " cases pass"))
           << "\n";
        return;
    }
    os << std::left << std::setw(54) << head << std::right << st.fail("FAIL") << "\n";
    for (size_t i = 0; i < std::min<size_t>(3, r.failures.size()); ++i)
        os << "          case " << r.failures[i].index + 1 << ": "
           << (r.failures[i].detail.empty() ? std::string("wrong (") + kHiddenCaseText + ")"
                                            : r.failures[i].detail)
           << "\n";
    os << st.fail("the result depends on the order in which a subgroup's lanes do their "
                  "atomics, which no device promises (a ranking by atomicAdd is not stable)")
       << "\n";
}

void printCaseSearch(std::ostream& os, const CaseSearchRun& s, const std::string& runHint,
                     const Style& st) {
    std::string head = "  search (--seed " + std::to_string(s.seed) + ")";
    if (s.error) {
        os << head << "  " << st.warn("not checked") << "  " << s.error->message << "\n";
        return;
    }
    if (!s.found) {
        os << st.dim(head + ": " + std::to_string(s.casesRun) + " generated " +
                     (s.casesRun == 1 ? "case passes" : "cases pass"))
           << "\n";
        return;
    }
    const FoundCase& f = *s.found;
    os << std::left << std::setw(54) << head << std::right << st.fail("FAIL") << "\n";
    os << "          like case " << f.templateCase + 1 << ", N = " << f.n << ", workgroup "
       << dimsText(f.workgroupSize) << " x " << dimsText(f.workgroups) << ": " << f.detail << "\n";
    if (f.foundN != f.n || f.foundWorkgroupSize != f.workgroupSize)
        os << st.dim("          (found at N = " + std::to_string(f.foundN) + ", workgroup " +
                     dimsText(f.foundWorkgroupSize) + "; shrunk in " +
                     std::to_string(f.shrinkRuns) + " runs)")
           << "\n";
    for (const auto& [name, values] : f.inputs)
        os << "          " << name << " = " << values << "\n";
    if (std::string cmd = foundCaseCommand(f, runHint); !cmd.empty())
        os << "          run it: " << cmd << "\n";
    os << st.fail("a case the puzzle's own cases do not have breaks the kernel: --seed " +
                  std::to_string(s.seed) + " makes the same search again")
       << "\n";
}

void printFreshInputs(std::ostream& os, const FreshInputsRun& f, bool fixedPass, const Style& st) {
    std::string head = "  with fresh random inputs (--seed " + std::to_string(f.seed) + ")";
    if (f.error) {
        os << head << "  " << st.warn("not checked") << "  " << f.error->message << "\n";
        return;
    }
    if (f.pass()) {
        os << st.dim(head + ": " + std::to_string(f.casesRun) +
                     (f.casesRun == 1 ? " case passes" : " cases pass"))
           << "\n";
        return;
    }
    os << std::left << std::setw(54) << head << std::right << st.fail("FAIL") << "\n";
    for (size_t i = 0; i < std::min<size_t>(3, f.failures.size()); ++i)
        os << "          case " << f.failures[i].index + 1 << ": "
           << (f.failures[i].detail.empty() ? std::string("wrong (") + kHiddenCaseText + ")"
                                            : f.failures[i].detail)
           << "\n";
    // Only a kernel right on the fixed cases is "right there, wrong here": a wrong one is wrong
    // on both, and the fixed cases say why first.
    std::string again = "--seed " + std::to_string(f.seed) + " draws the same data again";
    os << st.fail(fixedPass
                      ? "right on the puzzle's fixed data, wrong on other random data: " + again
                      : "wrong on other random data too: " + again)
       << "\n";
}

void printCheck(std::ostream& os, const Puzzle& p, const CheckReport& r,
                const std::vector<KernelSource>& sources, const std::string& runHint,
                const Style& st, size_t shown, size_t shownSizes) {
    if (shown == 0) printDiagnostics(os, r, sources, st);
    if (!r.compiled() && r.error) {
        os << st.fail("error: ") << r.error->message << "\n";
        return;
    }
    if (!r.compiled()) {
        os << st.fail("the kernel does not compile") << "\n";
        return;
    }
    if (!r.untraced.empty() && shown == 0) os << st.dim("not traced: " + r.untraced) << "\n";
    for (size_t i = shown; i < r.cases.size(); ++i)
        printCase(os, p, r.cases[i], runHint, st);
    if (r.error) os << st.fail("error: ") << r.error->message << "\n";
    if (hasErrors(r.diagnostics)) return;
    for (size_t i = shownSizes; i < r.otherSizes.size(); ++i)
        printSubgroupSize(os, r.otherSizes[i], st);
    if (std::string sizes = subgroupSizeVerdict(p, r); !sizes.empty())
        os << (r.allPass() ? st.pass(sizes) : st.fail(sizes)) << "\n";
    if (r.fresh) printFreshInputs(os, *r.fresh, r.passCount() == r.cases.size(), st);
    if (r.reversed) printReversedOrder(os, *r.reversed, st);
    if (r.search) printCaseSearch(os, *r.search, runHint, st);
    size_t total = r.cases.size();
    std::string summary =
        std::to_string(r.passCount()) + " of " + plural(total, "case", "cases") + " pass";
    bool atSizes = false;
    for (const SubgroupSizeRun& s : r.otherSizes) {
        if (s.error || !s.casesRun) continue;
        if (!atSizes) summary += " with " + std::to_string(r.lanes) + " lanes";
        summary += std::string(atSizes ? ", " : "; ") +
                   std::to_string(s.casesRun - s.failures.size()) + " of " +
                   std::to_string(s.casesRun) + " with " + std::to_string(s.lanes);
        atSizes = true;
    }
    if (r.fresh && !r.fresh->failures.empty())
        summary += "; " + std::to_string(r.fresh->casesRun - r.fresh->failures.size()) + " of " +
                   std::to_string(r.fresh->casesRun) + " with fresh random inputs";
    if (r.reversed && !r.reversed->failures.empty())
        summary += "; " + std::to_string(r.reversed->casesRun - r.reversed->failures.size()) +
                   " of " + std::to_string(r.reversed->casesRun) +
                   " with atomics in reverse lane order";
    if (r.search && r.search->found) summary += "; a generated case fails";
    if (total) os << (r.allPass() ? st.pass(summary) : st.fail(summary)) << "\n";
}

void printTiming(std::ostream& os, const StageTimings& t) {
    auto row = [&](const char* name, double ms) {
        os << "  " << std::left << std::setw(30) << name << std::right << std::fixed
           << std::setprecision(2) << std::setw(9) << ms << " ms\n";
    };
    os << "timing\n";
    row("compile (shaderc)", t.compileMs);
    row("reflect + interface check", t.reflectMs);
    row(("pipelines (" + std::to_string(t.pipelines) + " built)").c_str(), t.pipelineMs);
    row("run (upload, dispatch, read)", t.runMs);
    row("check", t.checkMs);
    if (t.instrumentMs > 0) row("trace: instrument + validate", t.instrumentMs);
    if (t.instrumentMs > 0) row("trace: decode + analyse", t.analysisMs);
    if (t.loopGuardMs > 0) row("loop guard: instrument + check", t.loopGuardMs);
    if (t.traceRerunMs > 0)
        row(("trace: re-runs of overflowed (" + std::to_string(t.traceReruns) + ")").c_str(),
            t.traceRerunMs);
    row("first verdict", t.firstVerdictMs);
    row("total", t.totalMs);
    row("  of which GPU time", t.gpuMs);
    double floor = t.compileMs + t.pipelineMs;
    row("floor (compile + pipelines)", floor);
    if (floor > 0)
        os << "  " << std::left << std::setw(30) << "total / floor" << std::right << std::setw(9)
           << t.totalMs / floor << " x\n";
    os << std::defaultfloat;
}

void printBuffer(std::ostream& os, const std::string& label, const BufferDecl& decl,
                 const BufferData& data, const BufferComparison* verdict, const Style& st) {
    std::set<uint64_t> wrong;
    if (verdict)
        for (const Mismatch& m : verdict->mismatches)
            wrong.insert(m.index);
    size_t width = 1;
    for (uint64_t i = 0; i < data.words.size(); ++i)
        width = std::max(width, data.format(i).size());
    os << "  " << st.bold(decl.name) << " " << label << " " << data.shape.str() << "\n";
    uint64_t cols = data.shape.dims.size() == 2 ? data.shape.cols()
                                                : std::min<uint64_t>(data.shape.count(), 16);
    for (uint64_t i = 0; i < data.words.size(); ++i) {
        if (i % cols == 0) os << "    ";
        std::string cell = data.format(i);
        cell = std::string(width - std::min(width, cell.size()), ' ') + cell;
        bool bad = wrong.count(i) > 0;
        os << (bad ? st.fail(cell) : cell) << (bad && !st.color() ? "*" : " ") << " ";
        if (i % cols == cols - 1 || i + 1 == data.words.size()) os << "\n";
    }
    if (verdict && verdict->mismatchCount > wrong.size())
        os << "    (" << verdict->mismatchCount << " cells wrong; the first " << wrong.size()
           << " are marked)\n";
}

namespace {

// Whether every finding that fails the case is about efficiency ([limits] global_efficiency ...).
bool onlyEfficiency(const CaseOutcome& c) {
    bool any = false, other = !c.runFindings.empty();
    auto scan = [&](const TraceAnalysis& a) {
        for (const Finding& f : a.findings) {
            if (!f.failsCase) continue;
            (isEfficiencyFinding(f.kind) ? any : other) = true;
        }
    };
    if (c.analysis && c.dispatches.empty()) scan(*c.analysis);
    for (const DispatchTrace& dispatch : c.dispatches)
        scan(*dispatch.analysis);
    return any && !other;
}

} // namespace

void printCaseFindings(std::ostream& os, const CaseOutcome& c, const std::string& indent,
                       const Style& st) {
    for (const std::string& s : scheduleLines(c))
        os << indent << st.dim(s) << "\n";
    if (c.inconclusive)
        os << indent
           << st.warn(
                  "the outputs are right, but the trace could not hold all that the threads did:")
           << "\n";
    else if (c.outputsMatch && ((c.analysis && c.analysis->failsCase()) || !c.runFindings.empty()))
        os << indent
           << st.warn(onlyEfficiency(c)
                          ? "the outputs are right, but the kernel breaks the puzzle's efficiency "
                            "limits, on a model of " +
                                MemoryModel{}.name + ":"
                          : "the outputs are right, but what the threads did is not:")
           << "\n";
    auto findings = [&](const TraceAnalysis& a, const std::string& where) {
        for (const Finding& f : a.findings)
            os << indent << where
               << (f.failsCase ? st.fail(findingKindName(f.kind))
                               : st.warn(findingKindName(f.kind)))
               << ": " << f.message << "\n";
    };
    if (c.analysis && c.dispatches.empty()) findings(*c.analysis, "");
    // A finding that comes back in later dispatches of the same kernel (an endless loop in each
    // of 8 rounds) is printed once, with the dispatches it came back in counted.
    std::map<std::tuple<size_t, FindingKind, uint32_t>, std::vector<size_t>> again;
    for (size_t d = 0; d < c.dispatches.size(); ++d) {
        const DispatchTrace& dispatch = c.dispatches[d];
        if (!dispatch.analysis) continue;
        for (const Finding& f : dispatch.analysis->findings) {
            auto& seen = again[{dispatch.kernel, f.kind, f.line}];
            seen.push_back(d);
            if (seen.size() > 1) continue;
            os << indent << dispatch.label << ": "
               << (f.failsCase ? st.fail(findingKindName(f.kind))
                               : st.warn(findingKindName(f.kind)))
               << ": " << f.message << "\n";
        }
    }
    for (const auto& [key, dispatches] : again) {
        if (dispatches.size() < 2) continue;
        std::string list;
        for (size_t k = 1; k < dispatches.size() && k <= 4; ++k)
            list += (list.empty() ? "" : ", ") + std::to_string(dispatches[k] + 1);
        if (dispatches.size() > 5) list += ", ...";
        os << indent
           << st.dim("the same " + std::string(findingKindName(std::get<1>(key))) + " at line " +
                     std::to_string(std::get<2>(key)) + " in " +
                     std::to_string(dispatches.size() - 1) + " later dispatch" +
                     (dispatches.size() == 2 ? "" : "es") + " of " +
                     c.dispatches[dispatches.front()].label.substr(
                         0, c.dispatches[dispatches.front()].label.find(' ')) +
                     " (" + list + "; trace --dispatch K shows one)")
           << "\n";
    }
    for (const Finding& f : c.runFindings)
        os << indent << st.fail(findingKindName(f.kind)) << ": " << f.message << "\n";
    for (const std::string& note : c.notes)
        os << indent << st.warn("why: ") << note << "\n";
}

void printCaseBuffers(std::ostream& os, const Puzzle& p, const CaseOutcome& c, const Style& st) {
    const TestCase& tc = p.cases[c.index];
    if (c.hidden) { // no buffers to show: only the verdict and the kinds of failure
        os << st.bold("case " + std::to_string(c.index + 1)) << ": " << kHiddenCaseText << "\n";
        os << "  " << (c.pass ? st.pass("pass") : st.fail("FAIL"))
           << (c.error ? "  " + c.error->message : "") << "\n";
        printCaseFindings(os, c, "    ", st);
        return;
    }
    os << st.bold("case " + std::to_string(c.index + 1)) << (tc.name.empty() ? "" : ": " + tc.name)
       << "\n";
    os << "  " << launchText(p, tc);
    for (const ConstantDecl& k : p.constants)
        os << ", " << k.name << " = " << tc.constants.at(k.id);
    os << "\n";
    for (size_t b = 0; b < p.buffers.size(); ++b)
        if (p.buffers[b].role != RoleKind::Output && b < c.inputs.size())
            printBuffer(os, p.buffers[b].role == RoleKind::Input ? "(input)" : "(scratch, before)",
                        p.buffers[b], c.inputs[b], nullptr, st);
    bool unchecked = false;
    for (const BufferOutcome& o : c.outputs) {
        if (!o.checked) {
            unchecked = true;
            os << "  " << st.bold(p.buffers[o.buffer].name) << " expected: " << st.warn("none")
               << st.dim(" (" + p.slug +
                         " writes its expected values out by hand, so your own case has no "
                         "expected output)")
               << "\n";
        } else {
            printBuffer(os, "expected", p.buffers[o.buffer], o.expected, nullptr, st);
        }
        printBuffer(os, "actual", p.buffers[o.buffer], o.actual, &o.comparison, st);
    }
    if (!st.color()) os << "  (* marks a wrong cell)\n";
    std::string verdict = c.pass ? (unchecked ? st.warn("ran, not checked") : st.pass("pass"))
                                 : st.fail(verdictWord(verdictOf(c)));
    os << "  " << verdict << (c.error ? "  " + c.error->message : "") << "\n";
    printCaseFindings(os, c, "    ", st);
}

} // namespace vkp::cli
