#include "widgets/layout_probe.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace vkp::ui::layout {
namespace {

struct Frame {
    bool on = false;
    std::map<std::string, ImVec4> rects;
    std::map<std::string, std::string> facts;
};

Frame& frame() {
    static Frame f;
    return f;
}

std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            q += ' ';
            continue;
        }
        q += c;
    }
    return q + "\"";
}

} // namespace

void enable(bool on) {
    frame().on = on;
}
bool enabled() {
    return frame().on;
}

void beginFrame() {
    frame().rects.clear();
    frame().facts.clear();
}

void rect(const std::string& name, ImVec2 min, ImVec2 max) {
    if (!enabled()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 cmin = dl->GetClipRectMin(), cmax = dl->GetClipRectMax();
    ImVec4 r(std::max(min.x, cmin.x), std::max(min.y, cmin.y), std::min(max.x, cmax.x),
             std::min(max.y, cmax.y));
    if (r.z - r.x < 1 || r.w - r.y < 1) return; // scrolled away or clipped out
    frame().rects[name] = r;
}

void item(const std::string& name) {
    if (enabled()) rect(name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void fact(const std::string& key, const std::string& value) {
    if (enabled()) frame().facts[key] = value;
}

std::string json(uint64_t frameNumber) {
    std::string s = "{\"frame\": " + std::to_string(frameNumber) + ",\n\"facts\": {";
    bool first = true;
    for (const auto& [k, v] : frame().facts) {
        s += std::string(first ? "\n" : ",\n") + quoted(k) + ": " + quoted(v);
        first = false;
    }
    s += "},\n\"rects\": {";
    first = true;
    for (const auto& [k, r] : frame().rects) {
        s += std::string(first ? "\n" : ",\n") + quoted(k) + ": [" +
             std::to_string(std::lround(r.x)) + ", " + std::to_string(std::lround(r.y)) + ", " +
             std::to_string(std::lround(r.z)) + ", " + std::to_string(std::lround(r.w)) + "]";
        first = false;
    }
    return s + "}}\n";
}

} // namespace vkp::ui::layout
