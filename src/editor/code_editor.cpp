#include "editor/code_editor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "widgets/fonts.h"
#include "widgets/keys.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace text; // the editor's text model (document, lexer) this file draws
namespace {

// GLFW (the platform under ImGui here) numbers printable keys by their ASCII character.

bool pressed(ImGuiKey key) {
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), true);
}

ImU32 tokenColour(TokenKind k) {
    const Palette& p = palette();
    switch (k) {
    case TokenKind::Keyword:
        return p.synKeyword;
    case TokenKind::Type:
        return p.synType;
    case TokenKind::Builtin:
        return p.synBuiltin;
    case TokenKind::Function:
        return p.synFunction;
    case TokenKind::Number:
        return p.synNumber;
    case TokenKind::Comment:
        return p.synComment;
    case TokenKind::Preprocessor:
        return p.synPreprocessor;
    case TokenKind::Punctuation:
        return p.synPunctuation;
    default:
        return p.synIdentifier;
    }
}

// Visual column of a byte offset (tabs to the next stop) without a TextDocument.
int columnOf(const std::string& s, int byte) {
    int col = 0;
    for (int i = 0; i < byte && i < static_cast<int>(s.size()); i = nextCharBoundary(s, i))
        col = s[i] == '\t' ? (col / kTabWidth + 1) * kTabWidth : col + 1;
    return col;
}

// Draws s[begin, end) split at tabs, each piece at its visual column.
void drawSpan(ImDrawList* dl, ImFont* font, float size, ImVec2 origin, float cw,
              const std::string& s, int begin, int end, ImU32 colour) {
    int i = begin;
    while (i < end) {
        int j = i;
        while (j < end && s[j] != '\t')
            ++j;
        if (j > i)
            dl->AddText(font, size, ImVec2(origin.x + columnOf(s, i) * cw, origin.y), colour,
                        s.data() + i, s.data() + j);
        i = j + 1;
    }
}

void drawSquiggle(ImDrawList* dl, float x0, float x1, float y, ImU32 colour, float scale) {
    float step = 2.0f * scale;
    bool up = true;
    for (float x = x0; x < x1; x += step, up = !up)
        dl->AddLine(ImVec2(x, y + (up ? 0 : step)),
                    ImVec2(std::min(x + step, x1), y + (up ? step : 0)), colour, 1.0f * scale);
}

const EditorMarker* worstOnLine(const std::vector<EditorMarker>& markers, int line1) {
    const EditorMarker* worst = nullptr;
    for (const EditorMarker& m : markers)
        if (m.line == line1 && (!worst || m.severity < worst->severity)) worst = &m;
    return worst;
}

} // namespace

std::vector<EditorMarker> markersFrom(const std::vector<Diagnostic>& diagnostics) {
    std::vector<EditorMarker> out;
    for (const Diagnostic& d : diagnostics)
        if (d.line > 0) out.push_back({d.line, d.column, d.severity, d.message});
    return out;
}

std::vector<EditorMarker> markersFrom(const TraceAnalysis& analysis) {
    std::vector<EditorMarker> out;
    for (const Finding& f : analysis.findings)
        if (f.line > 0)
            out.push_back({static_cast<int>(f.line), 0,
                           f.failsCase ? SeverityKind::Error : SeverityKind::Warning, f.message,
                           findingKindName(f.kind), true});
    return out;
}

std::vector<EditorBadge> badgesFrom(const EfficiencyReport& report) {
    std::vector<EditorBadge> out;
    for (const LineEfficiency& l : report.lines)
        if (l.line > 0 && l.cost != CostKind::None && !l.badge.empty())
            out.push_back({l.line, l.cost, l.badge, l.sentence});
    return out;
}

void drawGlslLine(ImDrawList* dl, ImVec2 pos, const std::string& line, LexState& state, float cw) {
    ImFont* font = fonts().mono;
    for (const Token& t : lexGlslLine(line, state))
        if (t.kind != TokenKind::Space)
            drawSpan(dl, font, font->FontSize, pos, cw, line, t.begin, t.end, tokenColour(t.kind));
}

