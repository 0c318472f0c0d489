// The commands that show a traced run: `trace`, `profile` and `walkthrough` (cli/command.h).
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/json_report.h"
#include "cli/profile_command.h"
#include "cli/terminal_text.h"
#include "cli/text_report.h"
#include "cli/trace_report.h"
#include "cli/walkthrough_report.h"
#include "judge/walkthrough_steps.h"
#include "puzzle/device_needs.h"
#include "puzzle/passes.h"
#include "session/case_limits.h"
#include "session/dispatch_view.h"
#include "session/json_text.h"
#include "session/kernel_text.h"

namespace vkp::cli {

// `profile`: one case traced, the efficiency lens's table per kernel (cli/profile_command.h).
int Command::profile() {
    auto p = puzzleArg();
    if (!p) return report(p.error());
    auto kernels = kernelsArg(**p);
    if (!kernels) return report(kernels.error());
    auto requested = number("case", 1, (*p)->cases.size(), 0);
    if (!requested) return report(requested.error());
    auto chosen = profileCase(**p, *requested, m_a.has("reveal-hidden"));
    if (!chosen) return report(chosen.error());
    if (auto s = startEngines(); !s) return report(s.error());
    m_options.trace = true;
    m_options.onlyCase = chosen->index;
    CheckReport r = checkProgram(m_compiler, *m_runner, **p, *kernels, m_options);
    ProfileView view{**p, r, *chosen, *kernels};
    if (json()) {
        m_out << jsonText(withDevice(profileJson(view))) << "\n";
        return finish(r);
    }
    m_out << m_style.bold((*p)->displayName())
          << m_style.dim("  " + ranText(*kernels) + " on " + m_runner->info().name) << "\n";
    printDiagnostics(m_out, r, *kernels, m_style);
    printProfile(m_out, view, m_style);
    return finish(r);
}

int Command::traceCase() {
    auto one = oneCaseArgs();
    if (!one) return report(one.error());
    const Puzzle& puzzle = *one->puzzle;
    const TestCase& tc = puzzle.cases[one->index];
    auto dispatches = caseDispatches(puzzle, one->index);
    if (!dispatches) return report(dispatches.error());
    auto dispatch = number("dispatch", 1, dispatches->size(), 0);
    if (!dispatch) return report(dispatch.error());
    if (*dispatch && !puzzle.multiPass())
        return usage("--dispatch is for multi-pass puzzles; " + puzzle.slug +
                     " runs one dispatch per case");
    TraceLaunch launch{tc.workgroupSize, dispatches->at(*dispatch ? *dispatch - 1 : 0).workgroups};
    std::optional<uint64_t> thread;
    if (auto t = m_a.value("thread")) {
        thread = threadArg(*t, launch);
        if (!thread)
            return usage("--thread needs a thread's global id inside the launch, as X or X,Y "
                         "or X,Y,Z; case " +
                         std::to_string(one->index + 1) + " runs " + launchText(puzzle, tc));
    }
    if (auto s = startEngines(); !s) return report(s.error());
    m_options.trace = true;
    CheckReport r = checkProgram(m_compiler, *m_runner, puzzle, one->kernels, m_options);
    return printTracedCase(puzzle, r, one->kernels,
                           ranText(one->kernels) + " on " + m_runner->info().name,
                           m_runner->info().name, *dispatch, thread);
}

// A traced case as `trace` prints it (and `open --print`, from a case file): `ran` says what ran
// where, `dispatch` (1-based; 0: the one with a failing finding, else the first) which dispatch of
// a multi-pass case, `thread` whose events and printf lines to list.
int Command::printTracedCase(const Puzzle& puzzle, const CheckReport& r,
                             const std::vector<KernelSource>& kernels, const std::string& ran,
                             const std::string& device, size_t dispatch,
                             std::optional<uint64_t> thread) {
    const CaseOutcome* c = r.cases.empty() ? nullptr : &r.cases.front();
    const Trace* trace = c ? c->trace.get() : nullptr;
    const TraceAnalysis* analysis = c ? c->analysis.get() : nullptr;
    std::string dispatchLabel;
    if (c && dispatch && dispatch <= c->dispatches.size()) {
        trace = c->dispatches[dispatch - 1].trace.get();
        analysis = c->dispatches[dispatch - 1].analysis.get();
    }
    for (size_t k = 0; c && k < c->dispatches.size(); ++k)
        if (c->dispatches[k].trace.get() == trace)
            dispatchLabel = "dispatch " + std::to_string(k + 1) + " of " +
                            std::to_string(c->dispatches.size()) + ": " + c->dispatches[k].label;
    if (json()) {
        nlohmann::json j = withDevice(checkJson(puzzle, r, false, false), device);
        if (trace) j["trace"] = traceJson(*trace, *analysis, thread);
        m_out << jsonText(j) << "\n";
        return finish(r);
    }
    m_out << m_style.bold(puzzle.displayName()) << m_style.dim("  " + ran) << "\n";
    printDiagnostics(m_out, r, kernels, m_style);
    if (r.error) m_out << m_style.fail("error: ") << r.error->message << "\n";
    if (c && c->error)
        m_out << m_style.fail("error: ") << c->error->message
              << "\n"; // no trace came back: say why
    if (!trace) return finish(r);
    const TestCase& tc = puzzle.cases[c->index];
    m_out << m_style.bold("case " + std::to_string(c->index + 1)) << ": " << launchText(puzzle, tc)
          << "  "
          << (c->outputsMatch ? m_style.pass("outputs right") : m_style.fail("outputs wrong"))
          << "\n";
    if (!dispatchLabel.empty())
        m_out << m_style.bold(dispatchLabel) << m_style.dim("  (--dispatch K shows another)")
              << "\n";
    printTrace(m_out, puzzle, *trace, *analysis, thread, m_style);
    return finish(r);
}

// Plays the official solution's walkthrough: a traced run on its case, then the steps.
int Command::walkthrough() {
    auto p = puzzleArg();
    if (!p) return report(p.error());
    auto w = walkthroughArg(**p, m_set);
    if (!w) return report(w.error());
    auto step = number("step", 1, w->steps.size(), 0);
    if (!step) return report(step.error());
    auto sources = readKernelSources(**p, true);
    if (!sources) return report(sources.error());
    if (auto s = startEngines(); !s) return report(s.error());
    std::optional<size_t> only = *step ? std::optional<size_t>(*step) : std::nullopt;
    // Where nothing can be traced, the steps are still worth reading.
    auto textOnly = [&](const std::string& why) {
        if (json())
            m_out << jsonText(withDevice(walkthroughTextJson(**p, *w, sources->front(), only, why)))
                  << "\n";
        else
            printWalkthroughText(m_out, **p, *w, sources->front(), only, why, terminalWidth(),
                                 m_style);
        return kExitPass;
    };
    if (DeviceNeeds missing = missingOn((*p)->needs, m_runner->info()); !missing.empty())
        return textOnly(lacksText(m_runner->info(), missing) +
                        ", which the official solution needs");
    m_options.trace = true;
    // The walkthrough's case, and every other case a step shows (each under its own schedule).
    std::map<size_t, CheckReport> reports;
    for (size_t caseIndex : walkthroughCases(*w)) {
        m_options.onlyCase = caseIndex;
        CheckReport r = checkProgram(m_compiler, *m_runner, **p, *sources, m_options);
        if (!r.untraced.empty() && !r.error)
            return textOnly("the official solution ran on " + m_runner->info().name + " (" +
                            (r.allPass() ? "outputs right" : "outputs WRONG") + "), but " +
                            r.untraced);
        reports.emplace(caseIndex, std::move(r));
    }
    WalkthroughRun run{**p, *w, *sources, reports};
    WalkthroughCaseSubjects subjects;
    for (const auto& [caseIndex, r] : reports) {
        auto c = walkthroughCase(run, caseIndex);
        if (!c) return report(c.error());
        subjects[caseIndex] = walkthroughSubjects(**c, *sources);
    }
    auto diagnostics = validateWalkthrough(*w, **p, subjects);
    for (const Diagnostic& d : diagnostics)
        m_err << d.str() << "\n";
    if (hasErrors(diagnostics)) return kExitUsage;
    if (json())
        m_out << jsonText(withDevice(walkthroughJson(run, only))) << "\n";
    else
        printWalkthrough(m_out, run, only, terminalWidth(), m_style);
    return kExitPass;
}

} // namespace vkp::cli
