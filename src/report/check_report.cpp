#include "report/check_report.h"

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
    return !cases.empty();
}

size_t CheckReport::passCount() const {
    size_t n = 0;
    for (const CaseOutcome& c : cases)
        n += c.pass;
    return n;
}

std::string caseFailureDetail(const Puzzle& puzzle, const CaseOutcome& c) {
    if (c.error) return c.error->message;
    for (const BufferOutcome& b : c.outputs) {
        if (b.verdict.pass || b.verdict.mismatches.empty()) continue;
        uint64_t i = b.verdict.mismatches.front().index;
        std::string cells = std::to_string(b.verdict.mismatchCount) + " of " +
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

} // namespace vkp
