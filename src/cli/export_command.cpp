// `vkpuzzles export PUZZLE [KERNEL.comp... | --solution | --starter] [--case N] [--out FILE]`: a
// kernel checked traced, each case printed as `check` prints it, and one of its cases written as a
// case file (report/case_file.h) to open anywhere with `vkpuzzles open`.
#include <filesystem>

#include "base/os.h"
#include "check/hidden_cases.h"
#include "cli/check_command.h"
#include "cli/text_report.h"
#include "puzzle/kernel_sections.h"
#include "report/case_file.h"

namespace vkp::cli {
namespace {

// The case a case file holds when none is asked for: the first that fails and may be shown, else
// the first that may be shown.
std::optional<size_t> caseToExport(const Puzzle& p, const CheckReport& r, bool revealHidden) {
    std::optional<size_t> first;
    for (const CaseOutcome& c : r.cases) {
        if (c.index >= p.puzzleCaseCount() || (caseHidden(p, c.index) && !revealHidden)) continue;
        if (!first) first = c.index;
        if (!c.pass) return c.index;
    }
    return first;
}

} // namespace

int exportCommand(CommandContext& ctx) {
    auto pk = ctx.puzzleKernelsArg();
    if (!pk) return ctx.report(pk.error());
    const Puzzle& puzzle = *pk->puzzle;
    const std::vector<KernelSource>& kernels = pk->kernels;
    auto only = ctx.number("case", 1, puzzle.puzzleCaseCount(), 0);
    if (!only) return ctx.report(only.error());
    bool reveal = ctx.args.has("reveal-hidden");
    if (*only && caseHidden(puzzle, *only - 1) && !reveal)
        return ctx.usage("case " + std::to_string(*only) + " of " + puzzle.slug + " is " +
                         kHiddenCaseText +
                         ", so it cannot be exported: pick a visible case with "
                         "--case N");
    if (*only) ctx.options.onlyCase = *only - 1;
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    ctx.options.trace = true;
    // Each case is printed as it is decided: a traced check of a multi-pass puzzle on a CPU
    // device takes seconds.
    size_t shown = 0;
    ctx.options.onCase = casePrinter(ctx, puzzle, kernels, shown);
    CheckReport r = checkProgram(ctx.compiler, *ctx.runner, puzzle, kernels, ctx.options);
    ctx.options.onCase = nullptr;
    if (shown == 0) printCheckHead(ctx, puzzle, r, kernels);
    if (r.error) ctx.out << ctx.style.fail("error: ") << r.error->message << "\n";
    auto index = *only ? std::optional<size_t>(*only - 1) : caseToExport(puzzle, r, reveal);
    if (!r.compiled() || !index)
        return ctx.report(
            Error{ErrorKind::Compile, "no case ran, so there is no case file to write" +
                                          std::string(r.compiled() ? ""
                                                                   : ": the kernel does not "
                                                                     "compile (above)")});
    std::vector<std::string> texts(puzzle.kernels.size());
    for (const KernelSource& k : kernels)
        for (size_t i = 0; i < puzzle.kernels.size(); ++i)
            if (puzzle.kernels[i].name == k.name || puzzle.kernels.size() == 1) texts[i] = k.text;
    auto file = makeCaseFile(puzzle, r, *index, joinKernelTexts(puzzle, texts), ctx.runner->info());
    if (!file) return ctx.report(file.error());
    std::string path = ctx.args.value("out").value_or(freeCaseFilePath("", puzzle, *index));
    if (Status s = writeCaseFile(path, *file); !s) return ctx.report(s.error());
    std::error_code ec;
    uint64_t bytes = std::filesystem::file_size(os::toPath(path), ec);
    const CaseOutcome& c = file->report.cases.front();
    const Style& st = ctx.style;
    ctx.out << "wrote " << st.bold(path) << " (" << sizeText(bytes) << "): case " << *index + 1
            << ", " << (c.pass ? st.pass("pass") : st.fail("FAIL")) << ", on "
            << ctx.runner->info().name << "\n"
            << st.dim("open it anywhere, without running anything: vkpuzzles open " +
                      os::shellWord(path))
            << "\n";
    return kExitPass;
}

} // namespace vkp::cli
