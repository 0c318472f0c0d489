// The commands that list, show, check and run puzzles, and what every command shares
// (cli/command.h).
#include "cli/commands.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <span>

#include "base/install_paths.h"
#include "base/os.h"
#include "cli/arguments.h"
#include "cli/command.h"
#include "cli/grade_command.h"
#include "cli/json_report.h"
#include "cli/new_puzzle.h"
#include "cli/own_case_args.h"
#include "cli/pack_check_report.h"
#include "cli/terminal_text.h"
#include "cli/text_report.h"
#include "cli/trace_report.h"
#include "puzzle/device_needs.h"
#include "puzzle/walkthrough.h"
#include "session/atomic_order.h"
#include "session/case_limits.h"
#include "session/case_search.h"
#include "session/fresh_inputs.h"
#include "session/hidden_cases.h"
#include "session/json_text.h"
#include "session/kernel_text.h"
#include "session/runner.h"

#ifndef VKPUZZLES_VERSION
#define VKPUZZLES_VERSION "0"
#endif

namespace fs = std::filesystem;

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

int exitFor(const Error& e) {
    switch (e.kind) {
    case ErrorKind::Compile:
    case ErrorKind::Interface:
    case ErrorKind::Timeout:
        return kExitFail;
    default:
        return kExitUsage;
    }
}

} // namespace

// Words after what a command takes (`show map extra`) are a mistake, not something to drop.
std::optional<std::string> Command::extraWords(size_t takes) const {
    if (m_a.positionals.size() <= takes) return std::nullopt;
    std::vector<std::string> extra(m_a.positionals.begin() + takes, m_a.positionals.end());
    return "`" + m_a.command + "` does not take " + joined(extra, ", ", " and ") +
           " (see vkpuzzles " + m_a.command + " --help)";
}

int Command::run() {
    if (m_a.has("version")) return (m_out << "vkpuzzles " << VKPUZZLES_VERSION << "\n", kExitPass);
    if (m_a.has("help") || m_a.command == "help") return (m_out << helpText(), kExitPass);
    if (m_a.command.empty()) return (m_out << helpText(), kExitPass);
    static const std::map<std::string, size_t> kTakes = {
        {"list", 0}, {"show", 1}, {"hint", 2}, {"devices", 0}, {"walkthrough", 1}};
    if (auto it = kTakes.find(m_a.command); it != kTakes.end())
        if (auto extra = extraWords(it->second)) {
            m_err << "vkpuzzles: " << *extra << "\n";
            return kExitUsage;
        }
    if (m_a.command == "devices") return devices();
    if (m_a.command == "new") return newPuzzle(m_a, m_out, m_err);
    if (m_a.command == "pack") return pack();
    if (m_a.command == "open") return openCase();
    if (auto s = loadPuzzles(); s != kExitPass) return s;
    if (m_a.command == "list") return list();
    if (m_a.command == "show") return show();
    if (m_a.command == "hint") return hint();
    if (m_a.command == "check") return m_a.has("all") ? checkAll() : check();
    if (m_a.command == "watch") return watch();
    if (m_a.command == "trace") return traceCase();
    if (m_a.command == "profile") return profile();
    if (m_a.command == "walkthrough") return walkthrough();
    if (m_a.command == "bench") return bench();
    if (m_a.command == "grade") return grade();
    if (m_a.command == "export") return exportCase();
    return runCase();
}

int Command::usage(const std::string& message) {
    m_err << "vkpuzzles: " << message << " (see vkpuzzles --help)\n";
    return kExitUsage;
}

int Command::report(const Error& e) {
    m_err << "vkpuzzles: " << (e.where.file.empty() ? "" : e.where.str() + ": ") << e.message
          << "\n";
    return exitFor(e);
}

// Students see a hidden case's verdict only; --reveal-hidden (the teacher) sees it all.
void Command::studentView(CheckReport& r, const Puzzle& p) const {
    if (!m_a.has("reveal-hidden")) hideHiddenCases(r, p);
}

