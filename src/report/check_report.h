// What a check found, as plain data: per case its verdict, outputs, traces and findings, and the
// runs beside it (other subgroup sizes, fresh inputs, atomics in reverse lane order). The session
// makes it (check/check.h); the views, the command line's reports and the panels read it, needing
// no compiler or device.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/result.h"
#include "judge/trace_analysis.h"
#include "puzzle/buffer_compare.h"
#include "puzzle/kernel_sections.h"
#include "puzzle/puzzle.h"
#include "trace/forced_schedule.h"
#include "trace/trace.h"

namespace vkp {

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
        0; // tracing: re-running the cases whose trace overflowed (check/trace_rerun.h)
    // Those re-runs: one per case, or one per part of a case's dispatches when their traces do
    // not fit in CheckOptions::maxTraceBytes together (traced in parts).
    size_t traceReruns = 0;
    double loopGuardMs =
        0; // untraced: the loop-guard rewrite (rewrite/instrument.h guardKernel) and validation
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
    BufferComparison comparison;
    bool checked =
        true; // false: no expected values (a learner's own case, DataSpec::Kind::Unchecked)
};

// One dispatch of a multi-pass case, traced.
struct DispatchTrace {
    std::string label;                             // "scan_tiles", "step (3 of 10)"
    size_t kernel = 0;                             // index into Puzzle::kernels
    std::shared_ptr<const Trace> trace;            // what this dispatch's threads did
    std::shared_ptr<const TraceAnalysis> analysis; // the findings and rounds of that trace
};

struct CaseOutcome {
    size_t index = 0; // 0-based case index
    bool pass = false;
    // The learner's view of a hidden case (check/hidden_cases.h): only the verdict and the kinds
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
    std::vector<DispatchTrace> dispatches;
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

// What a case came to, in one word, for every reader (the command line, case files, the panels,
// the subgroup-size verdict): CaseOutcome keeps `pass` and `inconclusive` (a failing case whose
// trace could not hold what its threads did); this is the one reading of them.
enum class Verdict { Pass, Fail, Inconclusive };
Verdict verdictOf(const CaseOutcome& c);
const char* verdictWord(Verdict v); // "pass", "FAIL", "INCONCLUSIVE"

// A case that failed in a run beside the check's own (another subgroup size, fresh inputs,
// atomics in reverse lane order).
struct CaseFailure {
    size_t index = 0;   // 0-based case
    std::string detail; // its first wrong cell, finding or error; empty for a hidden case
    // It could not run there (CaseOutcome::error: the worker crashed, it never finished...): no
    // answer to call right or wrong. `detail` is the error's message, which names the case.
    bool error = false;
};

// The check run again (traced as the check was) on a device with another subgroup size
// (check/subgroup_sizes.h): a kernel right with one number of lanes and wrong with another
// assumes a subgroup size.
struct SubgroupSizeRun {
    uint32_t lanes = 0;         // gl_SubgroupSize there
    std::string device;         // what it ran on: "llvmpipe (LLVM 15.0.6, 128 bits)"
    std::optional<Error> error; // it could not run there (no CPU device...): no verdict either way
    std::vector<CaseFailure> failures; // the cases that fail at this size, in order
    size_t casesRun = 0;               // cases with a verdict at this size: run here, or carried
    // Cases not run here, judged where they ran: each of their workgroups is one subgroup here and
    // there (check/subgroup_sizes.h); in order. Their failures there are in failures.
    struct Carried {
        size_t index = 0;   // 0-based case
        uint32_t lanes = 0; // the size it ran at
    };
    std::vector<Carried> carried;

    bool pass() const { return !error && failures.empty() && casesRun > 0; }
};

// The check's cases run again beside it, untraced, changed in one way (below).
struct CasesRunBeside {
    std::optional<Error> error;        // the run stopped (a device error): no verdict either way
    std::vector<CaseFailure> failures; // the cases that fail in this run
    size_t casesRun = 0;

