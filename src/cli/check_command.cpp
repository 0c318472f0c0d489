// `vkpuzzles check PUZZLE KERNEL.comp...`: the check of one kernel, printed as it goes
// (cli/check_command.h); `check --all --solution | --starter`: every puzzle in scope, one line
// each, a puzzle the device cannot run listed as not run.
#include "cli/check_command.h"

#include <algorithm>
#include <cstdio>
#include <span>

#include "base/os.h"
#include "check/atomic_order.h"
#include "check/case_limits.h"
#include "check/case_search.h"
#include "check/fresh_inputs.h"
#include "check/hidden_cases.h"
#include "cli/json_report.h"
#include "cli/text_report.h"
#include "puzzle/device_needs.h"

namespace vkp::cli {
namespace {

StageTimings medianTimings(std::span<const StageTimings> runs) {
    auto median = [&](auto field) {
        std::vector<double> v;
        for (const StageTimings& t : runs)
            v.push_back(t.*field);
        std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
        return v[v.size() / 2];
    };
    StageTimings m;
    for (auto field : {&StageTimings::compileMs, &StageTimings::reflectMs,
                       &StageTimings::pipelineMs, &StageTimings::runMs, &StageTimings::checkMs,
                       &StageTimings::gpuMs, &StageTimings::totalMs, &StageTimings::instrumentMs,
                       &StageTimings::analysisMs, &StageTimings::firstVerdictMs})
        m.*field = median(field);
    m.pipelines = runs.back().pipelines;
    m.traceReruns = runs.back().traceReruns;
    return m;
}

std::string runHint(const CommandContext& ctx, const Puzzle& p,
                    const std::vector<KernelSource>& sources) {
    std::string kernelArgs = ctx.args.has("solution")  ? "--solution"
                             : ctx.args.has("starter") ? "--starter"
                                                       : "";
    if (kernelArgs.empty()) // the files as the shell reads them back: a path may hold spaces
        for (const KernelSource& k : sources)
            kernelArgs += (kernelArgs.empty() ? "" : " ") + os::shellWord(k.file);
    return p.command("run", kernelArgs);
}

// `shown`: cases printed as the check went (printCheckHead, then printCase each).
// `sizesShown`: runs at other subgroup sizes printed as they came.
void printCheckText(CommandContext& ctx, const Puzzle& p, const CheckReport& r,
                    const std::vector<KernelSource>& sources, size_t shown, size_t sizesShown) {
    if (shown == 0) ctx.printRanLine(p, sources);
    printCheck(ctx.out, p, r, sources, runHint(ctx, p, sources), ctx.style, shown, sizesShown);
    if (ctx.args.has("timing")) printTiming(ctx.out, r.timing);
    ctx.printValidation();
}

// The check's cases at the other subgroup sizes (check/subgroup_sizes.h), unless
// --own-subgroup-size; `onSize` is told as each size ends. Returns the sizes run.
size_t checkOtherSizes(CommandContext& ctx, const Puzzle& p,
                       const std::vector<KernelSource>& sources, CheckReport& r,
                       const SizeEnded& onSize) {
    if (ctx.args.has("own-subgroup-size") || !subgroupSizesApply(r)) return 0;
    ctx.openSizes();
    // Over a second on a CPU device: say what is under way.
    if (!ctx.json() && onSize)
        ctx.out << ctx.style.dim("  and on lavapipe with " +
                                 lanesText(sizesBeside(ctx.runner->info())) +
                                 ", for a verdict that holds on other GPUs:")
                << "\n"
                << std::flush;
    checkOtherSubgroupSizes(ctx.compiler, *ctx.sizes, p, sources, ctx.options, r, onSize);
    return r.otherSizes.size();
}

// "  7  zip  " as check --all starts each puzzle's line, the slugs in one column.
std::string allLineHead(const CommandContext& ctx, const Puzzle& p) {
    char head[64];
    size_t width = 0;
    for (const Puzzle* q : ctx.set.inScope())
        width = std::max(width, q->slug.size());
    std::snprintf(head, sizeof head, "%3d  %-*s  ", p.number, static_cast<int>(width),
                  p.slug.c_str());
    return head;
}

void printNotRunLine(CommandContext& ctx, const Puzzle& p, const std::string& why) {
    ctx.out << allLineHead(ctx, p) << ctx.style.warn("not run") << "  " << ctx.style.dim(why)
            << "\n";
}

const CaseOutcome* firstCaseError(const CheckReport& r) {
    for (const CaseOutcome& c : r.cases)
        if (c.error) return &c;
    return nullptr;
}

void printAllLine(CommandContext& ctx, const Puzzle& p, const CheckReport& r) {
    std::ostream& out = ctx.out;
    const Style& st = ctx.style;
    std::string head = allLineHead(ctx, p);
    std::string verdict = r.allPass() ? st.pass("pass") : st.fail("FAIL");
    out << head << verdict << "  " << r.passCount() << "/" << p.cases.size() << " cases";
    if (!r.compiled())
        out << "  (does not compile)";
    else if (hasErrors(r.diagnostics))
        out << "  " << r.diagnostics.front().message;
    if (r.error)
        out << "  " << r.error->message;
    else if (const CaseOutcome* c = firstCaseError(r))
        out << "  " << c->error->message; // a timeout, a crash: why no case ran
    else if (!r.allPass() && r.passCount() == r.cases.size() && r.reversed &&
             !r.reversed->failures.empty())
        out << "  wrong with atomics in reverse lane order (case "
            << r.reversed->failures.front().index + 1 << ")";
    else if (!r.allPass() && r.passCount() == r.cases.size())
        out << "  " << subgroupSizeVerdict(p, r); // wrong only with other numbers of lanes
    else if (r.allPass() && !r.otherSizes.empty()) {
        std::vector<uint32_t> lanes;
        for (const SubgroupSizeRun& s : r.otherSizes)
            if (s.pass()) lanes.push_back(s.lanes);
        if (!lanes.empty()) out << st.dim("  and with " + lanesText(lanes));
    }
    out << "\n";
}

// `check --all`: every puzzle in scope, one line each.
int checkAll(CommandContext& ctx) {
    if (!ctx.args.has("solution") && !ctx.args.has("starter"))
        return ctx.usage("check --all needs --solution or --starter");
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    bool allPass = true;
    nlohmann::json results = nlohmann::json::array();
    size_t notRun = 0; // puzzles whose official solution needs what the device lacks
    for (const Puzzle* pp : ctx.set.inScope()) {
        const Puzzle& p = *pp;
        auto kernels = ctx.kernelsArg(p);
        if (!kernels) return ctx.report(kernels.error());
        if (DeviceNeeds missing = missingOn(p.needs, ctx.runner->info()); !missing.empty()) {
            std::string why = lacksText(ctx.runner->info(), missing);
            ++notRun;
            if (ctx.json())
                results.push_back({{"puzzle", p.slug}, {"number", p.number}, {"not_run", why}});
            else
                printNotRunLine(ctx, p, why);
            continue;
        }
        CheckReport r = checkProgram(ctx.compiler, *ctx.runner, p, *kernels, ctx.options);
        if (!ctx.runner->wedged()) checkOtherSizes(ctx, p, *kernels, r, {});
        if (!ctx.runner->wedged())
            checkReversedOrder(ctx.compiler, *ctx.runner, p, *kernels, ctx.options, r);
        ctx.studentView(r, p);
        allPass = allPass && r.allPass();
        if (ctx.json())
            results.push_back(checkJson(p, r, false, ctx.args.has("timing")));
        else
            printAllLine(ctx, p, r);
        if (ctx.runner->wedged()) return ctx.finish(r);
    }
    if (ctx.json())
        ctx.out << jsonText(ctx.withDevice({{"results", results}, {"pass", allPass}})) << "\n";
    else
        ctx.out << (allPass ? ctx.style.pass("all pass") : ctx.style.fail("some fail"))
                << ctx.style.dim(" on " + ctx.runner->info().name +
                                 (notRun ? " (" + std::to_string(notRun) +
                                               " not run: the device cannot give what " +
                                               (notRun == 1 ? "it needs" : "they need") + ")"
                                         : ""))
                << "\n";
    ctx.printValidation();
    if (!ctx.set.errors.empty()) return kExitUsage;
    return allPass ? kExitPass : kExitFail;
}

int checkOne(CommandContext& ctx) {
    auto pk = ctx.puzzleKernelsArg();
    if (!pk) return ctx.report(pk.error());
    auto only = ctx.number("case", 1, pk->puzzle->cases.size(), 0);
    auto repeat = ctx.number("repeat", 1, 1000, 1);
    if (!only) return ctx.report(only.error());
    if (!repeat) return ctx.report(repeat.error());
    if (*only) ctx.options.onlyCase = *only - 1;
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    auto r = checkPrinted(ctx, *pk->puzzle, pk->kernels, *repeat);
    if (!r) return ctx.report(r.error());
    return ctx.finish(*r);
}

} // namespace

int checkCommand(CommandContext& ctx) {
    return ctx.args.has("all") ? checkAll(ctx) : checkOne(ctx);
}

std::function<void(const CheckReport&)> casePrinter(CommandContext& ctx, const Puzzle& p,
                                                    const std::vector<KernelSource>& kernels,
                                                    size_t& shown) {
    return [&ctx, &p, &kernels, &shown](const CheckReport& partial) {
        if (shown == 0) printCheckHead(ctx, p, partial, kernels);
        CaseOutcome c = partial.cases.back();
        if (!ctx.args.has("reveal-hidden") && caseHidden(p, c.index)) c = hiddenCaseView(p, c);
        printCase(ctx.out, p, c, runHint(ctx, p, kernels), ctx.style);
        ctx.out << std::flush;
        ++shown;
    };
}

Result<CheckReport> checkPrinted(CommandContext& ctx, const Puzzle& p,
                                 const std::vector<KernelSource>& kernels, uint64_t repeat) {
    // Each case is printed as soon as it is decided (a traced multi-pass check on a CPU device
    // takes seconds): the report at the end adds only what comes after the cases.
    bool printing = !ctx.json() && repeat == 1;
    size_t shown = 0;
    if (printing) ctx.options.onCase = casePrinter(ctx, p, kernels, shown);
    // The room a case's trace needed, remembered for the runs at other subgroup sizes (and
    // repeats).
    TraceRoomMemory room;
    ctx.options.traceRoom = &room;
    CheckReport r;
    std::vector<StageTimings> timings;
    for (uint64_t i = 0; i < repeat; ++i) {
        r = checkProgram(ctx.compiler, *ctx.runner, p, kernels, ctx.options);
        timings.push_back(r.timing);
    }
    ctx.options.onCase = nullptr;
    // With --repeat the first run pays one-off costs; report the median of the warm runs.
    if (timings.size() > 1) r.timing = medianTimings(std::span(timings).subspan(1));
    size_t sizesShown = 0;
    if (!ctx.runner->wedged())
        checkOtherSizes(ctx, p, kernels, r, [&](const CheckReport&, const SubgroupSizeRun& ended) {
            if (!printing) return;
            SubgroupSizeRun run = ended;
            if (!ctx.args.has("reveal-hidden")) hideHiddenCases(run, p);
            printSubgroupSize(ctx.out, run, ctx.style);
            ctx.out << std::flush;
            ++sizesShown;
        });
    ctx.options.traceRoom = nullptr;
    if (!ctx.runner->wedged()) {
        auto seed = ctx.number("seed", 0, 999999999, freshSeed());
        if (!seed) return seed.error();
        checkFreshInputs(ctx.compiler, *ctx.runner, p, kernels, ctx.options, *seed, r);
        if (!ctx.runner->wedged())
            checkReversedOrder(ctx.compiler, *ctx.runner, p, kernels, ctx.options, r);
        if (!ctx.runner->wedged() && caseSearchApplies(p, r)) {
            if (printing) // over a second on a CPU device: say what is under way
                ctx.out << ctx.style.dim("  generating cases to search for one that breaks the "
                                         "kernel (--seed " +
                                         std::to_string(*seed) + ")\xE2\x80\xA6")
                        << "\n"
                        << std::flush;
            searchCases(ctx.compiler, *ctx.runner, p, kernels, ctx.options, *seed, r);
        }
    }
    ctx.studentView(r, p);
    if (ctx.json())
        ctx.out << jsonText(ctx.withDevice(checkJson(p, r, false, ctx.args.has("timing")))) << "\n";
    else
        printCheckText(ctx, p, r, kernels, shown, sizesShown);
    return r;
}

void printCheckHead(CommandContext& ctx, const Puzzle& p, const CheckReport& r,
                    const std::vector<KernelSource>& sources) {
    ctx.printRanLine(p, sources);
    printDiagnostics(ctx.out, r, sources, ctx.style);
}

} // namespace vkp::cli