void CodeEditor::relex(const TextDocument& doc) {
    if (m_lexedRevision == doc.revision() && m_lexedDoc == &doc &&
        static_cast<int>(m_tokens.size()) == doc.lineCount())
        return;
    m_tokens.resize(doc.lineCount());
    LexState state;
    for (int i = 0; i < doc.lineCount(); ++i)
        m_tokens[i] = lexGlslLine(doc.line(i), state);
    m_lexedRevision = doc.revision();
    m_lexedDoc = &doc;
}

void CodeEditor::jumpTo(TextDocument& doc, int line, int column) {
    doc.setCursor({line - 1, std::max(0, column - 1)});
    m_scrollToCursor = true;
    m_wantFocus = true;
}

std::optional<uint32_t> CodeEditor::takeWatchToggle() {
    auto t = m_watchToggle;
    m_watchToggle.reset();
    return t;
}

void CodeEditor::drawMatches(const TextDocument& doc, const Metrics& m, int first, int last) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (const TextRange& r : m_find.matches(doc)) {
        if (r.first.line < first || r.first.line > last) continue;
        float y = m.origin.y + r.first.line * m.lineHeight;
        ImVec2 a(m.origin.x + doc.visualColumn(r.first.line, r.first.column) * m.charWidth, y);
        ImVec2 b(m.origin.x + doc.visualColumn(r.second.line, r.second.column) * m.charWidth,
                 y + m.lineHeight);
        dl->AddRectFilled(a, b, withAlpha(pal.warn, 0.28f));
        dl->AddRect(a, b, withAlpha(pal.warn, 0.8f));
    }
}

void CodeEditor::drawDecorations(const Metrics& m, const EditorDecorations& d, int first,
                                 int last) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float left = m.clipMin.x + m.gutterWidth, right = m.clipMax.x;
    for (uint32_t line : d.focus) {
        int i = static_cast<int>(line) - 1;
        if (i < first || i > last) continue;
        float y = m.origin.y + i * m.lineHeight;
        dl->AddRectFilled(ImVec2(left, y), ImVec2(right, y + m.lineHeight),
                          withAlpha(pal.focus, 0.16f));
        dl->AddRectFilled(ImVec2(left, y), ImVec2(left + 3, y + m.lineHeight), pal.focus);
    }
}

void CodeEditor::drawGutterMarks(const Metrics& m, const EditorDecorations& d, int first,
                                 int last) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float barX = m.clipMin.x + m.gutterWidth - m.charWidth * 0.45f;
    for (uint32_t line : d.executed) {
        int i = static_cast<int>(line) - 1;
        if (i < first || i > last) continue;
        float y = m.origin.y + i * m.lineHeight;
        dl->AddRectFilled(ImVec2(barX, y + 1),
                          ImVec2(barX + std::max(2.0f, m.charWidth * 0.3f), y + m.lineHeight - 1),
                          pal.executedLine);
    }
    for (uint32_t line : d.watched) {
        int i = static_cast<int>(line) - 1;
        if (i < first || i > last) continue;
        ImVec2 c(m.clipMin.x + m.charWidth * 2.0f,
                 m.origin.y + i * m.lineHeight + m.lineHeight * 0.5f);
        float r = m.lineHeight * 0.2f;
        dl->AddCircle(c, r * 1.6f, pal.watchMark, 12, std::max(1.0f, r * 0.35f));
        dl->AddCircleFilled(c, r * 0.7f, pal.watchMark);
    }
}

ImU32 costColour(CostKind cost) {
    const Palette& pal = palette();
    switch (cost) {
    case CostKind::Severe:
        return pal.costSevere;
    case CostKind::Notable:
        return pal.costNotable;
    default:
        return pal.costMinor;
    }
}

// The widest badge, in the small font; kept until another puzzle opens or the text size changes
// (see m_badgeWidth).
float CodeEditor::badgeColumnWidth(const EditorDecorations* d) {
    ImFont* small = fonts().small;
    if (m_badgeFontSize != small->FontSize) m_badgeWidth = 0, m_badgeFontSize = small->FontSize;
    float pad = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, "M").x * 1.2f;
    if (d)
        for (const EditorBadge& b : d->badges)
            m_badgeWidth = std::max(
                m_badgeWidth,
                std::ceil(small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, b.text.c_str()).x +
                          pad));
    return m_badgeWidth;
}