    bool pass() const { return !error && failures.empty(); }
};

// The cases with random inputs run again with inputs drawn from a fresh seed
// (check/fresh_inputs.h): a kernel right only on the puzzle's fixed data was lucky.
struct FreshInputsRun : CasesRunBeside {
    uint64_t seed = 0; // `check --seed` replays it
};

// The cases run again with every subgroup's lanes doing their atomics last lane first
// (check/atomic_order.h): a kernel right in one order only depends on the device's.
struct ReversedOrderRun : CasesRunBeside {};

// The smallest failing case a search found ([[search]] in puzzle.toml, check/case_search.h):
// the template case at another size and workgroup size, with fresh random inputs.
struct FoundCase {
    size_t search = 0;       // 0-based, in Puzzle::searches
    size_t templateCase = 0; // 0-based
    uint64_t n = 0;          // the first input's elements
    std::array<uint32_t, 3> workgroupSize{1, 1, 1}, workgroups{1, 1, 1};
    std::string detail;  // its first wrong cell, finding or error
    uint64_t foundN = 0; // as first found, before shrinking
    std::array<uint32_t, 3> foundWorkgroupSize{1, 1, 1};
    size_t shrinkRuns = 0; // the runs shrinking took
    // The inputs as `vkpuzzles run --input` takes them (name, values), where every input is small
    // enough to print (at most kFoundCaseValues values); empty otherwise.
    std::vector<std::pair<std::string, std::string>> inputs;
};
inline constexpr uint64_t kFoundCaseValues = 64;

// The cases a puzzle's searches generated and ran, untraced, after the check (--seed draws the
// same ones again).
struct CaseSearchRun {
    uint64_t seed = 0;
    size_t casesRun = 0;
    std::optional<Error> error; // it could not run (a device error): no verdict either way
    std::optional<FoundCase> found;

    bool pass() const { return !error && !found; }
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
    bool usesAtomics = false;   // some kernel performs an atomic operation
    // Why the cases ran untraced though a trace was asked for (empty: they did as asked).
    std::string untraced;
    // The same cases at other subgroup sizes, after the device's own (empty: not run there; the
    // kernel uses no subgroup operation, or only the device's own size was asked for).
    std::vector<SubgroupSizeRun> otherSizes;
    // The cases with random inputs again with a fresh seed, after the rest (empty: not run).
    std::optional<FreshInputsRun> fresh;
    // The cases again with atomics in reverse lane order (empty: not run).
    std::optional<ReversedOrderRun> reversed;
    // The cases the puzzle's searches generated (empty: not run, or the puzzle has none).
    std::optional<CaseSearchRun> search;

    bool compiled() const { return reached != StageKind::Compile; }
    // Every case ran and passed, no error diagnostics, and no case failed at another subgroup
    // size or with fresh inputs.
    bool allPass() const;
    size_t passCount() const;
};

// What failed first in a case, in one line: its error, a race, out-of-bounds access, uninitialised
// read, divergent barrier or undefined shuffle that makes its values luck (traced), its first
// wrong cell ("result[3]: expected 5, got 4 (2 of 8 cells wrong)"), or its first finding.
std::string caseFailureDetail(const Puzzle& puzzle, const CaseOutcome& c);

// What the forced schedules of a case did, for the learner: ScheduleReport::text as it is when
// one dispatch had one; with several (a schedule in every round of a multi-pass puzzle), one
// line per kind of outcome, the first dispatch's text with how many dispatches ended that way.
std::vector<std::string> scheduleLines(const CaseOutcome& c);

// Whether a case's forced schedule may not have taken place (ScheduleReport::mayHaveMissed): in
// no dispatch did a workgroup reach the point, or one that did may have missed it. A dispatch
// where nothing reached it beside one where something did is no miss: a by-index schedule names
// an element of one round, and the other rounds' dispatches never write it.
bool scheduleMayHaveMissed(const CaseOutcome& c);

} // namespace vkp
