#include "bench/bench.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "check/case_limits.h"
#include "check/check.h"
#include "check/compile_stage.h"
#include "gpu/bench.h"
#include "gpu/device_runner.h"
#include "puzzle/bench_case.h"
#include "puzzle/buffer_compare.h"
#include "puzzle/passes.h"
#include "puzzle/puzzle_loader.h"
#include "reference/reference_ops.h"
#include "rewrite/rewriter.h"
#include "shader/compiler.h"
#include "shader/interface_check.h"
#include "shader/reflect.h"

namespace vkp {
namespace {

using Clock = std::chrono::steady_clock;

Error benchError(std::string message) {
    return Error{ErrorKind::Usage, std::move(message)};
}

// The CPU baseline: a tight sequential loop where the op is an integer scan, the reference op
// (sequential, but general) otherwise.
double cpuBaseline(const Puzzle& p, const TestCase& c, const CaseData& data, std::string& what) {
    auto first = *p.firstInput();
    const BufferData& in = data.initial[first];
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        if (p.buffers[b].role != RoleKind::Output || !c.data[b]) continue;
        const DataSpec& d = *c.data[b];
        if (d.kind != DataSpec::Kind::Op) continue; // an `each` expression: no baseline to time
        bool scan = d.op == "inclusive_scan" || d.op == "exclusive_scan";
        if (!scan || in.type == ElementKind::Float) {
            std::vector<const BufferData*> args;
            for (size_t a : d.args)
                args.push_back(&data.initial[a]);
            auto t = Clock::now();
            BufferData out = runReferenceOp(d.op, args, d.params, p.buffers[b].type);
            // Counted as the elements it reads: top-k or a matrix-vector product writes far
            // fewer than it is given.
            uint64_t read = 0;
            for (const BufferData* a : args)
                read += a->words.size();
            what = "the reference op " + d.op + ", sequential, over " + std::to_string(read) +
                   " input elements to " + std::to_string(out.words.size());
            return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
        }
        std::vector<uint32_t> out(in.words.size());
        auto t = Clock::now();
        std::inclusive_scan(in.words.begin(), in.words.end(), out.begin());
        double ms = std::chrono::duration<double, std::milli>(Clock::now() - t).count();
        what = "sequential std::inclusive_scan of the same " + std::to_string(in.words.size()) +
               " uints";
        if (out.back() == 0xffffffffu) what += " "; // keep the loop from being optimised away
        return ms;
    }
    what = "";
    return 0;
}

} // namespace

std::optional<FixedLaunch> fixedLaunch(const Puzzle& p, size_t caseIndex) {
    if (caseIndex >= p.cases.size() || launchFollowsN(p, p.cases[caseIndex])) return std::nullopt;
    const TestCase& c = p.cases[caseIndex];
    auto first = p.firstInput();
    uint64_t n = first && c.data[*first] ? c.data[*first]->shape.count() : 0;
    std::string grid = c.workgroups == std::array<uint32_t, 3>{1, 1, 1}
                           ? "one workgroup"
                           : "a fixed grid of " + dimsText(c.workgroups) + " workgroups";
    return FixedLaunch{n, grid,
                       p.slug + " launches " + grid + " (case " + std::to_string(caseIndex + 1) +
                           " as it is, " + std::to_string(c.threadCount()) + " threads)"};
}

std::optional<std::string> benchUnavailable(const Puzzle& puzzle) {
    BenchOptions o;
    o.templateCase = puzzle.benchCase;
    auto scaled = caseAtSize(puzzle, o.templateCase, o.n);
    if (!scaled) return scaled.error().message;
    return std::nullopt;
}

