#include "widgets/curved_arrow.h"

#include <algorithm>
#include <cmath>

#include "widgets/fonts.h"
#include "widgets/theme.h"

namespace vkp::ui {
namespace {

ImVec2 towards(ImVec2 from, ImVec2 to, float distance) {
    float dx = to.x - from.x, dy = to.y - from.y, len = std::sqrt(dx * dx + dy * dy);
    if (len < 0.001f) return from;
    distance = std::min(distance, len * 0.5f);
    return ImVec2(from.x + dx / len * distance, from.y + dy / len * distance);
}

} // namespace

ImVec2 ArrowCurve::at(float t) const {
    float u = 1 - t, a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
    return ImVec2(a * p0.x + b * p1.x + c * p2.x + d * p3.x,
                  a * p0.y + b * p1.y + c * p2.y + d * p3.y);
}

ArrowCurve arrowCurve(ImVec2 from, ImVec2 to, float bend, float trimStart, float trimEnd) {
    float dx = to.x - from.x, dy = to.y - from.y,
          len = std::max(0.001f, std::sqrt(dx * dx + dy * dy));
    ImVec2 n(-dy / len, dx / len);
    ArrowCurve c;
    c.p0 = from, c.p3 = to;
    c.p1 = ImVec2(from.x + dx * 0.3f + n.x * bend, from.y + dy * 0.3f + n.y * bend);
    c.p2 = ImVec2(from.x + dx * 0.7f + n.x * bend, from.y + dy * 0.7f + n.y * bend);
    if (trimStart > 0) c.p0 = towards(c.p0, c.p1, trimStart);
    if (trimEnd > 0) c.p3 = towards(c.p3, c.p2, trimEnd);
    return c;
}

// In presenter mode every arrow (lanes, data flow) is drawn twice as thick, its head and dot
// with it: half the selection's emphasis, which on a line of two pixels already reads from the
// back of a room without covering the squares it joins.
void drawArrowCurve(ImDrawList* dl, const ArrowCurve& c, const ArrowStroke& stroke) {
    float k = 0.5f + 0.5f * emphasis();
    ArrowStroke s = stroke;
    s.width *= k, s.head *= k, s.dot *= k;
    dl->AddBezierCubic(c.p0, c.p1, c.p2, c.p3, s.colour, s.width);
    // The head points along the curve's last stretch.
    float tx = c.p3.x - c.p2.x, ty = c.p3.y - c.p2.y,
          tl = std::max(0.001f, std::sqrt(tx * tx + ty * ty));
    tx /= tl, ty /= tl;
    const ImVec2& p = c.p3;
    float h = s.head;
    dl->AddTriangleFilled(p, ImVec2(p.x - tx * h - ty * h * 0.5f, p.y - ty * h + tx * h * 0.5f),
                          ImVec2(p.x - tx * h + ty * h * 0.5f, p.y - ty * h - tx * h * 0.5f),
                          s.colour);
    if (s.dot > 0) dl->AddCircleFilled(c.p0, s.dot, s.colour);
}

ImVec2 arrowLabelSize(const std::string& label) {
    ImFont* small = fonts().small;
    ImVec2 ts = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, label.c_str());
    return ImVec2(ts.x + 4, ts.y + 2);
}

void drawArrowLabel(ImDrawList* dl, ImVec2 centre, const std::string& label, ImU32 colour) {
    ImFont* small = fonts().small;
    ImVec2 box = arrowLabelSize(label);
    ImVec2 a(std::round(centre.x - box.x * 0.5f), std::round(centre.y - box.y * 0.5f));
    dl->AddRectFilled(a, ImVec2(a.x + box.x, a.y + box.y), withAlpha(palette().panelBg, 0.9f), 3);
    dl->AddText(small, small->FontSize, ImVec2(a.x + 2, a.y + 1), colour, label.c_str());
}

} // namespace vkp::ui