// Each line's efficiency badge: a pill in its cost's colour, the sentence on hover.
void CodeEditor::drawBadges(const Metrics& m, const std::vector<EditorBadge>& badges, int first,
                            int last) {
    if (m.badgeWidth <= 0) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* small = fonts().small;
    ImVec2 mouse = ImGui::GetIO().MousePos;
    bool hoverable = ImGui::IsWindowHovered();
    std::string probe;
    for (const EditorBadge& b : badges) {
        probe += (probe.empty() ? "" : ";") + std::to_string(b.line) + ":" + b.text;
        int i = static_cast<int>(b.line) - 1;
        if (i < first || i > last) continue;
        float y = m.origin.y + i * m.lineHeight, pad = m.lineHeight * 0.12f;
        ImVec2 a(m.clipMin.x + m.badgeX, y + pad),
            z(m.clipMin.x + m.badgeX + m.badgeWidth, y + m.lineHeight - pad);
        ImU32 colour = costColour(b.cost);
        dl->AddRectFilled(a, z, withAlpha(colour, 0.22f), m.lineHeight * 0.3f);
        dl->AddRect(a, z, colour, m.lineHeight * 0.3f, 0, 1.0f);
        ImVec2 ts = small->CalcTextSizeA(small->FontSize, FLT_MAX, 0, b.text.c_str());
        ImVec4 clip(a.x, a.y, z.x, z.y);
        dl->AddText(small, small->FontSize,
                    ImVec2(a.x + (z.x - a.x - ts.x) * 0.5f, a.y + (z.y - a.y - ts.y) * 0.5f),
                    colour, b.text.c_str(), nullptr, 0, &clip);
        layout::rect("badge/" + std::to_string(b.line), a, z);
        if (!hoverable || mouse.x < a.x || mouse.x > z.x || mouse.y < a.y || mouse.y > z.y)
            continue;
        m_badgeHovered = true;
        ImGui::BeginTooltip();
        ImGui::PushFont(fonts().ui);
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
        colouredText(colour, "line " + std::to_string(b.line) + ": " + b.text);
        ImGui::TextWrapped("%s", b.sentence.c_str());
        dimText("The Efficiency tab lists every line by cost.");
        ImGui::PopTextWrapPos();
        ImGui::PopFont();
        ImGui::EndTooltip();
    }
    layout::fact("badges", probe);
}

void CodeEditor::contextMenu(const TextDocument& doc, const Metrics& m,
                             const EditorDecorations& d) {
    if (ImGui::IsWindowHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Right))
        m_contextLine = positionAt(doc, m, ImGui::GetIO().MousePos).line + 1;
    if (!ImGui::BeginPopupContextWindow("##editorctx", ImGuiPopupFlags_MouseButtonRight)) return;
    bool watched =
        std::find(d.watched.begin(), d.watched.end(), uint32_t(m_contextLine)) != d.watched.end();
    std::string label =
        (watched ? "Stop watching line " : "Watch line ") + std::to_string(m_contextLine);
    if (ImGui::MenuItem(label.c_str(), "F9")) m_watchToggle = static_cast<uint32_t>(m_contextLine);
    ImGui::EndPopup();
}

