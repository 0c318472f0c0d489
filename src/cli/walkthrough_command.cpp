// `vkpuzzles walkthrough PUZZLE [--step K]`: the official solution's walkthrough played: a traced
// run on its case (and any other case a step shows), then the steps with the shared memory and
// accesses each points at (cli/walkthrough_report.h); the steps alone where nothing can be traced.
#include <map>

#include "check/case_limits.h"
#include "check/dispatch_view.h"
#include "check/kernel_text.h"
#include "cli/command_context.h"
#include "cli/walkthrough_report.h"
#include "judge/walkthrough_steps.h"
#include "puzzle/device_needs.h"

namespace vkp::cli {

int walkthroughCommand(CommandContext& ctx) {
    auto p = ctx.puzzleArg();
    if (!p) return ctx.report(p.error());
    auto w = walkthroughArg(**p, ctx.set);
    if (!w) return ctx.report(w.error());
    auto step = ctx.number("step", 1, w->steps.size(), 0);
    if (!step) return ctx.report(step.error());
    auto sources = readKernelSources(**p, true);
    if (!sources) return ctx.report(sources.error());
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    std::optional<size_t> only = *step ? std::optional<size_t>(*step) : std::nullopt;
    // Where nothing can be traced, the steps are still worth reading.
    auto textOnly = [&](const std::string& why) {
        if (ctx.json())
            ctx.out << jsonText(ctx.withDevice(
                           walkthroughTextJson(**p, *w, sources->front(), only, why)))
                    << "\n";
        else
            printWalkthroughText(ctx.out, **p, *w, sources->front(), only, why, terminalWidth(),
                                 ctx.style);
        return kExitPass;
    };
    if (DeviceNeeds missing = missingOn((*p)->needs, ctx.runner->info()); !missing.empty())
        return textOnly(lacksText(ctx.runner->info(), missing) +
                        ", which the official solution needs");
    ctx.options.trace = true;
    // The walkthrough's case, and every other case a step shows (each under its own schedule).
    std::map<size_t, CheckReport> reports;
    for (size_t caseIndex : walkthroughCases(*w)) {
        ctx.options.onlyCase = caseIndex;
        CheckReport r = checkProgram(ctx.compiler, *ctx.runner, **p, *sources, ctx.options);
        if (!r.untraced.empty() && !r.error)
            return textOnly("the official solution ran on " + ctx.runner->info().name + " (" +
                            (r.allPass() ? "outputs right" : "outputs WRONG") + "), but " +
                            r.untraced);
        reports.emplace(caseIndex, std::move(r));
    }
    WalkthroughRun run{**p, *w, *sources, reports};
    WalkthroughCaseSubjects subjects;
    for (const auto& [caseIndex, r] : reports) {
        auto c = walkthroughCase(run, caseIndex);
        if (!c) return ctx.report(c.error());
        subjects[caseIndex] = walkthroughSubjects(**c, *sources);
    }
    auto diagnostics = validateWalkthrough(*w, **p, subjects);
    for (const Diagnostic& d : diagnostics)
        ctx.err << d.str() << "\n";
    if (hasErrors(diagnostics)) return kExitUsage;
    if (ctx.json())
        ctx.out << jsonText(ctx.withDevice(walkthroughJson(run, only))) << "\n";
    else
        printWalkthrough(ctx.out, run, only, terminalWidth(), ctx.style);
    return kExitPass;
}

} // namespace vkp::cli