int Command::loadPuzzles() {
    m_set = loadPuzzleSet(defaultPuzzleRoot(), m_a.all("puzzles"));
    for (const Error& e : m_set.errors)
        m_err << m_style.warn("warning: ") << e.str()
              << (m_set.puzzles.empty() || e.kind == ErrorKind::Usage // about a whole folder
                      ? ""
                      : " (this puzzle is skipped)")
              << "\n";
    for (const Error& e : m_set.warnings)
        m_err << m_style.warn("warning: ") << e.str() << "\n";
    if (m_set.puzzles.empty()) return usage("no puzzles could be loaded from " + m_set.root);
    if (m_set.inScope().empty())
        return usage("no puzzles could be loaded from " + joined(m_a.all("puzzles"), ", ", " or "));
    return kExitPass;
}

Result<const Puzzle*> Command::puzzleArg() {
    if (m_a.positionals.empty())
        return Error{ErrorKind::Usage, "name a puzzle: `vkpuzzles " + m_a.command + " PUZZLE`"};
    return m_set.find(m_a.positionals[0]);
}

Result<uint64_t> Command::number(const char* name, uint64_t lo, uint64_t hi, uint64_t def) {
    auto v = m_a.value(name);
    if (!v) return def;
    char* end = nullptr;
    unsigned long long n = std::strtoull(v->c_str(), &end, 10);
    if (v->empty() || *end || n < lo || n > hi)
        return Error{ErrorKind::Usage, "--" + std::string(name) + " needs a whole number from " +
                                           std::to_string(lo) + " to " + std::to_string(hi) +
                                           ", not '" + *v + "'"};
    return n;
}

int Command::list() {
    if (!json()) {
        printPuzzleList(m_out, m_set, m_style);
        m_out << "\nStart with: " << m_set.inScope().front()->command("show") << "\n";
        return kExitPass;
    }
    nlohmann::json j = nlohmann::json::array();
    for (const Puzzle& p : m_set.puzzles)
        j.push_back(puzzleJson(p));
    m_out << jsonText(nlohmann::json{{"version", kJsonVersion}, {"puzzles", j}}) << "\n";
    return kExitPass;
}

int Command::show() {
    auto p = puzzleArg();
    if (!p) return report(p.error());
    if (json())
        m_out << jsonText(puzzleJson(**p)) << "\n";
    else
        printPuzzle(m_out, **p, m_style);
    return kExitPass;
}

int Command::hint() {
    auto p = puzzleArg();
    if (!p) return report(p.error());
    const Puzzle& pz = **p;
    uint64_t n = 1;
    if (m_a.positionals.size() > 1) {
        const std::string& arg = m_a.positionals[1];
        char* end = nullptr;
        n = std::strtoull(arg.c_str(), &end, 10);
        if (arg.empty() || !std::isdigit(static_cast<unsigned char>(arg[0])) || *end || n < 1)
            return usage("the number of hints to show is a whole number from 1, not '" + arg + "'");
    }
    if (pz.hints.empty()) {
        m_out << pz.slug << " has no hints\n";
        return kExitPass;
    }
    n = std::min<uint64_t>(n, pz.hints.size());
    for (uint64_t i = 0; i < n; ++i)
        m_out << m_style.bold("hint " + std::to_string(i + 1) + ": ") << pz.hints[i] << "\n";
    if (n < pz.hints.size())
        m_out << m_style.dim("(next: " + pz.command("hint", std::to_string(n + 1)) + ")") << "\n";
    else if (hasWalkthrough(pz))
        m_out << m_style.dim("(that was the last hint; the official solution, step by step: " +
                             pz.command("walkthrough") + ")")
              << "\n";
    else
        m_out << m_style.dim("(that was the last hint; the official solution is " +
                             pz.solutionPath + ", also in the app's Solution tab)")
              << "\n";
    return kExitPass;
}

