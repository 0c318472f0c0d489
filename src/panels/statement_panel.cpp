#include "panels/statement_panel.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "check/hidden_cases.h"
#include "panels/browser_panel.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {
namespace {

std::string shapeWords(const Shape& s) {
    if (s.dims.size() == 2)
        return std::to_string(s.rows()) + " rows \xC3\x97 " + std::to_string(s.cols()) + " cols";
    return std::to_string(s.count()) + (s.count() == 1 ? " element" : " elements");
}

ImU32 roleColour(RoleKind role) {
    const Palette& pal = palette();
    return role == RoleKind::Output    ? withAlpha(pal.pass, 0.55f)
           : role == RoleKind::Scratch ? withAlpha(pal.warn, 0.45f)
                                       : withAlpha(pal.accent, 0.45f);
}

// Width in pixels of one buffer's picture (grid and labels).
float shapeWidth(const Shape& s, float cell) {
    uint64_t cols = std::min<uint64_t>(s.dims.size() == 2 ? s.cols() : s.count(), 16);
    return std::max(cols * cell +
                        (cols < (s.dims.size() == 2 ? s.cols() : s.count()) ? cell * 1.5f : 0),
                    cell * 7);
}

void drawOneShape(const BufferDecl& b, const Shape& s, float cell) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::BeginGroup();
    ImGui::PushFont(fonts().mono);
    colouredText(pal.text, b.name);
    ImGui::PopFont();
    ImGui::SameLine();
    dimText(std::string(elementKindName(b.type)) + " " + roleKindName(b.role));
    uint64_t rows = s.dims.size() == 2 ? s.rows() : 1,
             cols = s.dims.size() == 2 ? s.cols() : s.count();
    uint64_t drawRows = std::min<uint64_t>(rows, 8), drawCols = std::min<uint64_t>(cols, 16);
    ImVec2 p = ImGui::GetCursorScreenPos();
    for (uint64_t r = 0; r < drawRows; ++r)
        for (uint64_t c = 0; c < drawCols; ++c) {
            ImVec2 a(p.x + c * cell, p.y + r * cell);
            dl->AddRectFilled(a, ImVec2(a.x + cell - 1, a.y + cell - 1), roleColour(b.role), 1.5f);
        }
    if (drawCols < cols)
        dl->AddText(ImVec2(p.x + drawCols * cell + 2,
                           p.y + (drawRows * cell - ImGui::GetFontSize()) * 0.5f),
                    pal.dimText, "\xE2\x80\xA6");
    if (drawRows < rows)
        dl->AddText(ImVec2(p.x, p.y + drawRows * cell - ImGui::GetFontSize() * 0.3f), pal.dimText,
                    "\xE2\x8B\xAE");
    ImGui::Dummy(ImVec2(shapeWidth(s, cell),
                        drawRows * cell + (drawRows < rows ? ImGui::GetFontSize() * 0.6f : 0)));
    dimText(shapeWords(s));
    ImGui::EndGroup();
}

// "<= 2 * ceil_div(INNER, TILE) global reads (10 in the largest case)" where the limit is an
// expression of the case; else the number.
std::string limitBadge(uint32_t largest, const std::optional<Expr>& expr, const char* what) {
    std::string text = "\xE2\x89\xA4 " + (expr ? expr->text() : std::to_string(largest)) + " " +
                       what + (largest == 1 && !expr ? "" : "s");
    return expr ? text + " (" + std::to_string(largest) + " in the largest case)" : text;
}

void drawLimits(const Puzzle& p) {
    if (!p.limits.globalReads && !p.limits.globalWrites) return;
    const Palette& pal = palette();
    ImGui::Spacing();
    dimText("Per-thread budget:");
    ImGui::SameLine();
    if (p.limits.globalReads) {
        badge(limitBadge(*p.limits.globalReads, p.limits.globalReadsExpr, "global read"),
              withAlpha(pal.warn, 0.25f), pal.text);
        ImGui::SameLine();
    }
    if (p.limits.globalWrites)
        badge(limitBadge(*p.limits.globalWrites, p.limits.globalWritesExpr, "global write"),
              withAlpha(pal.warn, 0.25f), pal.text);
}

// Sideways scrolling of a hovered code block by the horizontal wheel or Shift+wheel, done here:
// the block takes no wheel from ImGui (ImGui 1.90 turns a vertical wheel over a window that can
// only scroll sideways into a sideways scroll, which would stop the statement's scrolling under
// the pointer).
void wheelSideways() {
    if (!ImGui::IsWindowHovered()) return;
    const ImGuiIO& io = ImGui::GetIO();
    float wheel = io.MouseWheelH;
    if (wheel == 0 && io.KeyShift) wheel = io.MouseWheel;
    if (wheel != 0) ImGui::SetScrollX(ImGui::GetScrollX() - wheel * 2 * ImGui::GetFontSize());
}