bool CodeEditor::draw(const char* id, TextDocument& doc, const std::vector<EditorMarker>& markers,
                      ImVec2 size, bool readOnly, const EditorDecorations* decorations) {
    const Palette& pal = palette();
    if (m_find.isOpen()) {
        apply(m_find.draw(doc, size.x));
        size.y = std::max(ImGui::GetFrameHeight(), size.y - ImGui::GetFrameHeightWithSpacing());
    }
    ImFont* font = fonts().mono;
    ImGui::PushFont(font);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(pal.editorBg));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::BeginChild(id, size, false,
                      ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoNav);
    if (m_wantFocus) {
        ImGui::SetWindowFocus();
        m_wantFocus = false;
    }
    m_focused = ImGui::IsWindowFocused();
    uint64_t before = doc.revision();
    relex(doc);

    Metrics m;
    m.lineHeight = std::round(font->FontSize * 1.35f);
    m.charWidth = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, "M").x;
    int digits = std::max(3, static_cast<int>(std::log10(std::max(1, doc.lineCount()))) + 1);
    m.gutterWidth = (digits + 3) * m.charWidth;
    if ((m.badgeWidth = badgeColumnWidth(decorations)) > 0) {
        m.badgeX = 2.9f * m.charWidth;
        m.gutterWidth += m.badgeWidth + 1.4f * m.charWidth;
    }
    ImVec2 win = ImGui::GetWindowPos();
    m.clipMin = win;
    m.clipMax = ImVec2(win.x + ImGui::GetWindowWidth(), win.y + ImGui::GetWindowHeight());
    m.origin = ImVec2(win.x + m.gutterWidth + m.charWidth * 0.5f - ImGui::GetScrollX(),
                      win.y + m.lineHeight * 0.2f - ImGui::GetScrollY());

    if (m_focused && handleKeyboard(doc, readOnly)) m_lastActivity = ImGui::GetTime();
    handleMouse(doc, m);
    relex(doc);
    applyScrollRequests(doc, m);
    if (decorations && decorations->offerWatch) {
        contextMenu(doc, m, *decorations);
        if (m_focused && shortcutPressed(kKeyF9))
            m_watchToggle = static_cast<uint32_t>(doc.cursor().line + 1);
    }

    int maxCols = 0;
    for (int i = 0; i < doc.lineCount(); ++i)
        maxCols = std::max<int>(maxCols, static_cast<int>(doc.line(i).size()));
    ImGui::Dummy(
        ImVec2(m.gutterWidth + (maxCols + 4) * m.charWidth, (doc.lineCount() + 2) * m.lineHeight));
    int first = std::max(0, static_cast<int>(ImGui::GetScrollY() / m.lineHeight) - 1);
    int last = std::min(doc.lineCount() - 1,
                        first + static_cast<int>(ImGui::GetWindowHeight() / m.lineHeight) + 2);
    if (decorations) drawDecorations(m, *decorations, first, last);
    drawMatches(doc, m, first, last);
    drawLines(doc, m, markers, first, last);
    drawGutter(doc, m, markers, first, last);
    if (decorations) drawGutterMarks(m, *decorations, first, last);
    m_badgeHovered = false;
    if (decorations) drawBadges(m, decorations->badges, first, last);
    if (!m_badgeHovered) drawMarkerTooltip(m, markers, first, last);
    if (m_focused) ImGui::GetIO().WantTextInput = true;
    m_scroll = ImVec2(ImGui::GetScrollX(), ImGui::GetScrollY());
    ImGui::EndChild();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
    ImGui::PopFont();
    return doc.revision() != before;
}

