// The loop-budget rewriter: every back-edge calls loopOk(line), which counts it against a budget
// per invocation (or per subgroup, as lavapipe counts: InstrumentOptions::subgroupLoopCount); once
// the budget is spent the loop exits to its merge block and the first such exit is reported: as a
// trace record and in the status word (tracing), or in the loop-guard buffer (guardKernel). Phis of
// a merge block get an undefined value for the new predecessor.
#pragma once

#include <map>
#include <set>
#include <span>
#include <vector>

#include "rewrite/instrument_state.h"

namespace vkp {

class LoopBudgetRewriter {
  public:
    explicit LoopBudgetRewriter(InstrumentState& state) : m_state(state) {}

    void buildLoopOk(); // appends loopOk(line) for the state's mode
    void beginFunction(std::span<const SpirvInstruction> function);
    void observe(const SpirvInstruction& inst); // each instruction, after line recovery saw it
    // Emits a back-edge branch with its budget check (true), or does nothing (false).
    bool rewriteBackEdge(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);
    // Before each instruction is copied: counting as lavapipe does
    // (InstrumentOptions::subgroupLoopCount), a loop's merge block adds one to the count after
    // its phis, for the pass that found the loop done (lavapipe counts n + 1 for n back-edges).
    void before(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);
    void endFunction(std::span<SpirvInstruction> rewritten); // the phi fixes

  private:
    struct LoopCount {
        uint32_t line, iterations, ok, first;
    };
    struct Loop {
        uint32_t merge = 0;
        uint32_t line = 0;
    };

    uint32_t budget(SpirvBuilder& b);
    LoopCount beginLoopOk(SpirvBuilder& b);
    void buildTracedLoopOk();
    void buildGuardLoopOk();
    bool isBackEdge(uint32_t target) const;
    uint32_t guardedHeader(const SpirvInstruction& inst) const;
    uint32_t callLoopOk(const Loop& loop, SpirvBuilder& b);
    uint32_t workgroupThreads(SpirvBuilder& b);

    InstrumentState& m_state;
    std::map<uint32_t, size_t> m_blockOrder;           // label -> position in the function
    std::map<uint32_t, Loop> m_loops;                  // header label -> its loop
    std::map<uint32_t, std::set<uint32_t>> m_phiFixes; // merge block -> new predecessors
    uint32_t m_block = 0;                              // the current block's label
    bool m_exitPending = false; // in a loop's merge block, before its count (after its phis)
};

} // namespace vkp
