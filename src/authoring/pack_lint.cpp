#include "authoring/pack_lint.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace vkp {
namespace {

bool wordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `word` appears in `text` as a whole word (`a` in "`a` (input)", not in "and").
bool namesWord(const std::string& text, const std::string& word) {
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        bool left = at == 0 || !wordChar(text[at - 1]);
        bool right = at + word.size() >= text.size() || !wordChar(text[at + word.size()]);
        if (left && right) return true;
    }
    return false;
}

std::string lowered(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string folded(const std::string& s) {
    std::istringstream in(s);
    std::string word, out;
    while (in >> word)
        out += (out.empty() ? "" : " ") + word;
    return out;
}

// Sentences: ended by . ! ? before white space, a blank line, or a new list item ("- "); an
// ellipsis ("0 .. s-1") ends none.
std::vector<std::string> sentences(const std::string& text) {
    static const std::regex end(R"((?:[^.][.!?](?=\s)|\n\s*\n|\n(?=\s*- )))");
    std::vector<std::string> out;
    auto from = text.cbegin();
    for (std::sregex_iterator it(text.begin(), text.end(), end), stop; it != stop; ++it) {
        auto to = text.cbegin() + (it->position() + it->length());
        if (std::string s = folded(std::string(from, to)); !s.empty()) out.push_back(s);
        from = to;
    }
    if (std::string s = folded(std::string(from, text.cend())); !s.empty()) out.push_back(s);
    return out;
}

bool statesRule(const std::string& lowered) {
    static const std::regex rule(R"(\b(must|may only)\b)");
    return std::regex_search(lowered, rule);
}

bool containsAny(const std::string& text, const std::vector<std::string>& words) {
    return std::any_of(words.begin(), words.end(),
                       [&](const std::string& w) { return text.find(w) != std::string::npos; });
}

// The share of `rule`'s words that `sentence` has (a rule's text quotes the statement, often
// shortened or reworded at its edges).
double sharedWords(const std::string& rule, const std::string& sentence) {
    std::istringstream in(rule);
    std::string word;
    size_t all = 0, found = 0;
    while (in >> word) {
        ++all;
        if (sentence.find(word) != std::string::npos) ++found;
    }
    return all ? double(found) / double(all) : 0;
}

// Words that mark a sentence as one of the checks every kernel gets, whatever the puzzle says.
const std::vector<std::string> kAlwaysChecked = {
    "subgroup size", "any size", "bounded", "loop", "race", "out of bounds", "outside", "barrier",
    "read-only", "readonly", "uninitiali", "not checked", "not enforced", "unchecked",
    // what the cases check: the values come out right
    "must work", "must be right", "must be correct"};

std::vector<std::string> limitWords(const Limits& l) {
    std::vector<std::string> w;
    if (l.globalReads || l.globalReadsExpr) w.insert(w.end(), {"read", "load"});
    if (l.globalWrites || l.globalWritesExpr) w.insert(w.end(), {"write", "store"});
    if (l.globalEfficiency) w.insert(w.end(), {"coalesc", "sector", "neighbouring"});
    if (l.bankConflicts) w.insert(w.end(), {"bank"});
    if (l.divergentRequests || l.divergentRequestsExpr) w.insert(w.end(), {"idle", "busy", "lane"});
    if (l.globalAtomicsPerWorkgroup || l.globalAtomicsPerWorkgroupExpr) w.push_back("atomic");
    return w;
}

std::string caseName(size_t i) {
    return "case " + std::to_string(i + 1);
}

class Linter {
  public:
    Linter(const Puzzle& p, const std::vector<std::string>& solutions)
        : m_p(p), m_solutions(solutions) {}

    std::vector<Diagnostic> run() {
        statement();
        for (size_t i = 0; i < m_p.cases.size(); ++i) {
            auto d = materializeCase(m_p, i);
            m_data.push_back(d ? std::move(*d) : CaseData{});
        }
        distinct();
        square();
        oneWorkgroup();
        sizes();
        equalInputs();
        for (const std::string& sentence : uncheckedStatedRules(m_p))
            warning("the statement states a rule that nothing checks: \"" + sentence +
                    "\"; add a [[rules]] entry or a [limits] budget for it, or say in the "
                    "statement that it is not checked");
        return std::move(m_out);
    }

  private:
    void add(SeverityKind severity, std::string message, SourceLocation where) {
        if (where.file.empty()) where = {m_p.file, 0, 0};
        m_out.push_back(diagnosticAt(where, severity, std::move(message)));
    }
    void error(std::string message, SourceLocation where = {}) {
        add(SeverityKind::Error, std::move(message), std::move(where));
    }
    void warning(std::string message, SourceLocation where = {}) {
        add(SeverityKind::Warning, std::move(message), std::move(where));
    }
    bool twoD() const {
        for (const BufferDecl& b : m_p.buffers)
            if (b.dims == 2) return true;
        return std::any_of(m_p.cases.begin(), m_p.cases.end(), [](const TestCase& c) {
            return c.workgroupSize[1] > 1 || c.workgroups[1] > 1;
        });
    }
    uint64_t elements(size_t i) const { // the case's N: its first input's length
        auto in = m_p.firstInput();
        if (!in || i >= m_data.size() || *in >= m_data[i].initial.size()) return 0;
        return m_data[i].initial[*in].shape.count();
    }

    void statement() {
        for (const BufferDecl& b : m_p.buffers)
            if (!namesWord(m_p.statement, b.name))
                error("the statement never names the buffer '" + b.name +
                      "': say what it holds (a learner sees the name in the starter)");
    }
    bool sameCase(size_t a, size_t b) const {
        const TestCase &x = m_p.cases[a], &y = m_p.cases[b];
        if (x.workgroupSize != y.workgroupSize || x.workgroups != y.workgroups ||
            x.constants != y.constants)
            return false;
        const auto &dx = m_data[a].initial, &dy = m_data[b].initial;
        if (dx.size() != dy.size() || dx.empty()) return false;
        for (size_t k = 0; k < dx.size(); ++k)
            if (dx[k].words != dy[k].words || dx[k].shape.dims != dy[k].shape.dims) return false;
        return true;
    }
    void distinct() {
        for (size_t b = 1; b < m_p.cases.size(); ++b)
            for (size_t a = 0; a < b; ++a)
                if (sameCase(a, b)) {
                    error(caseName(b) + " is the same as " + caseName(a) +
                              " (same launch, constants and data): it tests nothing new",
                          m_p.cases[b].where);
                    break;
                }
    }
    void square() {
        if (!twoD() || m_p.cases.empty()) return;
        for (size_t i = 0; i < m_p.cases.size(); ++i) {
            const TestCase& c = m_p.cases[i];
            if (c.workgroupSize[0] * uint64_t(c.workgroups[0]) !=
                    c.workgroupSize[1] * uint64_t(c.workgroups[1]) ||
                c.workgroupSize[0] != c.workgroupSize[1])
                return;
            for (const BufferData& d : m_data[i].initial)
                if (d.shape.dims.size() == 2 && d.shape.dims[0] != d.shape.dims[1]) return;
        }
        warning("every case is square (buffers, launch grid and workgroup): a kernel with x "
                "and y swapped passes them; add a case with rows != columns");
    }
    void oneWorkgroup() {
        bool aboutSeveral = std::any_of(m_solutions.begin(), m_solutions.end(), [](const auto& s) {
            return s.find("gl_WorkGroupID") != std::string::npos ||
                   s.find("gl_GlobalInvocationID") != std::string::npos;
        });
        bool allOne = std::all_of(m_p.cases.begin(), m_p.cases.end(), [](const TestCase& c) {
            return c.workgroups == std::array<uint32_t, 3>{1, 1, 1};
        });
        if (aboutSeveral && allOne && !promisesOneWorkgroup(m_p) && !m_p.multiPass() &&
            !m_p.cases.empty())
            warning("every case launches one workgroup, but the official solution uses the "
                    "workgroup or global id: a kernel that assumes one workgroup passes; add "
                    "a case with several workgroups");
    }
    void sizes() {
        if (twoD() || m_p.cases.empty() || !m_p.firstInput()) return;
        bool allMultiples = true, someSmaller = false, someExtra = false;
        for (size_t i = 0; i < m_p.cases.size(); ++i) {
            const TestCase& c = m_p.cases[i];
            uint64_t n = elements(i), wg = c.workgroupSize[0];
            allMultiples = allMultiples && n % wg == 0;
            someSmaller = someSmaller || n < wg;
            someExtra = someExtra || c.threadCount() > n;
        }
        if (allMultiples)
            warning("every case's size is a multiple of its workgroup size: a kernel without "
                    "its bounds check, or one that assumes whole workgroups, passes; add a case "
                    "whose n is not a multiple of the workgroup size");
        if (someExtra && !someSmaller)
            warning("no case has fewer elements than the workgroup size, though cases may "
                    "launch more threads than elements; add one (n < workgroup size)");
    }
    void equalInputs() {
        for (size_t i = 0; i < m_data.size(); ++i)
            for (size_t b = 0; b < m_p.buffers.size() && b < m_data[i].initial.size(); ++b) {
                const BufferData& d = m_data[i].initial[b];
                if (m_p.buffers[b].role != RoleKind::Input || d.words.size() < 2) continue;
                if (std::all_of(d.words.begin(), d.words.end(),
                                [&](uint32_t w) { return w == d.words[0]; }))
                    warning(caseName(i) + ": every element of input '" + m_p.buffers[b].name +
                                "' is the same: a kernel that reads the wrong element passes it; "
                                "use distinct values (a random fill, or iota)",
                            m_p.cases[i].where);
            }
    }

    const Puzzle& m_p;
    const std::vector<std::string>& m_solutions;
    std::vector<CaseData> m_data;
    std::vector<Diagnostic> m_out;
};

} // namespace

