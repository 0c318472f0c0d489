// One interface for the rewriters: a Rewriter takes one kernel's SPIR-V and the state the
// rewriters of one pipeline share, and returns the rewritten SPIR-V. runRewriters runs a chosen
// list in order, so any rewriter runs alone (tests/rewrite/rewriter_test.cpp) and a session names
// the list a run needs rather than calling the rewriters one by one (check/check.cpp,
// check/compile_stage.cpp, bench/bench.cpp). The instrumentation's own rewriters (access log,
// barrier rounds, loop budget, schedule, shared bounds, printf, undefined values) walk a kernel
// together, instruction by instruction: here they are two rewriters, instrumentRewriter (traced)
// and guardRewriter (untraced), each also tested on SPIR-V text
// (tests/rewrite/rewriter_text_test.cpp). ("Pass" is the multi-pass puzzle's word, not this.)
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "rewrite/instrument.h"

namespace vkp {

// What the rewriters of one pipeline share: what an instrumentation rewriter did (where its trace
// or loop-guard buffer is, how many sites it rewrote; its words are the pipeline's, not kept
// here).
struct RewriteState {
    std::optional<InstrumentResult> instrumented;
};

class Rewriter {
  public:
    using Run =
        std::function<Result<std::vector<uint32_t>>(std::span<const uint32_t>, RewriteState&)>;
    Rewriter(std::string name, Run run) : m_name(std::move(name)), m_run(std::move(run)) {}
    const std::string& name() const { return m_name; }
    Result<std::vector<uint32_t>> run(std::span<const uint32_t> spirv, RewriteState& state) const {
        return m_run(spirv, state);
    }

  private:
    std::string m_name;
    Run m_run;
};

// Runs `rewriters` in order on `spirv`; the first that fails ends it with its error.
Result<std::vector<uint32_t>> runRewriters(std::span<const uint32_t> spirv,
                                           std::span<const Rewriter> rewriters,
                                           RewriteState& state);

// The rewriters of this library (and shader/'s debug-info strip), each as one step.
Rewriter instrumentRewriter(const InstrumentOptions& options); // rewrite/instrument.h
Rewriter guardRewriter(uint32_t loopBudget,
                       const InstrumentOptions& options); // rewrite/instrument.h
Rewriter reverseAtomicsRewriter();                        // rewrite/atomic_order_rewriter.h
// rewrite/subgroup_emulation.h; its error says which size could not be emulated.
Rewriter emulationRewriter(uint32_t lanes, uint32_t deviceLanes);
Rewriter stripDebugInfoRewriter();   // shader/spirv_tools.h
Rewriter lockstepBarriersRewriter(); // rewrite/lockstep_barriers.h
Rewriter rolledLoopsRewriter();      // rewrite/rolled_loops.h
Rewriter stripDebugPrintfRewriter(); // rewrite/printf_rewrite.h

} // namespace vkp
