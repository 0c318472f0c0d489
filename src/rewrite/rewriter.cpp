#include "rewrite/rewriter.h"

#include <utility>

#include "rewrite/atomic_order_rewriter.h"
#include "rewrite/lockstep_barriers.h"
#include "rewrite/printf_rewrite.h"
#include "rewrite/rolled_loops.h"
#include "rewrite/subgroup_emulation.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

// A rewriter that needs nothing but the words.
Rewriter wordsRewriter(std::string name,
                       Result<std::vector<uint32_t>> (*rewrite)(std::span<const uint32_t>)) {
    return Rewriter(std::move(name), [rewrite](std::span<const uint32_t> spirv, RewriteState&) {
        return rewrite(spirv);
    });
}

// An instrumentation rewriter: its words go on down the pipeline, the rest into the state.
Result<std::vector<uint32_t>> keepInstrumented(Result<InstrumentResult> r, RewriteState& state) {
    if (!r) return r.error();
    std::vector<uint32_t> words = std::move(r->spirv);
    r->spirv.clear();
    state.instrumented = std::move(*r);
    return words;
}

} // namespace

Result<std::vector<uint32_t>> runRewriters(std::span<const uint32_t> spirv,
                                           std::span<const Rewriter> rewriters,
                                           RewriteState& state) {
    std::vector<uint32_t> words(spirv.begin(), spirv.end());
    for (const Rewriter& rewriter : rewriters) {
        auto next = rewriter.run(words, state);
        if (!next) return next.error();
        words = std::move(*next);
    }
    return words;
}

Rewriter instrumentRewriter(const InstrumentOptions& options) {
    return Rewriter("instrument", [options](std::span<const uint32_t> spirv, RewriteState& state) {
        return keepInstrumented(instrumentKernel(spirv, options), state);
    });
}

Rewriter guardRewriter(uint32_t loopBudget, const InstrumentOptions& options) {
    return Rewriter("guard",
                    [loopBudget, options](std::span<const uint32_t> spirv, RewriteState& state) {
                        return keepInstrumented(guardKernel(spirv, loopBudget, options), state);
                    });
}

Rewriter reverseAtomicsRewriter() {
    return wordsRewriter("reverse atomics", &reverseAtomicOrder);
}

Rewriter emulationRewriter(uint32_t lanes, uint32_t deviceLanes) {
    return Rewriter("emulate " + std::to_string(lanes) + " lanes",
                    [lanes, deviceLanes](std::span<const uint32_t> spirv,
                                         RewriteState&) -> Result<std::vector<uint32_t>> {
                        auto emulated = emulateSubgroupSize(spirv, lanes, deviceLanes);
                        if (!emulated)
                            return Error{ErrorKind::Device,
                                         "the kernel could not be run as if with " +
                                             std::to_string(lanes) +
                                             " lanes: " + emulated.error().message};
                        return emulated;
                    });
}

Rewriter stripDebugInfoRewriter() {
    return wordsRewriter("strip debug info", &stripDebugInfo);
}
Rewriter lockstepBarriersRewriter() {
    return wordsRewriter("lock-step barriers", &lockstepSubgroupBarriers);
}
Rewriter rolledLoopsRewriter() {
    return wordsRewriter("keep loops rolled", &keepLoopsRolled);
}
Rewriter stripDebugPrintfRewriter() {
    return wordsRewriter("strip printf", &stripDebugPrintf);
}

} // namespace vkp
