#include "widgets/widgets.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <vector>

#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"

namespace vkp::ui {

namespace {

// The padded region under a panel's title strip; panels scroll inside their own lists.
ImVec2 beginPanelBody() {
    ImGui::BeginChild("##body", ImVec2(0, 0), false,
                      ImGuiWindowFlags_AlwaysUseWindowPadding | ImGuiWindowFlags_NoScrollbar |
                          ImGuiWindowFlags_NoScrollWithMouse);
    return ImGui::GetContentRegionAvail();
}

} // namespace

namespace {
std::string g_panelHint;
} // namespace

void setPanelHint(const std::string& hint) {
    g_panelHint = hint;
}

ImVec2 beginPanel(const char* id, const char* title, ImVec2 size, const std::string& info,
                  ImU32 infoColour) {
    const Palette& pal = palette();
    // Panels share the window's background (the frame's clear colour): drawing it again per panel
    // would only cost fill rate, which a software rasteriser such as lavapipe pays per pixel.
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0, 0, 0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::BeginChild(id, size, true,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar();
    if (!title) return beginPanelBody();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float h = ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y * 2 + 2;
    float w = ImGui::GetWindowWidth();
    float pad = ImGui::GetStyle().WindowPadding.x;
    // Presenter mode: a strip too short for the title and its info takes a second line rather
    // than cutting them (a projector's 200% on 1280x720): the title (up to a comma or a
    // parenthesis where it is too long alone) on the first, the rest and the info on the second.
    std::string titleText = title, infoText = info;
    bool twoLines = false;
    if (presenterMode()) {
        ImGui::PushFont(fonts().bold);
        float needed = ImGui::CalcTextSize(title).x +
                       (info.empty() ? 0 : ImGui::CalcTextSize(info.c_str()).x + pad) + 2 * pad;
        if (needed > w) {
            twoLines = true;
            std::string t = title;
            for (size_t at = t.size(); ImGui::CalcTextSize(titleText.c_str()).x > w - 2 * pad;) {
                size_t cut =
                    std::min(t.rfind(", ", at ? at - 1 : 0), t.rfind(" (", at ? at - 1 : 0));
                if (cut == std::string::npos || cut == 0) break;
                titleText = t.substr(0, cut);
                std::string rest = t.substr(t[cut] == ',' ? cut + 2 : cut + 1);
                infoText = rest + (info.empty() ? "" : " \xC2\xB7 " + info);
                at = cut;
            }
        }
        ImGui::PopFont();
    }
    float line = h;
    if (twoLines) h += ImGui::GetTextLineHeight();
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), pal.panelHeader);
    ImGui::PushFont(fonts().bold);
    std::string shownTitle = ellipsize(titleText, w - 2 * pad);
    float titleW = ImGui::CalcTextSize(shownTitle.c_str()).x;
    dl->AddText(ImVec2(p.x + pad, p.y + (line - ImGui::GetFontSize()) * 0.5f), pal.text,
                shownTitle.c_str());
    ImGui::PopFont();
    float infoX = p.x + w;
    bool secondLineWhole = true;
    if (twoLines && !infoText.empty()) {
        std::string shown = ellipsize(infoText, w - 2 * pad);
        secondLineWhole = shown == infoText;
        float y = p.y + line - ImGui::GetStyle().FramePadding.y;
        dl->AddText(ImVec2(p.x + pad, y), infoColour ? infoColour : pal.dimText, shown.c_str());
        if (shown != infoText &&
            ImGui::IsMouseHoveringRect(ImVec2(p.x, y), ImVec2(p.x + w, p.y + h)))
            ImGui::SetTooltip("%s", infoText.c_str());
    } else if (!info.empty()) {
        std::string shown = ellipsize(info, w - titleW - 3 * pad);
        float tw = ImGui::CalcTextSize(shown.c_str()).x;
        infoX = p.x + w - tw - pad;
        if (!shown.empty())
            dl->AddText(ImVec2(infoX, p.y + (h - ImGui::GetFontSize()) * 0.5f),
                        infoColour ? infoColour : pal.dimText, shown.c_str());
        if (shown != info &&
            ImGui::IsMouseHoveringRect(ImVec2(infoX, p.y), ImVec2(p.x + w, p.y + h)))
            ImGui::SetTooltip("%s", info.c_str());
    }
    bool titleHovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) &&
                        ImGui::IsMouseHoveringRect(p, ImVec2(infoX, p.y + line));
    if (titleHovered && (shownTitle != titleText || !g_panelHint.empty())) {
        std::string tip =
            shownTitle != titleText ? std::string(title) + (g_panelHint.empty() ? "" : "\n") : "";
        ImGui::SetTooltip("%s", (tip + g_panelHint).c_str());
    }
    if (layout::enabled()) {
        layout::rect(std::string("title/") + id, ImVec2(p.x + pad, p.y),
                     ImVec2(p.x + w - pad, p.y + h));
        // A title split over the strip's two lines is whole when both parts are.
        layout::fact(std::string("text/title/") + id,
                     twoLines && shownTitle == titleText && titleText != title && secondLineWhole
                         ? std::string(title)
                         : shownTitle);
        layout::fact(std::string("full/title/") + id, title);
        layout::fact(std::string("textWidth/title/") + id,
                     std::to_string(static_cast<int>(std::ceil(titleW))));
    }
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y);
    return beginPanelBody();
}

