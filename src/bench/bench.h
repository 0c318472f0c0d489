// `vkpuzzles bench`: a puzzle's kernel at a large N, timed against the device's copy bandwidth
// and a sequential CPU run of the same reference op, and checked against that reference.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "check/check.h"
#include "device/pipeline_stat.h"
#include "puzzle/bench_case.h"
#include "puzzle/puzzle.h"

namespace vkp {

class Compiler;
class DeviceRunner;

struct BenchOptions {
    uint64_t n = 1u << 24;   // elements of the puzzle's first input
    int reps = 20;           // timed dispatches (after 2 warm-ups)
    size_t templateCase = 0; // the case whose fills, expressions and constants are scaled
    double warmupMs = 500; // untimed dispatches first, so that the clocks are up when timing starts
    // Repetitions whose slowest tenth (p90) takes more than this times the fastest tenth (p10)
    // disagree too much to trust (BenchReport::unsteady).
    double steadySpread = 1.2;
    uint64_t timeoutMs = 60000; // per repetition, before it is called endless
    std::function<void(const std::string&)>
        progress; // told each step of a long run ("warming up ...")
};

struct BenchReport {
    std::string device;
    uint64_t n = 0;
    // Where the case's launch is fixed (FixedLaunch): why N is the case's own, and the N asked.
    std::string fixedLaunch;
    uint64_t nAsked = 0;
    std::vector<uint64_t> shape; // the first input's at N: [N], or [rows, cols] for a matrix
    std::array<uint32_t, 3> workgroupSize{}, workgroups{};
    std::string constants;            // the timed launch's named constants: "ITEMS = 16, BITS = 8"
    std::vector<double> repetitionMs; // every timed repetition
    double medianMs = 0;
    double p10Ms = 0, p90Ms = 0; // the spread of the repetitions
    // Why the figures are not to be trusted (empty: they are): the kernel's repetitions, or the
    // copy it is measured against, disagree too much. A measurement to repeat on a quiet machine,
    // not a slow kernel.
    std::string unsteady;
    uint64_t bytesMoved = 0; // inputs read once + outputs written once
    double gbPerS = 0;       // bytesMoved / median
    double elementsPerS = 0;
    double copyGbPerS = 0;       // vkCmdCopyBuffer of one input's bytes, read + write counted
    double shaderCopyGbPerS = 0; // shaders/copy.comp over the same bytes
    // The fraction of the device's limit for the bytes the kernel must move: gbPerS / max(copy,
    // shader copy), as the copy measured in the same run is the fastest those bytes can move.
    double ratioToCopy = 0;
    double limitMs = 0; // the time bytesMoved take at that copy's bandwidth
    // Floating-point operations the outputs' reference ops do (referenceOpArithmetic; 0: not
    // counted), and that over the median time. Where they are many a byte moved, arithmetic, not
    // memory, bounds the kernel, and the fraction of the limit says little.
    double flop = 0;
    double gflopPerS = 0;
    double cpuMs = 0;    // the reference op, sequential, on the CPU
    std::string cpuWhat; // what the CPU timing ran
    struct Pass {
        std::string label;   // the kernel's name
        int dispatches = 0;  // its repetitions, in every round
        double medianMs = 0; // the sum of its dispatches' median times
        // What its dispatches move at least: each reads or writes once each input or output it
        // binds (a buffer the puzzle swaps in counts as what it is); and that at the copy's
        // speed over medianMs.
        uint64_t bytesMoved = 0;
        double ratioToCopy = 0;
    };
    std::vector<Pass> passes; // a multi-pass puzzle's, in order (each once, however many rounds)
    // A multi-pass puzzle's passes together: bytesMoved counts what the task must move (its
    // inputs read once, its outputs written once), these what the passes as written must (a
    // radix sort's rounds each read and write every key). 0: a single pass.
    uint64_t passBytesMoved = 0;
    double ratioToPassLimit = 0; // passBytesMoved at the copy's speed over the median time
    double passLimitMs = 0;
    struct Compiled {
        std::string kernel;              // the kernel's name ("kernel" for a single-kernel puzzle)
        std::vector<PipelineStat> stats; // what the driver reports about its compiled code
    };
    std::vector<Compiled> compiled; // empty where the driver reports nothing (lavapipe)
    bool pass = false;              // the GPU result equals the CPU reference
    uint64_t mismatches = 0;
    uint64_t firstMismatch = 0;
};

// The figures `vkpuzzles bench` prints and the app shows, one line each (time, spread, copy
// bandwidth, kernel / copy, per pass, the driver's statistics, the CPU run); not the verdict.
std::vector<std::string> benchFigureLines(const BenchReport& r);
// How the learner's kernel stands beside the official solution at the same N, on the same device:
// both times, both fractions of the limit, and the ratio of the times.
std::vector<std::string> benchComparisonLines(const BenchReport& yours,
                                              const BenchReport& official);
// The puzzle's peers ([[peers]]) beside the report: on a device of the peer's name at its N,
// the ratio of the times; elsewhere, where and at what N the peer was measured.
std::vector<std::string> benchPeerLines(const Puzzle& puzzle, const BenchReport& r);
// Whether the report was measured where the peer was: the same device and N.
bool samePlaceAsPeer(const BenchPeer& peer, const BenchReport& r);
// The verdict line: "matches the CPU reference" or how many elements differ.
std::string benchResultText(const BenchReport& r);

// Why `vkpuzzles bench` cannot time the puzzle's bench case (nullopt: it can). The app offers
// "Benchmark at large N" only where it can.
std::optional<std::string> benchUnavailable(const Puzzle& puzzle);

// A case whose launch does not follow its data (puzzle/bench_case.h: one workgroup, however
// large N is) is benchmarked as it is: at its own N, whatever N was asked, since a larger N
// would not fit its grid. nullopt: the case scales to any N.
struct FixedLaunch {
    uint64_t n = 0;   // the case's own: its first input's elements
    std::string grid; // "one workgroup", "a fixed grid of (5) workgroups"
    std::string why;  // "dot launches one workgroup (case 8 as it is, 1024 threads)"
};
std::optional<FixedLaunch> fixedLaunch(const Puzzle& puzzle, size_t caseIndex);

// The learner's kernels and, where given, the official solution's, timed at the same N on the
// same device against one set of inputs, one copy and one CPU run (measured once, shared).
struct BenchReports {
    BenchReport yours;
    std::optional<BenchReport> official; // when asked for and it ran
    std::optional<Error> officialError;  // when asked for and it did not
};
Result<BenchReports> benchBeside(const Compiler& compiler, DeviceRunner& runner,
                                 const Puzzle& puzzle, const std::vector<KernelSource>& sources,
                                 const std::vector<KernelSource>* official,
                                 const std::string& copyShaderSource, const BenchOptions& options);

// The puzzle's kernels (one, or a multi-pass puzzle's, as checkProgram takes them), run by
// `runner`: in this process, or in the worker process like a check.
Result<BenchReport> benchProgram(const Compiler& compiler, DeviceRunner& runner,
                                 const Puzzle& puzzle, const std::vector<KernelSource>& sources,
                                 const std::string& copyShaderSource, const BenchOptions& options);

} // namespace vkp
