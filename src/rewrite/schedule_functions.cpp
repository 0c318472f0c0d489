// The functions the forced-schedule rewriter (rewrite/schedule_rewriter.h) appends to a traced
// kernel: scheduleStart() and scheduleFinish(), which count the invocations in and out;
// scheduleAt(binding, index, after), where the chosen workgroup is held; and scheduleView(binding,
// index, value), what a read of the scheduled buffer sees. Their state is the schedule block in
// the trace buffer (trace/forced_schedule.h).
#include "rewrite/schedule_rewriter.h"
#include "trace/forced_schedule.h"

namespace vkp {
namespace {

using Op = spv::Op;
using spv::StorageClass;

constexpr uint32_t kRelaxed = 0; // memory semantics
// The view's flag and value are relaxed atomics, not a release/acquire pair: lavapipe (Mesa 22)
// drops the lanes of a spinning look-back that acquire in a loop (they never reach the next
// barrier). A reader that sees the flag before the value reads 0, which for a status word that
// starts at 0 (scan-decoupled's) is its value before any write: a view that can happen too.

} // namespace

uint32_t ScheduleRewriter::blockWord(SpirvBuilder& b, uint32_t block, uint32_t word) {
    uint32_t at = word ? b.add(block, b.uint(word)) : block;
    return m_state.traceWord(b, at);
}

uint32_t ScheduleRewriter::loadWord(SpirvBuilder& b, uint32_t block, uint32_t word) {
    return b.load(m_state.ids.uintType, blockWord(b, block, word));
}

uint32_t ScheduleRewriter::atomicLoad(SpirvBuilder& b, uint32_t pointer) {
    return b.atomic(Op::OpAtomicLoad, pointer, b.module().dispatchScope(), kRelaxed);
}

uint32_t ScheduleRewriter::inactive(SpirvBuilder& b) {
    uint32_t active = b.bitAnd(m_config, b.uint(kScheduleActive));
    return b.equal(active, b.uint(0));
}

// config & flag != 0: a test that folds away once the pipeline is specialized.
uint32_t ScheduleRewriter::configHas(SpirvBuilder& b, uint32_t flag) {
    uint32_t bits = b.bitAnd(m_config, b.uint(flag));
    return b.notEqual(bits, b.uint(0));
}

// The workgroup's flat index, x fastest (as trace/trace.h numbers invocations).
uint32_t ScheduleRewriter::workgroupIndex(SpirvBuilder& b) {
    uint32_t u = m_state.ids.uintType;
    uint32_t nx = m_state.loadTraceWord(b, 3), ny = m_state.loadTraceWord(b, 4);
    uint32_t wid = b.load(m_state.module.typeVector(u, 3), m_state.ids.workgroupId);
    uint32_t wx = b.extract(u, wid, 0);
    uint32_t wy = b.extract(u, wid, 1);
    uint32_t wz = b.extract(u, wid, 2);
    uint32_t g = b.add(wx, b.mul(wy, nx));
    uint32_t plane = b.mul(nx, ny);
    return b.add(g, b.mul(wz, plane));
}

// The workgroup's index + 1: how the held word names a workgroup (0: none).
uint32_t ScheduleRewriter::workgroupTicket(SpirvBuilder& b) {
    uint32_t group = workgroupIndex(b);
    return b.add(group, b.uint(1));
}

// scheduleStart(): one more invocation started. scheduleFinish(): one more returned, counted only
// outside the held workgroup (whose own threads may be waiting for it at a barrier).
void ScheduleRewriter::buildCounter(uint32_t function, uint32_t word, bool onlyOthers) {
    const TraceObjectIds& ids = m_state.ids;
    SpirvBuilder b(m_state.module, m_state.module.newFunctions);
    b.beginFunction(ids.voidType, function, m_voidFunctionType);
    auto returnIf = [&](uint32_t condition) { b.ifThen(condition, [&] { b.returnVoid(); }); };
    returnIf(inactive(b));
    uint32_t block = m_state.loadTraceWord(b, 0);
    returnIf(b.equal(block, b.uint(0)));
    if (onlyOthers) {
        uint32_t held = atomicLoad(b, blockWord(b, block, kScheduleHeld));
        returnIf(b.equal(held, workgroupTicket(b)));
    }
    uint32_t count = blockWord(b, block, word);
    b.atomic(Op::OpAtomicIAdd, count, b.module().dispatchScope(), kRelaxed, {b.uint(1)});
    b.returnVoid();
    b.endFunction();
}

// scheduleAt(binding, index, after): when this invocation first reaches the configured point,
// its workgroup takes an arrival ticket (once per workgroup); the chosen one spins until every
// other workgroup has returned or the bound runs out, and leaves the outcome in the block.
// The steps run inside nested ifs, never after an early return: lavapipe runs a loop until every
// lane has left it, and lanes that returned before it never do.
void ScheduleRewriter::buildAt() {
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType;
    SpirvBuilder b(m_state.module, m_state.module.newFunctions);
    std::vector<uint32_t> p = b.beginFunction(ids.voidType, m_atFunction, m_atFunctionType,
                                              {u, u, u, u}); // binding, index, after, value
    AtCall call{p[0], p[1], p[2], p[3]};
    uint32_t functionUint = m_state.module.typePointer(StorageClass::Function, u);
    call.polls = b.variable(functionUint);
    call.inner = b.variable(functionUint);
    call.chosen = b.variable(functionUint);
    call.chosenAt = b.variable(functionUint);
    b.unless(inactive(b), [&] {
        call.block = m_state.loadTraceWord(b, 0);
        b.unless(b.equal(call.block, b.uint(0)), [&] { atConfiguredPoint(b, call); });
    });
    b.returnVoid();
    b.endFunction();
}

// The call is at the configured binding and point (before or after the write).
void ScheduleRewriter::atConfiguredPoint(SpirvBuilder& b, AtCall& call) {
    uint32_t wantBinding = b.bitAnd(m_config, b.uint(kScheduleBindingMask));
    uint32_t wantAfter = configHas(b, kScheduleAfterWrite);
    uint32_t isAfter = b.notEqual(call.after, b.uint(0));
    uint32_t otherBinding = b.notEqual(call.binding, wantBinding);
    uint32_t otherPoint = b.logicalNotEqual(isAfter, wantAfter);
    b.unless(b.logicalOr(otherBinding, otherPoint), [&] {
        call.byIndex = configHas(b, kScheduleByIndex);
        call.target = loadWord(b, call.block, kScheduleTarget);
        giveUpView(b, call);
        firstArrival(b, call);
    });
}

// Another workgroup writes the frozen element too: hiding the held one's later writes would no
// longer be a schedule that could happen, so the view gives up.
void ScheduleRewriter::giveUpView(SpirvBuilder& b, const AtCall& call) {
    uint32_t view = atomicLoad(b, blockWord(b, call.block, kScheduleView));
    uint32_t frozen = b.equal(view, b.uint(uint32_t(ScheduleView::Frozen)));
    uint32_t heldNow = atomicLoad(b, blockWord(b, call.block, kScheduleHeld));
    uint32_t someoneElse = b.notEqual(heldNow, workgroupTicket(b));
    uint32_t mine = b.equal(call.index, call.target);
    uint32_t mineByIndex = b.logicalAnd(call.byIndex, mine);
    uint32_t frozenByOther = b.logicalAnd(frozen, someoneElse);
    b.ifThen(b.logicalAnd(mineByIndex, frozenByOther), [&] {
        uint32_t at = blockWord(b, call.block, kScheduleView);
        b.atomic(Op::OpAtomicExchange, at, b.module().dispatchScope(), kRelaxed,
                 {b.uint(uint32_t(ScheduleView::GivenUp))});
    });
}

// Only an invocation's first write counts. By place, only its workgroup's first arrival, whose
// arrival ticket is the target; by index, any invocation whose first write is to the target
// element, whichever of its workgroup got there first (a look-back where thread d publishes digit
// d: the held word is one thread's). The workgroup's word past the fixed ones keeps its ticket
// (0: none yet, 1: being taken, 2 + ticket), so that a by-index hold knows its place.
// Once per dispatch at most (hold).
void ScheduleRewriter::firstArrival(SpirvBuilder& b, AtCall& call) {
    uint32_t u = m_state.ids.uintType;
    uint32_t reached = b.load(u, m_reached);
    b.unless(b.notEqual(reached, b.uint(0)), [&] {
        b.store(m_reached, b.uint(1));
        b.store(call.chosen, b.uint(0));
        call.group = workgroupIndex(b);
        uint32_t flagAt = b.add(call.group, b.uint(kScheduleFixedWords));
        uint32_t flagWord = m_state.traceWord(b, b.add(call.block, flagAt));
        uint32_t before = b.value(Op::OpAtomicCompareExchange, u,
                                  {flagWord, b.uint(uint32_t(b.module().dispatchScope())),
                                   b.uint(kRelaxed), b.uint(kRelaxed), b.uint(1), b.uint(0)});
        b.unless(b.notEqual(before, b.uint(0)), [&] {
            uint32_t arrivals = blockWord(b, call.block, kScheduleArrivals);
            uint32_t place = b.atomic(Op::OpAtomicIAdd, arrivals, b.module().dispatchScope(),
                                      kRelaxed, {b.uint(1)});
            b.atomic(Op::OpAtomicExchange, flagWord, b.module().dispatchScope(), kRelaxed,
                     {b.add(place, b.uint(2))});
            uint32_t placeChosen = b.equal(place, call.target);
            b.ifThen(b.logicalAnd(b.logicalNot(call.byIndex), placeChosen), [&] {
                b.store(call.chosen, b.uint(1));
                b.store(call.chosenAt, place);
            });
        });
        uint32_t indexChosen = b.equal(call.index, call.target);
        b.ifThen(b.logicalAnd(call.byIndex, indexChosen), [&] {
            // The ticket, once its taker has stored it; until then (a few instructions) the
            // arrivals so far stand for it.
            uint32_t ticket = atomicLoad(b, flagWord);
            uint32_t arrived = atomicLoad(b, blockWord(b, call.block, kScheduleArrivals));
            b.store(call.chosen, b.uint(1));
            b.store(call.chosenAt, b.select(u, b.greaterEqual(ticket, b.uint(2)),
                                            b.sub(ticket, b.uint(2)), b.sub(arrived, b.uint(1))));
        });
        b.unless(b.equal(b.load(u, call.chosen), b.uint(0)), [&] {
            call.place = b.load(u, call.chosenAt);
            hold(b, call);
        });
    });
}

// This workgroup is the one to hold, unless another already is.
void ScheduleRewriter::hold(SpirvBuilder& b, const AtCall& call) {
    uint32_t mine = b.add(call.group, b.uint(1));
    uint32_t previous = b.value(Op::OpAtomicCompareExchange, m_state.ids.uintType,
                                {blockWord(b, call.block, kScheduleHeld),
                                 b.uint(uint32_t(b.module().dispatchScope())), b.uint(kRelaxed),
                                 b.uint(kRelaxed), mine, b.uint(0)});
    b.unless(b.notEqual(previous, b.uint(0)), [&] { // one hold per dispatch
        b.store(blockWord(b, call.block, kScheduleHeldPlace), call.place);
        b.store(blockWord(b, call.block, kScheduleHeldIndex), call.index);
        // From here on the others read the held element as it is now (by-index schedules).
        b.ifThen(call.byIndex, [&] {
            uint32_t valueAt = blockWord(b, call.block, kScheduleViewValue);
            b.atomic(Op::OpAtomicExchange, valueAt, b.module().dispatchScope(), kRelaxed,
                     {call.value});
            uint32_t viewAt = blockWord(b, call.block, kScheduleView);
            b.atomic(Op::OpAtomicExchange, viewAt, b.module().dispatchScope(), kRelaxed,
                     {b.uint(uint32_t(ScheduleView::Frozen))});
        });
        spin(b, call);
    });
}

// Where the others are: every other workgroup finished; none running besides the held one (every
// started invocation outside it has returned); a workgroup arrived after the held one.
ScheduleRewriter::Progress ScheduleRewriter::progress(SpirvBuilder& b, const SpinWords& w) {
    Progress p;
    p.finished = atomicLoad(b, w.finishedAt);
    uint32_t started = atomicLoad(b, w.startedAt);
    p.arrivals = atomicLoad(b, w.arrivalsAt);
    p.all = b.greaterEqual(p.finished, w.others);
    p.idle = b.equal(started, b.add(p.finished, w.perGroup));
    p.later = b.greater(p.arrivals, w.firstAfter);
    return p;
}

// One loop (lavapipe counts every back-edge of the invocation against 65535): each poll reads the
// counts, then runs a chain of divisions by a value the compiler cannot know, to spend time
// without spending back-edges. Then the outcome goes to the block.
void ScheduleRewriter::spin(SpirvBuilder& b, const AtCall& call) {
    uint32_t u = m_state.ids.uintType;
    SpinWords w;
    w.others = loadWord(b, call.block, kScheduleOthers);
    w.bound = loadWord(b, call.block, kScheduleBound);
    w.finishedAt = blockWord(b, call.block, kScheduleFinished);
    w.startedAt = blockWord(b, call.block, kScheduleStarted);
    w.arrivalsAt = blockWord(b, call.block, kScheduleArrivals);
    w.perGroup = m_state.loadTraceWord(b, 2);
    w.firstAfter = b.add(call.place, b.uint(1));
    b.store(call.polls, b.uint(0));
    b.store(call.inner, b.bitOr(w.bound, b.uint(1)));
    b.loop(b.newLoop(), {}, [&] {
        Progress p = progress(b, w);
        uint32_t successors = b.logicalAnd(p.idle, p.later);
        uint32_t x = b.load(u, call.inner);
        uint32_t divisor = b.bitOr(w.bound, b.uint(1));
        for (uint32_t k = 0; k < kScheduleDelaySteps; ++k) {
            uint32_t scaled = b.mul(x, b.uint(1103515245u));
            x = b.mod(b.add(scaled, b.uint(12345)), divisor);
        }
        b.store(call.inner, x);
        uint32_t polls = b.add(b.load(u, call.polls), b.uint(1));
        b.store(call.polls, polls);
        uint32_t settled = b.logicalOr(p.all, successors);
        return b.logicalOr(settled, b.greaterEqual(polls, w.bound));
    });
    reportOutcome(b, call, progress(b, w));
}

// Why the hold ended: every other workgroup finished; the later ones that could run finished and
// nothing else was running; or the bound ran out, with others still running (waiting for this
// one?) or with no later workgroup having got there (nothing else could run).
void ScheduleRewriter::reportOutcome(SpirvBuilder& b, const AtCall& call, const Progress& p) {
    uint32_t u = m_state.ids.uintType;
    auto pick = [&](uint32_t cond, ScheduleOutcome yes, uint32_t no) {
        return b.select(u, cond, b.uint(uint32_t(yes)), no);
    };
    uint32_t waiting = b.logicalNot(p.idle);
    uint32_t outcome = pick(waiting, ScheduleOutcome::OthersWaiting,
                            b.uint(uint32_t(ScheduleOutcome::NothingElseRan)));
    uint32_t successors = b.logicalAnd(p.idle, p.later);
    outcome = pick(successors, ScheduleOutcome::SuccessorsFinished, outcome);
    outcome = pick(p.all, ScheduleOutcome::OthersFinished, outcome);
    auto put = [&](uint32_t word, uint32_t v) { b.store(blockWord(b, call.block, word), v); };
    uint32_t spinsAt = blockWord(b, call.block, kScheduleSpins);
    b.store(spinsAt, b.load(u, call.polls));
    uint32_t scratchAt = blockWord(b, call.block, kScheduleScratch);
    b.store(scratchAt, b.load(u, call.inner));
    put(kScheduleArrivalsAtRelease, p.arrivals);
    put(kScheduleFinishedAtRelease, p.finished);
    put(kScheduleOutcomeWord, outcome);
}

// scheduleView(binding, index, value): what a read of binding[index] that found `value` sees. The
// held element, read by another workgroup once the view is frozen, is the value it had at the
// hold point; everything else is as read.
void ScheduleRewriter::buildView() {
    const TraceObjectIds& ids = m_state.ids;
    uint32_t u = ids.uintType;
    SpirvBuilder b(m_state.module, m_state.module.newFunctions);
    std::vector<uint32_t> p =
        b.beginFunction(u, m_viewFunction, m_viewFunctionType, {u, u, u}); // binding, index, value
    uint32_t seen = b.variable(m_state.module.typePointer(StorageClass::Function, u));
    b.store(seen, p[2]);
    b.ifThen(b.logicalNot(inactive(b)), [&] {
        uint32_t block = m_state.loadTraceWord(b, 0);
        b.ifThen(b.notEqual(block, b.uint(0)), [&] {
            uint32_t target = loadWord(b, block, kScheduleTarget);
            uint32_t wantBinding = b.bitAnd(m_config, b.uint(kScheduleBindingMask));
            uint32_t sameBinding = b.equal(p[0], wantBinding);
            uint32_t byIndex = configHas(b, kScheduleByIndex);
            uint32_t element = b.equal(p[1], target);
            uint32_t match = b.logicalAnd(sameBinding, b.logicalAnd(byIndex, element));
            b.ifThen(match, [&] { viewHeldElement(b, block, seen); });
        });
    });
    b.returnValue(b.load(u, seen));
    b.endFunction();
}

// The read is of the held element: another workgroup sees it frozen.
void ScheduleRewriter::viewHeldElement(SpirvBuilder& b, uint32_t block, uint32_t seen) {
    uint32_t view = atomicLoad(b, blockWord(b, block, kScheduleView));
    uint32_t held = atomicLoad(b, blockWord(b, block, kScheduleHeld));
    uint32_t mine = workgroupTicket(b);
    uint32_t isFrozen = b.equal(view, b.uint(uint32_t(ScheduleView::Frozen)));
    uint32_t hide = b.logicalAnd(isFrozen, b.notEqual(held, mine));
    b.ifThen(hide, [&] {
        uint32_t reads = blockWord(b, block, kScheduleViewReads);
        b.atomic(Op::OpAtomicIAdd, reads, b.module().dispatchScope(), kRelaxed, {b.uint(1)});
        b.store(seen, atomicLoad(b, blockWord(b, block, kScheduleViewValue)));
    });
}

void ScheduleRewriter::build() {
    buildCounter(m_startFunction, kScheduleStarted, false);
    buildCounter(m_finishFunction, kScheduleFinished, true);
    buildAt();
    buildView();
}

} // namespace vkp
