// SubgroupEmulator, the pass behind emulateSubgroupSize (rewrite/subgroup_emulation.h, which says
// how the emulation works), for the files that define it: subgroup_emulation.cpp (the module as
// found, what the emulation adds, the built-ins, the walk over the functions),
// subgroup_emulation_ops.cpp (the subgroup operations and the pieces of code they are made of)
// and subgroup_emulation_barriers.cpp (a barrier()'s wait, the end of a thread, the new main).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "base/result.h"
#include "shader/spirv_builder.h"
#include "shader/spirv_module.h"

namespace vkp {

class SubgroupEmulator {
  public:
    SubgroupEmulator(SpirvModule& module, uint32_t lanes, uint32_t realLanes)
        : m(module), V(lanes), R(realLanes) {}

    Status run();

  private:
    using Op = spv::Op;

    static constexpr uint32_t kAllBits = 0xFFFFFFFFu;
    // The words of the workgroup's barrier bookkeeping: threads that reached a barrier of the
    // kernel (ever), threads that ended (ever), and the step of the latest of either.
    enum SyncWord : uint32_t { kArrivals = 0, kExits = 1, kLast = 2, kSyncWords = 3 };

    enum class Kind { Uint, Int, Float, Bool };
    struct ValueType {
        uint32_t type = 0, scalar = 0, count = 1;
        Kind kind = Kind::Uint;
    };
    // Where the running thread is, at an operation: its index in the workgroup, its lane and the
    // first index of its virtual subgroup, its real subgroup (in the workgroup and within the
    // virtual one), and the operation's tag.
    struct Here {
        uint32_t index = 0, lane = 0, base = 0, group = 0, groupBase = 0, within = 0, tag = 0;
    };
    // The real subgroups of a virtual one, met: each stores its partial with the operation's
    // tag; across the barrier, a loop over the real subgroups of the virtual one (as many trips
    // as it has: kept a loop, so the code does not grow with the number of lanes) folds in each
    // one's partial: `fold(q, ran, words, state)` is the state after real subgroup q, which ran
    // the operation in this step (`ran`) or not, and left `words`.
    struct Folded {
        uint32_t type = 0, start = 0; // a value carried through the loop, and its first value
    };
    using Fold = std::function<std::vector<uint32_t>(uint32_t q, uint32_t ran,
                                                     const std::vector<uint32_t>& words,
                                                     const std::vector<uint32_t>& state)>;

    // --- The module as found, what the emulation adds, the built-ins, the functions
    // (subgroup_emulation.cpp) ----------------------------------------------------------------

    static bool isArithmetic(Op op);
    static bool readsALane(Op op);
    static bool readsABallot(Op op);
    std::optional<uint32_t> constant(uint32_t id) const;
    Result<ValueType> valueType(uint32_t type) const;
    bool subgroupScoped(const SpirvInstruction& inst) const;
    Status survey();
    bool clusteredWithin(const SpirvInstruction& inst) const;
    Status workgroupSize();
    uint32_t fold(Op op, uint32_t a, uint32_t b, uint32_t (*f)(uint32_t, uint32_t));
    uint32_t times(uint32_t a, uint32_t b);
    uint32_t plus(uint32_t a, uint32_t b);
    uint32_t divide(uint32_t a, uint32_t b);
    uint32_t sharedArray(uint32_t length);
    void declare();
    uint32_t builtinValue(SpirvBuilder& b, spv::BuiltIn builtin);
    Status rewriteFunction(std::span<const SpirvInstruction> function,
                           std::vector<SpirvInstruction>& out);

    // --- Pieces of code and the operations (subgroup_emulation_ops.cpp) -----------------------

    uint32_t word(SpirvBuilder& b, uint32_t array, uint32_t index);
    uint32_t loadWord(SpirvBuilder& b, uint32_t array, uint32_t index);
    void storeWord(SpirvBuilder& b, uint32_t array, uint32_t index, uint32_t v);
    uint32_t minimum(SpirvBuilder& b, uint32_t a, uint32_t c);
    uint32_t workgroupScope();
    Here here(SpirvBuilder& b, uint32_t site);
    void barrier(SpirvBuilder& b, std::vector<uint32_t> operands = {});
    void done(SpirvBuilder& b, const Here& h);
    std::vector<uint32_t> toWords(SpirvBuilder& b, uint32_t v, const ValueType& t);
    uint32_t fromWords(SpirvBuilder& b, const std::vector<uint32_t>& words, const ValueType& t);
    uint32_t choose(SpirvBuilder& b, const ValueType& t, uint32_t condition, uint32_t yes,
                    uint32_t no);
    uint32_t realScope();
    uint32_t lanesFrom(SpirvBuilder& b, uint32_t from, uint32_t w);
    uint32_t laneBits(uint32_t w) const;

    uint32_t readLane(SpirvBuilder& b, const SpirvInstruction& inst, uint32_t site);
    std::vector<uint32_t> meet(SpirvBuilder& b, const Here& h, const std::vector<uint32_t>& partial,
                               const std::vector<Folded>& state, const Fold& fold);
    uint32_t combine(SpirvBuilder& b, Op op, uint32_t type, uint32_t a, uint32_t c);
    uint32_t arithmetic(SpirvBuilder& b, const SpirvInstruction& inst, uint32_t site);
    uint32_t ballot(SpirvBuilder& b, uint32_t predicate, uint32_t site);
    uint32_t vote(SpirvBuilder& b, uint32_t predicate, bool all, uint32_t site);
    uint32_t elect(SpirvBuilder& b, uint32_t site);
    uint32_t broadcastFirst(SpirvBuilder& b, uint32_t value, const ValueType& t, uint32_t site);
    uint32_t ballotBit(SpirvBuilder& b, uint32_t ballotValue, uint32_t index);
    uint32_t readBallot(SpirvBuilder& b, const SpirvInstruction& inst);
    uint32_t emulate(SpirvBuilder& b, const SpirvInstruction& inst, uint32_t site);

    // --- Barriers, the ends of threads, the new main (subgroup_emulation_barriers.cpp) --------

    std::pair<uint32_t, uint32_t> joinStep(SpirvBuilder& b, uint32_t group);
    void workgroupBarrier(SpirvBuilder& b, const SpirvInstruction& inst);
    void threadEnds(SpirvBuilder& b);
    void wrapEntry(std::vector<SpirvInstruction>& out);
    void start(SpirvBuilder& b);

    SpirvModule& m;
    const uint32_t V, R;
    uint32_t m_uint = 0, m_bool = 0, m_uvec4 = 0, m_wordPointer = 0, m_glsl = 0, m_entry = 0;
    uint32_t m_threads = 0, m_groups = 0, m_subgroups = 0, m_site = 0;
    uint32_t m_words = 0, m_laneWords = 0; // of a real subgroup's partial, of a lane's value
    uint32_t m_values = 0, m_partials = 0, m_tags = 0, m_steps = 0, m_waiting = 0, m_sync = 0;
    uint32_t m_base = 0;
    uint32_t m_localIndex = 0;
    std::map<uint32_t, spv::BuiltIn> m_builtins;
    std::set<uint32_t> m_ownPhis; // the step scans' (their parents are right)
};

} // namespace vkp