// A run of indented code lines, one block in the mono font. A line wider than the panel is not
// cut: the block then scrolls sideways on its own (its scrollbar, the horizontal wheel,
// Shift+wheel), columns kept, while the vertical wheel still scrolls the text around it.
void drawCodeBlock(const std::vector<std::string>& lines, const std::string& probe) {
    const Palette& pal = palette();
    ImGui::PushFont(fonts().mono);
    float widest = 0;
    for (const std::string& line : lines)
        widest = std::max(widest, ImGui::CalcTextSize(line.c_str()).x);
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + ImGui::GetFontSize());
    float avail = ImGui::GetContentRegionAvail().x;
    if (widest <= avail) {
        ImGui::BeginGroup();
        for (const std::string& line : lines)
            colouredText(pal.synNumber, line);
        ImGui::EndGroup();
        ImGui::PopFont();
        return;
    }
    float height = static_cast<float>(lines.size()) * ImGui::GetTextLineHeightWithSpacing() +
                   ImGui::GetStyle().ScrollbarSize + ImGui::GetStyle().ItemSpacing.y;
    ImGui::BeginChild(probe.c_str(), ImVec2(avail, height), false,
                      ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    wheelSideways();
    for (const std::string& line : lines)
        colouredText(pal.synNumber, line);
    layout::rect(probe, ImGui::GetWindowPos(),
                 ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x,
                        ImGui::GetWindowPos().y + ImGui::GetWindowSize().y));
    layout::fact(probe, std::to_string(std::lround(ImGui::GetScrollX())) + "/" +
                            std::to_string(std::lround(ImGui::GetScrollMaxX())));
    ImGui::EndChild();
    ImGui::PopFont();
}

} // namespace

std::vector<TextBlock> statementBlocks(const std::string& statement) {
    std::vector<TextBlock> out;
    std::istringstream in(statement);
    std::string line;
    while (std::getline(in, line)) {
        bool blank = line.find_first_not_of(" \t") == std::string::npos;
        if (blank) {
            if (!out.empty() && out.back().kind != TextBlock::Kind::Blank)
                out.push_back({TextBlock::Kind::Blank, ""});
        } else if (line.rfind("    ", 0) == 0) {
            out.push_back({TextBlock::Kind::Code, line.substr(4)});
        } else if (line.rfind("- ", 0) == 0) {
            out.push_back({TextBlock::Kind::Bullet, line.substr(2), "\xE2\x80\xA2"});
        } else if (size_t dot = line.find(". ");
                   dot > 0 && dot <= 2 && line.find_first_not_of("0123456789") == dot) {
            out.push_back({TextBlock::Kind::Bullet, line.substr(dot + 2), line.substr(0, dot + 1)});
        } else if (!out.empty() && (out.back().kind == TextBlock::Kind::Paragraph ||
                                    out.back().kind == TextBlock::Kind::Bullet)) {
            out.back().text +=
                " " +
                line.substr(line.find_first_not_of(" \t")); // a wrapped line continues its block
        } else {
            out.push_back({TextBlock::Kind::Paragraph, line});
        }
    }
    while (!out.empty() && out.back().kind == TextBlock::Kind::Blank)
        out.pop_back();
    return out;
}

void drawShapesPicture(const Puzzle& p, size_t caseIndex) {
    if (caseIndex >= p.cases.size()) return;
    const TestCase& c = p.cases[caseIndex];
    float cell = std::max(6.0f, ImGui::GetFontSize() * 0.62f);
    float avail = ImGui::GetContentRegionAvail().x, x = 0;
    bool first = true;
    for (RoleKind role : {RoleKind::Input, RoleKind::Scratch, RoleKind::Output}) {
        for (size_t b = 0; b < p.buffers.size(); ++b) {
            if (p.buffers[b].role != role || !c.data[b]) continue;
            const Shape& s = c.data[b]->shape;
            // The label is the name (monospace), a space and the role: measured generously so a
            // second buffer beside the first is never cut at the panel's edge.
            ImGui::PushFont(fonts().mono);
            float nameW = ImGui::CalcTextSize(p.buffers[b].name.c_str()).x;
            ImGui::PopFont();
            float labelW =
                nameW + ImGui::GetStyle().ItemSpacing.x * 2 + ImGui::CalcTextSize("float output").x;
            float w = std::max(shapeWidth(s, cell), labelW);
            bool arrow = role == RoleKind::Output && !first && x > 0;
            float need =
                w + (arrow ? ImGui::GetFontSize() * 2 : 0) + ImGui::GetStyle().ItemSpacing.x * 2;
            if (!first && x + need <= avail)
                ImGui::SameLine(0, ImGui::GetFontSize());
            else
                x = 0;
            if (arrow && x > 0) {
                ImGui::PushFont(fonts().title);
                dimText("\xE2\x86\x92");
                ImGui::PopFont();
                ImGui::SameLine(0, ImGui::GetFontSize());
            }
            drawOneShape(p.buffers[b], s, cell);
            x += need;
            first = false;
        }
    }
}