int Command::devices() {
    auto list = GpuContext::listDevices();
    if (!list) return report(list.error());
    auto chosen =
        GpuContext::create({m_a.value("device").value_or(deviceSelectorFromEnvironment())});
    int selected = chosen ? static_cast<int>((*chosen)->info().index) : -1;
    if (json()) {
        nlohmann::json j = nlohmann::json::array();
        for (const DeviceInfo& d : *list)
            j.push_back(deviceJson(d));
        m_out << jsonText(nlohmann::json{
                     {"version", kJsonVersion}, {"devices", j}, {"selected", selected}})
              << "\n";
    } else {
        for (const DeviceInfo& d : *list)
            printDevice(m_out, d, static_cast<int>(d.index) == selected, m_style);
    }
    if (!chosen) return report(chosen.error());
    return kExitPass;
}

// `pack check DIR`: the author's lint of a pack (cli/pack_check_report.h).
int Command::pack() {
    if (m_a.positionals.size() != 2 || m_a.positionals[0] != "check")
        return usage("use `vkpuzzles pack check DIR`, DIR a folder of puzzle folders or one "
                     "puzzle's folder");
    std::string dir = m_a.positionals[1];
    std::error_code ec;
    if (!fs::is_directory(os::toPath(dir), ec))
        return usage("pack check: '" + dir + "' is not a folder");
    if (auto s = startEngines(); !s) return report(s.error());
    if (!m_a.has("own-subgroup-size"))
        m_sizes = std::make_unique<SubgroupSizeDevices>(runnerFactory(RunnerPlaceKind::Worker));
    return runPackCheck({dir, json(), !m_a.has("no-mutants"), m_options.timeoutMs, m_sizes.get()},
                        m_compiler, *m_runner, m_out, m_err, m_rawErr, m_style);
}

// Kernels run in an isolated worker process unless --in-process; either way the device
// opens beside shaderc's first (table-building) compile.
Status Command::startEngines(bool timed) {
    auto timeout = number("timeout", 1, 3600, 0);
    if (!timeout) return timeout.error();
    m_options.timeoutMs = *timeout * 1000;
    m_options.trace = !m_a.has("no-trace");
    m_options.forcedSchedules = !m_a.has("no-schedule");
    RunnerOptions ro;
    ro.context = {m_a.value("device").value_or(deviceSelectorFromEnvironment()),
                  m_a.has("validation"), !timed};
    ro.place = m_a.has("in-process") ? RunnerPlaceKind::InProcess : RunnerPlaceKind::Worker;
    auto opening = std::async(std::launch::async, [ro] { return openRunner(ro); });
    m_compiler.warmUp();
    auto opened = opening.get();
    if (!opened) return opened.error();
    m_runner = std::move(opened->runner);
    m_gpu = opened->gpu;
    return okStatus();
}

// The kernel texts: the official solution's or the starter's files, or the files named after
// the puzzle (matched to a multi-pass puzzle's kernels by file name, else in order).
Result<std::vector<KernelSource>> Command::kernelsArg(const Puzzle& p) {
    std::vector<KernelSource> out;
    bool solution = m_a.has("solution"), starter = m_a.has("starter");
    std::vector<std::string> files(m_a.positionals.begin() +
                                       std::min<size_t>(1, m_a.positionals.size()),
                                   m_a.positionals.end());
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
        out.push_back({name, *text, files[i]});
    }
    return out;
}

int Command::check() {
    auto p = puzzleArg();
    if (!p) return report(p.error());
    auto kernels = kernelsArg(**p);
    if (!kernels) return report(kernels.error());
    auto only = number("case", 1, (*p)->cases.size(), 0);
    auto repeat = number("repeat", 1, 1000, 1);
    if (!only) return report(only.error());
    if (!repeat) return report(repeat.error());
    if (*only) m_options.onlyCase = *only - 1;
    if (auto s = startEngines(); !s) return report(s.error());
    auto r = checkPrinted(**p, *kernels, *repeat);
    if (!r) return report(r.error());
    return finish(*r);
}

