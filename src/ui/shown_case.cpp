#include "ui/shown_case.h"

#include <algorithm>

namespace vkp::ui {

uint64_t ShownCase::workgroups() const {
    if (!testCase) return 0;
    return uint64_t(testCase->workgroups[0]) * testCase->workgroups[1] * testCase->workgroups[2];
}

ShownCase shownCase(Workbench& wb, ViewState& view) {
    ShownCase s;
    s.puzzle = wb.puzzle();
    if (!s.puzzle || s.puzzle->cases.empty()) {
        view.traces.use(nullptr, nullptr, nullptr);
        return s;
    }
    if (view.walkthroughActive) {
        s.official = true;
        s.index = std::min(view.walkthroughCase, s.puzzle->cases.size() - 1);
        s.outcome = wb.officialOutcome(s.index);
        s.report = wb.officialReport(s.index);
        s.source = std::make_shared<const std::string>(wb.solutionText());
    } else {
        s.index = std::min<size_t>(std::max(0, view.selectedCase), s.puzzle->cases.size() - 1);
        s.outcome = wb.outcome(s.index);
        s.report = wb.report();
        s.source = wb.reportSource();
    }
    s.testCase = &s.puzzle->cases[s.index];
    if (s.outcome) view.traces.use(s.outcome->trace, s.outcome->analysis, s.source);
    else view.traces.use(nullptr, nullptr, nullptr);
    view.timelineWorkgroup = std::min<uint64_t>(view.timelineWorkgroup, std::max<uint64_t>(1, s.workgroups()) - 1);
    return s;
}

} // namespace vkp::ui