namespace {

// What the device lacks of what a kernel enables or uses, refused as `check` refuses it
// (check/case_limits.h), never left to a compiler's "extension not supported".
Error lacking(const Diagnostic& d) {
    return Error{ErrorKind::Device, d.str()};
}

// Compiles and checks every kernel against the puzzle and the device; the first problem is the
// error.
Result<std::vector<std::pair<std::vector<uint32_t>, KernelInterface>>>
compileAll(const Compiler& compiler, const DeviceInfo& device, const Puzzle& p,
           const std::vector<KernelSource>& sources) {
    std::vector<std::pair<std::vector<uint32_t>, KernelInterface>> out;
    if (sources.size() != p.kernels.size())
        return benchError(p.slug + " needs " + std::to_string(p.kernels.size()) + " kernels");
    if (auto d = unsupportedExtension(sources, device, "Benchmark")) return lacking(*d);
    std::vector<CompiledKernel> uses; // what each kernel uses, for unsupportedUse
    for (size_t k = 0; k < p.kernels.size(); ++k) {
        auto it = std::find_if(sources.begin(), sources.end(),
                               [&](const KernelSource& s) { return s.name == p.kernels[k].name; });
        const KernelSource& src = it != sources.end() ? *it : sources[k];
        CompileResult c =
            compiler.compile(src.text, src.file); // unoptimised: -O would drop unused buffers
        if (!c.ok())
            return Error{ErrorKind::Compile, c.diagnostics.empty() ? "the kernel does not compile"
                                                                   : c.diagnostics[0].str()};
        auto iface = reflectKernel(c.spirv);
        if (!iface) return iface.error();
        auto diagnostics = checkInterface(p, *iface, src.text, src.file, k);
        if (hasErrors(diagnostics)) return Error{ErrorKind::Interface, diagnostics[0].str()};
        uses.push_back(CompiledKernel{{}, *iface, {}, {}, src.file});
        out.emplace_back(std::move(c.spirv), std::move(*iface));
    }
    if (auto d = unsupportedUse(uses, device, "Benchmark")) return lacking(*d);
    // Its sizes may be the benchmark's own (--set TILE=64): the driver would refuse them less
    // clearly, or lavapipe run them past its shared memory.
    if (auto s = checkSharedMemory(p, uses, {0}, device, "the benchmark's launch"); !s)
        return s.error();
    return out;
}

} // namespace

namespace {

using CompiledKernels = std::vector<std::pair<std::vector<uint32_t>, KernelInterface>>;

// Adapts every kernel's words to the device, in place: a benchmark prints nothing, on any device.
Status addKernels(const DeviceInfo& device, CompiledKernels& kernels) {
    std::vector<Rewriter> pipeline = {stripDebugPrintfRewriter()};
    appendDeviceRewriters(pipeline, device);
    for (auto& [spirv, iface] : kernels) {
        RewriteState state;
        auto adapted = runRewriters(spirv, pipeline, state);
        if (!adapted) return adapted.error();
        spirv = std::move(*adapted);
    }
    return okStatus();
}

// One BenchBuffer per puzzle buffer: inputs uploaded (restored each repetition where a ping-pong
// pass overwrites them), scratch and outputs cleared each repetition (outputs start at zero, as
// in a check: a histogram adds into them), outputs read back where the last pass left them.
void addBuffers(const Puzzle& p, const CaseData& data, const std::vector<size_t>& at,
                BenchJob& job) {
    std::vector<bool> swapped = swappedBuffers(p);
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        const BufferDecl& decl = p.buffers[b];
        bool output = decl.role == RoleKind::Output;
        BenchBuffer buffer;
        buffer.binding = decl.binding;
        if (!output) buffer.initial = data.initial[b].words;
        buffer.words = data.initial[b].words.size();
        buffer.zeroEachRep = decl.role == RoleKind::Scratch || output;
        buffer.restoreEachRep =
            decl.role == RoleKind::Input && swapped[b]; // a ping-pong pass overwrites it
        job.buffers.push_back(buffer);
    }
    for (size_t b = 0; b < p.buffers.size(); ++b)
        if (p.buffers[b].role == RoleKind::Output) job.buffers[at[b]].readBack = true;
}

// A multi-pass puzzle's dispatches as the job's steps, each binding the buffers its kernel uses.
void addSteps(const Puzzle& p, const CompiledKernels& kernels,
              const std::vector<CaseDispatch>& dispatches, BenchJob& job) {
    if (!p.multiPass()) return;
    for (const CaseDispatch& d : dispatches) {
        Dispatch step{static_cast<uint32_t>(d.kernel), d.workgroups,
                      pushConstantWords(kernels[d.kernel].second, d.push),
                      std::vector<int>(p.buffers.size(), -1)};
        for (size_t b : p.kernels[d.kernel].buffers)
            step.bind[b] = static_cast<int>(d.bufferAt[b]);
        job.dispatches.push_back(std::move(step));
    }
}

// The repetition at fraction f of the sorted times (0.5: the median).
double percentile(std::vector<double> times, double f) {
    if (times.empty()) return 0;
    std::sort(times.begin(), times.end());
    return times[static_cast<size_t>(f * double(times.size() - 1) + 0.5)];
}