Result<CheckReport> Command::checkPrinted(const Puzzle& p, const std::vector<KernelSource>& kernels,
                                          uint64_t repeat) {
    // Each case is printed as soon as it is decided (a traced multi-pass check on a CPU device
    // takes seconds): the report at the end adds only what comes after the cases.
    size_t shown = 0;
    if (!json() && repeat == 1)
        m_options.onCase = [&](const CheckReport& partial) {
            if (shown == 0) printCheckHead(p, partial, kernels);
            CaseOutcome c = partial.cases.back();
            if (!m_a.has("reveal-hidden") && caseHidden(p, c.index)) c = hiddenCaseView(p, c);
            printCase(m_out, p, c, runHint(p, kernels), m_style);
            m_out << std::flush;
            ++shown;
        };
    // The room a case's trace needed, remembered for the runs at other subgroup sizes (and
    // repeats).
    TraceRoomMemory room;
    m_options.traceRoom = &room;
    CheckReport r;
    std::vector<StageTimings> timings;
    for (uint64_t i = 0; i < repeat; ++i) {
        r = checkProgram(m_compiler, *m_runner, p, kernels, m_options);
        timings.push_back(r.timing);
    }
    m_options.onCase = nullptr;
    // With --repeat the first run pays one-off costs; report the median of the warm runs.
    if (timings.size() > 1) r.timing = medianTimings(std::span(timings).subspan(1));
    size_t sizesShown = 0;
    if (!m_runner->wedged())
        checkOtherSizes(p, kernels, r, [&](const CheckReport&, const SubgroupSizeRun& ended) {
            if (json() || repeat != 1) return;
            SubgroupSizeRun run = ended;
            if (!m_a.has("reveal-hidden")) hideHiddenCases(run, p);
            printSubgroupSize(m_out, run, m_style);
            m_out << std::flush;
            ++sizesShown;
        });
    m_options.traceRoom = nullptr;
    if (!m_runner->wedged()) {
        auto seed = number("seed", 0, 999999999, freshSeed());
        if (!seed) return seed.error();
        checkFreshInputs(m_compiler, *m_runner, p, kernels, m_options, *seed, r);
        if (!m_runner->wedged())
            checkReversedOrder(m_compiler, *m_runner, p, kernels, m_options, r);
        if (!m_runner->wedged() && caseSearchApplies(p, r)) {
            if (!json() && repeat == 1) // over a second on a CPU device: say what is under way
                m_out << m_style.dim("  generating cases to search for one that breaks the "
                                     "kernel (--seed " +
                                     std::to_string(*seed) + ")\xE2\x80\xA6")
                      << "\n"
                      << std::flush;
            searchCases(m_compiler, *m_runner, p, kernels, m_options, *seed, r);
        }
    }
    studentView(r, p);
    if (json())
        m_out << jsonText(withDevice(checkJson(p, r, false, m_a.has("timing")))) << "\n";
    else
        printCheckText(p, r, kernels, shown, sizesShown);
    return r;
}

size_t Command::checkOtherSizes(const Puzzle& p, const std::vector<KernelSource>& sources,
                                CheckReport& r, const SizeEnded& onSize) {
    if (m_a.has("own-subgroup-size") || !subgroupSizesApply(r)) return 0;
    if (!m_sizes)
        m_sizes = std::make_unique<SubgroupSizeDevices>(runnerFactory(RunnerPlaceKind::Worker));
    // Over a second on a CPU device: say what is under way.
    if (!json() && onSize)
        m_out << m_style.dim("  and on lavapipe with " + lanesText(sizesBeside(m_runner->info())) +
                             ", for a verdict that holds on other GPUs:")
              << "\n"
              << std::flush;
    checkOtherSubgroupSizes(m_compiler, *m_sizes, p, sources, m_options, r, onSize);
    return r.otherSizes.size();
}

nlohmann::json Command::withDevice(nlohmann::json j, const std::string& device) {
    j["version"] = kJsonVersion;
    j["device"] = device.empty() ? m_runner->info().name : device;
    return j;
}

void Command::printCheckHead(const Puzzle& p, const CheckReport& r,
                             const std::vector<KernelSource>& sources) {
    m_out << m_style.bold(p.displayName())
          << m_style.dim("  " + ranText(sources) + " on " + m_runner->info().name) << "\n";
    printDiagnostics(m_out, r, sources, m_style);
}

