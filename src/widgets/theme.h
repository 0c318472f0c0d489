// Light, dark and high-contrast themes: ImGui's style colours plus the app's own semantic colours
// (pass, fail, wrong cells, syntax), so panels never pick raw colours themselves.
#pragma once

#include <imgui.h>

#include "base/theme_kind.h"

namespace vkp::ui {

struct Palette {
    ImU32 text;        // body text
    ImU32 dimText;     // secondary text, labels
    ImU32 accent;      // links, selection, focus
    ImU32 pass;        // a passing case, "all pass"
    ImU32 fail;        // a failing case
    ImU32 warn;        // warnings, busy states
    ImU32 panelHeader; // the strip on top of each panel
    ImU32 panelBg;     // panel background
    ImU32 cellBg;      // a buffer cell
    ImU32 cellBorder;
    ImU32 cellWrongBg; // a cell whose actual value differs from the expected one
    ImU32 cellWrongText;
    ImU32 cellLinkedBg;  // a cell the hovered thread reads (or whose index is its global id)
    ImU32 cellWritten;   // outline of a cell the hovered thread writes
    ImU32 cellSpareBg;   // padding cells outside the data
    ImU32 threadBg[2];   // threads of even / odd subgroups
    ImU32 threadIdle;    // a thread whose global id maps to no cell (a spare thread)
    ImU32 threadLinked;  // a thread mapping to (or touching) the hovered cell
    ImU32 threadFinding; // outline of a thread named by a finding (race, out of bounds, ...)
    ImU32 workgroupBg;
    ImU32 workgroupBorder;
    ImU32 editorBg;
    ImU32 gutterBg;
    ImU32 lineNumber;
    ImU32 lineNumberCurrent;
    ImU32 currentLine; // the cursor's line
    ImU32 selection;
    ImU32 cursor;
    ImU32 errorLine; // background of a line with an error
    ImU32 warningLine;
    ImU32 synKeyword, synType, synBuiltin, synFunction, synNumber, synComment, synPreprocessor,
        synIdentifier, synPunctuation;
    ImU32 diffAdded;     // background of a solution-only line
    ImU32 diffRemoved;   // background of a learner-only line
    ImU32 cellChangedBg; // a cell the last timeline step wrote
    ImU32 stepOutline;   // the cell of the timeline's current access
    ImU32 focus;         // cells, threads and lines a walkthrough step or a finding points at
    ImU32 arrow;         // data flow from read cells to the written cell
    ImU32 executedLine;  // gutter mark: a line the selected thread executed
    ImU32 watchMark;     // gutter mark: a watched line
    ImU32 costMinor;     // efficiency badge of a line that costs a little (judge's CostKind)
    ImU32 costNotable;   // ... that costs noticeably
    ImU32 costSevere;    // ... that costs a lot
    ImU32 requestCell;   // a cell of the request on show (the lanes of one modelled subgroup)
    ImU32 sectorLine;    // sector boundaries of a global buffer, banks of a shared array
};

// Applies the theme to ImGui's style (sizes scaled by `scale`) and returns its palette.
const Palette& applyTheme(ThemeKind theme, float scale);
const Palette& palette(); // the palette of the theme applied last
ThemeKind currentTheme();

ImU32 withAlpha(ImU32 colour, float alpha);

// Presenter mode (F5, ui/main_view.cpp), set once a frame: the selected thread, its cells and a
// step's focus are drawn emphasis() times thicker, to be seen from the back of a room, and the
// code editors leave PgUp / PgDn (a presenter's clicker) to the window, which steps with them.
inline constexpr float kPresenterEmphasis = 3.0f;
void setPresenterMode(bool on);
bool presenterMode();
float emphasis(); // 1, or kPresenterEmphasis in presenter mode

} // namespace vkp::ui