// How much a run's times vary, as "kernel 1.37x" (its slowest tenth over its fastest), or "" when
// within `allowed`.
std::string spreadProblem(const std::vector<double>& times, double allowed, const char* what) {
    double p10 = percentile(times, 0.1), p90 = percentile(times, 0.9);
    if (p10 <= 0 || p90 <= allowed * p10) return "";
    char text[80];
    std::snprintf(text, sizeof text, "%s %.2fx", what, p90 / p10);
    return text;
}

// What one dispatch moves at least: each input or output buffer its kernel binds, read or written
// once. A binding counts when the puzzle declares an input or output there or swapped one in (a
// ping-pong with a scratch buffer moves both halves); scratch alone (a look-back's status words)
// is the kernel's own business.
uint64_t dispatchBytes(const Puzzle& p, const CaseDispatch& d, const CaseData& data) {
    uint64_t bytes = 0;
    for (size_t b : p.kernels.at(d.kernel).buffers) {
        size_t at = b < d.bufferAt.size() ? d.bufferAt[b] : b;
        if (p.buffers[b].role == RoleKind::Scratch && p.buffers[at].role == RoleKind::Scratch)
            continue;
        bytes += data.initial[at].words.size() * 4;
    }
    return bytes;
}

// The kernel's times: every repetition, median and spread, per pass, and the driver's statistics.
void addTimes(BenchReport& r, const Puzzle& p, const std::vector<CaseDispatch>& dispatches,
              const BenchRun& run, const CaseData& data) {
    r.repetitionMs = run.repetitionMs;
    r.medianMs = percentile(run.repetitionMs, 0.5); // the upper middle one, as medianOf gives
    r.p10Ms = percentile(run.repetitionMs, 0.1);
    r.p90Ms = percentile(run.repetitionMs, 0.9);
    if (p.multiPass()) { // one line per pass: its repetitions, in every round, added up
        r.passes.resize(p.passes.size());
        for (size_t k = 0; k < dispatches.size(); ++k) {
            BenchReport::Pass& pass = r.passes[dispatches[k].pass];
            pass.label = passLabel(p, dispatches[k].pass, dispatches[k].kernel);
            pass.dispatches++;
            pass.medianMs += medianOf(run.perDispatchMs[k]);
            pass.bytesMoved += dispatchBytes(p, dispatches[k], data);
        }
        std::erase_if(r.passes, [](const BenchReport::Pass& x) { return x.dispatches == 0; });
    }
    for (size_t k = 0; k < run.kernelStats.size(); ++k)
        if (!run.kernelStats[k].empty())
            r.compiled.push_back(
                {p.kernels.empty() ? "kernel" : p.kernels[k].name, run.kernelStats[k]});
}

// Bytes moved per second by the kernel and by the device's copies of N uints.
void addBandwidth(BenchReport& r, const Puzzle& p, const CaseData& data, const CopyBandwidth& copy,
                  uint64_t n) {
    for (size_t b = 0; b < p.buffers.size(); ++b)
        if (p.buffers[b].role != RoleKind::Scratch)
            r.bytesMoved += data.initial[b].words.size() * 4;
    r.gbPerS = r.medianMs > 0 ? r.bytesMoved / (r.medianMs * 1e6) : 0;
    r.elementsPerS = r.medianMs > 0 ? n / (r.medianMs / 1e3) : 0;
    double bytes = 2.0 * n * 4; // a copy reads and writes every byte
    r.copyGbPerS = bytes / (medianOf(copy.transferMs) * 1e6);
    r.shaderCopyGbPerS = bytes / (medianOf(copy.shaderMs) * 1e6);
    double limit = std::max(r.copyGbPerS, r.shaderCopyGbPerS);
    r.ratioToCopy = r.gbPerS / limit;
    r.limitMs = limit > 0 ? r.bytesMoved / (limit * 1e6) : 0;
    for (BenchReport::Pass& pass : r.passes) {
        pass.ratioToCopy =
            pass.medianMs > 0 && limit > 0 ? pass.bytesMoved / (pass.medianMs * 1e6) / limit : 0;
        r.passBytesMoved += pass.bytesMoved;
    }
    if (limit > 0 && r.medianMs > 0 && r.passBytesMoved > 0) {
        r.passLimitMs = r.passBytesMoved / (limit * 1e6);
        r.ratioToPassLimit = r.passLimitMs / r.medianMs;
    }
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        const std::optional<DataSpec>& d = p.cases.at(0).data[b];
        if (p.buffers[b].role != RoleKind::Output || !d || d->kind != DataSpec::Kind::Op) continue;
        std::vector<Shape> shapes;
        for (size_t a : d->args)
            shapes.push_back(data.initial[a].shape);
        r.flop += referenceOpArithmetic(d->op, shapes, d->params);
    }
    r.gflopPerS = r.medianMs > 0 ? r.flop / (r.medianMs * 1e6) : 0;
}