std::string Command::runHint(const Puzzle& p, const std::vector<KernelSource>& sources) const {
    std::string kernelArgs = m_a.has("solution")  ? "--solution"
                             : m_a.has("starter") ? "--starter"
                                                  : "";
    if (kernelArgs.empty()) // the files as the shell reads them back: a path may hold spaces
        for (const KernelSource& k : sources)
            kernelArgs += (kernelArgs.empty() ? "" : " ") + os::shellWord(k.file);
    return p.command("run", kernelArgs);
}

void Command::printCheckText(const Puzzle& p, const CheckReport& r,
                             const std::vector<KernelSource>& sources, size_t shown,
                             size_t sizesShown) {
    if (shown == 0)
        m_out << m_style.bold(p.displayName())
              << m_style.dim("  " + ranText(sources) + " on " + m_runner->info().name) << "\n";
    printCheck(m_out, p, r, sources, runHint(p, sources), m_style, shown, sizesShown);
    if (m_a.has("timing")) printTiming(m_out, r.timing);
    printValidation();
}

std::string Command::filesText(const std::vector<KernelSource>& sources) {
    std::string s;
    for (const KernelSource& k : sources)
        s += (s.empty() ? "" : " ") + k.file;
    return s;
}

// What ran, for a report's first line: the learner's files as given, or "official solution" /
// "starter" with its kernels' names rather than their paths inside the puzzle folder.
std::string Command::ranText(const std::vector<KernelSource>& sources) const {
    const char* which = m_a.has("solution")  ? "official solution"
                        : m_a.has("starter") ? "starter"
                                             : nullptr;
    if (!which) return filesText(sources);
    if (sources.size() < 2) return which;
    std::string names;
    for (const KernelSource& k : sources)
        names += (names.empty() ? "" : ", ") + os::pathText(os::toPath(k.file).filename());
    return std::string(which) + " (" + names + ")";
}

void Command::printValidation() {
    if (!m_gpu) return; // a worker prints its validation messages on stderr itself
    if (!m_gpu->validationEnabled() && m_a.has("validation"))
        m_err << m_style.warn("warning: ")
              << "the validation layer is not installed (vulkan-validationlayers)\n";
    for (const std::string& m : m_gpu->validationMessages())
        m_err << "validation: " << m << "\n";
}

int Command::finish(const CheckReport& r) {
    int code = r.allPass() ? kExitPass : kExitFail;
    if (r.error && r.error->kind != ErrorKind::Timeout) code = exitFor(*r.error);
    if (m_runner && m_runner->wedged()) {
        // The device still runs the kernel; tearing it down would wait for it forever.
        m_out.flush();
        m_err.flush();
        std::fflush(nullptr);
        _exit(code);
    }
    return code;
}

int Command::checkAll() {
    if (!m_a.has("solution") && !m_a.has("starter"))
        return usage("check --all needs --solution or --starter");
    if (auto s = startEngines(); !s) return report(s.error());
    bool allPass = true;
    nlohmann::json results = nlohmann::json::array();
    size_t notRun = 0; // puzzles whose official solution needs what the device lacks
    for (const Puzzle* pp : m_set.inScope()) {
        const Puzzle& p = *pp;
        auto kernels = kernelsArg(p);
        if (!kernels) return report(kernels.error());
        if (DeviceNeeds missing = missingOn(p.needs, m_runner->info()); !missing.empty()) {
            std::string why = lacksText(m_runner->info(), missing);
            ++notRun;
            if (json())
                results.push_back({{"puzzle", p.slug}, {"number", p.number}, {"not_run", why}});
            else
                printNotRunLine(p, why);
            continue;
        }
        CheckReport r = checkProgram(m_compiler, *m_runner, p, *kernels, m_options);
        if (!m_runner->wedged()) checkOtherSizes(p, *kernels, r, {});
        if (!m_runner->wedged())
            checkReversedOrder(m_compiler, *m_runner, p, *kernels, m_options, r);
        studentView(r, p);
        allPass = allPass && r.allPass();
        if (json())
            results.push_back(checkJson(p, r, false, m_a.has("timing")));
        else
            printAllLine(p, r);
        if (m_runner->wedged()) return finish(r);
    }
    if (json())
        m_out << jsonText(withDevice({{"results", results}, {"pass", allPass}})) << "\n";
    else
        m_out << (allPass ? m_style.pass("all pass") : m_style.fail("some fail"))
              << m_style.dim(" on " + m_runner->info().name +
                             (notRun ? " (" + std::to_string(notRun) +
                                           " not run: the device cannot give what " +
                                           (notRun == 1 ? "it needs" : "they need") + ")"
                                     : ""))
              << "\n";
    printValidation();
    if (!m_set.errors.empty()) return kExitUsage;
    return allPass ? kExitPass : kExitFail;
}

