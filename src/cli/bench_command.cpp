// `vkpuzzles bench`: a kernel timed at a size, beside a copy of the same bytes (cli/command.h).

#include "base/install_paths.h"
#include "cli/bench_report.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/json_report.h"
#include "cli/own_case_args.h"
#include "puzzle/device_needs.h"
#include "session/case_limits.h"
#include "session/hidden_cases.h"
#include "session/json_text.h"
#include "session/kernel_text.h"

namespace vkp::cli {

Result<BenchOptions> Command::benchOptions(const Puzzle* p) {
    BenchOptions o;
    if (p) o.n = p->benchN;
    if (auto n = m_a.value("n")) {
        auto parsed = parseCount(*n);
        if (!parsed) return parsed.error();
        o.n = *parsed;
    }
    auto reps = number("reps", 1, 1000, 20);
    if (!reps) return reps.error();
    o.reps = static_cast<int>(*reps);
    auto warmup = number("warmup", 0, 60000, 500);
    if (!warmup) return warmup.error();
    o.warmupMs = static_cast<double>(*warmup);
    auto timeout = number("timeout", 1, 3600, 60);
    if (!timeout) return timeout.error();
    o.timeoutMs = *timeout * 1000;
    if (!json()) o.progress = progressLines("  ");
    if (p) {
        auto templ = number("case", 1, p->cases.size(), p->benchCase + 1);
        if (!templ) return templ.error();
        // The benchmark prints its case's shape: a hidden one is the teacher's to see.
        if (caseHidden(*p, *templ - 1) && !m_a.has("reveal-hidden"))
            return Error{ErrorKind::Usage,
                         "case " + std::to_string(*templ) + " of " + p->slug + " is " +
                             kHiddenCaseText + ", so `bench` cannot run on it (it prints the " +
                             "case's shape): pick a visible case with --case N (`" +
                             p->command("show") + "` lists them)"};
        o.templateCase = *templ - 1;
    }
    return o;
}

// A long run's steps on stderr, one line each.
std::function<void(const std::string&)> Command::progressLines(std::string indent) {
    return [this, indent](const std::string& step) {
        m_err << m_style.dim(indent + step + " ...") << "\n" << std::flush;
    };
}

int Command::benchFailed(const Error& e) {
    int code = report(e);
    if (m_runner && m_runner->wedged())
        _exit(code); // an in-process device still running the kernel
    return code;
}

// The copy kernel a benchmark measures the device's bandwidth with, installed beside the binary.
Result<std::string> Command::copyShader() const {
    std::string path = bundledShaderPath("copy.comp");
    auto source = readTextFile(path);
    if (!source) return Error{ErrorKind::NotFound, "the copy shader is missing", {path}};
    return source;
}

int Command::bench() {
    if (m_a.has("all-scans") || m_a.has("all")) return benchEvery(m_a.has("all-scans"));
    auto p = puzzleArg();
    if (!p) return report(p.error());
    if (m_a.positionals.size() < 2 && !m_a.has("solution") && !m_a.has("starter"))
        return usage("name a kernel file, or use --solution");
    auto kernels = kernelsArg(**p);
    if (!kernels) return report(kernels.error());
    auto o = benchOptions(*p);
    if (!o) return report(o.error());
    // --workgroup-size and --set: the benchmark's case at another launch shape, for both kernels.
    std::optional<Puzzle> shaped;
    if (m_a.value("workgroup-size") || !m_a.all("set").empty()) {
        auto spec = ownCaseSpec(m_a, o->templateCase);
        if (!spec) return report(spec.error());
        auto c = buildOwnCase(**p, *spec, cliFieldName);
        if (!c) return report(c.error());
        shaped = withCase(**p, std::move(*c));
        o->templateCase = shaped->cases.size() - 1;
        p = &*shaped;
    }
    auto copySource = copyShader();
    if (!copySource) return report(copySource.error());
    if (auto s = startEngines(/*timed=*/true); !s) return report(s.error());
    if (!json()) {
        // A launch that does not follow N (one workgroup) runs at the case's own N.
        auto fixed = fixedLaunch(**p, o->templateCase);
        m_err << "benchmarking " << (*p)->slug << " at N = " << (fixed ? fixed->n : o->n) << " on "
              << m_runner->info().name << " ...\n";
        if (fixed) m_err << "  " << fixed->why << ": at its own N, whatever --n says\n";
    }
    // The learner's kernel is timed beside the official solution, on the same data in one run.
    std::optional<std::vector<KernelSource>> official;
    if (!m_a.has("solution")) {
        auto sources = readKernelSources(**p, true);
        if (!sources) return report(sources.error());
        official = std::move(*sources);
    }
    auto both = benchBeside(m_compiler, *m_runner, **p, *kernels, official ? &*official : nullptr,
                            *copySource, *o);
    if (!both) return benchFailed(both.error());
    const BenchReport& r = both->yours;
    if (both->officialError && m_runner->wedged()) return benchFailed(*both->officialError);
    if (json()) {
        nlohmann::json out = benchJson(**p, filesText(*kernels), r);
        if (both->official) out["official"] = benchJson(**p, "--solution", *both->official);
        if (both->officialError) out["official_error"] = both->officialError->message;
        m_out << jsonText(out) << "\n";
        return r.pass ? kExitPass : kExitFail;
    }
    printBench(m_out, m_style, **p, r);
    if (both->official) {
        m_out << m_style.bold("beside the official solution") << "\n";
        for (const std::string& line : benchComparisonLines(r, *both->official))
            m_out << "  " << line << "\n";
    }
    if (both->officialError)
        m_out << m_style.warn("the official solution could not be timed: " +
                              both->officialError->message)
              << "\n";
    return r.pass ? kExitPass : kExitFail;
}

// Every official solution at the same N, one row each (command.h).
int Command::benchEvery(bool scansOnly) {
    auto o = benchOptions(nullptr);
    if (!o) return report(o.error());
    auto copySource = copyShader();
    if (!copySource) return report(copySource.error());
    if (auto s = startEngines(/*timed=*/true); !s) return report(s.error());
    const DeviceInfo& device = m_runner->info();
    // Without --n, each puzzle at its own bench_n, as `bench PUZZLE` would take it.
    bool nGiven = m_a.value("n").has_value();
    if (!json())
        m_err << "benchmarking every official " << (scansOnly ? "scan" : "solution") << " at "
              << (nGiven ? "N = " + std::to_string(o->n) : "its bench_n") << " on " << device.name
              << " ...\n";
    BenchRows rows;
    bool allPass = true;
    for (const Puzzle* pp : m_set.inScope()) {
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
        if (po.progress) po.progress = progressLines("    ");
        auto sources = readKernelSources(p, true);
        if (!sources) return report(sources.error());
        if (!json()) m_err << "  " << p.slug << " ...\n";
        auto r = benchProgram(m_compiler, *m_runner, p, *sources, *copySource, po);
        if (!r && m_runner->wedged())
            return benchFailed(r.error()); // a worker is restarted instead
        allPass = allPass && r && r->pass;
        rows.push_back({&p, std::move(r), false});
    }
    if (json()) {
        nlohmann::json results = nlohmann::json::array();
        for (const BenchRow& row : rows)
            results.push_back(benchRowJson(row));
        m_out << jsonText(nlohmann::json{{"version", kJsonVersion},
                                         {"device", device.name},
                                         {"n", nGiven ? nlohmann::json(o->n) : nlohmann::json()},
                                         {"pass", allPass},
                                         {"results", results}})
              << "\n";
    } else {
        printBenchTable(m_out, m_style, rows, scansOnly);
    }
    return allPass ? kExitPass : kExitFail;
}

} // namespace vkp::cli
