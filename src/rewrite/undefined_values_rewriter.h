// The undefined-values rewriter (traced kernels only): follows the values subgroup shuffles and
// broadcasts hand over, so that an undefined one (taken from a lane that did not run the op: a
// missing partner in a partly filled subgroup, a lane past the subgroup) is a finding only where
// it is used, and a lane that takes such a value and drops it is right (judge/trace_analysis).
// Every value computed from a shuffle's result, and every Function variable one is stored in, gets
// a shadow bool that says "undefined here": a shuffle's is whether its source lane ran it; an
// operation's is the OR of its operands' (a select's, the chosen operand's); a subgroup
// operation's, whether any lane's is; a variable's, what was last stored in it (a store to part
// of it adds to it). Where a shadow that holds reaches a store to memory, a branch's condition,
// an index, an atomic's operand, a call's argument or a return, the thread makes an UndefinedUse
// record (trace/trace.h). Only the values that can come from a shuffle (found before rewriting,
// per function) get shadows.
#pragma once

#include <map>
#include <set>
#include <span>
#include <vector>

#include "rewrite/instrument_state.h"

namespace vkp {

class UndefinedValuesRewriter {
  public:
    explicit UndefinedValuesRewriter(InstrumentState& state) : m_state(state) {}

    void build(); // appends noteUndefined(flag, w0); after the trace functions
    // The values a function's shuffles reach (before its instructions are rewritten).
    void beginFunction(std::span<const SpirvInstruction> function);
    // The first block's label was emitted: the shadows of variables go right after it.
    void afterFirstLabel(std::vector<SpirvInstruction>& out);
    // A use that goes before the instruction (`next`: the instruction after it, for a merge
    // instruction whose branch follows), and the shadows defined after it.
    void before(const SpirvInstruction& inst, const SpirvInstruction* next,
                std::vector<SpirvInstruction>& out);
    void after(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);

  private:
    bool followed(uint32_t id) const { return m_shadow.count(id) > 0; }
    uint32_t shadowOf(uint32_t id);                // the shadow id, or false
    uint32_t rootVariable(uint32_t pointer) const; // a Function variable a pointer is into, or 0
    uint32_t anyOf(SpirvBuilder& b, const std::vector<uint32_t>& ids);
    void noteIf(SpirvBuilder& b, uint32_t flag);
    void use(SpirvBuilder& b, std::vector<uint32_t> ids);
    uint32_t shuffleFlag(const SpirvInstruction& inst, SpirvBuilder& b);

    InstrumentState& m_state;
    uint32_t m_function = 0, m_functionType = 0, m_bool = 0;
    std::map<uint32_t, uint32_t> m_shadow;    // followed value -> its shadow's id
    std::map<uint32_t, uint32_t> m_variables; // followed Function variable -> its shadow variable
    std::set<uint32_t> m_functionVariables;   // the function's Function variables
    bool m_mergeSeen = false; // the instruction before was a merge (its branch's use is written)
};

} // namespace vkp
