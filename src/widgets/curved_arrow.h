// One arrow between two points on screen, as the views draw them: a curve bent to one side (so
// two arrows between the same points in opposite directions never overlap), a head at its end, a
// dot at its start, and an optional label on a backing box. The cell grids draw data flow with it
// (cell_grid's drawArrows), the thread grid the values lanes hand each other (thread_grid_panel).
#pragma once

#include <string>

#include <imgui.h>

namespace vkp::ui {

// A cubic curve from p0 to p3, its middle moved `bend` pixels to the left of its direction
// (negative: to the right).
struct ArrowCurve {
    ImVec2 p0, p1, p2, p3;
    ImVec2 at(float t) const; // the point at t (0: start, 1: end)
};
// `trimStart` / `trimEnd`: pixels left out at each end (to start and stop at a square's edge).
ArrowCurve arrowCurve(ImVec2 from, ImVec2 to, float bend, float trimStart = 0, float trimEnd = 0);

struct ArrowStroke {
    ImU32 colour = 0;
    float width = 1.4f; // line thickness
    float head = 7;     // arrowhead length
    float dot = 2.5f;   // radius of the dot at the start (0: none)
};
void drawArrowCurve(ImDrawList* dl, const ArrowCurve& c, const ArrowStroke& s);

// A label of an arrow ("×12", "xor 1: 3") in the small font, centred on `centre`, on a box of
// the panel's background so that it reads over lines and cells.
ImVec2 arrowLabelSize(const std::string& label);
void drawArrowLabel(ImDrawList* dl, ImVec2 centre, const std::string& label, ImU32 colour);

} // namespace vkp::ui
