// One check of a kernel against a puzzle: compile -> reflect/validate -> run every case -> compare.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "puzzle/puzzle.h"
#include "report/check_report.h"

namespace vkp {

class Compiler;
class DeviceRunner;
class GpuContext;

// The trace room (record slots per thread, per dispatch) that cases of one puzzle needed in
// earlier traced checks, where the default room was too small. A later check starts such a case
// with it instead of overflowing and running the case again: the app's live loop checks the
// same cases at every edit, and a kernel that polls (a look-back) overflows the default at every
// one. A check reads and updates it; it drops a case that fits the default again, and keeps none
// that was traced in parts. One per puzzle, kept by the front end between checks.
struct TraceRoomMemory {
    struct Room {
        std::vector<uint64_t> invocations; // per dispatch: its threads, for which the room was
        std::vector<uint32_t> slots;       // per dispatch
    };
    std::map<size_t, Room> cases; // by case index (0-based)
};

struct CheckOptions {
    std::optional<size_t> onlyCase; // 0-based; all cases when empty
    std::vector<size_t> someCases;  // 0-based, in order: only these (when onlyCase is empty)
    uint64_t timeoutMs = 0; // per case; 0: the device's default (2 s on a GPU, 60 s on a CPU)
    bool trace = false;     // run an instrumented variant and analyse what it did
    uint32_t loopBudget = kDefaultLoopBudget; // back-edges per thread (traced, or guarded)
    // Untraced runs count loop back-edges too (guardKernel), so an endless loop is reported, never
    // cut off silently by the driver (lavapipe stops loops at 65535) and passed; and their shared
    // arrays' indices are kept in bounds.
    bool loopGuard = true;
    // Count the budget per subgroup, as lavapipe does (InstrumentOptions::subgroupLoopCount):
    // checkProgram sets it for a device whose subgroups run in lock-step.
    bool subgroupLoopCount = false;
    uint64_t traceRecords = 1u << 20; // trace capacity per case (16 MiB), shared among its threads
    // A case whose trace overflowed is re-run alone with room for every record its threads made,
    // up to this many bytes of trace at once (and the device's limit for one buffer); a
    // multi-pass case needing more runs once per part of its dispatches; a dispatch that alone
    // needs more is inconclusive.
    uint64_t maxTraceBytes = 256ull << 20;
    // Traced: where to start and what to remember of each case's room (null: the default room).
    TraceRoomMemory* traceRoom = nullptr;
    // Traced checks hold a workgroup where the puzzle declares a [[schedule]] for the case.
    bool forcedSchedules = true;
    // Traced checks judge the puzzle's efficiency limits ([limits] global_efficiency,
    // bank_conflicts, divergent_requests, global_atomics_per_workgroup). The runs at other
    // subgroup sizes do not: which lanes make one request depends on the size (a row per subgroup
    // of 4 lanes is less coalesced than one per subgroup of 32, and rightly so).
    bool efficiencyLimits = true;
    // Untraced only: every subgroup's lanes do each atomic last lane first
    // (rewrite/atomic_order_rewriter.h, check/atomic_order.h).
    bool reverseAtomics = false;
    // Run as if the device's subgroups had this many lanes (0: its own), emulated
    // (rewrite/subgroup_emulation.h): the sizes no device here has (check/subgroup_sizes.h).
    uint32_t emulatedLanes = 0;
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

// The cases of a compiled program (check/compile_stage.h) run on `runner` and compared: the
// stages of checkProgram after compiling. `report` holds what compiling said.
void runCompiled(DeviceRunner& runner, const Puzzle& puzzle, std::vector<CompiledKernel> kernels,
                 const CheckOptions& options, CheckReport& report);

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
