// A traced case whose threads made more records than their slots held: how much trace a re-run
// needs, and the verdict when even that does not fit (inconclusive: neither a pass nor a fail).
// Checker (check/check.cpp) re-runs such a case alone with `wanted` slots per thread, and keeps
// the room it needed for the next check (TraceRoomMemory, check/check.h).
#pragma once

#include <cstdint>
#include <vector>

#include "check/check.h"

namespace vkp {

struct TraceRoom {
    std::vector<uint32_t> wanted;   // per dispatch: the most records one thread made
    std::vector<uint32_t> possible; // per dispatch: the most slots per thread the limits allow
    std::vector<uint32_t> kept;     // per dispatch: the slots per thread of the trace the case has
    bool fits() const;
};

// The records a thread each dispatch of an overflowed case gets in its next run. One that
// overflowed gets what its most wanting thread made and half as much again: a thread that polls
// (a look-back) makes as many records as the device's timing gives it, and the next run may poll
// more; one that overflowed a re-run too (given) gets twice what it made. So does every other
// dispatch of the same kernel: the rounds of a multi-pass case poll alike, and one that fit this
// time may overflow the next with the room it kept. Never less than `given` (the last re-run's,
// empty for the first) or the room it kept, never more than possible.
std::vector<uint32_t> rerunSlots(const CaseOutcome& c, const TraceRoom& room,
                                 const std::vector<uint32_t>& given);

// An earlier check's room for dispatch `dispatch` of case `index` (TraceRoomMemory), where it was
// kept for a case of `dispatches` dispatches and this one's `invocations` threads; else 0.
uint32_t rememberedSlots(const TraceRoomMemory& memory, size_t index, size_t dispatch,
                         uint64_t invocations, size_t dispatches);
// What the decided case `c` needed, for the next check: the room its traces had, where a thread
// made more records than the default room (defaultTraceSlots of `traceRecords`) holds and its
// dispatches fit in one run together (`maxTraceBytes`); otherwise nothing. A thread that polls
// makes as many records as the timing gives it, so the room kept for the same launch only grows
// (each dispatch the most it had).
void rememberRoom(TraceRoomMemory& memory, const CaseOutcome& c, uint64_t traceRecords,
                  uint64_t maxTraceBytes);

// The traces of a case: every dispatch's (multi-pass), else its one trace; none untraced.
std::vector<const Trace*> caseTraces(const CaseOutcome& c);
// The dispatches of case `c` in groups whose traces, each with the records a thread it is
// given in `wanted`, fit in `maxBytes` together: one group when they all fit at once (the
// re-run traces a case in parts, one run per group).
std::vector<std::vector<size_t>> traceParts(const CaseOutcome& c,
                                            const std::vector<uint32_t>& wanted, uint64_t maxBytes);
// A multi-pass case whose dispatches' traces came from several runs: the trace it shows (the
// first dispatch with a failing finding, else the first) and its verdict, settled again.
void settleFromDispatches(CaseOutcome& c);
// A thread ran out of loop budget: the case fails, and its trace cannot be made to fit.
bool stoppedByLoopBudget(const CaseOutcome& c);
// The case's trace did not fit even with the room it could have: its "trace incomplete" warning
// says so and what to do, and a case that would pass becomes inconclusive (a failing finding); a
// case that fails anyway keeps its FAIL.
void judgeIncomplete(CaseOutcome& c, const TraceRoom& room);

} // namespace vkp
