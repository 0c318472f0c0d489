#include "classroom/pack_check.h"

#include "puzzle/device_needs.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include "base/diagnostic.h"
#include "base/os.h"
#include "bench/bench.h"
#include "check/case_limits.h"
#include "check/case_search.h"
#include "check/check.h"
#include "check/dispatch_view.h"
#include "check/kernel_text.h"
#include "check/subgroup_sizes.h"
#include "gpu/device_runner.h"
#include "judge/walkthrough_steps.h"

namespace vkp {
namespace {

using Clock = std::chrono::steady_clock;
constexpr uint32_t kMutantLoopBudget = 16384; // back-edges per thread

// Why a check did not pass, in a few words: the first failing case and what failed it.
std::string failureText(const CheckReport& r) {
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity == SeverityKind::Error) return "does not compile: " + d.message;
    if (r.error) return r.error->message;
    for (const CaseOutcome& c : r.cases) {
        if (c.pass) continue;
        std::string head = "case " + std::to_string(c.index + 1) + ": ";
        if (c.error) return head + c.error->message;
        if (!c.outputsMatch) return head + "wrong values";
        for (const Finding& f : c.runFindings)
            return head + findingKindName(f.kind);
        for (const DispatchTrace& dispatch : c.dispatches)
            if (dispatch.analysis)
                for (const Finding& f : dispatch.analysis->findings)
                    if (f.failsCase) return head + findingKindName(f.kind);
        if (c.analysis)
            for (const Finding& f : c.analysis->findings)
                if (f.failsCase) return head + findingKindName(f.kind);
        return head + "fails";
    }
    return "no case ran";
}

// The first finding of a case's traces that `counts`, as "kind: message" (a multi-pass case's
// with its dispatch's label first).
template <class Pred> std::optional<std::string> firstFinding(const CaseOutcome& c, Pred counts) {
    auto scan = [&](const TraceAnalysis& a,
                    const std::string& label) -> std::optional<std::string> {
        for (const Finding& f : a.findings)
            if (counts(f)) return label + findingKindName(f.kind) + ": " + f.message;
        return std::nullopt;
    };
    if (c.analysis)
        if (auto f = scan(*c.analysis, "")) return f;
    for (const DispatchTrace& dispatch : c.dispatches)
        if (dispatch.analysis)
            if (auto f = scan(*dispatch.analysis, dispatch.label + ": ")) return f;
    return std::nullopt;
}

// The traces of a case: the kernel's, or each dispatch's.
std::vector<const Trace*> tracesOf(const CaseOutcome& c) {
    std::vector<const Trace*> out;
    if (c.trace) out.push_back(c.trace.get());
    for (const DispatchTrace& dispatch : c.dispatches)
        if (dispatch.trace) out.push_back(dispatch.trace.get());
    return out;
}

// A case whose expected outputs are all zeros (compact keeping nothing): any kernel that leaves
// the zero-filled outputs alone passes it, a starter too.
bool expectsOnlyZeros(const Puzzle& p, size_t caseIndex) {
    auto d = materializeCase(p, caseIndex);
    if (!d) return false;
    for (const auto& e : d->expected)
        if (e && std::any_of(e->words.begin(), e->words.end(), [](uint32_t w) { return w != 0; }))
            return false;
    return true;
}

void addTimings(StageTimings& sum, const StageTimings& t) {
    sum.compileMs += t.compileMs;
    sum.reflectMs += t.reflectMs;
    sum.pipelineMs += t.pipelineMs;
    sum.runMs += t.runMs;
    sum.checkMs += t.checkMs;
    sum.instrumentMs += t.instrumentMs;
    sum.analysisMs += t.analysisMs;
    sum.traceRerunMs += t.traceRerunMs;
    sum.loopGuardMs += t.loopGuardMs;
    sum.gpuMs += t.gpuMs;
    sum.totalMs += t.totalMs;
}

bool notCompiling(const CheckReport& r) {
    return !r.compiled() || hasErrors(r.diagnostics);
}

class PuzzleChecker {
  public:
    PuzzleChecker(const Compiler& c, DeviceRunner& r, const Puzzle& p, const PackCheckOptions& o,
                  const PackProgress& progress)
        : m_compiler(c), m_runner(r), m_p(p), m_options(o), m_progress(progress) {}

