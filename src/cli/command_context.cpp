// The helpers every command shares (cli/command_context.h): usage and error reports, the puzzles,
// the puzzle and kernel arguments, the engines, and a check's exit status.
#include "cli/command_context.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <future>

#include "base/install_paths.h"
#include "base/os.h"
#include "check/hidden_cases.h"
#include "check/kernel_text.h"
#include "check/runner.h"

namespace vkp::cli {
namespace {

// A kernel that does not compile, does not fit the puzzle or runs too long fails; anything else
// is a usage error (the arguments, a puzzle file, the device).
int exitFor(const Error& e) {
    ErrorKind k = e.kind;
    bool kernelFails =
        k == ErrorKind::Compile || k == ErrorKind::Interface || k == ErrorKind::Timeout;
    return kernelFails ? kExitFail : kExitUsage;
}

} // namespace

// Words after what a command takes (`show map extra`) are a mistake, not something to drop.
std::optional<std::string> CommandContext::extraWords(size_t takes) const {
    if (args.positionals.size() <= takes) return std::nullopt;
    std::vector<std::string> extra(args.positionals.begin() + takes, args.positionals.end());
    return "`" + args.command + "` does not take " + joined(extra, ", ", " and ") +
           " (see vkpuzzles " + args.command + " --help)";
}

int CommandContext::usage(const std::string& message) {
    err << "vkpuzzles: " << message << " (see vkpuzzles --help)\n";
    return kExitUsage;
}

int CommandContext::report(const Error& e) {
    err << "vkpuzzles: " << (e.where.file.empty() ? "" : e.where.str() + ": ") << e.message << "\n";
    return exitFor(e);
}

void CommandContext::studentView(CheckReport& r, const Puzzle& p) const {
    if (!args.has("reveal-hidden")) hideHiddenCases(r, p);
}

int CommandContext::loadPuzzles() {
    set = loadPuzzleSet(defaultPuzzleRoot(), args.all("puzzles"));
    for (const Error& e : set.errors)
        err << style.warn("warning: ") << e.str()
            << (set.puzzles.empty() || e.kind == ErrorKind::Usage // about a whole folder
                    ? ""
                    : " (this puzzle is skipped)")
            << "\n";
    for (const Error& e : set.warnings)
        err << style.warn("warning: ") << e.str() << "\n";
    if (set.puzzles.empty()) return usage("no puzzles could be loaded from " + set.root);
    if (set.inScope().empty())
        return usage("no puzzles could be loaded from " +
                     joined(args.all("puzzles"), ", ", " or "));
    return kExitPass;
}

Result<const Puzzle*> CommandContext::puzzleArg() {
    if (args.positionals.empty())
        return Error{ErrorKind::Usage, "name a puzzle: `vkpuzzles " + args.command + " PUZZLE`"};
    return set.find(args.positionals[0]);
}

Result<uint64_t> CommandContext::number(const char* name, uint64_t lo, uint64_t hi, uint64_t def) {
    auto v = args.value(name);
    if (!v) return def;
    char* end = nullptr;
    unsigned long long n = std::strtoull(v->c_str(), &end, 10);
    if (v->empty() || *end || n < lo || n > hi)
        return Error{ErrorKind::Usage, "--" + std::string(name) + " needs a whole number from " +
                                           std::to_string(lo) + " to " + std::to_string(hi) +
                                           ", not '" + *v + "'"};
    return n;
}

Status CommandContext::startEngines(bool timed) {
    auto timeout = number("timeout", 1, 3600, 0);
    if (!timeout) return timeout.error();
    options.timeoutMs = *timeout * 1000;
    options.trace = !args.has("no-trace");
    options.forcedSchedules = !args.has("no-schedule");
    RunnerOptions ro;
    ro.context = {args.value("device").value_or(deviceSelectorFromEnvironment()),
                  args.has("validation"), !timed};
    ro.place = args.has("in-process") ? RunnerPlaceKind::InProcess : RunnerPlaceKind::Worker;
    auto opening = std::async(std::launch::async, [ro] { return openRunner(ro); });
    compiler.warmUp();
    auto opened = opening.get();
    if (!opened) return opened.error();
    runner = std::move(opened->runner);
    gpu = opened->gpu;
    return okStatus();
}

Result<std::vector<KernelSource>> CommandContext::kernelsArg(const Puzzle& p) {
    std::vector<KernelSource> sources;
    bool solution = args.has("solution"), starter = args.has("starter");
    std::vector<std::string> files(args.positionals.begin() +
                                       std::min<size_t>(1, args.positionals.size()),
                                   args.positionals.end());
    if (!solution && !starter && files.empty())
        return Error{ErrorKind::Usage, "name a kernel file, or use --solution or --starter"};
    if (solution || starter) return readKernelSources(p, solution);
    std::string names;
    for (const KernelDecl& k : p.kernels)
        names += (names.empty() ? "" : " ") + k.name + ".comp";
    if (files.size() != p.kernels.size())
        return Error{ErrorKind::Usage,
                     p.slug + " has " + std::to_string(p.kernels.size()) +
                         (p.kernels.size() == 1 ? " kernel" : " kernels") + "; name " +
                         (p.kernels.size() == 1 ? "one file" : "its files: " + names)};
    bool byName = p.kernels.size() > 1;
    for (const std::string& f : files)
        byName =
            byName && std::any_of(p.kernels.begin(), p.kernels.end(), [&](const KernelDecl& k) {
                return os::pathText(os::toPath(f).stem()) == k.name;
            });
    for (size_t i = 0; byName && i < files.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (os::toPath(files[i]).stem() == os::toPath(files[j]).stem())
                return Error{ErrorKind::Usage, "two files for the kernel " +
                                                   os::pathText(os::toPath(files[i]).stem()) +
                                                   " ('" + files[j] + "' and '" + files[i] +
                                                   "'); name one file "
                                                   "per kernel: " +
                                                   names};
    for (size_t i = 0; i < files.size(); ++i) {
        auto text = readTextFile(files[i]);
        if (!text)
            return Error{ErrorKind::Usage,
                         "cannot read the kernel file '" + files[i] + "': " + text.error().message};
        std::string name = byName ? os::pathText(os::toPath(files[i]).stem()) : p.kernels[i].name;
        sources.push_back({name, *text, files[i]});
    }
    return sources;
}

void CommandContext::openSizes() {
    if (!args.has("own-subgroup-size") && !sizes)
        sizes = std::make_unique<SubgroupSizeDevices>(runnerFactory(RunnerPlaceKind::Worker));
}

nlohmann::json CommandContext::withDevice(nlohmann::json j, const std::string& device) {
    j["version"] = kJsonVersion;
    j["device"] = device.empty() ? runner->info().name : device;
    return j;
}

std::string CommandContext::filesText(const std::vector<KernelSource>& sources) {
    std::string s;
    for (const KernelSource& k : sources)
        s += (s.empty() ? "" : " ") + k.file;
    return s;
}

std::string CommandContext::ranText(const std::vector<KernelSource>& sources) const {
    const char* which = args.has("solution")  ? "official solution"
                        : args.has("starter") ? "starter"
                                              : nullptr;
    if (!which) return filesText(sources);
    if (sources.size() < 2) return which;
    std::string names;
    for (const KernelSource& k : sources)
        names += (names.empty() ? "" : ", ") + os::pathText(os::toPath(k.file).filename());
    return std::string(which) + " (" + names + ")";
}

void CommandContext::printRanLine(const Puzzle& p, const std::vector<KernelSource>& sources) {
    out << style.bold(p.displayName())
        << style.dim("  " + ranText(sources) + " on " + runner->info().name) << "\n";
}

void CommandContext::printValidation() {
    if (!gpu) return; // a worker prints its validation messages on stderr itself
    if (!gpu->validationEnabled() && args.has("validation"))
        err << style.warn("warning: ")
            << "the validation layer is not installed (vulkan-validationlayers)\n";
    for (const std::string& m : gpu->validationMessages())
        err << "validation: " << m << "\n";
}

int CommandContext::finish(const CheckReport& r) {
    int code = r.allPass() ? kExitPass : kExitFail;
    if (r.error && r.error->kind != ErrorKind::Timeout) code = exitFor(*r.error);
    if (runner && runner->wedged()) {
        // The device still runs the kernel; tearing it down would wait for it forever.
        out.flush();
        err.flush();
        std::fflush(nullptr);
        _exit(code);
    }
    return code;
}

Result<CommandContext::PuzzleKernels> CommandContext::puzzleKernelsArg() {
    auto p = puzzleArg();
    if (!p) return p.error();
    auto kernels = kernelsArg(**p);
    if (!kernels) return kernels.error();
    return PuzzleKernels{*p, std::move(*kernels)};
}

Result<CommandContext::OneCase> CommandContext::oneCaseArgs() {
    auto pk = puzzleKernelsArg();
    if (!pk) return pk.error();
    const Puzzle& p = *pk->puzzle;
    auto only = number("case", 1, p.cases.size(), 1);
    if (!only) return only.error();
    if (caseHidden(p, *only - 1) && !args.has("reveal-hidden"))
        return Error{ErrorKind::Usage,
                     "case " + std::to_string(*only) + " of " + p.slug + " is " + kHiddenCaseText +
                         ", so `" + args.command +
                         "` cannot show it: pick a visible case with --case N (`" +
                         p.command("show") + "` lists them); `" +
                         p.command("check", "KERNEL.comp") + "` says whether the hidden ones pass"};
    options.onlyCase = *only - 1;
    return OneCase{std::move(*pk), *only - 1};
}

} // namespace vkp::cli
