// View state shared by the panels of one window: the selected test case, what the pointer is
// over and what the learner selected (a thread lights up its cells in the buffers and back), the
// timeline's requests, the walkthrough being played, PNG export requests, and the cache of data
// derived from the trace on show. Only view state lives here; the truth is in the Workbench.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "views/dispatch_model.h"
#include "views/efficiency_view.h"
#include "views/selection.h"
#include "views/thread_map.h"
#include "views/trace_cache.h"
#include "views/trace_model.h"

namespace vkp::views {

struct HoverLink {
    std::optional<Uvec3> thread;                       // global id of a thread under the pointer
    std::optional<CellRef> cell;                       // a buffer or shared cell under the pointer
    std::optional<std::pair<uint64_t, size_t>> access; // (invocation, event) of an access row
};

enum class SideTab { Statement, Hints, Solution, Device, Efficiency };
enum class MemoryTab { Buffers, Timeline, Watches, Console, Lookback }; // Lookback: [lookback]
// applyTimelineRequests' table of moves follows this order.
enum class TimelineMove { PrevAccess, NextAccess, PrevRound, NextRound, Start, End };

// What a walkthrough step points the views at (see puzzle/walkthrough.h), resolved to this trace.
struct ViewFocus {
    std::vector<uint64_t> threads; // outlined in the grid (a finding's or a step's threads)
    std::vector<CellRef> cells;    // ringed in the buffers and shared arrays
    std::vector<uint32_t> lines;   // marked in the code (editor or solution viewer)
    void clear() { threads.clear(), cells.clear(), lines.clear(); }
};

// A view the learner asked to save as a PNG: the app captures the next clean frame and crops it.
struct ExportRequest {
    std::string view;   // "grid", "buffers", "timeline", "watches": the file's suffix
    int framesLeft = 2; // frames to draw before capturing (the menu that asked must close)
};

struct ViewState {
    int selectedCase = 0;           // index into the open puzzle's cases
    HoverLink hover;                // last frame's hover: what panels draw from
    HoverLink nextHover;            // this frame's: written by the panel under the pointer
    Selection selection;            // clicked thread / cell, kept across frames
    ViewFocus focus;                // from a clicked finding or a walkthrough step
    std::optional<SideTab> showTab; // a request to bring a tab to the front
    std::optional<MemoryTab> showMemoryTab;
    std::optional<std::pair<int, int>> jumpTo; // 1-based line, column for the editor
    std::optional<int> scrollEditorTo; // 1-based line the editor scrolls to (the cursor stays)
    uint64_t timelineWorkgroup = 0;    // flat index of the workgroup the timeline steps through
    std::optional<uint32_t> seekRound; // a request: the timeline goes to the end of this round
    std::optional<std::pair<uint64_t, uint32_t>>
        seekEvent;                            // a request: just after this (invocation, event)
    std::optional<TimelineMove> timelineMove; // a request from the keyboard
    bool walkthroughActive = false;           // the bottom panels show the official solution's run
    size_t walkthroughCase = 0;               // its case
    // Presenter mode: how many pixels the walkthrough's step text lacks to be whole beside the
    // code (negative: to spare); the layout grows or shrinks the top row by it, within bounds.
    float walkthroughTextLack = 0;
    float walkthroughRowRoom = 0; // how much more the top row could grow (MainView's answer)
    // A layout that sizes itself from what it drew moved this frame (presenter mode's fit of a
    // step's text): the app draws the next frame at once rather than waiting for input.
    bool layoutSettling = false;
    int walkthroughMove = 0;  // a request from the keyboard (PgUp / PgDn): -1 a step back, +1 on
    TraceCache traces;        // derived data of the trace on show (cached per trace)
    DispatchCache dispatches; // the shown case's dispatches (multi-pass), cached per outcome
    std::optional<size_t>
        pickedDispatch;      // the dispatch the learner picked (0-based), kept while the case stays
    std::string dispatchFor; // the case it was picked for ("folder#case", "#official")
    int dispatchStep = 0;    // a request from the keyboard: -1 the previous dispatch, +1 the next
    // The efficiency lens's request on show in the buffers views: picked (a line of the Efficiency
    // panel, an access clicked in the inspector) for the trace of `requestGeneration`, and this
    // frame's cells of it (the hovered access's request first), resolved in MainView.
    std::optional<ShownRequest> request;
    uint64_t requestGeneration = 0;
    std::optional<RequestCells> requestCells;
    bool scrollToRequest = false; // a request was just picked: the buffers view brings its grid
                                  // into sight once
    std::optional<ExportRequest> exportRequest;
    std::map<std::string, std::array<float, 4>>
        viewRects; // exportable views: screen x0, y0, x1, y1 this frame
    bool showShortcuts = false;
    bool showAbout = false;
    bool fontBigger = false, fontSmaller = false, fontReset = false; // requests for the app
    bool toggleTheme = false;
    bool toggleHighContrast = false; // the high-contrast theme / back to dark
    bool toggleFullscreen = false;   // F11
    bool resetLayout = false;
    bool quit = false; // Ctrl+Q

    // Another puzzle opened: every selection, position, request and cache that was about the old
    // puzzle (its cases, threads, cells, dispatches, trace) goes; preferences and app requests
    // (text size, theme, tabs to show) stay.
    void forgetPuzzle();
};

// Applies the view's pending requests to the timeline (a round's end, just after an event, a
// key's move) and clears them.
void applyTimelineRequests(ViewState& view, Timeline& tl);
// A click on the timeline's step: its thread is selected, and its line shown in the editor (in
// the solution viewer's marks, for the official solution's run).
void showTimelineStep(ViewState& view, const TimelineStep& step, bool official);

} // namespace vkp::views