    PuzzleCheckOutcome run() {
        auto start = Clock::now();
        m_out.puzzle = &m_p;
        auto solution = readKernelSources(m_p, true);
        std::vector<std::string> texts;
        if (solution)
            for (const KernelSource& k : *solution)
                texts.push_back(k.text);
        m_out.lint = lintPuzzle(m_p, texts);
        lintBenchmark();
        lintWalkthroughPresence();
        if (DeviceNeeds missing = missingOn(m_p.needs, m_runner.info()); !missing.empty()) {
            m_out.skipped = lacksText(m_runner.info(), missing) +
                            ", which the official solution needs: loaded and linted, not run";
            m_out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
            return std::move(m_out);
        }
        checkStarter();
        if (!solution)
            m_out.solutionProblem = solution.error().str();
        else
            checkSolution(*solution);
        if (!m_out.solutionProblem && m_options.mutants) {
            fitMutantBudget(*solution);
            mutate(*solution);
        }
        m_out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return std::move(m_out);
    }

  private:
    // The author hears here, not from a learner, that `vkpuzzles bench` cannot time the puzzle,
    // or times it at one N only: a warning, as a benchmark is no part of the puzzle's verdicts.
    void lintBenchmark() {
        if (m_p.cases.empty()) return;
        SourceLocation where = m_p.cases[m_p.benchCase].where;
        std::string which = "case " + std::to_string(m_p.benchCase + 1) +
                            (m_p.benchCaseNamed ? " (its bench_case)" : " (the benchmark's)");
        auto warn = [&](const std::string& message) {
            m_out.lint.push_back(diagnosticAt(where, SeverityKind::Warning, message));
        };
        if (auto why = benchUnavailable(m_p)) {
            warn("`vkpuzzles bench` cannot time this puzzle: " + *why);
        } else if (auto fixed = fixedLaunch(m_p, m_p.benchCase);
                   fixed && !promisesOneWorkgroup(m_p)) {
            warn(which +
                 " has workgroup counts that do not follow N, so `vkpuzzles bench` "
                 "times it only as it is, at N = " +
                 std::to_string(fixed->n) +
                 ": write them as expressions of N (workgroups = [\"ceil_div(N, WG)\"], or of "
                 "rows and cols), or name a case that does with bench_case");
        }
    }
    // Every official solution can be stepped through: a bundled puzzle without walkthrough.toml
    // fails the check, so none is added without one; a teacher's pack hears it as a warning.
    // Static, like the lint: a puzzle the device cannot run is told too.
    void lintWalkthroughPresence() {
        if (hasWalkthrough(m_p)) return;
        bool bundled = isBundledPuzzle(m_p, m_options.bundledRoot);
        std::string file = os::pathText(os::toPath(m_p.dir) / kWalkthroughFile);
        m_out.lint.push_back(diagnosticAt(
            {file}, bundled ? SeverityKind::Error : SeverityKind::Warning,
            std::string("missing: ") +
                (bundled ? "every puzzle that ships with vkpuzzles has a walkthrough of its "
                           "official solution"
                         : "learners cannot step through the official solution") +
                " (docs/walkthroughs.md says how to write one)"));
    }
    CheckOptions options(bool trace, std::optional<size_t> onlyCase = std::nullopt) const {
        CheckOptions o;
        o.trace = trace;
        o.onlyCase = onlyCase;
        o.timeoutMs = m_options.timeoutMs;
        return o;
    }
    // A mutant's loops get a smaller budget than a learner's: the official loops are short, and a
    // mutant that loops for ever on a large case would otherwise cost seconds of CPU before it is
    // stopped. (A spin-wait that needs more is then killed: counted as killed, never survived.)
    CheckOptions mutantOptions(bool trace, std::optional<size_t> onlyCase = std::nullopt) const {
        CheckOptions o = options(trace, onlyCase);
        o.loopBudget = m_mutantLoopBudget;
        return o;
    }
    // The smaller budget holds only where the official solution itself passes under it: a
    // solution whose loops need more (a long key loop of an attention) would have every mutant
    // stopped on the same case and counted as killed, the equivalent ones too. There, mutants get
    // a learner's budget.
    void fitMutantBudget(const std::vector<KernelSource>& sources) {
        m_mutantLoopBudget = kMutantLoopBudget;
        if (!check(sources, mutantOptions(false)).allPass())
            m_mutantLoopBudget = kDefaultLoopBudget;
    }
    // The cases in the order a mutant is tried on them: the case that killed the most mutants of
    // this puzzle so far first (`kills`), then the smallest (threads), then the first; a case of
    // more than `bigCase` threads after all the others (a traced run costs in proportion to the
    // threads, and a forced schedule's hold is long). Deterministic: the same mutants meet the
    // same order.
    std::vector<size_t> caseOrder(const std::vector<size_t>& kills,
                                  uint64_t bigCase = UINT64_MAX) const {
        std::vector<size_t> order(m_p.cases.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            uint64_t ta = m_p.cases[a].threadCount(), tb = m_p.cases[b].threadCount();
            if ((ta > bigCase) != (tb > bigCase)) return tb > bigCase;
            if (kills[a] != kills[b]) return kills[a] > kills[b];
            return ta < tb;
        });
        return order;
    }
    CheckReport check(const std::vector<KernelSource>& sources, const CheckOptions& o) {
        return checkProgram(m_compiler, m_runner, m_p, sources, o);
    }

