#include "ui/widgets.h"

#include <vector>

#include "ui/fonts.h"
#include "ui/theme.h"

namespace vkp::ui {

ImVec2 beginPanel(const char* id, const char* title, ImVec2 size, const std::string& info, ImU32 infoColour) {
    const Palette& pal = palette();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(pal.panelBg));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::BeginChild(id, size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float h = ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y * 2 + 2;
    float w = ImGui::GetWindowWidth();
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), pal.panelHeader);
    float pad = ImGui::GetStyle().WindowPadding.x;
    ImGui::PushFont(fonts().bold);
    dl->AddText(ImVec2(p.x + pad, p.y + (h - ImGui::GetFontSize()) * 0.5f), pal.text, title);
    ImGui::PopFont();
    if (!info.empty()) {
        float tw = ImGui::CalcTextSize(info.c_str()).x;
        dl->AddText(ImVec2(p.x + w - tw - pad, p.y + (h - ImGui::GetFontSize()) * 0.5f), infoColour ? infoColour : pal.dimText, info.c_str());
    }
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    return avail;
}

void endPanel() {
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

void badge(const std::string& text, ImU32 background, ImU32 textColour) {
    ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    float padX = ImGui::GetFontSize() * 0.45f, padY = ImGui::GetFontSize() * 0.1f;
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImVec2 size(ts.x + padX * 2, ts.y + padY * 2);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), background, size.y * 0.5f);
    dl->AddText(ImVec2(p.x + padX, p.y + padY), textColour, text.c_str());
    ImGui::Dummy(size);
}

void legendSwatch(ImU32 colour, const char* meaning, ImU32 border) {
    float s = ImGui::GetFontSize() * 0.8f;
    ImVec2 p = ImGui::GetCursorScreenPos();
    float y = p.y + (ImGui::GetTextLineHeight() - s) * 0.5f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + s, y + s), colour, 2);
    dl->AddRect(ImVec2(p.x, y), ImVec2(p.x + s, y + s), border ? border : palette().cellBorder, 2);
    ImGui::Dummy(ImVec2(s, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, ImGui::GetFontSize() * 0.35f);
    dimText(meaning);
}

void colouredText(ImU32 colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
}

void dimText(const std::string& text) { colouredText(palette().dimText, text); }

void richText(const std::string& paragraph, float wrapWidth) {
    struct Piece {
        std::string text;
        bool code, spaceBefore;
    };
    std::vector<Piece> pieces;
    std::string cur;
    bool code = false, spaceBefore = false;
    for (char c : paragraph) {
        if (c != ' ' && c != '`') {
            cur += c;
            continue;
        }
        if (!cur.empty()) {
            pieces.push_back({cur, code, spaceBefore});
            cur.clear();
            spaceBefore = false;
        }
        if (c == ' ') spaceBefore = true;
        else code = !code;
    }
    if (!cur.empty()) pieces.push_back({cur, code, spaceBefore});
    if (pieces.empty()) return ImGui::NewLine();
    const Palette& pal = palette();
    float width = wrapWidth > 0 ? wrapWidth : ImGui::GetContentRegionAvail().x, space = ImGui::CalcTextSize(" ").x, x = 0;
    for (size_t i = 0; i < pieces.size(); ++i) {
        ImGui::PushFont(pieces[i].code ? fonts().mono : fonts().ui);
        float w = ImGui::CalcTextSize(pieces[i].text.c_str()).x, gap = pieces[i].spaceBefore ? space : 0;
        if (i > 0 && x + gap + w <= width) {
            ImGui::SameLine(0, gap);
            x += gap + w;
        } else {
            x = w;
        }
        colouredText(pieces[i].code ? pal.synFunction : pal.text, pieces[i].text);
        ImGui::PopFont();
    }
}

void helpMarker(const char* text) {
    ImGui::TextDisabled("(?)");
    itemTooltip(text);
}

void itemTooltip(const std::string& text) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

float splitter(const char* id, bool vertical, ImVec2 pos, ImVec2 size) {
    ImGui::SetCursorScreenPos(pos);
    ImGui::InvisibleButton(id, size);
    bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
    if (hovered || active) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImU32 c = active ? palette().accent : hovered ? withAlpha(palette().accent, 0.6f) : 0;
    if (c) dl->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y), c);
    if (!active) return 0;
    ImVec2 d = ImGui::GetIO().MouseDelta;
    return vertical ? d.x : d.y;
}

void centredText(ImDrawList* dl, ImFont* font, ImVec2 min, ImVec2 max, ImU32 colour, const char* text) {
    ImVec2 ts = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, text);
    ImVec2 p((min.x + max.x - ts.x) * 0.5f, (min.y + max.y - ts.y) * 0.5f);
    ImVec4 clip(min.x, min.y, max.x, max.y);
    dl->AddText(font, font->FontSize, p, colour, text, nullptr, 0, &clip);
}

} // namespace vkp::ui
