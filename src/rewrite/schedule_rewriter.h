// The forced-schedule rewriter (traced kernels only): every write to a storage buffer (a store or
// an atomic) calls scheduleAt(binding, index, after) before and after itself, and the entry point
// counts its invocations in and out. Which buffer, which point and which workgroup are data in the
// trace buffer's schedule block (trace/forced_schedule.h), so one instrumented kernel serves every
// case; header word 0 = 0 turns it all off. The block's config word is also the specialization
// constant kScheduleConfigSpecId, which every hook tests first: a pipeline specialized for a case
// keeps only the hooks that case's schedule can reach, and none without one. The held invocation
// spins in the appended helper function, so the kernel's own control flow is untouched. Every
// 32-bit read of the scheduled buffer goes through scheduleView(binding, index, value): once a
// by-index hold has begun, the other workgroups read the held element as it was at the hold point
// (its later writes stay hidden), so what they see no longer depends on how long the hold could
// last.
#pragma once

#include <map>
#include <vector>

#include "rewrite/instrument_state.h"

namespace vkp {

class ScheduleRewriter {
  public:
    explicit ScheduleRewriter(InstrumentState& state) : m_state(state) {}

    void declare(); // after the trace objects: ids of the helpers and their Private flag
    void build();   // appends scheduleStart(), scheduleFinish() and scheduleAt()
    void beginFunction(bool entryPoint);
    // Calls that go before the instruction (the entry's start, a write's "before" point, the
    // entry's returns) and after it (a write's "after" point).
    void before(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);
    void after(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);
    // A read of the scheduled buffer: emits it with a new result id, then the scheduleView() call
    // that defines the old one, and returns true. False (nothing emitted) for anything else.
    bool rewriteRead(const SpirvInstruction& inst, std::vector<SpirvInstruction>& out);

  private:
    struct Target {
        uint32_t binding = 0;
        uint32_t index = 0; // id of the element index (0: none, element 0)
    };

    uint32_t writtenPointer(const SpirvInstruction& inst) const; // 0: not a buffer write
    uint32_t readPointer(const SpirvInstruction& inst) const;    // 0: not a scalar buffer read
    bool isScalar32(uint32_t type) const; // a 32-bit int or float: the words a view can freeze
    uint32_t valueAt(uint32_t pointer, SpirvBuilder& b); // as uint, or 0
    void noteChain(const SpirvInstruction& inst);
    void callAt(const SpirvInstruction& inst, bool after, SpirvBuilder& b);

    // The appended functions (schedule_functions.cpp).
    struct AtCall { // scheduleAt's parameters, locals, and values its steps share
        uint32_t binding = 0, index = 0, after = 0, value = 0;
        uint32_t polls = 0, inner = 0;     // Function variables
        uint32_t chosen = 0, chosenAt = 0; // Function variables: 1 to hold, at this arrival place
        uint32_t block = 0, byIndex = 0, target = 0, group = 0, place = 0;
    };
    struct SpinWords { // what the spin loop reads: counts and pointers into the block
        uint32_t others = 0, bound = 0, perGroup = 0, firstAfter = 0;
        uint32_t finishedAt = 0, startedAt = 0, arrivalsAt = 0;
    };
    struct Progress {
        uint32_t finished = 0, arrivals = 0, all = 0, idle = 0, later = 0;
    };
    void buildCounter(uint32_t function, uint32_t word, bool onlyOthers);
    void buildAt();
    void atConfiguredPoint(SpirvBuilder& b, AtCall& call);
    void giveUpView(SpirvBuilder& b, const AtCall& call);
    void firstArrival(SpirvBuilder& b, AtCall& call);
    void hold(SpirvBuilder& b, const AtCall& call);
    Progress progress(SpirvBuilder& b, const SpinWords& w);
    void spin(SpirvBuilder& b, const AtCall& call);
    void reportOutcome(SpirvBuilder& b, const AtCall& call, const Progress& p);
    void buildView();
    void viewHeldElement(SpirvBuilder& b, uint32_t block, uint32_t seen);
    uint32_t workgroupIndex(SpirvBuilder& b);
    uint32_t workgroupTicket(SpirvBuilder& b);
    uint32_t blockWord(SpirvBuilder& b, uint32_t block, uint32_t word);
    uint32_t loadWord(SpirvBuilder& b, uint32_t block, uint32_t word);
    uint32_t atomicLoad(SpirvBuilder& b, uint32_t pointer);
    uint32_t configHas(SpirvBuilder& b, uint32_t flag);
    uint32_t inactive(SpirvBuilder& b);

    InstrumentState& m_state;
    std::map<uint32_t, Target> m_pointers; // pointer id -> the buffer and element it points at
    bool m_active = false;                 // some binding may hold a workgroup (declare() ran)
    bool m_entry = false, m_startPending = false, m_inBlock = false;
    uint32_t m_reached = 0; // Private: this invocation has passed the point once
    uint32_t m_config = 0;  // the specialization constant kScheduleConfigSpecId
                            // (m_config & kScheduleActive) == 0: the case has no schedule.
    uint32_t m_startFunction = 0, m_finishFunction = 0, m_atFunction = 0, m_viewFunction = 0;
    uint32_t m_voidFunctionType = 0, m_atFunctionType = 0, m_viewFunctionType = 0;
};

} // namespace vkp