    // The official solution passes every case traced (as learners' kernels are checked), with
    // nothing for the trace to remark on and no compiler warning: it is the code learners are
    // shown. Run untraced too, it computes the same values (or the trace changed what the kernel
    // does: vkpuzzles' fault), and every record of its trace is on a line of the kernel.
    void checkSolution(const std::vector<KernelSource>& sources) {
        CheckReport r = check(sources, options(true));
        if (!r.allPass())
            m_out.solutionProblem = "the official solution fails: " + failureText(r);
        else
            m_out.solutionProblem = solutionFlaw(sources, r);
        checkWalkthrough(r, sources);
    }
    std::optional<std::string> solutionFlaw(const std::vector<KernelSource>& sources,
                                            const CheckReport& traced) {
        for (const Diagnostic& d : traced.diagnostics)
            return "the official solution compiles with a warning: " + d.str();
        const std::string ours = " (vkpuzzles' fault: please report it)";
        for (const CaseOutcome& c : traced.cases) {
            std::string at = "case " + std::to_string(c.index + 1);
            if (auto f = firstFinding(c, [](const Finding&) { return true; }))
                return "the official solution's trace has a finding in " + at + ": " + *f;
            for (const Trace* t : tracesOf(c))
                for (const auto& thread : t->threads)
                    for (const TraceEvent& e : thread)
                        if (e.kind != TraceEventKind::LoopBudget && e.line == 0)
                            return at + ": a " + std::string(traceEventKindName(e.kind)) +
                                   " record of the official solution's trace has no line" + ours;
        }
        CheckReport plain = check(sources, options(false));
        if (!plain.allPass())
            return "the official solution fails untraced: " + failureText(plain) + ours;
        for (size_t k = 0; k < traced.cases.size() && k < plain.cases.size(); ++k)
            for (size_t b = 0; b < traced.cases[k].outputs.size(); ++b)
                if (b >= plain.cases[k].outputs.size() ||
                    traced.cases[k].outputs[b].actual.words !=
                        plain.cases[k].outputs[b].actual.words)
                    return "the official solution computes other values traced than untraced in "
                           "case " +
                           std::to_string(traced.cases[k].index + 1) + ours;
        // The puzzle's searches ([[search]]) generate only cases the official solution passes:
        // a learner is never failed by a size the puzzle cannot take. Seeds 1 to 3 (fixed: a
        // pack check says the same thing twice), untraced as a check's search runs.
        for (uint64_t seed = 1; seed <= 3 && !m_p.searches.empty(); ++seed) {
            searchCases(m_compiler, m_runner, m_p, sources, options(false), seed, plain);
            if (!plain.search) break;
            if (plain.search->error)
                return "its [[search]] cannot run: " + plain.search->error->message;
            if (const auto& f = plain.search->found)
                return "the official solution fails a case its [[search]] generates (--seed " +
                       std::to_string(seed) + "): like case " +
                       std::to_string(f->templateCase + 1) + ", N = " + std::to_string(f->n) +
                       ", workgroup " + dimsText(f->workgroupSize) + ": " + f->detail +
                       "; narrow the search's ranges to what the puzzle takes";
        }
        plain.search.reset();
        if (!m_options.sizes) return std::nullopt;
        checkOtherSubgroupSizes(m_compiler, *m_options.sizes, m_p, sources, options(false), plain);
        for (const SubgroupSizeRun& s : plain.otherSizes)
            if (!s.failures.empty()) {
                const CaseFailure& f = s.failures.front();
                std::string verdict = "the official solution is " + subgroupSizeVerdict(m_p, plain);
                if (f.error) return verdict; // it names the case that could not run, and why
                return verdict + " (with " + sizeName(s.lanes) + ", case " +
                       std::to_string(f.index + 1) + ": " + f.detail + ")";
            }
        return std::nullopt;
    }
    // walkthrough.toml, as `vkpuzzles walkthrough` plays it: it loads, and its steps fit the
    // traced runs of the official solution on its cases (lines, rounds, threads, cells, dispatch,
    // the look-back's buffer).
    void checkWalkthrough(const CheckReport& traced, const std::vector<KernelSource>& sources) {
        auto w = loadWalkthrough(m_p);
        auto problem = [&](const std::string& message, SourceLocation where) {
            m_out.lint.push_back(diagnosticAt(where, SeverityKind::Error, message));
        };
        if (!w) return problem(w.error().message, w.error().where);
        if (!*w) return;
        if (!traced.untraced.empty() && !sources.empty()) { // steps of lines only
            for (const Diagnostic& d : validateUntracedWalkthrough(**w, m_p, sources.front().text))
                if (d.severity == SeverityKind::Error) m_out.lint.push_back(d);
            return;
        }
        WalkthroughCaseSubjects subjects;
        for (const CaseOutcome& c : traced.cases) {
            std::vector<size_t> shown = walkthroughCases(**w);
            if (std::find(shown.begin(), shown.end(), c.index) == shown.end()) continue;
            if (!c.trace) {
                problem("the walkthrough's case " + std::to_string(c.index + 1) +
                            " could not be traced" + (c.error ? ": " + c.error->message : ""),
                        {m_p.dir + "/" + kWalkthroughFile});
                return;
            }
            subjects[c.index] = walkthroughSubjects(c, sources);
        }
        for (const Diagnostic& d : validateWalkthrough(**w, m_p, subjects))
            if (d.severity == SeverityKind::Error) m_out.lint.push_back(d);
    }
    // The starter compiles and runs, and fails every case (but one that expects only zeros,
    // which a kernel that writes nothing passes), on its values or on an efficiency limit (a
    // performance-track starter computes the right values slowly), never on a hazard of its own
    // that the learner did not write. A detective puzzle's starter is the bug itself: failing
    // one case, on anything, is enough. Traced, as the learner will first see it.
    void checkStarter() {
        auto starter = readKernelSources(m_p, false);
        if (!starter) {
            m_out.starterProblem = starter.error().str();
            return;
        }
        CheckReport r = check(*starter, options(true));
        auto problem = [&](std::string text) { m_out.starterProblem = std::move(text); };
        if (!r.compiled() || r.reached != StageKind::Done)
            return problem("the starter does not run: " + failureText(r));
        if (r.allPass())
            return problem("the starter passes every case: a learner has nothing to do");
        if (m_p.starterIsTheBug()) return;
        for (const CaseOutcome& c : r.cases) {
            std::string at = "case " + std::to_string(c.index + 1);
            if (c.pass && !expectsOnlyZeros(m_p, c.index))
                return problem("the starter passes " + at +
                               ": a learner sees it pass before writing anything");
            if (auto f = firstFinding(c, [](const Finding& f) {
                    return f.failsCase && !isEfficiencyFinding(f.kind);
                }))
                return problem("the starter's trace has a finding of its own in " + at + ": " + *f +
                               " (a starter should fail on its values, not on a hazard the "
                               "learner did not write)");
        }
    }

