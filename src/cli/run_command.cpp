// `vkpuzzles run PUZZLE KERNEL.comp [--case N]`: one case's launch shape and buffers in full, and
// its debugPrintfEXT output by thread; with --input and friends, the learner's own case.
#include <optional>

#include "cli/command_context.h"
#include "cli/json_report.h"
#include "cli/own_case_args.h"
#include "cli/text_report.h"
#include "cli/trace_report.h"

namespace vkp::cli {

int runCaseCommand(CommandContext& ctx) {
    auto one = ctx.oneCaseArgs();
    if (!one) return ctx.report(one.error());
    // --input and friends: the learner's case, appended to a copy of the puzzle and run alone.
    std::optional<Puzzle> own;
    if (hasOwnCase(ctx.args)) {
        auto p = withOwnCase(ctx.args, *one->puzzle, one->index);
        if (!p) return ctx.report(p.error());
        own = std::move(*p);
        ctx.options.onlyCase = own->cases.size() - 1;
    }
    const Puzzle& puzzle = own ? *own : *one->puzzle;
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    CheckReport r = checkProgram(ctx.compiler, *ctx.runner, puzzle, one->kernels, ctx.options);
    if (ctx.json()) {
        nlohmann::json j = ctx.withDevice(checkJson(puzzle, r, true, ctx.args.has("timing")));
        if (!r.cases.empty()) j["printf"] = casePrintfJson(r.cases.front());
        ctx.out << jsonText(j) << "\n";
        return ctx.finish(r);
    }
    ctx.printRanLine(puzzle, one->kernels);
    printDiagnostics(ctx.out, r, one->kernels, ctx.style);
    for (const CaseOutcome& c : r.cases)
        printCaseBuffers(ctx.out, puzzle, c, ctx.style), printCasePrintf(ctx.out, c, ctx.style);
    if (r.error) ctx.out << ctx.style.fail("error: ") << r.error->message << "\n";
    if (!r.compiled()) ctx.out << ctx.style.fail("the kernel does not compile") << "\n";
    return ctx.finish(r);
}

} // namespace vkp::cli
