// A traced case printed: `vkpuzzles trace PUZZLE KERNEL.comp [--case N] [--thread X,Y,Z]
// [--dispatch K]` runs one case traced and shows what every thread read and wrote, its barrier
// rounds and findings; `vkpuzzles open FILE.vkpcase --print | --json` shows a case file's case
// (report/case_file.h) the same way, running nothing (`open` without them is the app's).
#include <algorithm>

#include "check/dispatch_view.h"
#include "cli/command_context.h"
#include "cli/json_report.h"
#include "cli/text_report.h"
#include "cli/trace_report.h"
#include "puzzle/kernel_sections.h"
#include "puzzle/passes.h"
#include "report/case_file.h"

namespace vkp::cli {
namespace {

// A traced case as `trace` prints it (and `open --print`, from a case file): `ran` says what ran
// where, `dispatch` (1-based; 0: the one with a failing finding, else the first) which dispatch of
// a multi-pass case, `thread` whose events and printf lines to list. The exit status.
int printTracedCase(CommandContext& ctx, const Puzzle& puzzle, const CheckReport& r,
                    const std::vector<KernelSource>& kernels, const std::string& ran,
                    const std::string& device, size_t dispatch, std::optional<uint64_t> thread) {
    const Style& st = ctx.style;
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
    if (ctx.json()) {
        nlohmann::json j = ctx.withDevice(checkJson(puzzle, r, false, false), device);
        if (trace) j["trace"] = traceJson(*trace, *analysis, thread);
        ctx.out << jsonText(j) << "\n";
        return ctx.finish(r);
    }
    ctx.out << st.bold(puzzle.displayName()) << st.dim("  " + ran) << "\n";
    printDiagnostics(ctx.out, r, kernels, st);
    if (r.error) ctx.out << st.fail("error: ") << r.error->message << "\n";
    if (c && c->error)
        ctx.out << st.fail("error: ") << c->error->message << "\n"; // no trace came back: say why
    if (!trace) return ctx.finish(r);
    const TestCase& tc = puzzle.cases[c->index];
    ctx.out << st.bold("case " + std::to_string(c->index + 1)) << ": " << launchText(puzzle, tc)
            << "  " << (c->outputsMatch ? st.pass("outputs right") : st.fail("outputs wrong"))
            << "\n";
    if (!dispatchLabel.empty())
        ctx.out << st.bold(dispatchLabel) << st.dim("  (--dispatch K shows another)") << "\n";
    printTrace(ctx.out, puzzle, *trace, *analysis, thread, st);
    return ctx.finish(r);
}

} // namespace

int traceCommand(CommandContext& ctx) {
    auto one = ctx.oneCaseArgs();
    if (!one) return ctx.report(one.error());
    const Puzzle& puzzle = *one->puzzle;
    const TestCase& tc = puzzle.cases[one->index];
    auto dispatches = caseDispatches(puzzle, one->index);
    if (!dispatches) return ctx.report(dispatches.error());
    auto dispatch = ctx.number("dispatch", 1, dispatches->size(), 0);
    if (!dispatch) return ctx.report(dispatch.error());
    if (*dispatch && !puzzle.multiPass())
        return ctx.usage("--dispatch is for multi-pass puzzles; " + puzzle.slug +
                         " runs one dispatch per case");
    TraceLaunch launch{tc.workgroupSize, dispatches->at(*dispatch ? *dispatch - 1 : 0).workgroups};
    std::optional<uint64_t> thread;
    if (auto t = ctx.args.value("thread")) {
        thread = threadArg(*t, launch);
        if (!thread)
            return ctx.usage("--thread needs a thread's global id inside the launch, as X or X,Y "
                             "or X,Y,Z; case " +
                             std::to_string(one->index + 1) + " runs " + launchText(puzzle, tc));
    }
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    ctx.options.trace = true;
    CheckReport r = checkProgram(ctx.compiler, *ctx.runner, puzzle, one->kernels, ctx.options);
    return printTracedCase(ctx, puzzle, r, one->kernels,
                           ctx.ranText(one->kernels) + " on " + ctx.runner->info().name,
                           ctx.runner->info().name, *dispatch, thread);
}

int openCommand(CommandContext& ctx) {
    const Args& a = ctx.args;
    if (a.positionals.empty())
        return ctx.usage("open needs a case file: vkpuzzles open FILE.vkpcase --print");
    if (a.positionals.size() > 1) return ctx.usage("unexpected '" + a.positionals[1] + "'");
    auto opened = readCaseFile(a.positionals[0]);
    if (!opened) return ctx.report(opened.error());
    const Puzzle& puzzle = *opened->puzzle;
    const CheckReport& r = *opened->report;
    const CaseOutcome& c = r.cases.front();
    size_t dispatches = std::max<size_t>(1, c.dispatches.size());
    auto dispatch = ctx.number("dispatch", 1, dispatches, 0);
    if (!dispatch) return ctx.report(dispatch.error());
    if (*dispatch && !puzzle.multiPass())
        return ctx.usage("--dispatch is for multi-pass puzzles; " + puzzle.slug +
                         " runs one dispatch per case");
    std::optional<uint64_t> thread;
    if (auto t = a.value("thread")) {
        const Trace* shown = *dispatch && *dispatch <= c.dispatches.size()
                                 ? c.dispatches[*dispatch - 1].trace.get()
                                 : c.trace.get();
        thread = shown ? threadArg(*t, shown->launch) : std::nullopt;
        if (!thread)
            return ctx.usage("--thread needs a thread's global id inside the case's launch, as X "
                             "or X,Y or X,Y,Z");
    }
    auto kernels = kernelTextSources(puzzle, opened->file.kernelText, r.kernelFile);
    std::vector<KernelSource> sources =
        kernels ? *kernels
                : std::vector<KernelSource>{{"kernel", opened->file.kernelText, r.kernelFile}};
    std::string ran = "case file " + a.positionals[0] + ": " + opened->file.madeBy + ", " +
                      opened->file.madeAt + ", on " + opened->file.device.name;
    return printTracedCase(ctx, puzzle, r, sources, ran, opened->file.device.name, *dispatch,
                           thread);
}

} // namespace vkp::cli
