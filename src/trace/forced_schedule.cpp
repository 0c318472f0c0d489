#include "trace/forced_schedule.h"

#include <algorithm>

namespace vkp {

uint32_t scheduleConfig(const ScheduleDecl& decl, uint32_t binding) {
    return kScheduleActive | (decl.afterWrite ? kScheduleAfterWrite : 0u) |
           (decl.index ? kScheduleByIndex : 0u) | (binding & kScheduleBindingMask);
}

std::vector<uint32_t> makeScheduleBlock(const ScheduleDecl& decl, uint32_t binding,
                                        const TraceLaunch& launch) {
    uint64_t groups = uint64_t(launch.workgroups[0]) * launch.workgroups[1] * launch.workgroups[2];
    std::vector<uint32_t> words(kScheduleFixedWords + groups, 0u);
    words[kScheduleConfig] = scheduleConfig(decl, binding);
    words[kScheduleTarget] = decl.index ? *decl.index : decl.publisher.value_or(0);
    words[kScheduleBound] = kScheduleSpinBound;
    words[kScheduleOthers] =
        static_cast<uint32_t>(launch.invocations() - launch.invocationsPerGroup());
    return words;
}

std::optional<ScheduleReport> readScheduleBlock(std::span<const uint32_t> traceWords,
                                                const ScheduleDecl& decl, const Puzzle& puzzle) {
    if (traceWords.empty() || traceWords[0] == 0 ||
        uint64_t(traceWords[0]) + kScheduleFixedWords > traceWords.size())
        return std::nullopt;
    std::span<const uint32_t> b = traceWords.subspan(traceWords[0], kScheduleFixedWords);
    ScheduleReport r;
    uint32_t outcome = b[kScheduleOutcomeWord];
    r.outcome = outcome <= 4 ? ScheduleOutcome(outcome) : ScheduleOutcome::NotReached;
    if (b[kScheduleHeld] == 0) r.outcome = ScheduleOutcome::NotReached;
    r.afterWrite = decl.afterWrite;
    r.buffer = decl.buffer < puzzle.buffers.size() ? puzzle.buffers[decl.buffer].name : "?";
    r.heldWorkgroup = b[kScheduleHeld] ? b[kScheduleHeld] - 1 : 0;
    r.place = b[kScheduleHeldPlace];
    r.index = b[kScheduleHeldIndex];
    r.spins = b[kScheduleSpins];
    r.others = b[kScheduleOthers];
    r.othersFinished = b[kScheduleFinishedAtRelease];
    r.arrivals = b[kScheduleArrivalsAtRelease];
    r.rule = decl.rule;
    uint32_t view = b[kScheduleView];
    r.view = view <= 2 ? ScheduleView(view) : ScheduleView::None;
    r.viewReads = b[kScheduleViewReads];
    return r;
}

bool ScheduleReport::forced() const {
    if (outcome == ScheduleOutcome::NotReached) return false;
    // Before its first write, every read by another workgroup found the element as it was then:
    // before the freeze because nothing had written it, after it because of the freeze.
    if (view == ScheduleView::Frozen) return !afterWrite || viewReads > 0;
    return outcome == ScheduleOutcome::OthersFinished ||
           outcome == ScheduleOutcome::SuccessorsFinished;
}

bool ScheduleReport::mayHaveMissed() const {
    return !forced() || (afterWrite && outcome == ScheduleOutcome::NothingElseRan);
}

std::string ordinal(uint64_t n) {
    const char* suffix = "th";
    if (n % 100 < 11 || n % 100 > 13) {
        if (n % 10 == 1) suffix = "st";
        if (n % 10 == 2) suffix = "nd";
        if (n % 10 == 3) suffix = "rd";
    }
    return std::to_string(n) + suffix;
}

std::string ScheduleReport::text(const TraceLaunch& launch) const {
    std::string point =
        std::string(afterWrite ? "after" : "before") + " its first write to '" + buffer + "'";
    if (outcome == ScheduleOutcome::NotReached)
        return "forced schedule: no workgroup matched (none held " + point +
               "), so this case ran with whatever timing the device chose";
    uint32_t perGroup = std::max<uint32_t>(1, launch.invocationsPerGroup());
    InvocationIds ids = invocationIds(launch, uint64_t(heldWorkgroup) * perGroup);
    std::string group = "workgroup (" + std::to_string(ids.group[0]) + ", " +
                        std::to_string(ids.group[1]) + ", " + std::to_string(ids.group[2]) + ")";
    std::string who = "forced schedule: the " + ordinal(place + 1) + " workgroup to get there, " +
                      group + ", whose first write was " + buffer + "[" + std::to_string(index) +
                      "], was held " + point;
    std::string element = buffer + "[" + std::to_string(index) + "]";
    std::string view;
    if (this->view == ScheduleView::Frozen)
        view = "; from then on the other workgroups read " + element + " as " +
               (afterWrite ? "that first write left it" : "it was before that write") + " (" +
               std::to_string(viewReads) + (viewReads == 1 ? " read" : " reads") + ")";
    else if (this->view == ScheduleView::GivenUp)
        view = "; another workgroup wrote " + element + " too, so its later writes were not hidden";
    bool frozen = this->view == ScheduleView::Frozen;
    switch (outcome) {
    case ScheduleOutcome::OthersFinished:
        return who + " until all the other workgroups had finished" + view;
    case ScheduleOutcome::SuccessorsFinished:
        return who + " until the " + std::to_string(arrivals - std::min(arrivals, place + 1)) +
               (arrivals - std::min(arrivals, place + 1) == 1 ? " workgroup" : " workgroups") +
               " that got there after it had finished; the other " +
               std::to_string((others - std::min(others, othersFinished)) / perGroup) +
               " could start only after it (this device gives each of its threads a fixed share "
               "of the workgroups)" +
               view;
    case ScheduleOutcome::OthersWaiting:
        return who + " for " + std::to_string(spins) + " polls; then it went on while " +
               std::to_string(others - std::min(others, othersFinished)) +
               " threads of other workgroups had started but not finished (waiting for it?)" + view;
    case ScheduleOutcome::NothingElseRan:
        return who + " for " + std::to_string(spins) +
               " polls, but no other workgroup got there while it waited (this device seems to "
               "run workgroups one at a time)" +
               (frozen ? view : ", so the schedule could not be forced" + view);
    default:
        return who + view;
    }
}

} // namespace vkp
