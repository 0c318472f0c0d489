// The emulation's steps (rewrite/subgroup_emulation.h): a barrier() of the kernel, which waits
// until every thread of the workgroup has reached one or ended, the end of a thread, and the new
// main that starts the bookkeeping and keeps a real subgroup taking steps until all have ended.
#include "rewrite/subgroup_emulator.h"

namespace vkp {

// The step a thread that arrives at a barrier() or ends takes as the workgroup's: the one the
// real subgroups already waiting at a barrier() are at (lavapipe resumes a workgroup's real
// subgroups in order, so those after this one have not yet counted the step under way), or,
// when none waits, its own. Returns whether any waits, and the step (also its own from now).
std::pair<uint32_t, uint32_t> SubgroupEmulator::joinStep(SpirvBuilder& b, uint32_t group) {
    uint32_t entry = b.currentBlock();
    SpirvBuilder::Loop loop = b.newLoop();
    uint32_t k = 0, best = 0, have = 0;
    uint32_t nextK = m.newId(), nextBest = m.newId(), nextHave = m.newId();
    auto step = [&] { b.define(nextK, Op::OpIAdd, m_uint, {k, b.uint(1)}); };
    b.loop(
        loop,
        [&] {
            k = m.newId();
            best = m.newId();
            have = m.newId();
            m_ownPhis.insert({k, best, have});
            b.define(k, Op::OpPhi, m_uint, {b.uint(0), entry, nextK, loop.continueTarget});
            b.define(best, Op::OpPhi, m_uint, {b.uint(0), entry, nextBest, loop.continueTarget});
            b.define(have, Op::OpPhi, m_bool,
                     {m.constFalse(), entry, nextHave, loop.continueTarget});
            return b.less(k, m_groups);
        },
        [&] {
            uint32_t waits = b.notEqual(loadWord(b, m_waiting, k), b.uint(0));
            uint32_t takes = b.logicalAnd(waits, b.notEqual(k, group));
            uint32_t later = b.select(m_uint, b.greater(k, group), b.uint(1), b.uint(0));
            uint32_t step = b.add(loadWord(b, m_steps, k), later);
            uint32_t larger = b.select(m_uint, b.less(best, step), step, best);
            b.define(nextBest, Op::OpSelect, m_uint, {takes, larger, best});
            b.define(nextHave, Op::OpLogicalOr, m_bool, {have, takes});
            return 0u;
        },
        step);
    uint32_t taken = b.select(m_uint, have, best, loadWord(b, m_steps, group));
    storeWord(b, m_steps, group, taken);
    return {have, taken};
}

// A barrier() of the kernel: this thread has arrived; its real subgroup takes steps until
// every thread of the workgroup has arrived at one or ended, in an earlier step than the one
// it reads (every waiting real subgroup decides alike, in the same step).
void SubgroupEmulator::workgroupBarrier(SpirvBuilder& b, const SpirvInstruction& inst) {
    uint32_t index = b.load(m_uint, m_localIndex);
    uint32_t group = b.div(index, b.uint(R));
    uint32_t step = joinStep(b, group).second;
    storeWord(b, m_waiting, group, b.uint(1));
    b.atomic(Op::OpAtomicIAdd, word(b, m_sync, b.uint(kArrivals)), spv::Scope::Workgroup, 0,
             {b.uint(1)});
    storeWord(b, m_sync, b.uint(kLast), step);
    std::vector<uint32_t> operands(inst.operands().begin(), inst.operands().end());
    SpirvBuilder::Loop loop = b.newLoop();
    b.loop(loop, {}, [&] {
        barrier(b, operands);
        uint32_t now = b.add(loadWord(b, m_steps, group), b.uint(1));
        storeWord(b, m_steps, group, now);
        uint32_t arrived = b.atomic(Op::OpAtomicLoad, word(b, m_sync, b.uint(kArrivals)),
                                    spv::Scope::Workgroup, 0);
        uint32_t ended =
            b.atomic(Op::OpAtomicLoad, word(b, m_sync, b.uint(kExits)), spv::Scope::Workgroup, 0);
        uint32_t last = loadWord(b, m_sync, b.uint(kLast));
        uint32_t base = b.load(m_uint, m_base);
        uint32_t all = b.equal(b.add(b.sub(arrived, base), ended), m_threads);
        uint32_t done = b.logicalAnd(all, b.less(last, now));
        b.store(m_base, b.select(m_uint, done, arrived, base));
        storeWord(b, m_waiting, group, b.select(m_uint, done, b.uint(0), b.uint(1)));
        // lavapipe runs a partial real subgroup's missing lanes (an index past the
        // workgroup) through loops, though nothing they do counts: they leave at once.
        return b.logicalOr(done, b.greaterEqual(index, m_threads));
    });
    // Every waiting real subgroup reads the counts of the step it leaves in before any of
    // them goes on (and ends, or arrives at the next barrier, counting again).
    barrier(b, operands);
}

// A thread ends: counted, at the step of those waiting (if any do).
void SubgroupEmulator::threadEnds(SpirvBuilder& b) {
    uint32_t group = b.div(b.load(m_uint, m_localIndex), b.uint(R));
    auto [waits, step] = joinStep(b, group);
    b.atomic(Op::OpAtomicIAdd, word(b, m_sync, b.uint(kExits)), spv::Scope::Workgroup, 0,
             {b.uint(1)});
    uint32_t last = loadWord(b, m_sync, b.uint(kLast));
    storeWord(b, m_sync, b.uint(kLast), b.select(m_uint, waits, step, last));
}

// The kernel's main becomes a function that a new main calls: first the counts, flags and
// tags start from nothing; after the call, which returns once every lane of the real subgroup
// has ended, the real subgroup keeps taking the workgroup's steps until every thread has
// ended. Mesa 25's lavapipe gives a workgroup one more round of resumptions once any of its
// real subgroups has ended, so one that ended early would cut the others' operations short.
void SubgroupEmulator::wrapEntry(std::vector<SpirvInstruction>& out) {
    uint32_t inner = m.newId(), functionType = 0, resultType = 0;
    for (SpirvInstruction& inst : out)
        if (inst.opcode() == Op::OpFunction && inst.resultId() == m_entry) {
            resultType = inst.resultType();
            functionType = inst.operand(1);
            inst = SpirvInstruction(Op::OpFunction,
                                    {resultType, inner, inst.operand(0), functionType});
        }
    SpirvBuilder b(m, out);
    b.beginFunction(resultType, m_entry, functionType);
    start(b);
    b.call(resultType, inner, {});
    uint32_t index = b.load(m_uint, m_localIndex);
    SpirvBuilder::Loop loop = b.newLoop();
    b.loop(loop, {}, [&] {
        barrier(b);
        uint32_t ended =
            b.atomic(Op::OpAtomicLoad, word(b, m_sync, b.uint(kExits)), spv::Scope::Workgroup, 0);
        return b.logicalOr(b.equal(ended, m_threads), b.greaterEqual(index, m_threads));
    });
    b.instruction(Op::OpReturn, {});
    b.endFunction();
}

// First thing in the kernel: the counts, flags and tags start from nothing.
void SubgroupEmulator::start(SpirvBuilder& b) {
    uint32_t group = b.div(b.load(m_uint, m_localIndex), b.uint(R));
    storeWord(b, m_steps, group, b.uint(0));
    storeWord(b, m_waiting, group, b.uint(0));
    storeWord(b, m_tags, group, b.uint(kAllBits));
    for (uint32_t w = 0; w < kSyncWords; ++w)
        storeWord(b, m_sync, b.uint(w), b.uint(0));
    barrier(b);
}

} // namespace vkp
