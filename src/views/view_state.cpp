#include "views/view_state.h"

namespace vkp::views {

void ViewState::forgetPuzzle() {
    selectedCase = 0;
    hover = {};
    nextHover = {};
    selection.clear();
    focus.clear();
    jumpTo.reset();
    scrollEditorTo.reset();
    timelineWorkgroup = 0;
    seekRound.reset();
    seekEvent.reset();
    timelineMove.reset();
    walkthroughActive = false;
    walkthroughCase = 0;
    traces.reset();
    dispatches.reset();
    pickedDispatch.reset();
    dispatchFor.clear();
    dispatchStep = 0;
    request.reset();
    requestCells.reset();
    exportRequest
        .reset(); // it would save the new puzzle's view under a request made for the old one
    viewRects.clear();
}

void applyTimelineRequests(ViewState& view, Timeline& tl) {
    if (view.seekRound) tl.seekRoundEnd(*view.seekRound);
    view.seekRound.reset();
    if (view.seekEvent)
        if (auto pos = tl.positionAfter(view.seekEvent->first, view.seekEvent->second))
            tl.seek(*pos);
    view.seekEvent.reset();
    if (view.timelineMove) switch (*view.timelineMove) {
        case TimelineMove::PrevAccess:
            tl.prevAccess();
            break;
        case TimelineMove::NextAccess:
            tl.nextAccess();
            break;
        case TimelineMove::PrevRound:
            tl.prevRound();
            break;
        case TimelineMove::NextRound:
            tl.nextRound();
            break;
        case TimelineMove::Start:
            tl.toStart();
            break;
        case TimelineMove::End:
            tl.toEnd();
            break;
        }
    view.timelineMove.reset();
}

void showTimelineStep(ViewState& view, const TimelineStep& step, bool official) {
    view.selection.thread = step.thread;
    if (!official)
        view.jumpTo = std::make_pair(static_cast<int>(step.line), 0);
    else
        view.focus.lines = {step.line};
}

} // namespace vkp::views