void endPanel() {
    ImGui::EndChild();
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

namespace {

// ImGui's text fields write into a char buffer; this one grows the string as the user types.
int growString(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* text = static_cast<std::string*>(data->UserData);
        text->resize(static_cast<size_t>(data->BufTextLen));
        data->Buf = text->data();
    }
    return 0;
}

} // namespace

bool stringField(const char* id, std::string& text, const std::string& hint, bool multiline,
                 float width, ImGuiInputTextFlags flags) {
    flags |= ImGuiInputTextFlags_CallbackResize;
    if (multiline) {
        float h = ImGui::GetTextLineHeight() * 3 + ImGui::GetStyle().FramePadding.y * 2;
        return ImGui::InputTextMultiline(id, text.data(), text.capacity() + 1, ImVec2(width, h),
                                         flags, growString, &text);
    }
    ImGui::SetNextItemWidth(width);
    return ImGui::InputTextWithHint(id, hint.c_str(), text.data(), text.capacity() + 1, flags,
                                    growString, &text);
}

void colouredText(ImU32 colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
}

void dimText(const std::string& text) {
    colouredText(palette().dimText, text);
}

namespace {

struct Piece {
    std::string text;
    bool code = false, bold = false, spaceBefore = false;
};

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Splits a paragraph into words; `code` spans and *emphasis* change how words are drawn.
std::vector<Piece> pieces(const std::string& text) {
    std::vector<Piece> out;
    std::string cur;
    bool code = false, bold = false, spaceBefore = false;
    auto flush = [&] {
        if (cur.empty()) return;
        out.push_back({cur, code, bold, spaceBefore});
        cur.clear();
        spaceBefore = false;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i], prev = i ? text[i - 1] : ' ',
             next = i + 1 < text.size() ? text[i + 1] : ' ';
        bool emphasis = c == '*' && !code &&
                        ((!bold && isWordChar(next) && !isWordChar(prev)) ||
                         (bold && isWordChar(prev) && !isWordChar(next)));
        if (c == ' ') {
            flush();
            spaceBefore = true;
        } else if (c == '`' || emphasis) {
            flush();
            (c == '`' ? code : bold) = !(c == '`' ? code : bold);
        } else {
            cur += c;
        }
    }
    flush();
    return out;
}

} // namespace

void richText(const std::string& paragraph, float wrapWidth) {
    std::vector<Piece> words = pieces(paragraph);
    if (words.empty()) return ImGui::NewLine();
    const Palette& pal = palette();
    float width = wrapWidth > 0 ? wrapWidth : ImGui::GetContentRegionAvail().x,
          space = ImGui::CalcTextSize(" ").x, x = 0;
    for (size_t i = 0; i < words.size(); ++i) {
        ImGui::PushFont(words[i].code ? fonts().mono : words[i].bold ? fonts().bold : fonts().ui);
        float w = ImGui::CalcTextSize(words[i].text.c_str()).x,
              gap = words[i].spaceBefore ? space : 0;
        if (i > 0 && x + gap + w <= width) {
            ImGui::SameLine(0, gap);
            x += gap + w;
        } else {
            x = w;
        }
        colouredText(words[i].code ? pal.synFunction : pal.text, words[i].text);
        ImGui::PopFont();
    }
}

void flowSameLine(float nextWidth) {
    float spacing = ImGui::GetStyle().ItemSpacing.x * 2;
    float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + spacing + nextWidth <= right) ImGui::SameLine(0, spacing);
}

float legendWidth(const char* meaning) {
    return ImGui::GetFontSize() * 0.8f + ImGui::GetFontSize() * 0.35f +
           ImGui::CalcTextSize(meaning).x;
}

namespace {
bool g_legends = true, g_explanations = true;
} // namespace

void setLegendOptions(bool legends, bool explanations) {
    g_legends = legends;
    g_explanations = explanations;
}
bool legendsShown() {
    return g_legends;
}
bool explanationsShown() {
    return g_explanations;
}

namespace {

void legendSwatches(const std::vector<LegendItem>& items, bool flow) {
    bool first = true;
    for (const LegendItem& it : items) {
        if (!first && flow) flowSameLine(legendWidth(it.meaning.c_str()));
        legendSwatch(it.fill, it.meaning.c_str(), it.border);
        first = false;
    }
}

} // namespace

