#include "report/check_report.h"

#include <algorithm>

namespace vkp {

const char* stageName(StageKind stage) {
    switch (stage) {
    case StageKind::Compile:
        return "compile";
    case StageKind::Interface:
        return "interface";
    case StageKind::Pipeline:
        return "pipeline";
    case StageKind::Run:
        return "run";
    case StageKind::Done:
        return "done";
    }
    return "?";
}

bool CheckReport::allPass() const {
    if (reached != StageKind::Done || error || hasErrors(diagnostics)) return false;
    for (const CaseOutcome& c : cases)
        if (!c.pass) return false;
    for (const SubgroupSizeRun& s : otherSizes)
        if (!s.failures.empty()) return false;
    if (fresh && !fresh->failures.empty()) return false;
    if (reversed && !reversed->failures.empty()) return false;
    if (search && search->found) return false;
    return !cases.empty();
}

size_t CheckReport::passCount() const {
    size_t n = 0;
    for (const CaseOutcome& c : cases)
        n += c.pass;
    return n;
}

Verdict verdictOf(const CaseOutcome& c) {
    return c.pass ? Verdict::Pass : c.inconclusive ? Verdict::Inconclusive : Verdict::Fail;
}

const char* verdictWord(Verdict v) {
    switch (v) {
    case Verdict::Pass:
        return "pass";
    case Verdict::Fail:
        return "FAIL";
    case Verdict::Inconclusive:
        return "INCONCLUSIVE";
    }
    return "?";
}

namespace {

// A finding that explains wrong values rather than adds to them: the memory or barrier misuse
// that makes a kernel's results a matter of luck (it comes before the first wrong cell).
bool isCause(FindingKind kind) {
    switch (kind) {
    case FindingKind::SharedRace:
    case FindingKind::GlobalWriteConflict:
    case FindingKind::OutOfBounds:
    case FindingKind::UninitialisedRead:
    case FindingKind::DivergentBarrier:
    case FindingKind::GlobalRace:
    case FindingKind::UndefinedShuffle:
        return true;
    default:
        return false;
    }
}

} // namespace

std::string caseFailureDetail(const Puzzle& puzzle, const CaseOutcome& c) {
    if (c.error) return c.error->message;
    if (c.analysis)
        for (const Finding& f : c.analysis->findings)
            if (f.failsCase && isCause(f.kind)) return f.message;
    for (const BufferOutcome& b : c.outputs) {
        if (b.comparison.pass || b.comparison.mismatches.empty()) continue;
        uint64_t i = b.comparison.mismatches.front().index;
        std::string cells = std::to_string(b.comparison.mismatchCount) + " of " +
                            std::to_string(b.expected.shape.count()) + " cells wrong";
        return cellName(puzzle.buffers[b.buffer], b.expected.shape, i) + ": " +
               expectedGotText(b.expected, b.actual, i) + " (" + cells + ")";
    }
    if (!c.runFindings.empty()) return c.runFindings.front().message;
    if (c.analysis)
        for (const Finding& f : c.analysis->findings)
            if (f.failsCase) return f.message;
    return "wrong";
}

namespace {

bool reached(const ScheduleReport& s) {
    return s.outcome != ScheduleOutcome::NotReached;
}

} // namespace

bool scheduleMayHaveMissed(const CaseOutcome& c) {
    if (c.schedules.empty()) return false;
    if (std::none_of(c.schedules.begin(), c.schedules.end(), reached)) return true;
    return std::any_of(c.schedules.begin(), c.schedules.end(),
                       [](const ScheduleReport& s) { return reached(s) && s.mayHaveMissed(); });
}

std::vector<std::string> scheduleLines(const CaseOutcome& c) {
    size_t total = std::min(c.schedules.size(), c.scheduleTexts.size());
    if (total <= 1) return c.scheduleTexts;
    // Dispatches that never reached the point beside ones that did are left out (a by-index
    // schedule's element belongs to one round).
    bool anyReached = std::any_of(c.schedules.begin(), c.schedules.begin() + total, reached);
    std::vector<ScheduleOutcome> kinds; // in the order they first happened
    for (size_t k = 0; k < total; ++k)
        if (std::find(kinds.begin(), kinds.end(), c.schedules[k].outcome) == kinds.end() &&
            (!anyReached || reached(c.schedules[k])))
            kinds.push_back(c.schedules[k].outcome);
    std::vector<std::string> lines;
    const std::string prefix = "forced schedule: ";
    for (ScheduleOutcome kind : kinds) {
        size_t first = total, count = 0;
        for (size_t k = 0; k < total; ++k)
            if (c.schedules[k].outcome == kind) {
                first = std::min(first, k);
                ++count;
            }
        std::string text = c.scheduleTexts[first];
        if (text.rfind(prefix, 0) == 0) text = text.substr(prefix.size());
        lines.push_back("forced schedule, " + std::to_string(count) + " of " +
                        std::to_string(total) + " dispatches" +
                        (count > 1 ? " (the first shown)" : "") + ": " + text);
    }
    return lines;
}

} // namespace vkp