    // An entry for one subgroup width applies on a device of that width only, one for a device
    // on the devices whose name contains it.
    bool appliesHere(const EquivalentMutant& e) const {
        return (e.subgroupSize == 0 || e.subgroupSize == m_runner.info().subgroupSize) &&
               (e.device.empty() || m_runner.info().name.find(e.device) != std::string::npos);
    }

    void mutate(const std::vector<KernelSource>& solution) {
        auto equivalents = loadEquivalentMutants(m_p.dir);
        if (!equivalents) m_out.mutantsFileErrors.push_back(equivalents.error());
        std::vector<EquivalentMutant> known = equivalents ? *equivalents : decltype(known){};
        reviewEquivalents(known);
        std::vector<bool> used(known.size(), false);
        MutationContext ctx = mutationContext(m_p);
        std::vector<std::pair<size_t, Mutant>> all;
        for (size_t k = 0; k < solution.size(); ++k)
            for (Mutant& m : makeMutants(solution[k].text, ctx))
                all.emplace_back(k, std::move(m));
        for (size_t i = 0; i < all.size(); ++i) {
            if (m_progress) m_progress(i, all.size());
            auto& [k, m] = all[i];
            MutantOutcome o;
            o.kernel = solution[k].name;
            o.file = solution[k].file;
            o.mutant = std::move(m);
            for (size_t e = 0; e < known.size(); ++e) {
                if (!matchesEquivalent(known[e], o.kernel, o.mutant)) continue;
                used[e] = true; // on a device it does not apply to too: it is not stale
                if (!appliesHere(known[e])) continue;
                o.fate = MutantFateKind::Equivalent;
                o.why = known[e].why;
            }
            auto t = Clock::now();
            if (o.fate != MutantFateKind::Equivalent) runMutant(solution, k, o);
            o.ms = std::chrono::duration<double, std::milli>(Clock::now() - t).count();
            m_out.mutants.push_back(std::move(o));
            if (m_runner.wedged()) break; // the device still runs a kernel: nothing more can run
        }
        if (m_progress) m_progress(all.size(), all.size());
        for (size_t e = 0; e < known.size(); ++e)
            if (!used[e]) m_out.unusedEquivalents.push_back(unused(known[e], all, solution));
    }
    // Entries that name no kernel of the puzzle are errors; a copy of an entry is a warning.
    void reviewEquivalents(const std::vector<EquivalentMutant>& known) {
        std::string names;
        for (const KernelDecl& k : m_p.kernels)
            names += (names.empty() ? "" : ", ") + k.name;
        for (size_t e = 0; e < known.size(); ++e) {
            const EquivalentMutant& entry = known[e];
            bool named = entry.kernel.empty() ||
                         std::any_of(m_p.kernels.begin(), m_p.kernels.end(),
                                     [&](const KernelDecl& k) { return k.name == entry.kernel; });
            if (!named)
                m_out.mutantsFileErrors.push_back(Error{ErrorKind::PuzzleFile,
                                                        "no kernel named '" + entry.kernel + "' (" +
                                                            m_p.slug + "'s: " + names +
                                                            "; leave 'kernel' out to mean any)",
                                                        entry.where});
            for (size_t f = 0; f < e; ++f)
                if (sameEquivalent(known[f], entry)) {
                    m_out.unusedEquivalents.push_back(
                        diagnosticAt(entry.where, SeverityKind::Warning,
                                     "the same entry as line " +
                                         std::to_string(known[f].where.line) + ": remove one"));
                    break;
                }
        }
    }
    // Why an entry matched no mutant: its line is none that mutants change (often a line copied
    // without its comment), or the change on that line is not one of them (the solution changed).
    Diagnostic unused(const EquivalentMutant& e, const std::vector<std::pair<size_t, Mutant>>& all,
                      const std::vector<KernelSource>& solution) const {
        std::string what =
            std::string(mutationKindName(e.kind)) + ", " + e.before + " -> " + e.after;
        bool lineFound = std::any_of(all.begin(), all.end(), [&](const auto& km) {
            return onEquivalentsLine(e, solution[km.first].name, km.second);
        });
        if (!lineFound)
            return diagnosticAt(
                e.where, SeverityKind::Warning,
                "this equivalent mutant (" + what +
                    ") names a line that no mutant changes: 'line' must be the whole line as "
                    "the survivor report prints it, a comment at its end included");
        return diagnosticAt(e.where, SeverityKind::Warning,
                            "this equivalent mutant (" + what +
                                ") matches no mutant of the solution any more: remove it");
    }