void legend(const std::vector<LegendItem>& items, const std::string& explanation) {
    // A short panel (large text on a small screen) keeps its room for the view: the legend folds
    // into one word, unfolded in a tooltip.
    bool folded = g_legends && !items.empty() &&
                  ImGui::GetContentRegionAvail().y < ImGui::GetTextLineHeightWithSpacing() * 11;
    if (folded) {
        ImGui::TextDisabled("legend \xE2\x96\xBE");
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            legendSwatches(items, false);
            if (!explanation.empty()) {
                ImGui::Separator();
                ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
                ImGui::TextUnformatted(explanation.c_str());
                ImGui::PopTextWrapPos();
            }
            ImGui::EndTooltip();
        }
        return;
    }
    if (g_legends) legendSwatches(items, true);
    if (!g_explanations || explanation.empty()) return;
    if (g_legends && !items.empty()) ImGui::SameLine();
    helpMarker(explanation.c_str());
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
    if (hovered || active)
        ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImU32 c = active ? palette().accent : hovered ? withAlpha(palette().accent, 0.6f) : 0;
    if (c) dl->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y), c);
    if (!active) return 0;
    ImVec2 d = ImGui::GetIO().MouseDelta;
    return vertical ? d.x : d.y;
}

std::string ellipsizeWith(const std::string& text, float maxWidth, const TextWidth& width) {
    if (width(text) <= maxWidth) return text;
    const std::string dots = "\xE2\x80\xA6";
    float dotsW = width(dots);
    if (maxWidth <= dotsW) return "";
    size_t n = text.size();
    while (n > 0) {
        do
            --n;
        while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80);
        if (width(std::string_view(text).substr(0, n)) + dotsW <= maxWidth) break;
    }
    return text.substr(0, n) + dots;
}

std::vector<std::string> wrapLinesWith(const std::string& text, float maxWidth, size_t maxLines,
                                       const TextWidth& width) {
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < text.size() && lines.size() < maxLines) {
        while (at < text.size() && text[at] == ' ')
            ++at;
        if (at >= text.size()) break;
        if (lines.size() + 1 == maxLines) { // the last line: the rest, cut if it is too long
            lines.push_back(ellipsizeWith(text.substr(at), maxWidth, width));
            break;
        }
        size_t end = at, next = text.find(' ', at);
        while (true) {
            size_t wordEnd = next == std::string::npos ? text.size() : next;
            if (end != at && width(std::string_view(text).substr(at, wordEnd - at)) > maxWidth)
                break;
            end = wordEnd;
            if (next == std::string::npos) break;
            next = text.find(' ', next + 1);
        }
        lines.push_back(text.substr(at, end - at));
        at = end;
    }
    return lines;
}

std::string ellipsize(const std::string& text, float maxWidth, ImFont* font, float size) {
    return ellipsizeWith(text, maxWidth, [&](std::string_view s) {
        return font->CalcTextSizeA(size, FLT_MAX, 0, s.data(), s.data() + s.size()).x;
    });
}

std::string ellipsize(const std::string& text, float maxWidth) {
    return ellipsizeWith(text, maxWidth, [](std::string_view s) {
        return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
    });
}

std::vector<std::string> fitLabels(const std::vector<std::string>& labels, float avail,
                                   float padding, const TextWidth& width) {
    std::vector<float> widths;
    for (const std::string& l : labels)
        widths.push_back(width(l));
    float budget = avail - padding * static_cast<float>(labels.size());
    if (std::accumulate(widths.begin(), widths.end(), 0.0f) <= budget) return labels;
    // The share each long label gets: short ones keep their width, the rest split what is left.
    std::vector<float> sorted = widths;
    std::sort(sorted.begin(), sorted.end());
    float left = budget, share = 0;
    size_t k = sorted.size();
    for (float w : sorted) {
        share = left / static_cast<float>(k);
        if (w > share) break;
        left -= w;
        --k;
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < labels.size(); ++i)
        out.push_back(widths[i] <= share ? labels[i]
                                         : ellipsizeWith(labels[i], std::floor(share), width));
    return out;
}

std::vector<std::string> fitTabLabels(const std::vector<std::string>& labels) {
    const ImGuiStyle& st = ImGui::GetStyle();
    // ImGui 1.86 and 1.90 size a tab without a close button as its text, twice the frame
    // padding and a pixel, and put ItemInnerSpacing between tabs.
    float padding = st.FramePadding.x * 2 + 1 + st.ItemInnerSpacing.x + 1;
    return fitLabels(labels, ImGui::GetContentRegionAvail().x, padding, [](std::string_view s) {
        return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
    });
}

void elidedItem(const std::string& name, const std::string& shown, const std::string& full) {
    layout::item(name);
    if (shown != full) itemTooltip(full);
    if (!layout::enabled()) return;
    layout::fact("text/" + name, shown);
    layout::fact("full/" + name, full);
    layout::fact("textWidth/" + name,
                 std::to_string(static_cast<int>(std::ceil(ImGui::CalcTextSize(shown.c_str()).x))));
}

void centredText(ImDrawList* dl, ImFont* font, ImVec2 min, ImVec2 max, ImU32 colour,
                 const char* text) {
    ImVec2 ts = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, text);
    ImVec2 p((min.x + max.x - ts.x) * 0.5f, (min.y + max.y - ts.y) * 0.5f);
    ImVec4 clip(min.x, min.y, max.x, max.y);
    dl->AddText(font, font->FontSize, p, colour, text, nullptr, 0, &clip);
}

} // namespace vkp::ui
