// Figures for execution tracing, measured side by side in one run:
//   1. traced vs untraced check of every classic solution (median of warm runs), in this process,
//      and traced in the worker process (what the app and the CLI do by default), and
//   2. analysis time of a synthetic trace of about one million events.
// Usage: vkp_trace_bench [--repeat N] [--puzzles DIR]   (device: VKPUZZLES_DEVICE or the best)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "base/install_paths.h"
#include "check/check.h"
#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "judge/trace_analysis.h"
#include "puzzle/puzzle_loader.h"
#include "shader/compiler.h"
#include "worker/worker_runner.h"

using namespace vkp;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

struct Stats {
    double total = 0, run = 0;
};

Stats measure(const Compiler& c, DeviceRunner& runner, const Puzzle& p, const std::string& src,
              bool trace, int repeat) {
    CheckOptions o;
    o.trace = trace;
    std::vector<double> totals, runs;
    for (int i = 0; i <= repeat; ++i) {
        CheckReport r = checkKernel(c, runner, p, src, p.solutionPath, o);
        if (!r.allPass()) std::fprintf(stderr, "warning: %s does not pass\n", p.slug.c_str());
        if (i == 0) continue; // the first run pays one-off costs
        totals.push_back(r.timing.totalMs);
        runs.push_back(r.timing.runMs);
    }
    return {median(totals), median(runs)};
}

// A trace shaped like a big tree reduction: every thread reads, writes shared cells, passes
// barriers; about `target` events in all.
Trace syntheticTrace(uint64_t target) {
    Trace t;
    t.launch = {{256, 1, 1}, {static_cast<uint32_t>(target / (256 * 28)) + 1, 1, 1}};
    TraceVariableInfo a{{"a", false, 0, 0, {}, ElementKind::Float}, t.launch.invocations(), {}, 0};
    TraceVariableInfo cache{{"cache", true, 0, 0, {}, ElementKind::Float}, 256, {256}, -1};
    t.variables = {a, cache};
    t.threads.resize(t.launch.invocations());
    for (uint64_t inv = 0; inv < t.threads.size(); ++inv) {
        auto& ev = t.threads[inv];
        uint32_t local = static_cast<uint32_t>(inv % 256);
        ev.push_back({TraceEventKind::Read, 0, 10, static_cast<uint32_t>(inv), 1, 0, 0});
        ev.push_back({TraceEventKind::Write, 1, 11, local, 1, 0, 0});
        uint32_t round = 0;
        ev.push_back({TraceEventKind::Barrier, kTraceVariableNone, 12, 0, 0, 0, round++});
        for (uint32_t stride = 128; stride >= 1; stride /= 2) {
            for (int k = 0; k < 2; ++k)
                if (local < stride) {
                    ev.push_back({TraceEventKind::Read, 1, 14, local + stride, 1, 0, round});
                    ev.push_back({TraceEventKind::Read, 1, 14, local, 1, 0, round});
                    ev.push_back({TraceEventKind::Write, 1, 14, local, 2, 0, round});
                }
            ev.push_back({TraceEventKind::Barrier, kTraceVariableNone, 15, 0, 0, 0, round++});
            if (stride == 1) break;
        }
        for (int k = 0; k < 12; ++k)
            ev.push_back({TraceEventKind::Read, 1, 16, local, 2, 0, round});
        if (local == 0)
            ev.push_back(
                {TraceEventKind::Write, 0, 17, static_cast<uint32_t>(inv / 256), 2, 0, round});
    }
    return t;
}

} // namespace

int main(int argc, char** argv) {
    int repeat = 10;
    std::string root = defaultPuzzleRoot();
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--repeat")) repeat = std::max(1, std::atoi(argv[i + 1]));
        if (!std::strcmp(argv[i], "--puzzles")) root = argv[i + 1];
    }
    auto gpu = GpuContext::create({deviceSelectorFromEnvironment()});
    if (!gpu) {
        std::fprintf(stderr, "%s\n", gpu.error().message.c_str());
        return 2;
    }
    Compiler compiler;
    compiler.warmUp();
    PuzzleSet set = loadPuzzleSet(root);
    InProcessRunner inProcess(**gpu);
    // The app's default: the same checks in the worker process (the vkpuzzles beside this binary).
    std::string exe =
        (std::filesystem::path(worker::selfExecutable()).parent_path() / "vkpuzzles").string();
    auto workerRunner = worker::WorkerRunner::start(exe, {deviceSelectorFromEnvironment()});
    if (!workerRunner)
        std::fprintf(stderr, "no worker column: %s\n", workerRunner.error().message.c_str());
    std::printf("device: %s; median of %d warm checks per row\n", (*gpu)->info().name.c_str(),
                repeat);
    std::printf("%-10s %12s %12s %7s %12s %12s %7s %14s %7s\n", "puzzle", "run plain", "run traced",
                "x", "total plain", "total traced", "x", "traced, worker", "x");
    std::vector<double> runRatios, totalRatios, workerRatios;
    for (const Puzzle& p : set.puzzles) {
        if (p.track != "classic") continue;
        auto src = readTextFile(p.solutionPath);
        Stats plain = measure(compiler, inProcess, p, *src, false, repeat);
        Stats traced = measure(compiler, inProcess, p, *src, true, repeat);
        runRatios.push_back(traced.run / plain.run);
        totalRatios.push_back(traced.total / plain.total);
        std::printf("%-10s %9.2f ms %9.2f ms %6.2fx %9.2f ms %9.2f ms %6.2fx", p.slug.c_str(),
                    plain.run, traced.run, runRatios.back(), plain.total, traced.total,
                    totalRatios.back());
        if (workerRunner) {
            Stats inWorker = measure(compiler, **workerRunner, p, *src, true, repeat);
            workerRatios.push_back(inWorker.total / traced.total);
            std::printf(" %11.2f ms %6.2fx", inWorker.total, workerRatios.back());
        }
        std::printf("\n");
    }
    std::printf("worst ratio: run %.2fx, total %.2fx (goal <= 5x)\n",
                *std::max_element(runRatios.begin(), runRatios.end()),
                *std::max_element(totalRatios.begin(), totalRatios.end()));
    if (!workerRatios.empty())
        std::printf(
            "the worker process against this one, traced totals: worst %.2fx, median %.2fx\n",
            *std::max_element(workerRatios.begin(), workerRatios.end()), median(workerRatios));

    Trace t = syntheticTrace(1'000'000);
    std::vector<double> times;
    size_t findings = 0;
    for (int i = 0; i < 5; ++i) {
        auto start = Clock::now();
        TraceAnalysis a = analyzeTrace(t, Limits{1, 1});
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        findings = a.findings.size();
    }
    std::printf("analysis of a synthetic trace: %llu events, %llu threads, median %.1f ms over 5 "
                "runs (goal < 200 ms), %zu findings\n",
                static_cast<unsigned long long>(t.eventCount()),
                static_cast<unsigned long long>(t.threads.size()), median(times), findings);
    return 0;
}