    // Untraced first, a case at a time up to the first that fails (a wrong value kills most
    // mutants, most often in the case that killed the most before: a job of one case builds only
    // that case's pipelines, and the puzzle's other kernels' are kept from earlier jobs,
    // gpu/pipeline_store.h); a mutant that passes them is traced, case by case, up to the first
    // that fails. Building pipelines is nearly all of the time (lavapipe on Mesa 25: seconds
    // each), so no case is tried in vain more than needed: a case that has killed no mutant in
    // kUntracedTrials untraced tries is left to the traced checks, which check its values too
    // (and run the forced schedules); the traced checks try first the cases that killed the most
    // mutants traced, the large ones last. Every mutant still meets every case, traced, before it
    // is called a survivor.
    static constexpr size_t kUntracedTrials = 8;
    static constexpr uint64_t kBigTracedCase = 512; // threads
    void runMutant(const std::vector<KernelSource>& solution, size_t kernel, MutantOutcome& o) {
        std::vector<KernelSource> sources = solution;
        sources[kernel].text = o.mutant.text;
        for (size_t c : caseOrder(m_untracedKills)) {
            if (m_runner.wedged()) return;
            if (m_untracedTries[c] >= kUntracedTrials && m_untracedKills[c] == 0) continue;
            ++m_untracedTries[c];
            CheckReport r = check(sources, mutantOptions(false, c));
            ++m_out.untracedChecks;
            addTimings(m_out.mutantTiming, r.timing);
            if (notCompiling(r)) {
                o.fate = MutantFateKind::NotCompiling;
                o.killedBy = failureText(r);
                return;
            }
            if (r.allPass()) continue;
            ++m_untracedKills[c];
            o.fate = MutantFateKind::Killed;
            o.killedBy = failureText(r);
            return;
        }
        for (size_t c : caseOrder(m_tracedKills, kBigTracedCase)) {
            if (m_runner.wedged()) break;
            CheckReport t = check(sources, mutantOptions(true, c));
            ++m_out.tracedChecks;
            addTimings(m_out.mutantTiming, t.timing);
            if (notCompiling(t)) { // every untraced case was skipped: this is its first compile
                o.fate = MutantFateKind::NotCompiling;
                o.killedBy = failureText(t);
                return;
            }
            if (t.allPass()) continue;
            ++m_tracedKills[c];
            o.fate = MutantFateKind::Killed;
            o.killedBy = failureText(t) + " (traced)";
            return;
        }
        o.fate = MutantFateKind::Survived;
    }

