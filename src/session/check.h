// One check of a kernel against a puzzle: compile -> reflect/validate -> run every case -> compare.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/checker.h"
#include "core/diagnostic.h"
#include "core/forced_schedule.h"
#include "core/puzzle.h"
#include "core/result.h"
#include "core/trace.h"
#include "core/trace_analysis.h"

namespace vkp {

class Compiler;
class DeviceRunner;
class GpuContext;

enum class StageKind { Compile, Interface, Pipeline, Run, Done };
const char* stageName(StageKind stage);

struct StageTimings {
    double compileMs = 0;    // shaderc
    double reflectMs = 0;    // SPIR-V reflection and interface check
    double pipelineMs = 0;   // shader module + one pipeline per launch shape
    double runMs = 0;        // materialise data, upload, dispatch, wait, read back (all cases)
    double checkMs = 0;      // compare with expected (all cases)
    double instrumentMs = 0; // tracing: SPIR-V rewrite and validation
    double analysisMs = 0;   // tracing: decode and analyse the traces (all cases)
    double traceRerunMs =
        0; // tracing: re-running the cases whose trace overflowed (session/trace_rerun.h)
    // Those re-runs: one per case, or one per part of a case's dispatches when their traces do
    // not fit in CheckOptions::maxTraceBytes together (traced in parts).
    size_t traceReruns = 0;
    double loopGuardMs =
        0; // untraced: the loop-guard rewrite (shader/instrument.h guardLoops) and validation
    double gpuMs = 0;   // sum of the dispatches' timestamp durations
    double totalMs = 0; // wall clock of the whole check
    // From the start of the check to the first case's verdict (0: no case was decided).
    double firstVerdictMs = 0;
    size_t pipelines = 0; // built by the driver (pipelines kept from earlier checks not counted)
};

struct BufferOutcome {
    size_t buffer = 0; // index into Puzzle::buffers
    BufferData expected;
    BufferData actual;
    BufferVerdict verdict;
    bool checked =
        true; // false: no expected values (a learner's own case, DataSpec::Kind::Unchecked)
};

// One dispatch of a multi-pass case, traced.
struct PassTrace {
    std::string label;                             // "scan_tiles", "step (3 of 10)"
    size_t kernel = 0;                             // index into Puzzle::kernels
    std::shared_ptr<const Trace> trace;            // what this dispatch's threads did
    std::shared_ptr<const TraceAnalysis> analysis; // the findings and rounds of that trace
};

struct CaseOutcome {
    size_t index = 0; // 0-based case index
    bool pass = false;
    // The learner's view of a hidden case (session/hidden_cases.h): only the verdict and the kinds
    // of failure are left; no data, trace, launch or timing.
    bool hidden = false;
    // Its trace did not fit even when re-run with more room, and nothing else failed it: neither a
    // pass nor a fail (pass is false; a TraceOverflow finding that fails the case says why).
    bool inconclusive = false;
    std::optional<Error> error;         // the case could not run (timeout, device lost, ...)
    std::vector<BufferData> inputs;     // initial contents of every buffer (per Puzzle::buffers)
    std::vector<BufferOutcome> outputs; // one per output buffer
    double gpuMs = -1;
    bool outputsMatch = false; // every output equals its expected values
    // With tracing: what every thread did, and what that says (races, out-of-bounds, limits...).
    // A finding that fails the case makes `pass` false even when the outputs match.
    // A multi-pass case: `trace`/`analysis` are those of the first dispatch with a failing finding
    // (else the first dispatch), and `passes` holds every dispatch's.
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TraceAnalysis> analysis;
    std::vector<PassTrace> passes;
    std::vector<std::string> notes; // known wrong answers recognised ([[pitfalls]] of the puzzle)
    // What the run showed without a trace: untraced with the loop guard, a thread that ran out of
    // loop budget (one per dispatch that did; FindingKind::LoopBudget, worded as a trace's); traced
    // or not, an input the kernel changed (FindingKind::InputWritten, one per input). Any fails
    // the case.
    std::vector<Finding> runFindings;
    // A forced schedule ([[schedule]] in puzzle.toml) this case ran under, traced: which workgroup
    // was held and how the hold ended (one per dispatch that had one).
    std::vector<ScheduleReport> schedules;
    std::vector<std::string> scheduleTexts; // ScheduleReport::text, one per entry of schedules
};

// The text of one of the puzzle's kernels, as the user wrote it.
struct KernelSource {
    std::string name; // Puzzle::kernels[k].name ("kernel" for a single-kernel puzzle)
    std::string text;
    std::string file; // as named in diagnostics
};

// A case that failed in a run beside the check's own (another subgroup size, fresh inputs).
struct CaseFailure {
    size_t index = 0;   // 0-based case
    std::string detail; // its first wrong cell, finding or error; empty for a hidden case
};

// The check run again, untraced, on a device with another subgroup size (session/subgroup_sizes.h):
// a kernel right with one number of lanes and wrong with another assumes a subgroup size.
struct SubgroupSizeRun {
    uint32_t lanes = 0;         // gl_SubgroupSize there
    std::string device;         // what it ran on: "llvmpipe (LLVM 15.0.6, 128 bits)"
    std::optional<Error> error; // it could not run there (no CPU device...): no verdict either way
    std::vector<CaseFailure> failures; // the cases that fail at this size, in order
    size_t casesRun = 0;               // cases that ran (and were compared) at this size