bool CodeEditor::handleKeyboard(TextDocument& doc, bool readOnly) {
    ImGuiIO& io = ImGui::GetIO();
    bool ctrl = io.KeyCtrl, shift = io.KeyShift, alt = io.KeyAlt;
    uint64_t rev = doc.revision();
    TextPos cursor = doc.cursor(), anchor = doc.anchor();
    float pageLines = std::max(1.0f, ImGui::GetWindowHeight() / (ImGui::GetFontSize() * 1.35f) - 1);
    // Alt with the arrows, Home and End steps the timeline, with PgUp / PgDn picks the dispatch
    // (main_view.cpp): not the cursor.
    bool appKey =
        alt && !ctrl &&
        (pressed(ImGuiKey_LeftArrow) || pressed(ImGuiKey_RightArrow) || pressed(ImGuiKey_UpArrow) ||
         pressed(ImGuiKey_DownArrow) || pressed(ImGuiKey_Home) || pressed(ImGuiKey_End) ||
         pressed(ImGuiKey_PageUp) || pressed(ImGuiKey_PageDown));
    // In presenter mode a clicker's PgUp / PgDn step the walkthrough or the timeline.
    appKey |= presenterMode() && !ctrl && !alt &&
              (pressed(ImGuiKey_PageUp) || pressed(ImGuiKey_PageDown));
    if (appKey) {
        // handled by the window
    } else if (pressed(ImGuiKey_LeftArrow))
        doc.moveLeft(shift, ctrl);
    else if (pressed(ImGuiKey_RightArrow))
        doc.moveRight(shift, ctrl);
    else if (pressed(ImGuiKey_UpArrow))
        doc.moveUp(shift);
    else if (pressed(ImGuiKey_DownArrow))
        doc.moveDown(shift);
    else if (pressed(ImGuiKey_PageUp))
        doc.moveUp(shift, static_cast<int>(pageLines));
    else if (pressed(ImGuiKey_PageDown))
        doc.moveDown(shift, static_cast<int>(pageLines));
    else if (pressed(ImGuiKey_Home))
        ctrl ? doc.moveToStart(shift) : doc.moveHome(shift);
    else if (pressed(ImGuiKey_End))
        ctrl ? doc.moveToEnd(shift) : doc.moveEnd(shift);
    else if (ctrl && !alt && pressed(ImGuiKey_A))
        doc.selectAll();
    else if (ctrl && !alt && pressed(ImGuiKey_C) && doc.hasSelection())
        ImGui::SetClipboardText(doc.selectedText().c_str());
    else if (readOnly) {
        // nothing else applies to a read-only view
    } else if (ctrl && !alt && pressed(ImGuiKey_X) && doc.hasSelection())
        ImGui::SetClipboardText(doc.cut().c_str());
    else if (ctrl && !alt && pressed(ImGuiKey_V)) {
        if (const char* clip = ImGui::GetClipboardText()) doc.insert(clip);
    } else if (ctrl && !alt && ((pressed(ImGuiKey_Z) && shift) || pressed(ImGuiKey_Y)))
        doc.redo();
    else if (ctrl && !alt && pressed(ImGuiKey_Z))
        doc.undo();
    else if (ctrl && shortcutPressed(kKeySlash))
        doc.toggleComment();
    else if (pressed(ImGuiKey_Tab))
        shift ? doc.unindent() : doc.indent();
    else if (pressed(ImGuiKey_Enter) || pressed(kKeyKeypadEnter))
        doc.newline();
    else if (pressed(ImGuiKey_Backspace))
        doc.backspace(ctrl);
    else if (pressed(ImGuiKey_Delete))
        doc.deleteForward(ctrl);
    if (!readOnly && !(ctrl && !alt))
        for (ImWchar c : io.InputQueueCharacters)
            if (c != '\t' && c != '\n' && c != '\r') doc.typeChar(c);
    io.InputQueueCharacters.resize(0);
    bool moved = doc.cursor() != cursor || doc.anchor() != anchor || doc.revision() != rev;
    if (moved) m_scrollToCursor = true;
    return moved;
}

TextPos CodeEditor::positionAt(const TextDocument& doc, const Metrics& m, ImVec2 mouse) const {
    int line = std::clamp(static_cast<int>(std::floor((mouse.y - m.origin.y) / m.lineHeight)), 0,
                          doc.lineCount() - 1);
    int col = std::max(0, static_cast<int>(std::round((mouse.x - m.origin.x) / m.charWidth)));
    return {line, doc.byteColumnAt(line, col)};
}

void CodeEditor::handleMouse(TextDocument& doc, const Metrics& m) {
    ImGuiIO& io = ImGui::GetIO();
    bool hovered = ImGui::IsWindowHovered();
    ImVec2 mouse = io.MousePos;
    bool inScrollbar = mouse.x > m.clipMax.x - ImGui::GetStyle().ScrollbarSize ||
                       mouse.y > m.clipMax.y - ImGui::GetStyle().ScrollbarSize;
    if (hovered && !inScrollbar && mouse.x > m.clipMin.x + m.gutterWidth)
        ImGui::SetMouseCursor(ImGuiMouseCursor_TextInput);
    if (hovered && !inScrollbar && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        TextPos p = positionAt(doc, m, mouse);
        bool inGutter = mouse.x < m.clipMin.x + m.gutterWidth;
        if (inGutter)
            doc.selectLine(p.line);
        else if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
            doc.selectWordAt(p);
        else
            doc.setCursor(p, io.KeyShift);
        m_dragging = !inGutter && !ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
        m_lastActivity = ImGui::GetTime();
    }
    if (m_dragging && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        TextPos p = positionAt(doc, m, mouse);
        if (p != doc.cursor()) {
            doc.setCursor(p, true);
            m_scrollToCursor = true;
        }
    }
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) m_dragging = false;
}