    const Compiler& m_compiler;
    DeviceRunner& m_runner;
    const Puzzle& m_p;
    const PackCheckOptions& m_options;
    const PackProgress& m_progress;
    PuzzleCheckOutcome m_out;
    uint32_t m_mutantLoopBudget = kMutantLoopBudget;
    // Per case: the mutants it killed first, untraced and traced (caseOrder), and the mutants
    // tried on it untraced.
    std::vector<size_t> m_untracedKills = std::vector<size_t>(m_p.cases.size(), 0);
    std::vector<size_t> m_tracedKills = std::vector<size_t>(m_p.cases.size(), 0);
    std::vector<size_t> m_untracedTries = std::vector<size_t>(m_p.cases.size(), 0);
};

} // namespace

const char* mutantFateName(MutantFateKind fate) {
    switch (fate) {
    case MutantFateKind::Killed:
        return "killed";
    case MutantFateKind::Survived:
        return "survived";
    case MutantFateKind::NotCompiling:
        return "not-compiling";
    case MutantFateKind::Equivalent:
        return "equivalent";
    }
    return "?";
}

size_t PuzzleCheckOutcome::count(MutantFateKind fate) const {
    size_t n = 0;
    for (const MutantOutcome& m : mutants)
        n += m.fate == fate;
    return n;
}

