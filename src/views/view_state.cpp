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

} // namespace vkp::views