// Another puzzle starts at line 1, column 1 (ImGui would keep the old scroll, clamped to the new
// text: line 1 half hidden); then the cursor after a key, then a line asked for.
void CodeEditor::applyScrollRequests(const TextDocument& doc, const Metrics& m) {
    if (m_resetView) {
        ImGui::SetScrollX(0);
        ImGui::SetScrollY(0);
        m_resetView = m_scrollToCursor = false;
    }
    if (m_scrollToCursor) scrollToCursor(doc, m);
    if (m_scrollToLine > 0) {
        float y = (m_scrollToLine - 1) * m.lineHeight, h = ImGui::GetWindowHeight();
        if (y < ImGui::GetScrollY() || y + 2 * m.lineHeight > ImGui::GetScrollY() + h)
            ImGui::SetScrollY(std::max(0.0f, y - h * 0.3f));
        m_scrollToLine = 0;
    }
}

void CodeEditor::scrollToCursor(const TextDocument& doc, const Metrics& m) {
    m_scrollToCursor = false;
    TextPos c = doc.cursor();
    float y = c.line * m.lineHeight, h = ImGui::GetWindowHeight() - ImGui::GetStyle().ScrollbarSize;
    if (y < ImGui::GetScrollY())
        ImGui::SetScrollY(std::max(0.0f, y - m.lineHeight));
    else if (y + 2 * m.lineHeight > ImGui::GetScrollY() + h)
        ImGui::SetScrollY(y + 2 * m.lineHeight - h);
    float x = doc.visualColumn(c.line, c.column) * m.charWidth,
          w = ImGui::GetWindowWidth() - m.gutterWidth - m.charWidth * 2;
    // A cursor that can be seen with the first column shows the first column: scrolled a little
    // (ImGui clamps the scroll when a long line goes), column 1 would hide under the gutter.
    if (x + 4 * m.charWidth <= w)
        ImGui::SetScrollX(0);
    else if (x < ImGui::GetScrollX())
        ImGui::SetScrollX(std::max(0.0f, x - 4 * m.charWidth));
    else if (x > ImGui::GetScrollX() + w)
        ImGui::SetScrollX(x - w + 4 * m.charWidth);
}

void CodeEditor::drawLines(const TextDocument& doc, const Metrics& m,
                           const std::vector<EditorMarker>& markers, int first, int last) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* font = fonts().mono;
    float scale = font->FontSize / kBaseFontPx;
    float left = m.clipMin.x + m.gutterWidth, right = m.clipMax.x;
    auto [selA, selB] = doc.selection();
    for (int i = first; i <= last; ++i) {
        float y = m.origin.y + i * m.lineHeight;
        const EditorMarker* mk = worstOnLine(markers, i + 1);
        if (mk && !mk->finding)
            dl->AddRectFilled(ImVec2(left, y), ImVec2(right, y + m.lineHeight),
                              mk->severity == SeverityKind::Error ? pal.errorLine
                                                                  : pal.warningLine);
        else if (i == doc.cursor().line && !doc.hasSelection())
            dl->AddRectFilled(ImVec2(left, y), ImVec2(right, y + m.lineHeight), pal.currentLine);
        if (doc.hasSelection() && i >= selA.line && i <= selB.line) {
            int c0 = i == selA.line ? doc.visualColumn(i, selA.column) : 0;
            int c1 = i == selB.line ? doc.visualColumn(i, selB.column)
                                    : doc.visualColumn(i, static_cast<int>(doc.line(i).size())) + 1;
            dl->AddRectFilled(ImVec2(m.origin.x + c0 * m.charWidth, y),
                              ImVec2(m.origin.x + c1 * m.charWidth, y + m.lineHeight),
                              pal.selection);
        }
        float ty = y + (m.lineHeight - font->FontSize) * 0.5f;
        const std::string& s = doc.line(i);
        if (i < static_cast<int>(m_tokens.size()))
            for (const Token& t : m_tokens[i])
                if (t.kind != TokenKind::Space)
                    drawSpan(dl, font, font->FontSize, ImVec2(m.origin.x, ty), m.charWidth, s,
                             t.begin, t.end, tokenColour(t.kind));
        for (const EditorMarker& e : markers) {
            if (e.line != i + 1) continue;
            int c0 = e.column > 0
                         ? doc.visualColumn(i, e.column - 1)
                         : doc.visualColumn(
                               i, static_cast<int>(s.find_first_not_of(" \t") == std::string::npos
                                                       ? 0
                                                       : s.find_first_not_of(" \t")));
            int c1 = std::max(c0 + 1, doc.visualColumn(i, static_cast<int>(s.size())));
            if (e.column > 0) {
                int b = e.column - 1;
                while (b < static_cast<int>(s.size()) &&
                       (std::isalnum(static_cast<unsigned char>(s[b])) || s[b] == '_'))
                    ++b;
                c1 = std::max(c0 + 1, doc.visualColumn(i, b));
            }
            drawSquiggle(dl, m.origin.x + c0 * m.charWidth, m.origin.x + c1 * m.charWidth,
                         y + m.lineHeight - 3 * scale,
                         e.severity == SeverityKind::Error ? pal.fail : pal.warn, scale);
        }
    }
    bool blinkOn = std::fmod(ImGui::GetTime() - m_lastActivity, 1.0) < 0.6;
    if (m_focused && blinkOn) {
        TextPos c = doc.cursor();
        float x = m.origin.x + doc.visualColumn(c.line, c.column) * m.charWidth,
              y = m.origin.y + c.line * m.lineHeight;
        dl->AddRectFilled(ImVec2(x - 0.5f * scale, y + 1),
                          ImVec2(x + 1.5f * scale, y + m.lineHeight - 1), pal.cursor);
    }
}