size_t PuzzleCheckOutcome::made() const {
    return mutants.size() - count(MutantFateKind::NotCompiling);
}

double PuzzleCheckOutcome::killRate() const {
    size_t live = made() - count(MutantFateKind::Equivalent);
    return live == 0 ? 1.0 : double(count(MutantFateKind::Killed)) / double(live);
}

bool PuzzleCheckOutcome::ok() const {
    if (hasErrors(lint)) return false;
    return !solutionProblem && !starterProblem && mutantsFileErrors.empty() &&
           count(MutantFateKind::Survived) == 0;
}

MutationContext mutationContext(const Puzzle& puzzle) {
    MutationContext ctx;
    for (const BufferDecl& b : puzzle.buffers)
        ctx.twoD = ctx.twoD || b.dims == 2;
    for (const TestCase& c : puzzle.cases)
        ctx.twoD = ctx.twoD || c.workgroupSize[1] > 1 || c.workgroups[1] > 1;
    if (puzzle.cases.empty()) return ctx;
    const TestCase& first = puzzle.cases[0];
    ctx.workgroupSize = first.workgroupSize;
    ctx.workgroups = first.workgroups;
    for (const ConstantDecl& k : puzzle.constants)
        if (auto it = first.constants.find(k.id); it != first.constants.end())
            ctx.constants[k.name] = it->second;
    auto data = materializeCase(puzzle, 0);
    if (!data) return ctx;
    for (size_t b = 0; b < puzzle.buffers.size() && b < data->initial.size(); ++b)
        ctx.lengths[puzzle.buffers[b].name] = data->initial[b].shape.count();
    return ctx;
}

bool isBundledPuzzle(const Puzzle& puzzle, const std::string& bundledRoot) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path dir = fs::absolute(os::toPath(puzzle.dir), ec).lexically_normal();
    if (ec) return false;
    if (!dir.has_filename()) dir = dir.parent_path(); // "puzzles/01-map/"
    bool same = fs::equivalent(dir.parent_path(), os::toPath(bundledRoot), ec);
    return same && !ec;
}

PuzzleCheckOutcome packCheckPuzzle(const Compiler& compiler, DeviceRunner& runner,
                                   const Puzzle& puzzle, const PackCheckOptions& options,
                                   const PackProgress& progress) {
    return PuzzleChecker(compiler, runner, puzzle, options, progress).run();
}

} // namespace vkp
