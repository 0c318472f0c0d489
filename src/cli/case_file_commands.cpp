// Case files from the command line (report/case_file.h): `export` checks a kernel traced and
// writes one of its cases as a file; `open --print` prints such a file's case as `trace` does,
// running nothing (`open` without it is the app's).
#include <filesystem>

#include "base/os.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/text_report.h"
#include "cli/trace_report.h"
#include "puzzle/kernel_sections.h"
#include "report/case_file.h"
#include "session/hidden_cases.h"

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

int Command::exportCase() {
    auto p = puzzleArg();
    if (!p) return report(p.error());
    const Puzzle& puzzle = **p;
    auto kernels = kernelsArg(puzzle);
    if (!kernels) return report(kernels.error());
    auto only = number("case", 1, puzzle.puzzleCaseCount(), 0);
    if (!only) return report(only.error());
    bool reveal = m_a.has("reveal-hidden");
    if (*only && caseHidden(puzzle, *only - 1) && !reveal)
        return usage("case " + std::to_string(*only) + " of " + puzzle.slug + " is " +
                     kHiddenCaseText +
                     ", so it cannot be exported: pick a visible case with "
                     "--case N");
    if (*only) m_options.onlyCase = *only - 1;
    if (auto s = startEngines(); !s) return report(s.error());
    m_options.trace = true;
    // Each case is printed as it is decided: a traced check of a multi-pass puzzle on a CPU
    // device takes seconds.
    size_t shown = 0;
    m_options.onCase = [&](const CheckReport& partial) {
        if (shown++ == 0) printCheckHead(puzzle, partial, *kernels);
        CaseOutcome c = partial.cases.back();
        if (!reveal && caseHidden(puzzle, c.index)) c = hiddenCaseView(puzzle, c);
        printCase(m_out, puzzle, c, runHint(puzzle, *kernels), m_style);
        m_out << std::flush;
    };
    CheckReport r = checkProgram(m_compiler, *m_runner, puzzle, *kernels, m_options);
    m_options.onCase = nullptr;
    if (shown == 0) printCheckHead(puzzle, r, *kernels);
    if (r.error) m_out << m_style.fail("error: ") << r.error->message << "\n";
    auto index = *only ? std::optional<size_t>(*only - 1) : caseToExport(puzzle, r, reveal);
    if (!r.compiled() || !index)
        return report(
            Error{ErrorKind::Compile, "no case ran, so there is no case file to write" +
                                          std::string(r.compiled() ? ""
                                                                   : ": the kernel does not "
                                                                     "compile (above)")});
    std::vector<std::string> texts(puzzle.kernels.size());
    for (const KernelSource& k : *kernels)
        for (size_t i = 0; i < puzzle.kernels.size(); ++i)
            if (puzzle.kernels[i].name == k.name || puzzle.kernels.size() == 1) texts[i] = k.text;
    auto file = makeCaseFile(puzzle, r, *index, joinKernelTexts(puzzle, texts), m_runner->info());
    if (!file) return report(file.error());
    std::string path = m_a.value("out").value_or(freeCaseFilePath("", puzzle, *index));
    if (Status s = writeCaseFile(path, *file); !s) return report(s.error());
    std::error_code ec;
    uint64_t bytes = std::filesystem::file_size(os::toPath(path), ec);
    const CaseOutcome& c = file->report.cases.front();
    m_out << "wrote " << m_style.bold(path) << " (" << sizeText(bytes) << "): case " << *index + 1
          << ", " << (c.pass ? m_style.pass("pass") : m_style.fail("FAIL")) << ", on "
          << m_runner->info().name << "\n"
          << m_style.dim("open it anywhere, without running anything: vkpuzzles open " +
                         os::shellWord(path))
          << "\n";
    return kExitPass;
}

int Command::openCase() {
    if (m_a.positionals.empty())
        return usage("open needs a case file: vkpuzzles open FILE.vkpcase --print");
    if (m_a.positionals.size() > 1) return usage("unexpected '" + m_a.positionals[1] + "'");
    auto opened = readCaseFile(m_a.positionals[0]);
    if (!opened) return report(opened.error());
    const Puzzle& puzzle = *opened->puzzle;
    const CheckReport& r = *opened->report;
    const CaseOutcome& c = r.cases.front();
    size_t dispatches = std::max<size_t>(1, c.dispatches.size());
    auto dispatch = number("dispatch", 1, dispatches, 0);
    if (!dispatch) return report(dispatch.error());
    if (*dispatch && !puzzle.multiPass())
        return usage("--dispatch is for multi-pass puzzles; " + puzzle.slug +
                     " runs one dispatch per case");
    std::optional<uint64_t> thread;
    if (auto t = m_a.value("thread")) {
        const Trace* shown = *dispatch && *dispatch <= c.dispatches.size()
                                 ? c.dispatches[*dispatch - 1].trace.get()
                                 : c.trace.get();
        thread = shown ? threadArg(*t, shown->launch) : std::nullopt;
        if (!thread)
            return usage("--thread needs a thread's global id inside the case's launch, as X or "
                         "X,Y or X,Y,Z");
    }
    auto kernels = kernelTextSources(puzzle, opened->file.kernelText, r.kernelFile);
    std::vector<KernelSource> sources =
        kernels ? *kernels
                : std::vector<KernelSource>{{"kernel", opened->file.kernelText, r.kernelFile}};
    std::string ran = "case file " + m_a.positionals[0] + ": " + opened->file.madeBy + ", " +
                      opened->file.madeAt + ", on " + opened->file.device.name;
    return printTracedCase(puzzle, r, sources, ran, opened->file.device.name, *dispatch, thread);
}

} // namespace vkp::cli