void CodeEditor::drawGutter(const TextDocument& doc, const Metrics& m,
                            const std::vector<EditorMarker>& markers, int first, int last) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* font = fonts().mono;
    dl->AddRectFilled(m.clipMin, ImVec2(m.clipMin.x + m.gutterWidth, m.clipMax.y), pal.gutterBg);
    char num[16];
    for (int i = first; i <= last; ++i) {
        float y = m.origin.y + i * m.lineHeight, ty = y + (m.lineHeight - font->FontSize) * 0.5f;
        std::snprintf(num, sizeof num, "%d", i + 1);
        float w = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, num).x;
        bool current = i == doc.cursor().line;
        dl->AddText(font, font->FontSize, ImVec2(m.clipMin.x + m.gutterWidth - w - m.charWidth, ty),
                    current ? pal.lineNumberCurrent : pal.lineNumber, num);
        if (const EditorMarker* mk = worstOnLine(markers, i + 1)) {
            float r = m.lineHeight * 0.22f;
            ImVec2 c(m.clipMin.x + m.charWidth * 0.9f, y + m.lineHeight * 0.5f);
            ImU32 colour = mk->severity == SeverityKind::Error ? pal.fail : pal.warn;
            if (mk->severity == SeverityKind::Error && !mk->finding)
                dl->AddCircleFilled(c, r, colour);
            else
                dl->AddTriangleFilled(ImVec2(c.x, c.y - r), ImVec2(c.x + r, c.y + r),
                                      ImVec2(c.x - r, c.y + r), colour);
        }
    }
}

void CodeEditor::drawMarkerTooltip(const Metrics& m, const std::vector<EditorMarker>& markers,
                                   int first, int last) {
    if (!ImGui::IsWindowHovered() || markers.empty()) return;
    ImVec2 mouse = ImGui::GetIO().MousePos;
    int line = static_cast<int>(std::floor((mouse.y - m.origin.y) / m.lineHeight));
    if (line < first || line > last) return;
    std::vector<const EditorMarker*> here;
    for (const EditorMarker& e : markers)
        if (e.line == line + 1) here.push_back(&e);
    if (here.empty()) return;
    const Palette& pal = palette();
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts().ui);
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
    for (const EditorMarker* e : here) {
        ImGui::PushStyleColor(ImGuiCol_Text,
                              ImGui::ColorConvertU32ToFloat4(
                                  e->severity == SeverityKind::Error ? pal.fail : pal.warn));
        ImGui::TextUnformatted(e->label.empty() ? severityName(e->severity) : e->label.c_str());
        ImGui::PopStyleColor();
        ImGui::SameLine();
        ImGui::TextWrapped("line %d%s: %s", e->line,
                           e->column ? (", col " + std::to_string(e->column)).c_str() : "",
                           e->message.c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    ImGui::EndTooltip();
}

} // namespace vkp::ui
