// `vkpuzzles bench`: a kernel timed at a size, beside a copy of the same bytes and the official
// solution; `bench --all` and `--all-scans`: every official solution (or scan), one row each.

#include <functional>
#include <optional>

#include "base/install_paths.h"
#include "bench/bench.h"
#include "check/case_limits.h"
#include "check/hidden_cases.h"
#include "check/kernel_text.h"
#include "cli/bench_report.h"
#include "cli/command_context.h"
#include "cli/json_report.h"
#include "cli/own_case_args.h"
#include "puzzle/device_needs.h"

namespace vkp::cli {
namespace {

// A long run's steps on stderr, one line each.
std::function<void(const std::string&)> progressLines(CommandContext& ctx, std::string indent) {
    return [&ctx, indent](const std::string& step) {
        ctx.err << ctx.style.dim(indent + step + " ...") << "\n" << std::flush;
    };
}

Result<BenchOptions> benchOptions(CommandContext& ctx, const Puzzle* p) {
    BenchOptions o;
    if (p) o.n = p->benchN;
    if (auto n = ctx.args.value("n")) {
        auto parsed = parseCount(*n);
        if (!parsed) return parsed.error();
        o.n = *parsed;
    }
    auto reps = ctx.number("reps", 1, 1000, 20);
    if (!reps) return reps.error();
    o.reps = static_cast<int>(*reps);
    auto warmup = ctx.number("warmup", 0, 60000, 500);
    if (!warmup) return warmup.error();
    o.warmupMs = static_cast<double>(*warmup);
    auto timeout = ctx.number("timeout", 1, 3600, 60);
    if (!timeout) return timeout.error();
    o.timeoutMs = *timeout * 1000;
    if (!ctx.json()) o.progress = progressLines(ctx, "  ");
    if (p) {
        auto templ = ctx.number("case", 1, p->cases.size(), p->benchCase + 1);
        if (!templ) return templ.error();
        // The benchmark prints its case's shape: a hidden one is the teacher's to see.
        if (caseHidden(*p, *templ - 1) && !ctx.args.has("reveal-hidden"))
            return Error{ErrorKind::Usage,
                         "case " + std::to_string(*templ) + " of " + p->slug + " is " +
                             kHiddenCaseText + ", so `bench` cannot run on it (it prints the " +
                             "case's shape): pick a visible case with --case N (`" +
                             p->command("show") + "` lists them)"};
        o.templateCase = *templ - 1;
    }
    return o;
}

int benchFailed(CommandContext& ctx, const Error& e) {
    int code = ctx.report(e);
    if (ctx.runner && ctx.runner->wedged())
        _exit(code); // an in-process device still running the kernel
    return code;
}

// The copy kernel a benchmark measures the device's bandwidth with, installed beside the binary.
Result<std::string> copyShader() {
    std::string path = bundledShaderPath("copy.comp");
    auto source = readTextFile(path);
    if (!source) return Error{ErrorKind::NotFound, "the copy shader is missing", {path}};
    return source;
}

// Every official solution at the same N, one row each: the scan track's (`--all-scans`, the
// seeds' comparison, beside the copy and the CPU scan) or every puzzle's (`--all`), a puzzle
// the device cannot run listed as not run.
int benchEvery(CommandContext& ctx, bool scansOnly) {
    auto o = benchOptions(ctx, nullptr);
    if (!o) return ctx.report(o.error());
    auto copySource = copyShader();
    if (!copySource) return ctx.report(copySource.error());
    if (auto s = ctx.startEngines(/*timed=*/true); !s) return ctx.report(s.error());
    const DeviceInfo& device = ctx.runner->info();
    // Without --n, each puzzle at its own bench_n, as `bench PUZZLE` would take it.
    bool nGiven = ctx.args.value("n").has_value();
    if (!ctx.json())
        ctx.err << "benchmarking every official " << (scansOnly ? "scan" : "solution") << " at "
                << (nGiven ? "N = " + std::to_string(o->n) : "its bench_n") << " on " << device.name
                << " ...\n";
    BenchRows rows;
    bool allPass = true;
    for (const Puzzle* pp : ctx.set.inScope()) {
        const Puzzle& p = *pp;
        if (scansOnly && p.track != "scan") continue;
        // What the device cannot run is listed as not run, as `check --all` lists it.
        if (DeviceNeeds missing = missingOn(p.needs, device); !missing.empty()) {
            rows.push_back({&p,
                            Error{ErrorKind::Device, lacksText(device, missing) +
                                                         ", which the official solution needs"},
                            true});
            continue;
        }
        BenchOptions po = *o;
        if (!nGiven) po.n = p.benchN;
        po.templateCase = p.benchCase;
        if (po.progress) po.progress = progressLines(ctx, "    ");
        auto sources = readKernelSources(p, true);
        if (!sources) return ctx.report(sources.error());
        if (!ctx.json()) ctx.err << "  " << p.slug << " ...\n";
        auto r = benchProgram(ctx.compiler, *ctx.runner, p, *sources, *copySource, po);
        if (!r && ctx.runner->wedged())
            return benchFailed(ctx, r.error()); // a worker is restarted instead
        allPass = allPass && r && r->pass;
        rows.push_back({&p, std::move(r), false});
    }
    if (ctx.json()) {
        nlohmann::json results = nlohmann::json::array();
        for (const BenchRow& row : rows)
            results.push_back(benchRowJson(row));
        ctx.out << jsonText(nlohmann::json{{"version", kJsonVersion},
                                           {"device", device.name},
                                           {"n", nGiven ? nlohmann::json(o->n) : nlohmann::json()},
                                           {"pass", allPass},
                                           {"results", results}})
                << "\n";
    } else {
        printBenchTable(ctx.out, ctx.style, rows, scansOnly);
    }
    return allPass ? kExitPass : kExitFail;
}

} // namespace

int benchCommand(CommandContext& ctx) {
    if (ctx.args.has("all-scans") || ctx.args.has("all"))
        return benchEvery(ctx, ctx.args.has("all-scans"));
    auto p = ctx.puzzleArg();
    if (!p) return ctx.report(p.error());
    if (ctx.args.positionals.size() < 2 && !ctx.args.has("solution") && !ctx.args.has("starter"))
        return ctx.usage("name a kernel file, or use --solution");
    auto kernels = ctx.kernelsArg(**p);
    if (!kernels) return ctx.report(kernels.error());
    auto o = benchOptions(ctx, *p);
    if (!o) return ctx.report(o.error());
    // --workgroup-size and --set: the benchmark's case at another launch shape, for both kernels.
    std::optional<Puzzle> shaped;
    if (ctx.args.value("workgroup-size") || !ctx.args.all("set").empty()) {
        auto own = withOwnCase(ctx.args, **p, o->templateCase);
        if (!own) return ctx.report(own.error());
        shaped = std::move(*own);
        o->templateCase = shaped->cases.size() - 1;
        p = &*shaped;
    }
    auto copySource = copyShader();
    if (!copySource) return ctx.report(copySource.error());
    if (auto s = ctx.startEngines(/*timed=*/true); !s) return ctx.report(s.error());
    if (!ctx.json()) {
        // A launch that does not follow N (one workgroup) runs at the case's own N.
        auto fixed = fixedLaunch(**p, o->templateCase);
        ctx.err << "benchmarking " << (*p)->slug << " at N = " << (fixed ? fixed->n : o->n)
                << " on " << ctx.runner->info().name << " ...\n";
        if (fixed) ctx.err << "  " << fixed->why << ": at its own N, whatever --n says\n";
    }
    // The learner's kernel is timed beside the official solution, on the same data in one run.
    std::optional<std::vector<KernelSource>> official;
    if (!ctx.args.has("solution")) {
        auto sources = readKernelSources(**p, true);
        if (!sources) return ctx.report(sources.error());
        official = std::move(*sources);
    }
    auto both = benchBeside(ctx.compiler, *ctx.runner, **p, *kernels,
                            official ? &*official : nullptr, *copySource, *o);
    if (!both) return benchFailed(ctx, both.error());
    if (both->officialError && ctx.runner->wedged()) return benchFailed(ctx, *both->officialError);
    const BenchReport& r = both->yours;
    if (ctx.json()) {
        nlohmann::json out = benchJson(**p, ctx.filesText(*kernels), r);
        if (both->official) out["official"] = benchJson(**p, "--solution", *both->official);
        if (both->officialError) out["official_error"] = both->officialError->message;
        ctx.out << jsonText(out) << "\n";
        return r.pass ? kExitPass : kExitFail;
    }
    printBench(ctx.out, ctx.style, **p, r);
    if (both->official) {
        ctx.out << ctx.style.bold("beside the official solution") << "\n";
        for (const std::string& line : benchComparisonLines(r, *both->official))
            ctx.out << "  " << line << "\n";
    }
    if (both->officialError)
        ctx.out << ctx.style.warn("the official solution could not be timed: " +
                                  both->officialError->message)
                << "\n";
    return r.pass ? kExitPass : kExitFail;
}

} // namespace vkp::cli