// Whether the kernel's repetitions and the copy the limit comes from agree with themselves.
void addSteadiness(BenchReport& r, const CopyBandwidth& copy, double allowed) {
    const std::vector<double>& limit =
        r.copyGbPerS >= r.shaderCopyGbPerS ? copy.transferMs : copy.shaderMs;
    std::string varied;
    for (std::string problem :
         {spreadProblem(r.repetitionMs, allowed, "kernel"), spreadProblem(limit, allowed, "copy")})
        if (!problem.empty()) varied += (varied.empty() ? "" : ", ") + problem;
    if (!varied.empty())
        r.unsteady = "the repetitions vary (slowest tenth over fastest: " + varied + ")";
}

// The verdict: every output read back against the CPU reference.
void compareWithReference(BenchReport& r, const Puzzle& p, const CaseData& data,
                          const std::vector<size_t>& at, const BenchRun& run) {
    r.pass = true;
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        if (!data.expected[b]) continue;
        BufferData actual{p.buffers[b].type, data.expected[b]->shape, run.readBack[at[b]]};
        BufferComparison v = compareBuffers(*data.expected[b], actual, p.tolerance);
        r.pass = r.pass && v.pass;
        r.mismatches += v.mismatchCount;
        if (!v.mismatches.empty() && r.firstMismatch == 0) r.firstMismatch = v.mismatches[0].index;
    }
}

} // namespace

namespace {

// What a benchmark measures once at N, whatever kernels it times there: the scaled case and its
// data (inputs, and the CPU reference's outputs), the device's copy of the same bytes, and the
// CPU run of the reference op.
struct BenchGround {
    Puzzle puzzle; // with the scaled case as its only case
    CaseData data;
    CopyBandwidth copy;
    double cpuMs = 0;
    std::string cpuWhat;
};

Result<BenchGround> prepareGround(const Compiler& compiler, DeviceRunner& runner,
                                  const Puzzle& puzzle, const TestCase& scaled,
                                  const std::string& copyShaderSource, const BenchOptions& o) {
    auto say = [&](const std::string& what) {
        if (o.progress) o.progress(what);
    };
    BenchGround g;
    g.puzzle = puzzle;
    g.puzzle.cases = {scaled};
    say("generating the inputs and the expected result (" + std::to_string(o.n) + " elements)");
    auto data = materializeCase(g.puzzle, 0);
    if (!data) return data.error();
    g.data = std::move(*data);
    auto copyShader = compiler.compile(copyShaderSource, "shaders/copy.comp", {false, true});
    if (!copyShader.ok()) return Error{ErrorKind::Internal, "shaders/copy.comp does not compile"};
    say("measuring the device's copy bandwidth");
    auto copy =
        runner.copyBandwidth({o.n * 4, std::max(3, o.reps / 2), copyShader.spirv, o.warmupMs});
    if (!copy) return copy.error();
    g.copy = std::move(*copy);
    say("running the CPU baseline");
    g.cpuMs = cpuBaseline(g.puzzle, g.puzzle.cases[0], g.data, g.cpuWhat);
    return g;
}

// One set of kernels, compiled and laid out for the scaled case, before anything is measured:
// a kernel that does not compile is said at once.
struct BenchKernels {
    CompiledKernels kernels;
    std::vector<CaseDispatch> dispatches;
};

Result<BenchKernels> prepareKernels(const Compiler& compiler, DeviceRunner& runner,
                                    const Puzzle& scaledPuzzle,
                                    const std::vector<KernelSource>& sources) {
    auto kernels = compileAll(compiler, runner.info(), scaledPuzzle, sources);
    if (!kernels) return kernels.error();
    auto dispatches =
        caseDispatches(scaledPuzzle, scaledPuzzle.cases[0], runner.info().maxWorkgroupCount[0]);
    if (!dispatches) return dispatches.error();
    if (auto adapted = addKernels(runner.info(), *kernels); !adapted) return adapted.error();
    return BenchKernels{std::move(*kernels), std::move(*dispatches)};
}

// The kernels timed on the ground, and their result compared with the CPU reference.
Result<BenchReport> timeOn(DeviceRunner& runner, const BenchGround& g, const BenchKernels& k,
                           const BenchOptions& o) {
    const Puzzle& p = g.puzzle;
    const TestCase& scaled = p.cases[0];
    BenchJob job;
    for (const auto& [spirv, iface] : k.kernels) {
        job.kernels.push_back(spirv);
        job.pushBytes = std::max(job.pushBytes, iface.pushBytes);
    }
    job.launch = {scaled.workgroupSize, scaled.workgroups, scaled.constants};
    job.reps = o.reps;
    job.warmupMs = o.warmupMs;
    job.timeoutMs = o.timeoutMs;
    std::vector<size_t> at = finalBufferAt(p, k.dispatches);
    addBuffers(p, g.data, at, job);
    addSteps(p, k.kernels, k.dispatches, job);
    if (o.progress)
        o.progress("uploading, warming up for " + std::to_string(int(o.warmupMs)) + " ms, timing " +
                   std::to_string(o.reps) + " repetitions");
    auto run = runner.bench(job);
    if (!run) return run.error();
    BenchReport r;
    r.device = runner.info().name;
    r.n = o.n;
    r.shape = g.data.initial[*p.firstInput()].shape.dims;
    r.workgroupSize = scaled.workgroupSize;
    r.workgroups = k.dispatches.front().workgroups;
    r.constants = constantsText(p, scaled);
    addTimes(r, p, k.dispatches, *run, g.data);
    addBandwidth(r, p, g.data, g.copy, o.n);
    addSteadiness(r, g.copy, o.steadySpread);
    r.cpuMs = g.cpuMs;
    r.cpuWhat = g.cpuWhat;
    compareWithReference(r, p, g.data, at, *run);
    return r;
}

} // namespace