void drawTextBlocks(const std::string& text, const std::string& probe) {
    const Palette& pal = palette();
    std::vector<TextBlock> blocks = statementBlocks(text);
    int codeBlocks = 0;
    for (size_t i = 0; i < blocks.size(); ++i) {
        const TextBlock& b = blocks[i];
        switch (b.kind) {
        case TextBlock::Kind::Blank:
            ImGui::Spacing();
            break;
        case TextBlock::Kind::Paragraph:
            richText(b.text);
            break;
        case TextBlock::Kind::Bullet:
            colouredText(pal.dimText, b.label);
            ImGui::SameLine();
            ImGui::BeginGroup();
            richText(b.text);
            ImGui::EndGroup();
            break;
        case TextBlock::Kind::Code: {
            std::vector<std::string> lines;
            for (; i < blocks.size() && blocks[i].kind == TextBlock::Kind::Code; ++i)
                lines.push_back(blocks[i].text);
            --i;
            drawCodeBlock(lines, probe + "/code/" + std::to_string(++codeBlocks));
            break;
        }
        }
    }
}

// What the official solution needs of a device beyond compute, and what this one lacks of it.
void StatementPanel::drawNeeds(Workbench& wb, const Puzzle& p) {
    if (p.needs.empty()) return;
    ImGui::PushTextWrapPos(0);
    dimText("Needs a device with " + needsText(p.needs) + ".");
    const LiveSnapshot& s = wb.snapshot();
    if (s.device && !missingOn(p.needs, *s.device).empty() && !wb.caseFile())
        colouredText(palette().fail,
                     s.device->name + " lacks " + needsText(missingOn(p.needs, *s.device)) +
                         ": kernels that use them cannot run on it. Read the statement, the hints "
                         "and the walkthrough, or pick another device in the Device tab.");
    ImGui::PopTextWrapPos();
}

void StatementPanel::draw(Workbench& wb, views::ViewState& view, ImVec2) {
    const Puzzle* p = wb.puzzle();
    if (!p) return dimText("Open a puzzle from the list on the left.");
    ImGui::PushFont(fonts().title);
    ImGui::TextWrapped("%s", p->displayName().c_str()); // a long title takes a second line
    ImGui::PopFont();
    std::string track = p->track.empty() ? "" : p->track + " track \xC2\xB7 ";
    std::string meta = track + std::to_string(p->cases.size()) + " test cases \xC2\xB7 " +
                       (p->pack.empty() ? p->folder : "pack " + p->key());
    dimText(ellipsize(meta, ImGui::GetContentRegionAvail().x));
    itemTooltip(meta);
    drawNeeds(wb, *p);
    if (PuzzleProgress pr = wb.progress(*p); pr.how != SolvedHow::NotYet) {
        SolvedMark m = solvedMark(pr);
        std::string text = std::string(m.glyph) + " " + m.badge;
        flowSameLine(ImGui::CalcTextSize(text.c_str()).x + ImGui::GetFontSize());
        badge(text, withAlpha(m.colour, 0.25f), m.colour);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.words.c_str());
    }
    ImGui::Spacing();
    size_t ci = std::min<size_t>(view.selectedCase, p->cases.size() - 1);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted("Buffers");
    ImGui::PopFont();
    ImGui::SameLine();
    dimText("\xC2\xB7 case " + std::to_string(ci + 1));
    itemTooltip("Each test case has its own sizes; select a case in the Test cases panel.");
    if (p->cases[ci].hidden) // its sizes are what the teacher hid
        dimText(std::string("(") + kHiddenCaseText + ")");
    else
        drawShapesPicture(*p, ci);
    ImGui::Separator();
    drawTextBlocks(p->statement, "statement");
    drawLimits(*p);
    layout::fact("statementScroll", std::to_string(std::lround(ImGui::GetScrollY())));
}

} // namespace vkp::ui
