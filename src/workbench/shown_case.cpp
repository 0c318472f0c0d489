#include "workbench/shown_case.h"

#include <algorithm>

namespace vkp::ui {

uint64_t ShownCase::workgroups() const {
    if (!testCase) return 0;
    return uint64_t(testCase->workgroups[0]) * testCase->workgroups[1] * testCase->workgroups[2];
}

const std::vector<BufferData>* ShownCase::startData() const {
    if (memory) return &memory->before;
    return outcome ? &outcome->inputs : nullptr;
}

namespace {

// The dispatch to show: the learner's pick (kept while the case stays the same), moved by the
// keyboard's request, else the default.
size_t chooseDispatch(views::ViewState& view, const ShownCase& s) {
    std::string key =
        s.puzzle->key() + "#" + std::to_string(s.index) + (s.official ? "#official" : "");
    if (key != view.dispatchFor) {
        // The first frame keeps a scripted choice (--dispatch); another case starts on its default.
        if (!view.dispatchFor.empty()) view.pickedDispatch.reset();
        view.dispatchFor = key;
    }
    size_t n = view.dispatches.entries().size();
    size_t shown = view.dispatches.defaultIndex();
    if (view.pickedDispatch && *view.pickedDispatch < n) shown = *view.pickedDispatch;
    if (view.dispatchStep && n > 1 && view.dispatches.traced() > 1) {
        long to = std::clamp<long>(static_cast<long>(shown) + view.dispatchStep, 0,
                                   static_cast<long>(n) - 1);
        shown = static_cast<size_t>(to);
        view.pickedDispatch = shown;
    }
    view.dispatchStep = 0;
    return shown;
}

} // namespace

ShownCase shownCase(Workbench& wb, views::ViewState& view) {
    ShownCase s;
    s.puzzle = wb.puzzle();
    if (!s.puzzle || s.puzzle->cases.empty()) {
        view.dispatches.use(nullptr, 0, nullptr, nullptr);
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
    view.dispatches.use(s.puzzle, s.index, s.outcome, s.source);
    s.dispatch = chooseDispatch(view, s);
    s.dispatches = view.dispatches.traced();
    if (s.puzzle->multiPass() && s.dispatch < view.dispatches.entries().size()) {
        s.entry = &view.dispatches.entries()[s.dispatch];
        s.testCase = view.dispatches.launchCase(s.dispatch);
        s.memory = view.dispatches.memory(s.dispatch);
    }
    if (s.outcome) {
        s.shownTrace = view.dispatches.trace(s.dispatch);
        s.shownAnalysis = view.dispatches.analysis(s.dispatch);
    }
    view.traces.use(s.shownTrace, s.shownAnalysis, s.outcome ? s.source : nullptr);
    view.timelineWorkgroup =
        std::min<uint64_t>(view.timelineWorkgroup, std::max<uint64_t>(1, s.workgroups()) - 1);
    return s;
}

} // namespace vkp::ui
