// The kernel editor widget: draws a TextDocument with GLSL colouring, line numbers, the current
// line, selection, and error/warning markers from the compiler and from the run's findings
// (message on hover); maps keys and mouse to edits. A find bar (Ctrl+F) sits above the text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "base/diagnostic.h"
#include "editor/find_bar.h"
#include "judge/efficiency.h"
#include "judge/trace_analysis.h"
#include "text/glsl_lexer.h"
#include "text/text_document.h"

namespace vkp::ui {

struct EditorMarker {
    int line = 0;   // 1-based, as compilers count
    int column = 0; // 1-based; 0: the whole line
    SeverityKind severity = SeverityKind::Error;
    std::string message;
    std::string label;    // what the tooltip calls it ("race"); empty: the severity's name
    bool finding = false; // found in the run (a triangle, no tinted line), not by the compiler
};

std::vector<EditorMarker> markersFrom(const std::vector<Diagnostic>& diagnostics);
// The shown case's findings (races, bounds, limits...) on the lines they name: errors for those
// that fail the case, warnings for the others.
std::vector<EditorMarker> markersFrom(const TraceAnalysis& analysis);

// An efficiency figure on a line (judge/efficiency.h): a small badge in the gutter, coloured by
// its cost, the sentence on hover.
struct EditorBadge {
    uint32_t line = 0; // 1-based
    CostKind cost = CostKind::Minor;
    std::string text;     // "4.0x sectors", "8-way"
    std::string sentence; // the tooltip
};
// The report's lines that cost something (CostKind::None left out).
std::vector<EditorBadge> badgesFrom(const EfficiencyReport& report);
// The theme's colour of a cost (badges, the Efficiency panel).
ImU32 costColour(CostKind cost);

// Lines the debugging views point at (1-based), drawn in the gutter and behind the text.
struct EditorDecorations {
    std::vector<uint32_t> executed;  // lines the selected thread ran (a bar beside the numbers)
    std::vector<uint32_t> watched;   // watched lines (a mark left of the numbers)
    std::vector<uint32_t> focus;     // lines a walkthrough step or a finding points at (tinted)
    bool offerWatch = false;         // right-click "Watch this line" and F9 (the learner's editor)
    std::vector<EditorBadge> badges; // the shown case's efficiency figures
};

class CodeEditor {
  public:
    // Draws into a child region of `size`; edits `doc` unless `readOnly`. Returns true when the
    // text changed this frame.
    bool draw(const char* id, text::TextDocument& doc, const std::vector<EditorMarker>& markers,
              ImVec2 size, bool readOnly = false, const EditorDecorations* decorations = nullptr);
    // A line the learner asked to watch or unwatch this frame (right-click menu or F9), once.
    std::optional<uint32_t> takeWatchToggle();
    // Scrolls so that a 1-based line is in view (without moving the cursor).
    void scrollToLine(int line) { m_scrollToLine = line; }
    // Places the cursor on a 1-based line and column, scrolls there and takes the keyboard.
    void jumpTo(text::TextDocument& doc, int line, int column);
    void focus() { m_wantFocus = true; }
    bool focused() const { return m_focused; }
    // Back to line 1, column 1 at the next draw (another puzzle opened).
    void resetView() { m_resetView = true, m_badgeWidth = 0; }
    ImVec2 scroll() const { return m_scroll; } // the text's scroll position at the last draw

    // The find bar (editor/find_bar.h): Ctrl+F, F3, Shift+F3 and Escape reach it through these.
    void openFind(const text::TextDocument& doc) { m_find.open(doc); }
    void closeFind() { apply(m_find.close()); }
    bool findOpen() const { return m_find.isOpen(); }
    void findNext(text::TextDocument& doc, bool forward) { apply(m_find.next(doc, forward)); }
    const std::string& findQuery() const { return m_find.query(); }
    std::string findSummary(const text::TextDocument& doc) const { return m_find.summary(doc); }

  private:
    struct Metrics {
        float lineHeight = 0, charWidth = 0, gutterWidth = 0;
        float badgeX = 0, badgeWidth = 0; // the badge column in the gutter (0 wide: none)
        ImVec2 origin;                    // top-left of line 0, column 0 in screen space (scrolled)
        ImVec2 clipMin, clipMax;
    };
    void relex(const text::TextDocument& doc);
    bool handleKeyboard(text::TextDocument& doc, bool readOnly);
    void handleMouse(text::TextDocument& doc, const Metrics& m);
    text::TextPos positionAt(const text::TextDocument& doc, const Metrics& m, ImVec2 mouse) const;
    void drawLines(const text::TextDocument& doc, const Metrics& m,
                   const std::vector<EditorMarker>& markers, int first, int last);
    void drawGutter(const text::TextDocument& doc, const Metrics& m,
                    const std::vector<EditorMarker>& markers, int first, int last);
    void drawMarkerTooltip(const Metrics& m, const std::vector<EditorMarker>& markers, int first,
                           int last);
    void scrollToCursor(const text::TextDocument& doc, const Metrics& m);
    void drawDecorations(const Metrics& m, const EditorDecorations& d, int first, int last);
    void drawGutterMarks(const Metrics& m, const EditorDecorations& d, int first, int last);
    void drawBadges(const Metrics& m, const std::vector<EditorBadge>& badges, int first, int last);
    float badgeColumnWidth(const EditorDecorations* d);
    void contextMenu(const text::TextDocument& doc, const Metrics& m, const EditorDecorations& d);
    void drawMatches(const text::TextDocument& doc, const Metrics& m, int first, int last);
    void applyScrollRequests(const text::TextDocument& doc, const Metrics& m);
    void apply(FindEffect e) {
        m_scrollToCursor |= e.scrollToCursor;
        m_wantFocus |= e.focusText;
    }

    std::vector<std::vector<text::Token>> m_tokens; // per line, for m_lexedRevision
    uint64_t m_lexedRevision = UINT64_MAX;
    const text::TextDocument* m_lexedDoc = nullptr;
    bool m_wantFocus = false;
    bool m_focused = false;
    bool m_dragging = false;
    bool m_scrollToCursor = false;
    double m_lastActivity = 0; // for the cursor's blink
    int m_contextLine = 0;     // 1-based line under the last right-click
    std::optional<uint32_t> m_watchToggle;
    int m_scrollToLine = 0;
    bool m_resetView = false;
    // The badge column keeps its widest width until another puzzle opens, so the text does not
    // shift each time a run brings figures or none.
    float m_badgeWidth = 0;      // pixels
    float m_badgeFontSize = 0;   // the small font size it was measured in
    bool m_badgeHovered = false; // the pointer is on a badge: its tooltip, not the line's
    ImVec2 m_scroll;
    FindBar m_find;
};

// One line of GLSL in colour, at `pos` (for read-only code views such as the solution diff).
void drawGlslLine(ImDrawList* dl, ImVec2 pos, const std::string& line, text::LexState& state,
                  float charWidth);

} // namespace vkp::ui
