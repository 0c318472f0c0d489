#include "base/source_text.h"

#include <cctype>
#include <sstream>
#include <vector>

namespace vkp {
namespace {

bool wordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `text` with comments (and, with `strings`, the insides of string literals) blanked, newlines
// kept, so positions and lines stay.
std::string blankedComments(const std::string& text, bool strings) {
    std::string out = text;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            while (i < out.size() && out[i] != '\n')
                out[i++] = ' ';
        } else if (out[i] == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            size_t end = out.find("*/", i + 2);
            end = end == std::string::npos ? out.size() : end + 2;
            for (; i < end; ++i)
                if (out[i] != '\n') out[i] = ' ';
            --i;
        } else if (strings && out[i] == '"') {
            for (++i; i < out.size() && out[i] != '"' && out[i] != '\n'; ++i)
                out[i] = ' ';
        }
    }
    return out;
}

} // namespace

std::string sourceLine(const std::string& text, int line) {
    std::istringstream in(text);
    std::string s;
    for (int i = 1; std::getline(in, s); ++i)
        if (i == line) return s;
    return {};
}

int firstLineMatching(const std::string& text, const std::regex& pattern) {
    std::istringstream in(text);
    std::string s;
    for (int n = 1; std::getline(in, s); ++n)
        if (std::regex_search(s, pattern)) return n;
    return 0;
}

int bindingDeclarationLine(const std::string& text, unsigned binding, const std::string& name) {
    std::string at = "binding\\s*=\\s*" + std::to_string(binding) + "\\b";
    if (!name.empty())
        if (int line = firstLineMatching(text, std::regex(at + ".*\\b" + name + "\\b")))
            return line;
    return firstLineMatching(text, std::regex(at));
}

std::string codeWithoutCommentsOrLayout(const std::string& text) {
    std::string out;
    bool space = false; // white space (or a comment) since the last character kept
    for (char c : blankedComments(text, false)) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = true;
            continue;
        }
        if (space && !out.empty() && wordChar(out.back()) && wordChar(c)) out += ' ';
        out += c;
        space = false;
    }
    return out;
}

namespace {

std::string oneLine(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

// Reads the text once, keeping the constructs open at each point: braces, and the bodies of
// `if`/`else`/`while`/`for` (braced, or one statement up to its `;`).
class ConditionScan {
  public:
    ConditionScan(const std::string& text, int line)
        : m_text(blankedComments(text, true)), m_line(line) {}

    std::optional<EnclosingCondition> run() {
        for (m_at = 0; m_at < m_text.size();) {
            char c = m_text[m_at];
            if (c == '\n') {
                ++m_lineAt;
                ++m_at;
                if (m_lineAt == m_line) m_atLineStart = innermost();
                if (m_lineAt > m_line) return m_atLineStart;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_at;
                continue;
            }
            if (wordChar(c)) {
                size_t end = m_at;
                while (end < m_text.size() && wordChar(m_text[end]))
                    ++end;
                std::string word = m_text.substr(m_at, end - m_at);
                bool startsWord = m_at == 0 || !wordChar(m_text[m_at - 1]);
                if (startsWord && (word == "if" || word == "while" || word == "for")) {
                    if (!header(word, end)) return std::nullopt;
                    continue;
                }
                if (startsWord && word == "else") {
                    m_at = end;
                    Frame f{false, std::nullopt};
                    if (m_closedIf)
                        f.cond =
                            EnclosingCondition{m_closedIf->line, "else", m_closedIf->condition};
                    m_closedIf.reset();
                    body(f);
                    continue;
                }
                if (code()) return m_found;
                m_at = end;
                continue;
            }
            if (c == '{') {
                m_frames.push_back({true, std::nullopt});
                ++m_at;
                continue;
            }
            if (c == '}') {
                while (!m_frames.empty() && !m_frames.back().brace)
                    m_frames.pop_back();
                if (!m_frames.empty()) pop();
                endStatement();
                ++m_at;
                continue;
            }
            if (c == ';') {
                endStatement();
                ++m_at;
                continue;
            }
            if (code()) return m_found;
            ++m_at;
        }
        return m_lineAt >= m_line ? m_atLineStart : std::nullopt;
    }

  private:
    struct Frame {
        bool brace = false;
        std::optional<EnclosingCondition> cond;
    };

    std::optional<EnclosingCondition> innermost() const {
        for (auto it = m_frames.rbegin(); it != m_frames.rend(); ++it)
            if (it->cond) return it->cond;
        return std::nullopt;
    }
    // A character of a statement: on the line asked about, the first one decides.
    bool code() {
        if (m_lineAt != m_line) return false;
        m_found = innermost();
        return true;
    }
    void pop() {
        if (m_frames.back().cond && m_frames.back().cond->keyword == "if")
            m_closedIf = m_frames.back().cond;
        m_frames.pop_back();
    }
    // A statement ended (`;` or a closing brace): the one-statement bodies it completes close.
    void endStatement() {
        while (!m_frames.empty() && !m_frames.back().brace)
            pop();
    }
    // The body after a header: braced, or one statement.
    void body(Frame f) {
        size_t next = m_at;
        while (next < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[next]))) {
            if (m_text[next] == '\n') return m_frames.push_back(std::move(f)); // next line: read on
            ++next;
        }
        if (next < m_text.size() && m_text[next] == '{') {
            f.brace = true;
            m_at = next + 1;
        }
        m_frames.push_back(std::move(f));
    }
    // `if (...)`, `while (...)`, `for (...; ...; ...)` from `end` (after the keyword). False when
    // the parentheses do not close: the text is not what this reading understands.
    bool header(const std::string& keyword, size_t end) {
        int headerLine = m_lineAt;
        size_t open = end;
        while (open < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[open])))
            ++open;
        if (open >= m_text.size() || m_text[open] != '(') {
            m_at = end;
            return true;
        }
        int depth = 0;
        size_t close = open;
        std::vector<size_t> semicolons;
        for (; close < m_text.size(); ++close) {
            char c = m_text[close];
            if (c == '(') ++depth;
            if (c == ')' && --depth == 0) break;
            if (c == ';' && depth == 1) semicolons.push_back(close);
        }
        if (close >= m_text.size()) return false;
        std::string inside = m_text.substr(open + 1, close - open - 1);
        if (keyword == "for" && semicolons.size() == 2)
            inside = m_text.substr(semicolons[0] + 1, semicolons[1] - semicolons[0] - 1);
        for (size_t k = open; k < close; ++k)
            if (m_text[k] == '\n') ++m_lineAt;
        // The line asked about starts inside these parentheses: it belongs to what is around them.
        if (headerLine < m_line && m_line <= m_lineAt) m_atLineStart = innermost();
        m_at = close + 1;
        size_t next = m_at;
        while (next < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[next])))
            ++next;
        if (keyword == "while" && next < m_text.size() && m_text[next] == ';')
            return true; // do {} while (c);
        m_closedIf.reset();
        body({false, EnclosingCondition{headerLine, keyword, oneLine(inside)}});
        return true;
    }

    std::string m_text;
    int m_line;
    int m_lineAt = 1;
    size_t m_at = 0;
    std::vector<Frame> m_frames;
    std::optional<EnclosingCondition> m_closedIf, m_found, m_atLineStart;
};

} // namespace

std::optional<EnclosingCondition> enclosingCondition(const std::string& text, int line) {
    if (line < 1) return std::nullopt;
    return ConditionScan(text, line).run();
}

} // namespace vkp