// "  7  zip  " as check --all starts each puzzle's line, the slugs in one column.
std::string Command::allLineHead(const Puzzle& p) const {
    char head[64];
    size_t width = 0;
    for (const Puzzle* q : m_set.inScope())
        width = std::max(width, q->slug.size());
    std::snprintf(head, sizeof head, "%3d  %-*s  ", p.number, static_cast<int>(width),
                  p.slug.c_str());
    return head;
}

void Command::printNotRunLine(const Puzzle& p, const std::string& why) {
    m_out << allLineHead(p) << m_style.warn("not run") << "  " << m_style.dim(why) << "\n";
}

void Command::printAllLine(const Puzzle& p, const CheckReport& r) {
    std::string head = allLineHead(p);
    std::string verdict = r.allPass() ? m_style.pass("pass") : m_style.fail("FAIL");
    m_out << head << verdict << "  " << r.passCount() << "/" << p.cases.size() << " cases";
    if (!r.compiled())
        m_out << "  (does not compile)";
    else if (hasErrors(r.diagnostics))
        m_out << "  " << r.diagnostics.front().message;
    if (r.error)
        m_out << "  " << r.error->message;
    else if (const CaseOutcome* c = firstCaseError(r))
        m_out << "  " << c->error->message; // a timeout, a crash: why no case ran
    else if (!r.allPass() && r.passCount() == r.cases.size() && r.reversed &&
             !r.reversed->failures.empty())
        m_out << "  wrong with atomics in reverse lane order (case "
              << r.reversed->failures.front().index + 1 << ")";
    else if (!r.allPass() && r.passCount() == r.cases.size())
        m_out << "  " << subgroupSizeVerdict(p, r); // wrong only with other numbers of lanes
    else if (r.allPass() && !r.otherSizes.empty()) {
        std::vector<uint32_t> lanes;
        for (const SubgroupSizeRun& s : r.otherSizes)
            if (s.pass()) lanes.push_back(s.lanes);
        if (!lanes.empty()) m_out << m_style.dim("  and with " + lanesText(lanes));
    }
    m_out << "\n";
}

const CaseOutcome* Command::firstCaseError(const CheckReport& r) {
    for (const CaseOutcome& c : r.cases)
        if (c.error) return &c;
    return nullptr;
}

Result<Command::OneCase> Command::oneCaseArgs() {
    auto p = puzzleArg();
    if (!p) return p.error();
    auto kernels = kernelsArg(**p);
    if (!kernels) return kernels.error();
    auto only = number("case", 1, (*p)->cases.size(), 1);
    if (!only) return only.error();
    if (caseHidden(**p, *only - 1) && !m_a.has("reveal-hidden"))
        return Error{
            ErrorKind::Usage,
            "case " + std::to_string(*only) + " of " + (*p)->slug + " is " + kHiddenCaseText +
                ", so `" + m_a.command + "` cannot show it: pick a visible case with --case N (`" +
                (*p)->command("show") + "` lists them); `" + (*p)->command("check", "KERNEL.comp") +
                "` says whether the hidden ones pass"};
    m_options.onlyCase = *only - 1;
    return OneCase{*p, std::move(*kernels), *only - 1};
}

