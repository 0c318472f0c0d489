// The kernel editor's model: lines of UTF-8 text, a cursor and selection, and undo/redo. Headless
// (no ImGui), so every editing rule is unit-tested; the editor widget only maps keys and draws.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vkp::text {

struct TextPos {
    int line = 0;   // 0-based
    int column = 0; // byte offset in the line (always on a UTF-8 character boundary)
    auto operator<=>(const TextPos&) const = default;
};

// A stretch of text from `first` to `second` (first <= second), as a search match.
struct TextRange {
    TextPos first, second;
    bool operator==(const TextRange&) const = default;
};

inline constexpr int kTabWidth = 4;

class TextDocument {
  public:
    explicit TextDocument(const std::string& text = "");

    // Replaces the text and forgets the undo history (opening another puzzle).
    void setText(const std::string& text);
    // Replaces the text as one undoable edit (reset to starter, load the solution).
    void replaceAll(const std::string& text);
    std::string text() const;
    uint64_t revision() const { return m_revision; } // changes with every edit

    int lineCount() const { return static_cast<int>(m_lines.size()); }
    const std::string& line(int i) const { return m_lines[i]; }

    // Cursor and selection: the selection runs from the anchor to the cursor.
    TextPos cursor() const { return m_cursor; }
    TextPos anchor() const { return m_anchor; }
    bool hasSelection() const { return m_cursor != m_anchor; }
    std::pair<TextPos, TextPos> selection() const; // ordered: first <= second
    std::string selectedText() const;
    void setCursor(TextPos p, bool extendSelection = false); // clamped to the text
    void selectAll();
    void selectWordAt(TextPos p);
    void selectLine(int line);

    // Movement; `select` extends the selection, `word` moves by words.
    void moveLeft(bool select, bool word = false);
    void moveRight(bool select, bool word = false);
    void moveUp(bool select, int lines = 1);
    void moveDown(bool select, int lines = 1);
    void moveHome(bool select); // to the first non-blank character, then to column 0
    void moveEnd(bool select);
    void moveToStart(bool select);
    void moveToEnd(bool select);

    // Editing. Consecutive typing within a word is one undo step.
    void insert(const std::string& text); // pasted text: replaces the selection as it is
    void typeChar(uint32_t codepoint);    // typed: '}' after only blanks dedents to its '{' line
    void newline();                       // splits the line: the indentation, one more after '{'
    void backspace(bool word = false);
    void deleteForward(bool word = false);
    void indent();        // Tab: spaces to the next tab stop, or indent the selected lines
    void unindent();      // Shift+Tab
    void toggleComment(); // Ctrl+/: "// " on the selected lines, or off again
    std::string cut();

    // Find: every occurrence of `needle` within a line, in text order (ASCII letters compare
    // without case unless `matchCase`).
    std::vector<TextRange> findAll(const std::string& needle, bool matchCase = false) const;
    // Selects the first occurrence at or after `from` (forward) or the last one starting before it,
    // wrapping around the text; false (selection unchanged) when there is none.
    bool selectMatch(const std::string& needle, TextPos from, bool forward = true,
                     bool matchCase = false);
    // F3 / Shift+F3: the occurrence after / before the selection.
    bool findNext(const std::string& needle, bool forward = true, bool matchCase = false);

    // Lines of the '{' still open at `at` (the innermost last); comments are skipped.
    std::vector<int> openBraces(TextPos at) const;

    bool undo();
    bool redo();
    bool canUndo() const { return !m_undo.empty(); }
    bool canRedo() const { return !m_redo.empty(); }

    // Columns as drawn in a monospace font: tabs to the next multiple of kTabWidth, one column
    // per UTF-8 character.
    int visualColumn(int line, int byteColumn) const;
    int byteColumnAt(int line, int visualColumn) const;

  private:
    enum class EditKind { Other, Typing, Deleting };
    struct State {
        std::vector<std::string> lines;
        TextPos cursor, anchor;
    };

    void beginEdit(EditKind kind);
    void changed();
    TextPos clamp(TextPos p) const;
    void deleteSelection();
    void eraseRange(TextPos from, TextPos to);
    TextPos insertAt(TextPos at, const std::string& text);
    TextPos stepLeft(TextPos p, bool word) const;
    TextPos stepRight(TextPos p, bool word) const;
    void moveTo(TextPos p, bool select, bool keepPreferredColumn = false);
    std::pair<int, int> selectedLines() const;
    int unindentWidth(int line) const;
    bool blockClosedBelow(int line, int indent) const;
    std::string closingIndent(TextPos at) const;
    void typeClosingBrace();

    std::vector<std::string> m_lines;
    TextPos m_cursor, m_anchor;
    int m_preferredColumn = -1; // visual column kept while moving up and down
    bool restore(std::vector<State>& from, std::vector<State>& to);
    std::vector<State> m_undo, m_redo;
    EditKind m_lastEdit = EditKind::Other;
    TextPos m_lastEditEnd{-1, -1}; // where the last merged edit left the cursor
    uint64_t m_revision = 0;
};

// UTF-8 helpers on one line.
int nextCharBoundary(const std::string& s, int i);
int prevCharBoundary(const std::string& s, int i);
std::string encodeUtf8(uint32_t codepoint);

} // namespace vkp::text
