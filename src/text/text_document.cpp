#include "text/text_document.h"

#include <algorithm>
#include <cctype>

namespace vkp::text {
namespace {

constexpr size_t kMaxUndo = 1000;

enum class CharClass { Space, Word, Other };

CharClass classOf(unsigned char c) {
    if (c == ' ' || c == '\t') return CharClass::Space;
    if (std::isalnum(c) || c == '_' || c >= 0x80) return CharClass::Word;
    return CharClass::Other;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines(1);
    for (char c : text) {
        if (c == '\n')
            lines.emplace_back();
        else if (c != '\r')
            lines.back() += c;
    }
    return lines;
}

int indentWidth(const std::string& line) {
    int n = 0;
    while (n < static_cast<int>(line.size()) && (line[n] == ' ' || line[n] == '\t'))
        ++n;
    return n;
}

bool isBlank(const std::string& s) {
    return indentWidth(s) == static_cast<int>(s.size());
}

std::string trimmedRight(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.pop_back();
    return s;
}

// One indentation level less: a tab, or up to kTabWidth spaces, off the end.
std::string dedented(std::string indent) {
    if (!indent.empty() && indent.back() == '\t') return indent.substr(0, indent.size() - 1);
    for (int n = 0; n < kTabWidth && !indent.empty() && indent.back() == ' '; ++n)
        indent.pop_back();
    return indent;
}

// Calls onBrace(line, c) for every '{' and '}' before `end` that is not in a comment.
template <class F>
void scanBraces(const std::vector<std::string>& lines, TextPos end, F&& onBrace) {
    bool inBlock = false;
    for (int l = 0; l < static_cast<int>(lines.size()) && l <= end.line; ++l) {
        const std::string& s = lines[l];
        int n = l == end.line ? std::min(end.column, static_cast<int>(s.size()))
                              : static_cast<int>(s.size());
        for (int i = 0; i < n; ++i) {
            if (inBlock) {
                if (s.compare(i, 2, "*/") == 0) inBlock = false, ++i;
            } else if (s.compare(i, 2, "//") == 0) {
                break;
            } else if (s.compare(i, 2, "/*") == 0) {
                inBlock = true, ++i;
            } else if (s[i] == '{' || s[i] == '}') {
                onBrace(l, s[i]);
            }
        }
    }
}

bool sameChar(char a, char b, bool matchCase) {
    return matchCase ? a == b
                     : std::tolower(static_cast<unsigned char>(a)) ==
                           std::tolower(static_cast<unsigned char>(b));
}

} // namespace

int nextCharBoundary(const std::string& s, int i) {
    if (i >= static_cast<int>(s.size())) return static_cast<int>(s.size());
    ++i;
    while (i < static_cast<int>(s.size()) && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
        ++i;
    return i;
}

int prevCharBoundary(const std::string& s, int i) {
    if (i <= 0) return 0;
    --i;
    while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
        --i;
    return i;
}

std::string encodeUtf8(uint32_t c) {
    std::string s;
    if (c < 0x80)
        s += static_cast<char>(c);
    else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x110000) {
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

TextDocument::TextDocument(const std::string& text) {
    setText(text);
}

void TextDocument::setText(const std::string& text) {
    m_lines = splitLines(text);
    m_cursor = m_anchor = {};
    m_undo.clear();
    m_redo.clear();
    m_lastEdit = EditKind::Other;
    m_preferredColumn = -1;
    changed();
}

void TextDocument::replaceAll(const std::string& text) {
    beginEdit(EditKind::Other);
    m_lines = splitLines(text);
    m_cursor = m_anchor = {};
    changed();
}

std::string TextDocument::text() const {
    std::string out;
    for (size_t i = 0; i < m_lines.size(); ++i) {
        if (i) out += '\n';
        out += m_lines[i];
    }
    return out;
}

std::pair<TextPos, TextPos> TextDocument::selection() const {
    return std::minmax(m_cursor, m_anchor);
}

std::string TextDocument::selectedText() const {
    auto [a, b] = selection();
    if (a.line == b.line) return m_lines[a.line].substr(a.column, b.column - a.column);
    std::string out = m_lines[a.line].substr(a.column);
    for (int l = a.line + 1; l < b.line; ++l)
        out += "\n" + m_lines[l];
    return out + "\n" + m_lines[b.line].substr(0, b.column);
}

TextPos TextDocument::clamp(TextPos p) const {
    p.line = std::clamp(p.line, 0, lineCount() - 1);
    const std::string& s = m_lines[p.line];
    p.column = std::clamp(p.column, 0, static_cast<int>(s.size()));
    while (p.column > 0 && p.column < static_cast<int>(s.size()) &&
           (static_cast<unsigned char>(s[p.column]) & 0xC0) == 0x80)
        --p.column;
    return p;
}

void TextDocument::moveTo(TextPos p, bool select, bool keepPreferredColumn) {
    m_cursor = clamp(p);
    if (!select) m_anchor = m_cursor;
    if (!keepPreferredColumn) m_preferredColumn = -1;
    m_lastEdit = EditKind::Other;
}

void TextDocument::setCursor(TextPos p, bool extendSelection) {
    moveTo(p, extendSelection);
}

void TextDocument::selectAll() {
    m_anchor = {0, 0};
    m_cursor = {lineCount() - 1, static_cast<int>(m_lines.back().size())};
    m_lastEdit = EditKind::Other;
}

void TextDocument::selectWordAt(TextPos p) {
    p = clamp(p);
    const std::string& s = m_lines[p.line];
    if (s.empty()) return moveTo(p, false);
    int at = std::min(p.column, static_cast<int>(s.size()) - 1);
    CharClass k = classOf(s[at]);
    int a = at, b = at;
    while (a > 0 && classOf(s[a - 1]) == k)
        --a;
    while (b < static_cast<int>(s.size()) && classOf(s[b]) == k)
        ++b;
    m_anchor = {p.line, a};
    m_cursor = {p.line, b};
    m_lastEdit = EditKind::Other;
}

void TextDocument::selectLine(int line) {
    line = std::clamp(line, 0, lineCount() - 1);
    m_anchor = {line, 0};
    m_cursor = line + 1 < lineCount() ? TextPos{line + 1, 0}
                                      : TextPos{line, static_cast<int>(m_lines[line].size())};
    m_lastEdit = EditKind::Other;
}

TextPos TextDocument::stepLeft(TextPos p, bool word) const {
    if (p.column == 0)
        return p.line > 0 ? TextPos{p.line - 1, static_cast<int>(m_lines[p.line - 1].size())} : p;
    const std::string& s = m_lines[p.line];
    if (!word) return {p.line, prevCharBoundary(s, p.column)};
    int i = p.column;
    while (i > 0 && classOf(s[i - 1]) == CharClass::Space)
        --i;
    if (i == 0) return {p.line, 0};
    CharClass k = classOf(s[i - 1]);
    while (i > 0 && classOf(s[i - 1]) == k)
        --i;
    return {p.line, i};
}

TextPos TextDocument::stepRight(TextPos p, bool word) const {
    const std::string& s = m_lines[p.line];
    if (p.column >= static_cast<int>(s.size()))
        return p.line + 1 < lineCount() ? TextPos{p.line + 1, 0} : p;
    if (!word) return {p.line, nextCharBoundary(s, p.column)};
    int i = p.column, n = static_cast<int>(s.size());
    CharClass k = classOf(s[i]);
    while (i < n && classOf(s[i]) == k)
        ++i;
    while (i < n && classOf(s[i]) == CharClass::Space)
        ++i;
    return {p.line, i};
}

void TextDocument::moveLeft(bool select, bool word) {
    if (hasSelection() && !select) return moveTo(selection().first, false);
    moveTo(stepLeft(m_cursor, word), select);
}

void TextDocument::moveRight(bool select, bool word) {
    if (hasSelection() && !select) return moveTo(selection().second, false);
    moveTo(stepRight(m_cursor, word), select);
}

void TextDocument::moveUp(bool select, int lines) {
    int col =
        m_preferredColumn >= 0 ? m_preferredColumn : visualColumn(m_cursor.line, m_cursor.column);
    if (m_cursor.line == 0) return moveTo({0, 0}, select);
    int target = std::max(0, m_cursor.line - lines);
    moveTo({target, byteColumnAt(target, col)}, select, true);
    m_preferredColumn = col;
}

void TextDocument::moveDown(bool select, int lines) {
    int col =
        m_preferredColumn >= 0 ? m_preferredColumn : visualColumn(m_cursor.line, m_cursor.column);
    if (m_cursor.line == lineCount() - 1)
        return moveTo({m_cursor.line, static_cast<int>(m_lines.back().size())}, select);
    int target = std::min(lineCount() - 1, m_cursor.line + lines);
    moveTo({target, byteColumnAt(target, col)}, select, true);
    m_preferredColumn = col;
}

void TextDocument::moveHome(bool select) {
    int first = indentWidth(m_lines[m_cursor.line]);
    moveTo({m_cursor.line, m_cursor.column == first ? 0 : first}, select);
}

void TextDocument::moveEnd(bool select) {
    moveTo({m_cursor.line, static_cast<int>(m_lines[m_cursor.line].size())}, select);
}
void TextDocument::moveToStart(bool select) {
    moveTo({0, 0}, select);
}
void TextDocument::moveToEnd(bool select) {
    moveTo({lineCount() - 1, static_cast<int>(m_lines.back().size())}, select);
}

// Saves the state before an edit, unless the edit continues the previous one (typing a word).
void TextDocument::beginEdit(EditKind kind) {
    bool merge = kind != EditKind::Other && kind == m_lastEdit && m_cursor == m_lastEditEnd &&
                 !hasSelection();
    if (!merge) {
        m_undo.push_back({m_lines, m_cursor, m_anchor});
        if (m_undo.size() > kMaxUndo) m_undo.erase(m_undo.begin());
    }
    m_redo.clear();
    m_lastEdit = kind;
}

void TextDocument::changed() {
    ++m_revision;
    m_preferredColumn = -1;
    m_lastEditEnd = m_cursor;
}

void TextDocument::eraseRange(TextPos a, TextPos b) {
    if (a.line == b.line) {
        m_lines[a.line].erase(a.column, b.column - a.column);
    } else {
        m_lines[a.line] = m_lines[a.line].substr(0, a.column) + m_lines[b.line].substr(b.column);
        m_lines.erase(m_lines.begin() + a.line + 1, m_lines.begin() + b.line + 1);
    }
    m_cursor = m_anchor = a;
}

void TextDocument::deleteSelection() {
    if (!hasSelection()) return;
    auto [a, b] = selection();
    eraseRange(a, b);
}

TextPos TextDocument::insertAt(TextPos at, const std::string& text) {
    std::vector<std::string> parts = splitLines(text);
    std::string tail = m_lines[at.line].substr(at.column);
    m_lines[at.line].erase(at.column);
    m_lines[at.line] += parts[0];
    for (size_t i = 1; i < parts.size(); ++i)
        m_lines.insert(m_lines.begin() + at.line + i, parts[i]);
    int last = at.line + static_cast<int>(parts.size()) - 1;
    TextPos end{last, static_cast<int>(m_lines[last].size())};
    m_lines[last] += tail;
    return end;
}

void TextDocument::insert(const std::string& text) {
    if (text.empty() && !hasSelection()) return;
    beginEdit(EditKind::Other);
    deleteSelection();
    m_cursor = m_anchor = insertAt(m_cursor, text);
    changed();
}

void TextDocument::typeChar(uint32_t codepoint) {
    if (codepoint == '\n' || codepoint == '\r') return newline();
    if (codepoint == '\t') return indent();
    if (codepoint < 0x20 || codepoint == 0x7F) return;
    TextPos start = selection().first;
    if (codepoint == '}' && isBlank(m_lines[start.line].substr(0, start.column)))
        return typeClosingBrace();
    // A word boundary (a space after a word) starts a new undo step.
    bool boundary = codepoint == ' ' && m_cursor.column > 0 &&
                    m_lines[m_cursor.line][m_cursor.column - 1] != ' ';
    beginEdit(boundary ? EditKind::Other : EditKind::Typing);
    if (boundary) m_lastEdit = EditKind::Typing;
    deleteSelection();
    m_cursor = m_anchor = insertAt(m_cursor, encodeUtf8(codepoint));
    changed();
}

// '}' typed after only blanks: the line takes the indentation of the line that opened the block.
// On a blank line right above that block's '}' (the one Enter added: a '}' alone at the same
// indentation), it steps over that brace instead of adding a second one.
void TextDocument::typeClosingBrace() {
    beginEdit(EditKind::Other);
    deleteSelection();
    int l = m_cursor.line;
    std::string target = closingIndent(m_cursor);
    bool nextCloses = l + 1 < lineCount() && trimmedRight(m_lines[l + 1]) == target + "}";
    if (isBlank(m_lines[l]) && nextCloses) {
        m_lines.erase(m_lines.begin() + l);
        m_cursor = m_anchor = {l, static_cast<int>(target.size()) + 1};
        return changed();
    }
    m_lines[l].replace(0, m_cursor.column, target);
    m_cursor = m_anchor = insertAt({l, static_cast<int>(target.size())}, "}");
    changed();
}

// Enter splits the line: the part before the cursor loses its trailing blanks (a blank line
// becomes empty), the part after starts at the line's indentation, one level deeper after '{',
// at the opening line's indentation when it starts with '}'.
void TextDocument::newline() {
    beginEdit(EditKind::Other);
    deleteSelection();
    const int l = m_cursor.line;
    const std::string line = m_lines[l];
    std::string indentText = line.substr(0, indentWidth(line));
    std::string left = trimmedRight(line.substr(0, m_cursor.column));
    std::string right = line.substr(m_cursor.column);
    right.erase(0, indentWidth(right));
    bool opens = !left.empty() && left.back() == '{';
    bool closes = !right.empty() && right[0] == '}';
    std::string inner = opens    ? indentText + std::string(kTabWidth, ' ')
                        : closes ? closingIndent(m_cursor)
                                 : indentText;
    // Enter after an opening brace at the end of a line closes the block, unless a closing brace
    // already follows at this indentation (the block exists).
    bool autoClose = opens && right.empty() && !blockClosedBelow(l, indentWidth(line));
    std::vector<std::string> added{inner};
    if (opens && closes)
        added.push_back(indentText + right);
    else
        added[0] += right;
    if (autoClose) added.push_back(indentText + "}");
    m_lines[l] = left;
    m_lines.insert(m_lines.begin() + l + 1, added.begin(), added.end());
    m_cursor = m_anchor = {l + 1, static_cast<int>(inner.size())};
    changed();
}

// Whether the next line with content at or left of `indent` is a closing brace.
bool TextDocument::blockClosedBelow(int line, int indent) const {
    for (int l = line + 1; l < lineCount(); ++l) {
        const std::string& s = m_lines[l];
        if (isBlank(s)) continue;
        int w = indentWidth(s);
        if (w > indent) continue;
        return w == indent && s[w] == '}';
    }
    return false;
}

std::vector<int> TextDocument::openBraces(TextPos at) const {
    std::vector<int> open;
    scanBraces(m_lines, clamp(at), [&](int line, char c) {
        if (c == '{')
            open.push_back(line);
        else if (!open.empty())
            open.pop_back();
    });
    return open;
}

// The indentation a '}' at `at` gets: that of the line holding its '{' (one level less than the
// line's own when no '{' is open).
std::string TextDocument::closingIndent(TextPos at) const {
    std::vector<int> open = openBraces(at);
    if (!open.empty()) {
        const std::string& s = m_lines[open.back()];
        return s.substr(0, indentWidth(s));
    }
    const std::string& s = m_lines[at.line];
    return dedented(s.substr(0, indentWidth(s)));
}

void TextDocument::backspace(bool word) {
    if (hasSelection()) {
        beginEdit(EditKind::Other);
        deleteSelection();
        return changed();
    }
    if (m_cursor == TextPos{0, 0}) return;
    beginEdit(EditKind::Deleting);
    const std::string& line = m_lines[m_cursor.line];
    TextPos from = stepLeft(m_cursor, word);
    // In the indentation, one backspace removes one indentation level.
    if (!word && m_cursor.column > 0 && isBlank(line.substr(0, m_cursor.column))) {
        int col = visualColumn(m_cursor.line, m_cursor.column);
        int target = ((col - 1) / kTabWidth) * kTabWidth;
        from = {m_cursor.line, byteColumnAt(m_cursor.line, target)};
    }
    eraseRange(from, m_cursor);
    changed();
}

void TextDocument::deleteForward(bool word) {
    if (hasSelection()) {
        beginEdit(EditKind::Other);
        deleteSelection();
        return changed();
    }
    TextPos to = stepRight(m_cursor, word);
    if (to == m_cursor) return;
    beginEdit(EditKind::Other);
    eraseRange(m_cursor, to);
    changed();
}

std::pair<int, int> TextDocument::selectedLines() const {
    auto [a, b] = selection();
    int last = (b.column == 0 && b.line > a.line) ? b.line - 1 : b.line;
    return {a.line, last};
}

void TextDocument::indent() {
    if (!hasSelection() || selection().first.line == selection().second.line) {
        beginEdit(EditKind::Other);
        deleteSelection();
        int col = visualColumn(m_cursor.line, m_cursor.column);
        m_cursor = m_anchor = insertAt(m_cursor, std::string(kTabWidth - col % kTabWidth, ' '));
        return changed();
    }
    beginEdit(EditKind::Other);
    auto [first, last] = selectedLines();
    for (int l = first; l <= last; ++l)
        if (!m_lines[l].empty()) m_lines[l].insert(0, std::string(kTabWidth, ' '));
    if (!m_lines[m_anchor.line].empty() && m_anchor.column > 0) m_anchor.column += kTabWidth;
    if (!m_lines[m_cursor.line].empty() && m_cursor.column > 0) m_cursor.column += kTabWidth;
    m_anchor = clamp(m_anchor);
    m_cursor = clamp(m_cursor);
    changed();
}

// Leading blanks Shift+Tab takes off a line: up to one level of spaces, or one tab.
int TextDocument::unindentWidth(int line) const {
    const std::string& s = m_lines[line];
    int remove = 0;
    while (remove < kTabWidth && remove < static_cast<int>(s.size()) && s[remove] == ' ')
        ++remove;
    return remove == 0 && !s.empty() && s[0] == '\t' ? 1 : remove;
}

void TextDocument::unindent() {
    auto [first, last] =
        hasSelection() ? selectedLines() : std::make_pair(m_cursor.line, m_cursor.line);
    bool any = false;
    for (int l = first; l <= last; ++l)
        any = any || unindentWidth(l) > 0;
    if (!any) return; // no empty undo step
    beginEdit(EditKind::Other);
    for (int l = first; l <= last; ++l) {
        int remove = unindentWidth(l);
        m_lines[l].erase(0, remove);
        if (m_cursor.line == l) m_cursor.column = std::max(0, m_cursor.column - remove);
        if (m_anchor.line == l) m_anchor.column = std::max(0, m_anchor.column - remove);
    }
    changed();
}

void TextDocument::toggleComment() {
    bool selected = hasSelection();
    auto [first, last] = selected ? selectedLines() : std::make_pair(m_cursor.line, m_cursor.line);
    bool allCommented = true;
    int minIndent = 1 << 30;
    for (int l = first; l <= last; ++l) {
        if (isBlank(m_lines[l])) continue;
        int ind = indentWidth(m_lines[l]);
        minIndent = std::min(minIndent, ind);
        allCommented = allCommented && m_lines[l].compare(ind, 2, "//") == 0;
    }
    if (minIndent == 1 << 30) return;
    beginEdit(EditKind::Other);
    for (int l = first; l <= last; ++l) {
        std::string& s = m_lines[l];
        if (isBlank(s)) continue;
        int delta = 0, at = allCommented ? indentWidth(s) : minIndent;
        if (allCommented) {
            delta = -(s.compare(at, 3, "// ") == 0 ? 3 : 2);
            s.erase(at, -delta);
        } else {
            s.insert(at, "// ");
            delta = 3;
        }
        // A selection that starts where "// " goes keeps it inside; a lone cursor moves with the
        // text.
        for (TextPos* p : {&m_cursor, &m_anchor})
            if (p->line == l && (p->column > at || (p->column == at && !selected)))
                p->column = std::max(at, p->column + delta);
    }
    changed();
}

std::string TextDocument::cut() {
    std::string s = selectedText();
    if (!hasSelection()) return s;
    beginEdit(EditKind::Other);
    deleteSelection();
    changed();
    return s;
}

std::vector<TextRange> TextDocument::findAll(const std::string& needle, bool matchCase) const {
    std::vector<TextRange> out;
    if (needle.empty() || needle.find('\n') != std::string::npos) return out;
    auto same = [matchCase](char a, char b) { return sameChar(a, b, matchCase); };
    for (int l = 0; l < lineCount(); ++l) {
        const std::string& s = m_lines[l];
        for (auto it = std::search(s.begin(), s.end(), needle.begin(), needle.end(), same);
             it != s.end();
             it = std::search(it + needle.size(), s.end(), needle.begin(), needle.end(), same)) {
            int c = static_cast<int>(it - s.begin());
            out.push_back({{l, c}, {l, c + static_cast<int>(needle.size())}});
        }
    }
    return out;
}

bool TextDocument::selectMatch(const std::string& needle, TextPos from, bool forward,
                               bool matchCase) {
    std::vector<TextRange> all = findAll(needle, matchCase);
    if (all.empty()) return false;
    const TextRange* pick = forward ? &all.front() : &all.back(); // wrapped around
    if (forward) {
        auto it = std::find_if(all.begin(), all.end(),
                               [&](const TextRange& r) { return r.first >= from; });
        if (it != all.end()) pick = &*it;
    } else {
        auto it = std::find_if(all.rbegin(), all.rend(),
                               [&](const TextRange& r) { return r.first < from; });
        if (it != all.rend()) pick = &*it;
    }
    moveTo(pick->first, false);
    moveTo(pick->second, true);
    return true;
}

bool TextDocument::findNext(const std::string& needle, bool forward, bool matchCase) {
    auto [a, b] = selection();
    return selectMatch(needle, forward ? b : a, forward, matchCase);
}

bool TextDocument::undo() {
    return restore(m_undo, m_redo);
}

bool TextDocument::redo() {
    return restore(m_redo, m_undo);
}

// Undo and redo are the same move between the two stacks: save the present onto one, take the
// state from the other.
bool TextDocument::restore(std::vector<State>& from, std::vector<State>& to) {
    if (from.empty()) return false;
    to.push_back({m_lines, m_cursor, m_anchor});
    State s = std::move(from.back());
    from.pop_back();
    m_lines = std::move(s.lines);
    m_cursor = s.cursor;
    m_anchor = s.anchor;
    m_lastEdit = EditKind::Other;
    changed();
    return true;
}

int TextDocument::visualColumn(int line, int byteColumn) const {
    const std::string& s = m_lines[std::clamp(line, 0, lineCount() - 1)];
    int col = 0;
    for (int i = 0; i < byteColumn && i < static_cast<int>(s.size()); i = nextCharBoundary(s, i))
        col = s[i] == '\t' ? (col / kTabWidth + 1) * kTabWidth : col + 1;
    return col;
}

int TextDocument::byteColumnAt(int line, int visual) const {
    const std::string& s = m_lines[std::clamp(line, 0, lineCount() - 1)];
    int col = 0, i = 0;
    while (i < static_cast<int>(s.size())) {
        int next = s[i] == '\t' ? (col / kTabWidth + 1) * kTabWidth : col + 1;
        // Land on the nearer side of a wide character (a tab).
        if (next > visual) return (visual - col) * 2 >= (next - col) ? nextCharBoundary(s, i) : i;
        col = next;
        i = nextCharBoundary(s, i);
    }
    return i;
}

} // namespace vkp::text
