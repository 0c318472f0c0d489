// Forced schedules: the words a traced kernel and the host share to hold one workgroup at its
// first write to a buffer (rewrite/schedule_rewriter.h writes the kernel's side), and what the host
// makes of them afterwards.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "puzzle/puzzle.h"
#include "trace/trace.h"

namespace vkp {

// --- The schedule block, inside a trace buffer ------------------------------------------------
// The trace header's word 0 holds the block's word offset (0: no forced schedule). The block's
// words, filled by the host (H) or kept by the kernel (K):
//   [0] H  kScheduleActive | kScheduleAfterWrite? | kScheduleByIndex? | the buffer's binding
//   [1] H  the target: the arrival place (0-based), or the element index of the first write
//   [2] H  the spin bound (polls of the finished count before the hold gives up)
//   [3] H  invocations outside the held workgroup
//   [4] K  workgroups that have reached the point (the arrival ticket)
//   [5] K  the held workgroup's flat index + 1 (0: none held yet)
//   [6] K  invocations outside the held workgroup that have returned
//   [7] K  invocations that have started
//   [8] K  the outcome (ScheduleOutcome)
//   [9] K  polls the hold took
//   [10] K the held workgroup's arrival place
//   [11] K the element index of its first write
//   [12] K the last value of the hold's delay chain (kept so that it is computed)
//   [13] K word [4] when the hold ended; [14] K word [6] when the hold ended
//   [15] K the held element's view (by-index schedules): 0 none yet; 1 frozen, other workgroups
//          read it as it was at the hold point ([16]) from then on; 2 given up (another
//          workgroup wrote it too, so hiding the held one's later writes would be no schedule)
//   [16] K the value other workgroups read while [15] is 1
//   [17] K reads by other workgroups that were given [16]
//   [18 ..] K one word per workgroup: 1 once one of its invocations reached the point
inline constexpr uint32_t kScheduleActive = 0x80000000u;
// Word [0] reaches a traced pipeline as this specialization constant too (0: the case has no
// schedule), so the driver folds away, before it compiles anything, every hook the case cannot
// reach: all of them without a schedule, those of other buffers and of the other point with one
// (on lavapipe they were half of a traced pipeline's build time). Puzzle constants' ids stop at
// 4095.
inline constexpr uint32_t kScheduleConfigSpecId = 0x10000;
inline constexpr uint32_t kScheduleAfterWrite = 0x40000000u;
inline constexpr uint32_t kScheduleByIndex = 0x20000000u;
inline constexpr uint32_t kScheduleBindingMask = 0xffffu;
inline constexpr uint32_t kScheduleFixedWords = 18;
// Polls before the hold gives up. lavapipe ends every loop of an invocation once they have taken
// 65535 back-edges together, and the loop budget leaves 5535 of them: each poll therefore also
// runs a chain of kScheduleDelaySteps divisions, so the bound lasts tens of milliseconds there.
// Reached only when no other workgroup runs meanwhile.
inline constexpr uint32_t kScheduleSpinBound = 4000;
inline constexpr uint32_t kScheduleDelaySteps = 128;
enum ScheduleWord : uint32_t {
    kScheduleConfig = 0,
    kScheduleTarget = 1,
    kScheduleBound = 2,
    kScheduleOthers = 3,
    kScheduleArrivals = 4,
    kScheduleHeld = 5,
    kScheduleFinished = 6,
    kScheduleStarted = 7,
    kScheduleOutcomeWord = 8,
    kScheduleSpins = 9,
    kScheduleHeldPlace = 10,
    kScheduleHeldIndex = 11,
    kScheduleScratch = 12,
    kScheduleArrivalsAtRelease = 13,
    kScheduleFinishedAtRelease = 14,
    kScheduleView = 15,
    kScheduleViewValue = 16,
    kScheduleViewReads = 17,
};
enum class ScheduleView : uint32_t { None = 0, Frozen = 1, GivenUp = 2 };

enum class ScheduleOutcome : uint32_t {
    NotReached = 0,     // no workgroup matched: nothing was held
    OthersFinished = 1, // held until every other workgroup had returned: forced
    OthersWaiting = 2,  // the bound ran out while others had started but not returned
    NothingElseRan = 3, // no later workgroup got there while it waited: not forced
    // Held until the workgroups that got there after it had finished and no other was running
    // (the rest start only after it: lavapipe gives each thread a fixed share of workgroups):
    // forced
    SuccessorsFinished = 4,
};

// The block's initial words for one dispatch of `launch` (its size: kScheduleFixedWords + one word
// per workgroup). `binding` is the buffer's binding.
// Word [0] of the block: kScheduleActive, the point, by index or by arrival, the binding.
uint32_t scheduleConfig(const ScheduleDecl& decl, uint32_t binding);
std::vector<uint32_t> makeScheduleBlock(const ScheduleDecl& decl, uint32_t binding,
                                        const TraceLaunch& launch);

// What one held dispatch did, read back from its trace buffer.
struct ScheduleReport {
    ScheduleOutcome outcome = ScheduleOutcome::NotReached;
    bool afterWrite = false;
    std::string buffer;          // the buffer's name
    uint32_t heldWorkgroup = 0;  // flat index
    uint32_t place = 0;          // 0-based arrival place
    uint32_t index = 0;          // element of its first write
    uint32_t spins = 0;          // polls the hold took
    uint32_t others = 0;         // invocations outside it
    uint32_t othersFinished = 0; // of them, returned when the hold ended
    std::string rule;            // the statement's rule, from the declaration

    uint32_t arrivals = 0; // workgroups that had got there when the hold ended
    // By-index schedules: from the hold point on, the other workgroups read the held element as it
    // was there (before, or just after, the held workgroup's first write to it), however long the
    // hold itself lasted: a wait that outlasts the hold still finds it silent or half-published.
    ScheduleView view = ScheduleView::None;
    uint32_t viewReads = 0; // reads by other workgroups that were given the frozen value

    // The schedule the puzzle asks for took place: the held workgroup's successors saw it silent
    // (before its first write) or half-published (after it), whatever the device's timing.
    bool forced() const;
    // Whether the run may have missed what the schedule is for, so a passing case is worth
    // another run: not forced(), or held after its first write while nothing else ran (the held
    // workgroup came last: its successors had already given up on the silent predecessor and
    // taken their fallback, so none may have met the half-published word; seen on 2 loaded cores
    // with Mesa 25, where scan-decoupled's lookback-stops-at-aggregate mutant then passed).
    bool mayHaveMissed() const;
    std::string text(const TraceLaunch& launch) const; // one sentence for the learner
};
// Empty when the words hold no schedule block.
std::optional<ScheduleReport> readScheduleBlock(std::span<const uint32_t> traceWords,
                                                const ScheduleDecl& decl, const Puzzle& puzzle);

// "1st", "2nd", "3rd", "11th", "22nd".
std::string ordinal(uint64_t n);

} // namespace vkp