// --input and friends: the learner's case, appended to a copy of the puzzle and run alone.
Result<Puzzle> Command::ownCasePuzzle(const OneCase& one) {
    auto spec = ownCaseSpec(m_a, one.index);
    if (!spec) return spec.error();
    auto c = buildOwnCase(*one.puzzle, *spec, cliFieldName);
    if (!c) return c.error();
    Puzzle p = withCase(*one.puzzle, std::move(*c));
    m_options.onlyCase = p.cases.size() - 1;
    return p;
}

int Command::runCase() {
    auto one = oneCaseArgs();
    if (!one) return report(one.error());
    std::optional<Puzzle> own;
    if (hasOwnCase(m_a)) {
        auto p = ownCasePuzzle(*one);
        if (!p) return report(p.error());
        own = std::move(*p);
    }
    const Puzzle& puzzle = own ? *own : *one->puzzle;
    if (auto s = startEngines(); !s) return report(s.error());
    CheckReport r = checkProgram(m_compiler, *m_runner, puzzle, one->kernels, m_options);
    if (json()) {
        nlohmann::json j = withDevice(checkJson(puzzle, r, true, m_a.has("timing")));
        if (!r.cases.empty()) j["printf"] = casePrintfJson(r.cases.front());
        m_out << jsonText(j) << "\n";
        return finish(r);
    }
    m_out << m_style.bold(puzzle.displayName())
          << m_style.dim("  " + ranText(one->kernels) + " on " + m_runner->info().name) << "\n";
    printDiagnostics(m_out, r, one->kernels, m_style);
    for (const CaseOutcome& c : r.cases)
        printCaseBuffers(m_out, puzzle, c, m_style), printCasePrintf(m_out, c, m_style);
    if (r.error) m_out << m_style.fail("error: ") << r.error->message << "\n";
    if (!r.compiled()) m_out << m_style.fail("the kernel does not compile") << "\n";
    return finish(r);
}

// A class's submissions, each checked as `check` checks a kernel (cli/grade_command.h).
int Command::grade() {
    GradeStreams streams{m_out, m_err, m_rawErr, m_style};
    if (m_a.has("merge")) { // the shares are graded already: no device
        auto merge = planMerge(m_a);
        return merge ? runMerge(*merge, streams) : report(merge.error());
    }
    auto plan = planGrade(m_a, m_set);
    if (!plan) return report(plan.error());
    if (auto s = startEngines(); !s) return report(s.error());
    // A puzzle the device cannot run is not graded on it: every submission would score 0.
    std::vector<const Puzzle*> runnable;
    std::string notGraded;
    for (const Puzzle* p : plan->puzzles) {
        DeviceNeeds missing = missingOn(p->needs, m_runner->info());
        if (missing.empty())
            runnable.push_back(p);
        else
            notGraded += (notGraded.empty() ? "" : "; ") + p->slug + " needs " +
                         needsText(missing) + ", which " + m_runner->info().name + " lacks";
    }
    if (runnable.empty())
        return report(Error{ErrorKind::Device,
                            notGraded + ": graded here, every submission would score 0. Grade "
                                        "on a device that has it (--device D; vkpuzzles devices)"});
    if (!notGraded.empty())
        m_err << m_style.warn("not graded on this device: " + notGraded) << "\n";
    plan->puzzles = std::move(runnable);
    if (!m_a.has("own-subgroup-size"))
        m_sizes = std::make_unique<SubgroupSizeDevices>(runnerFactory(RunnerPlaceKind::Worker));
    return runGrade(*plan, m_compiler, *m_runner, m_options, streams, m_sizes.get());
}

int runCommand(const Args& args, std::ostream& out, std::ostream& err) {
    // Everything printed passes the terminal filter: kernels, puzzle files and file names are
    // not trusted to hold only printable text.
    bool color = Style::detect(args.value("color").value_or("auto"));
    TerminalFilter outFilter(out.rdbuf(), color), errFilter(err.rdbuf(), color);
    std::ostream safeOut(&outFilter), safeErr(&errFilter);
    int code = Command(args, safeOut, safeErr, err).run();
    safeOut.flush();
    safeErr.flush();
    return code;
}

} // namespace vkp::cli