    bool pass() const { return !error && failures.empty() && casesRun > 0; }
};

// The cases with random inputs run again, untraced, with inputs drawn from a fresh seed
// (session/fresh_inputs.h): a kernel right only on the puzzle's fixed data was lucky.
struct FreshInputsRun {
    uint64_t seed = 0;                 // `check --seed` replays it
    std::optional<Error> error;        // the run stopped (a device error): no verdict either way
    std::vector<CaseFailure> failures; // the cases that fail with the fresh inputs
    size_t casesRun = 0;

    bool pass() const { return !error && failures.empty(); }
};

struct CheckReport {
    std::string kernelFile;                 // as named in diagnostics (the first kernel's)
    StageKind reached = StageKind::Compile; // Done when every requested case ran
    std::vector<Diagnostic> diagnostics;    // compile and interface messages
    std::optional<Error> error;             // a device error that stopped the check
    bool compilerCrashed =
        false; // the compiler crashed or hung on a kernel (a diagnostic says where)
    std::vector<CaseOutcome> cases;
    StageTimings timing;
    uint32_t lanes = 0;         // the subgroup size of the device the cases ran on
    bool usesSubgroups = false; // some kernel uses a subgroup operation or gl_Subgroup* built-in
    // The same cases at other subgroup sizes, after the device's own (empty: not run there; the
    // kernel uses no subgroup operation, or only the device's own size was asked for).
    std::vector<SubgroupSizeRun> otherSizes;
    // The cases with random inputs again with a fresh seed, after the rest (empty: not run).
    std::optional<FreshInputsRun> fresh;

    bool compiled() const { return reached != StageKind::Compile; }
    // Every case ran and passed, no error diagnostics, and no case failed at another subgroup
    // size or with fresh inputs.
    bool allPass() const;
    size_t passCount() const;
};

struct CheckOptions {
    std::optional<size_t> onlyCase; // 0-based; all cases when empty
    std::vector<size_t> someCases;  // 0-based, in order: only these (when onlyCase is empty)
    uint64_t timeoutMs = 0; // per case; 0: the device's default (2 s on a GPU, 60 s on a CPU)
    bool trace = false;     // run an instrumented variant and analyse what it did
    uint32_t loopBudget = kDefaultLoopBudget; // back-edges per thread (traced, or guarded)
    // Untraced runs count loop back-edges too (guardLoops), so an endless loop is reported, never
    // cut off silently by the driver (lavapipe stops loops at 65535) and passed.
    bool loopGuard = true;
    uint64_t traceRecords = 1u << 20; // trace capacity per case (16 MiB), shared among its threads
    // A case whose trace overflowed is re-run alone with room for every record its threads made,
    // up to this many bytes of trace at once (and the device's limit for one buffer); a
    // multi-pass case needing more runs once per part of its dispatches; a dispatch that alone
    // needs more is inconclusive.
    uint64_t maxTraceBytes = 256ull << 20;
    // Traced checks hold a workgroup where the puzzle declares a [[schedule]] for the case.
    bool forcedSchedules = true;
    bool testCrashWorker = false; // tests only: make the worker process crash on this check
    // Called on the checking thread as each case is decided (its re-runs done), in case order,
    // with the report so far: its cases are the decided ones. Front ends show verdicts as they
    // come; the report checkProgram returns is the whole one.
    std::function<void(const CheckReport&)> onCase;
    // Asked before each case: true ends the check there, its report not Done (a newer edit
    // makes the rest of an older check useless).
    std::function<bool()> stopRequested;
};

struct KernelInterface;
struct DeviceInfo;

struct CompiledKernel;

// The cases of a compiled program (session/compile_stage.h) run on `runner` and compared: the
// stages of checkProgram after compiling. `report` holds what compiling said.
void runCompiled(DeviceRunner& runner, const Puzzle& puzzle, std::vector<CompiledKernel> kernels,
                 const CheckOptions& options, CheckReport& report);

// What failed first in a case, in one line: its error, its first wrong cell ("result[3]: expected
// 5, got 4 (2 of 8 cells wrong)"), or its first finding.
std::string caseFailureDetail(const Puzzle& puzzle, const CaseOutcome& c);

// The words a kernel runs as on this device: without debug information (shader/instrument.h:
// a comment or blank line added builds nothing new), and where subgroups run in lock-step
// (lavapipe), with its subgroup-scoped execution barriers as memory barriers
// (shader/lockstep_barriers.h).
Result<std::vector<uint32_t>> spirvForDevice(const DeviceInfo& device, std::vector<uint32_t> spirv);

// A pass's push-constant values laid out as the kernel's block declares them (by member name).
std::vector<uint32_t>
pushConstantWords(const KernelInterface& kernel,
                  const std::vector<std::pair<std::string, uint32_t>>& values);

// The check every front end runs. Expected outputs come from the puzzle file (reference ops),
// never from a solution kernel.
CheckReport checkKernel(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                        const std::string& source, const std::string& kernelFile,
                        const CheckOptions& options = {});
// Every kernel of a puzzle (several for a multi-pass puzzle), in Puzzle::kernels order or by name.
CheckReport checkProgram(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                         const std::vector<KernelSource>& sources,
                         const CheckOptions& options = {});
CheckReport checkProgram(const Compiler& compiler, GpuContext& gpu, const Puzzle& puzzle,
                         const std::vector<KernelSource>& sources,
                         const CheckOptions& options = {});
// The same, on a device of this process (tests, benchmarks, --in-process).
CheckReport checkKernel(const Compiler& compiler, GpuContext& gpu, const Puzzle& puzzle,
                        const std::string& source, const std::string& kernelFile,
                        const CheckOptions& options = {});

} // namespace vkp
