// The access-log rewriter: finds the variables a trace follows (storage buffers, shared arrays),
// follows pointers into them through access chains and copies, and gives every load, store,
// atomic and OpCopyMemory on them a record (variable, flat element index, value) in the trace
// (trace/trace.h), and every value a subgroup shuffle or broadcast hands over a Shuffle record.
// A whole array, struct, vector or matrix moved at once is recorded as the scalar accesses it
// is: one record per scalar leaf (access_log_composite.cpp).
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "rewrite/instrument_state.h"
#include "shader/reflect.h"

namespace vkp {

// The shuffle or broadcast an opcode is (OpGroupNonUniformShuffle* and Broadcast*); none for any
// other.
std::optional<ShuffleOp> shuffleOpFor(spv::Op op);

// 1 (a uint) when the lane a shuffle takes from (its lane operand `lane`: the lane, mask or delta
// of `op`) is not in `ballot` (the lanes that ran it) or is past 127, else 0: its value is then
// undefined.
uint32_t shuffleSourceInactive(InstrumentState& state, SpirvBuilder& b, ShuffleOp op, uint32_t lane,
                               uint32_t ballot);

class AccessLogRewriter {
  public:
    AccessLogRewriter(InstrumentState& state, const KernelInterface& reflected)
        : m_state(state), m_reflected(reflected) {}

    void findVariables(); // fills state.layout.variables
    // Records that go before the instruction (a store: a faulting write is still logged), and
    // after it (a load or an atomic: the value is known).
    void before(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);
    void after(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);

  private:
    // A pointer into a traced variable: the variable and the access-chain indices from it.
    struct Chain {
        uint32_t variable = 0; // index in the layout
        std::vector<uint32_t> indices;
    };

    void describeBuffer(uint32_t var, uint32_t block, TracedVariable& v) const;
    void describeShared(uint32_t var, TracedVariable& v) const;
    std::optional<Chain> chainOf(uint32_t pointer) const;
    std::vector<uint32_t> flatFactors(uint32_t type);
    uint32_t flatIndex(SpirvBuilder& b, const Chain& chain, uint32_t pointee);
    uint32_t valueWord(SpirvBuilder& b, uint32_t value, uint32_t type);
    void access(SpirvBuilder& b, TraceEventKind kind, uint32_t pointer, uint32_t value,
                uint32_t valueType, uint32_t extra = 0);
    void copyMemory(const SpirvInstruction& inst, SpirvBuilder& b);
    void shuffle(const SpirvInstruction& inst, SpirvBuilder& b);

    // Composites (access_log_composite.cpp): a call that records every scalar leaf of `value`,
    // and the helper functions such calls go to, one per composite type, appended to the module.
    bool isComposite(uint32_t type) const;
    void recordLeaves(SpirvBuilder& b, uint32_t w0, uint32_t value, uint32_t type, uint32_t base);
    uint32_t leafRecorder(uint32_t type);
    void recordChildren(SpirvBuilder& b, uint32_t w0, uint32_t value, uint32_t type, uint32_t base);
    // extra: packVectorPart for a vector's component (trace/trace.h), 0 for a scalar of its own.
    void recordLeaf(SpirvBuilder& b, uint32_t w0, uint32_t value, uint32_t type, uint32_t index,
                    uint32_t extra = 0);
    void recordArrayInLoop(SpirvBuilder& b, uint32_t fromLabel, uint32_t w0, uint32_t variable,
                           uint32_t type, uint32_t base);
    std::optional<uint64_t> constantLeafCount(uint32_t type) const;
    uint32_t leafStride(SpirvBuilder& b, uint32_t type);

    InstrumentState& m_state;
    const KernelInterface& m_reflected;
    std::map<uint32_t, uint32_t> m_layoutIndex;   // variable id -> index in the layout
    std::vector<uint32_t> m_pointees;             // by layout index: the variable's pointee type
    std::map<uint32_t, Chain> m_chains;           // pointer id -> chain
    std::map<uint32_t, uint32_t> m_leafRecorders; // composite type -> its helper function
};

} // namespace vkp
