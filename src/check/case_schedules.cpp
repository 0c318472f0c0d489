#include "check/case_schedules.h"

#include <algorithm>
#include <string>
#include <utility>

#include "trace/forced_schedule.h"

namespace vkp {

const ScheduleDecl* forcedSchedule(const Puzzle& puzzle, const CheckOptions& options,
                                   size_t index) {
    return options.trace && options.forcedSchedules ? puzzle.scheduleFor(index) : nullptr;
}

bool bindsHeldBuffer(const Puzzle& puzzle, const ScheduleDecl& decl, const CaseDispatch& d) {
    if (d.kernel >= puzzle.kernels.size()) return true;
    const std::vector<size_t>& bound = puzzle.kernels[d.kernel].buffers;
    return bound.empty() || std::find(bound.begin(), bound.end(), decl.buffer) != bound.end();
}

std::vector<uint32_t> scheduleBlock(const Puzzle& puzzle, const CheckOptions& options, size_t index,
                                    const CaseDispatch& d, const TraceLaunch& launch) {
    const ScheduleDecl* decl = forcedSchedule(puzzle, options, index);
    if (!decl || !bindsHeldBuffer(puzzle, *decl, d)) return {};
    return makeScheduleBlock(*decl, puzzle.buffers[decl->buffer].binding, launch);
}

void readSchedule(const Puzzle& puzzle, const CheckOptions& options, CaseOutcome& out,
                  const CaseDispatch& d, const TraceLaunch& launch,
                  const std::vector<uint32_t>& words, TraceAnalysis& analysis) {
    const ScheduleDecl* decl = puzzle.scheduleFor(out.index);
    if (!options.forcedSchedules || !decl || !bindsHeldBuffer(puzzle, *decl, d)) return;
    auto report = readScheduleBlock(words, *decl, puzzle);
    if (!report) return;
    out.scheduleTexts.push_back(report->text(launch));
    if (report->outcome != ScheduleOutcome::NotReached)
        for (Finding& f : analysis.findings)
            if (f.kind == FindingKind::LoopBudget)
                f.message +=
                    " (under a forced schedule: a workgroup was held " +
                    std::string(report->afterWrite ? "after" : "before") + " its first write to '" +
                    report->buffer + "', and this thread kept waiting for it" +
                    (report->rule.empty() ? std::string(")") : "). The rule: " + report->rule);
    out.schedules.push_back(std::move(*report));
}

} // namespace vkp
