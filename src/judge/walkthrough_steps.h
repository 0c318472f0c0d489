// A walkthrough's steps against a traced run of the official solution (puzzle/walkthrough.h holds
// the file and its model): checking every step's focus, and what the players (CLI and GUI) show
// for a step.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "judge/trace_analysis.h"
#include "puzzle/puzzle.h"
#include "puzzle/walkthrough.h"
#include "trace/trace.h"

namespace vkp {

// What the steps of one dispatch are checked against: the official solution of its kernel and
// that dispatch's trace on the walkthrough's case.
struct WalkthroughSubject {
    std::string source; // the kernel's solution text
    std::string file;   // its file name, for messages ("scatter.comp")
    const Trace* trace = nullptr;
};

// Per case (0-based), the subjects of its dispatches: what the steps that show that case are
// checked against.
using WalkthroughCaseSubjects = std::map<size_t, std::vector<WalkthroughSubject>>;

// Checks a loaded walkthrough against the official solution and its traced runs, per step
// against the subject of the step's dispatch of the step's case (cases[case][d]): lines exist,
// rounds happened in that workgroup, threads and workgroups are inside the launch, cells name a
// traced variable and lie inside it, a step that shows the look-back shows a dispatch that uses
// its status buffer. One message per problem; a step whose case is missing is one.
std::vector<Diagnostic> validateWalkthrough(const Walkthrough& w, const Puzzle& puzzle,
                                            const WalkthroughCaseSubjects& cases);
// The same where every step shows the walkthrough's own case (subjects: its dispatches).
std::vector<Diagnostic> validateWalkthrough(const Walkthrough& w, const Puzzle& puzzle,
                                            const std::vector<WalkthroughSubject>& subjects);
// The same for a run of one dispatch.
std::vector<Diagnostic> validateWalkthrough(const Walkthrough& w, const Puzzle& puzzle,
                                            const std::string& solutionSource, const Trace& trace);
// The same for an official solution that runs untraced (it uses cooperative matrices): its
// steps' lines exist, and no step names threads, workgroups, rounds or cells.
std::vector<Diagnostic> validateUntracedWalkthrough(const Walkthrough& w, const Puzzle& puzzle,
                                                    const std::string& solutionSource);

// Helpers the players share (CLI and GUI), so both read a focus the same way.
// The flat invocation index of a global invocation id; nullopt outside the launch.
std::optional<uint64_t> invocationOfGlobalId(const TraceLaunch& launch,
                                             const std::array<uint32_t, 3>& global);
// The flat workgroup index of a workgroup id; nullopt outside the launch.
std::optional<uint64_t> workgroupIndex(const TraceLaunch& launch,
                                       const std::array<uint32_t, 3>& group);
// The workgroup a step is about: its own, else the first focused thread's, else 0.
uint64_t focusedWorkgroup(const WalkthroughFocus& focus, const TraceLaunch& launch);
// Index of the traced variable named `name`, or nullopt.
std::optional<size_t> tracedVariable(const Trace& trace, const std::string& name);
// The cell's flat index in that variable: [i] as is, [row, col] row-major over its two dims
// (scalars, as TraceEvent::index counts them); nullopt when outside it.
std::optional<uint64_t> flatCellIndex(const TraceVariableInfo& variable,
                                      const std::vector<uint32_t>& index);
// The shared arrays of workgroup `group` at the end of round `round`; nullptr when none.
const SharedSnapshot* snapshotAt(const TraceAnalysis& analysis, uint64_t group, uint32_t round);

// A step's focus resolved against one traced run: what a player highlights and shows.
struct ResolvedCell {
    size_t variable = 0; // index into Trace::variables
    uint64_t flat = 0;   // flattened index, as TraceEvent::index
};
struct WalkthroughStepState {
    uint64_t workgroup = 0;        // flat index of the focused workgroup
    std::optional<uint32_t> round; // the step's round, else the last one when it shows shared cells
    const SharedSnapshot* shared =
        nullptr;                       // that workgroup's shared arrays then (into the analysis)
    std::vector<uint64_t> invocations; // focused threads inside the launch
    std::vector<ResolvedCell> cells; // focused cells that name a traced variable and lie inside it

    bool highlighted(size_t variable, uint64_t flat) const;
};
// Threads and cells outside the trace are left out (validateWalkthrough reports them).
WalkthroughStepState resolveStep(const WalkthroughFocus& focus, const Trace& trace,
                                 const TraceAnalysis& analysis);

} // namespace vkp