Result<BenchReports> benchBeside(const Compiler& compiler, DeviceRunner& runner,
                                 const Puzzle& puzzle, const std::vector<KernelSource>& sources,
                                 const std::vector<KernelSource>* official,
                                 const std::string& copyShaderSource, const BenchOptions& asked) {
    auto scaled = caseAtSize(puzzle, asked.templateCase, asked.n);
    if (!scaled) return scaled.error();
    BenchOptions o = asked;
    auto fixed = fixedLaunch(puzzle, asked.templateCase);
    if (fixed) o.n = fixed->n; // a launch that does not follow N runs at its own
    Puzzle p = puzzle;
    p.cases = {*scaled};
    auto yours = prepareKernels(compiler, runner, p, sources);
    if (!yours) return yours.error();
    auto ground = prepareGround(compiler, runner, puzzle, *scaled, copyShaderSource, o);
    if (!ground) return ground.error();
    auto timed = timeOn(runner, *ground, *yours, o);
    if (!timed) return timed.error();
    BenchReports out{std::move(*timed), std::nullopt, std::nullopt};
    auto note = [&](BenchReport& r) {
        r.nAsked = asked.n;
        if (fixed) r.fixedLaunch = fixed->why;
    };
    note(out.yours);
    if (!official) return out;
    BenchOptions theirs = o;
    if (o.progress)
        theirs.progress = [&o](const std::string& what) {
            o.progress("the official solution: " + what);
        };
    auto kernels = prepareKernels(compiler, runner, p, *official);
    auto report =
        kernels ? timeOn(runner, *ground, *kernels, theirs) : Result<BenchReport>(kernels.error());
    if (report) {
        note(*report);
        out.official = std::move(*report);
    } else {
        out.officialError = report.error();
    }
    return out;
}

Result<BenchReport> benchProgram(const Compiler& compiler, DeviceRunner& runner,
                                 const Puzzle& puzzle, const std::vector<KernelSource>& sources,
                                 const std::string& copyShaderSource, const BenchOptions& o) {
    auto r = benchBeside(compiler, runner, puzzle, sources, nullptr, copyShaderSource, o);
    if (!r) return r.error();
    return std::move(r->yours);
}

} // namespace vkp
