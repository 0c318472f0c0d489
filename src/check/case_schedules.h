// Forced schedules ([[schedule]] in puzzle.toml) in a check: the schedule a traced case runs
// under, the block each of its dispatches carries in its trace buffer, and what the hold did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "check/check.h"
#include "judge/trace_analysis.h"
#include "puzzle/passes.h"
#include "puzzle/puzzle.h"
#include "report/check_report.h"
#include "trace/trace.h"

namespace vkp {

// The schedule a traced run of case `index` holds a workgroup by; null: none (untraced, or the
// holds turned off).
const ScheduleDecl* forcedSchedule(const Puzzle& puzzle, const CheckOptions& options, size_t index);

// A dispatch of a kernel without the held buffer has nothing to hold (a multi-pass puzzle's
// histogram pass beside its look-back pass): no schedule, and none reported as not forced.
bool bindsHeldBuffer(const Puzzle& puzzle, const ScheduleDecl& decl, const CaseDispatch& d);

// The schedule block of a traced dispatch of case `index` (trace/forced_schedule.h); empty: none.
std::vector<uint32_t> scheduleBlock(const Puzzle& puzzle, const CheckOptions& options, size_t index,
                                    const CaseDispatch& d, const TraceLaunch& launch);

// What the hold of one dispatch did, added to the case; a thread stopped by its loop budget while
// a workgroup was held was waiting for it, and is told the statement's rule.
void readSchedule(const Puzzle& puzzle, const CheckOptions& options, CaseOutcome& out,
                  const CaseDispatch& d, const TraceLaunch& launch,
                  const std::vector<uint32_t>& words, TraceAnalysis& analysis);

} // namespace vkp
