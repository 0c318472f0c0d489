// Makes a traced variant of a kernel by rewriting its SPIR-V: every load, store and atomic on a
// storage buffer or shared array, every control barrier and every debugPrintfEXT call appends a
// record to a trace buffer (format in trace/trace.h); loop back-edges count against a
// per-invocation budget. guardKernel drops the debugPrintfEXT calls (rewrite/printf_rewrite.h).
// guardKernel makes the cheap variant untraced runs use: only the back-edge counter, reporting
// into a loop-guard buffer (trace/trace.h), so an endless loop is never silently cut off.
// Both keep every access to a shared array within it (rewrite/shared_bounds_rewriter.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "trace/trace.h"

namespace vkp {

struct InstrumentOptions {
    uint32_t traceSet = 1; // the trace buffer's descriptor set and binding
    uint32_t traceBinding = 0;
    bool loopBudget = true; // stop loops after the header's budget of back-edges
    // Count a subgroup's back-edges, not each invocation's own: at each back-edge the count
    // becomes the most any active lane of the subgroup has counted, plus one. A device that runs
    // a subgroup as one SIMD vector (lavapipe) counts the vector's back-edges against its 65535,
    // and those are more than any one lane's where the lanes' loops take turns being the longest:
    // counted per lane, the budget would not fire before the driver cut the loop off silently.
    // Needs GroupNonUniformArithmetic (declared), which such a device has.
    bool subgroupLoopCount = false;
    // Storage-buffer bindings (set 0) whose writes may hold a workgroup
    // (rewrite/schedule_rewriter.h); empty: no forced-schedule hooks at all.
    std::vector<uint32_t> scheduleBindings;
};

struct InstrumentResult {
    std::vector<uint32_t> spirv;
    TraceLayout layout;
    uint32_t accessSites = 0;  // loads/stores/atomics instrumented
    uint32_t loopsGuarded = 0; // back-edges given a budget
    uint32_t printfCalls = 0;  // debugPrintfEXT calls turned into records (layout.printfFormats)
    uint32_t sharedIndicesClamped = 0; // shared-array indices kept in bounds
};

// Expects a kernel compiled with debug info (OpLine) for source lines; works without.
Result<InstrumentResult> instrumentKernel(std::span<const uint32_t> spirv,
                                          const InstrumentOptions& options = {});

// The loop budget and the shared bounds alone: every back-edge counts against `loopBudget` (per
// invocation, shared by all its loops, as in instrumentKernel); the first invocation to run out
// leaves where in the loop-guard buffer at (traceSet, traceBinding). No access is logged. `layout`
// names only the guard buffer's set and binding.
Result<InstrumentResult> guardKernel(std::span<const uint32_t> spirv, uint32_t loopBudget,
                                     const InstrumentOptions& options = {});

} // namespace vkp