std::vector<Diagnostic> lintPuzzle(const Puzzle& puzzle,
                                   const std::vector<std::string>& solutionTexts) {
    return Linter(puzzle, solutionTexts).run();
}

std::vector<std::string> uncheckedStatedRules(const Puzzle& puzzle) {
    std::vector<std::string> covering = limitWords(puzzle.limits);
    covering.insert(covering.end(), kAlwaysChecked.begin(), kAlwaysChecked.end());
    std::vector<std::string> out;
    for (const std::string& sentence : sentences(puzzle.statement)) {
        std::string low = lowered(sentence);
        if (!statesRule(low) || containsAny(low, covering)) continue;
        bool quoted = std::any_of(puzzle.rules.begin(), puzzle.rules.end(), [&](const RuleDecl& r) {
            return sharedWords(lowered(folded(r.text)), low) >= 0.6;
        });
        // An output's values are compared cell by cell: what a sentence says of them is checked.
        bool aboutOutput =
            std::any_of(puzzle.buffers.begin(), puzzle.buffers.end(), [&](const BufferDecl& b) {
                return b.role == RoleKind::Output && namesWord(sentence, b.name);
            });
        if (!quoted && !aboutOutput) out.push_back(sentence);
    }
    return out;
}

bool promisesOneWorkgroup(const Puzzle& puzzle) {
    std::string statement = puzzle.statement;
    std::transform(statement.begin(), statement.end(), statement.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return statement.find("one workgroup is launched") != std::string::npos;
}

} // namespace vkp
