// How a cell of a buffer grid and a thread of the thread grid look: background, outlines, text
// and its colour, from plain facts about it (match state, reads and writes, selection, hover,
// findings) and the theme's palette. Pure functions: no ImGui calls, so every branch is testable
// without a window; the panels only draw what these return.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "widgets/theme.h"

namespace vkp::ui {

// A rectangle drawn around a cell, `grow` pixels outside its square.
struct CellOutline {
    ImU32 colour = 0;
    float grow = 0;      // pixels outside the cell's square on every side
    float rounding = 0;  // corner radius
    float thickness = 0; // line width

    bool operator==(const CellOutline&) const = default;
};

// What a buffer or shared-array cell is, as far as its look goes.
struct BufferCellFacts {
    bool wrong = false;     // its value differs from the expected one
    bool changed = false;   // the timeline's last step wrote it
    bool unwritten = false; // a shared cell nothing wrote yet (shows a dot)
    bool read =
        false; // the selected or hovered thread read it (or its index is the hovered thread's id)
    bool written = false;   // the selected or hovered thread wrote it
    bool focused = false;   // a walkthrough step or a finding points at it
    bool step = false;      // the timeline's current access
    bool selected = false;  // the selected cell
    bool hovered = false;   // under the pointer (here or in another view)
    bool inRequest = false; // a cell of the efficiency lens's request on show
    bool inSector = false;  // not accessed by that request, but in a sector it touched
    std::string value;      // its value as formatted (unused when unwritten)
    const std::vector<uint32_t>* orders =
        nullptr; // the selected thread's order numbers, when shown
    bool ordersWritten =
        false;          // the selected thread wrote it (its order numbers in the write colour)
    float emphasis = 1; // the selection's outlines this many times thicker (presenter mode: 3)
};

// How a buffer cell is drawn, in this order: background, outlines, value, order numbers.
struct BufferCellStyle {
    ImU32 background = 0;
    std::vector<CellOutline> outlines; // in drawing order
    std::string text;                  // the value, or a dot when unwritten
    ImU32 textColour = 0;
    std::string orders; // "3", "3,7", "3,7+"; empty: none
    ImU32 ordersColour = 0;
};

BufferCellStyle bufferCellStyle(const BufferCellFacts& facts, const Palette& pal);

// "3", "3,7", "3,7+": the first two order numbers of a thread's accesses to a cell.
std::string ordersText(const std::vector<uint32_t>& orders);

// What a thread's square is, as far as its look goes.
struct ThreadCellFacts {
    bool linked = false;         // touched the hovered or selected cell
    bool spare = false;          // no buffer has an element at its global id
    uint32_t subgroupParity = 0; // 0 or 1: shading of even and odd subgroups
    bool flagged = false;        // named by a finding
    bool focused = false;        // a walkthrough step or a finding points at it
    bool overLimit = false;      // more global reads or writes than the puzzle allows
    bool selected = false;
    bool hovered = false;
    std::optional<size_t> order; // its place among the threads that touched the selected cell
    bool roomForOrder = false;   // the square is tall enough for an order number
    bool labelled = false;       // the square is large enough for a label
    std::string label;           // its id, "12" or "12,7"
    float cell = 0;              // the square's side
    float emphasis = 1; // the selection's outlines this many times thicker (presenter mode: 3)
};

// What a thread's square shows inside.
enum class ThreadText { None, Order, Label };

// How a thread's square is drawn, in this order: background, outlines under the corner, the red
// over-limit corner, outlines over it, the text.
struct ThreadCellStyle {
    ImU32 background = 0;
    float rounding = 0;                   // of the background
    std::vector<CellOutline> under, over; // outlines before and after the corner
    bool corner = false;                  // the over-limit corner
    float cornerSize = 0;
    ImU32 cornerColour = 0;
    ThreadText textKind =
        ThreadText::None; // an order number (top left, smaller) or a centred label
    std::string text;
    ImU32 textColour = 0;
};

ThreadCellStyle threadCellStyle(const ThreadCellFacts& facts, const Palette& pal);

// A thread's label from its global or local id: "x" for 1D launches, else "x,y".
std::string threadLabel(uint32_t x, uint32_t y, int dims);

} // namespace vkp::ui
