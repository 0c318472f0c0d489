#include "authoring/mutants.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace vkp {
namespace {

enum class TokKind { Ident, Number, Punct, String };

struct Tok {
    TokKind kind = TokKind::Punct;
    size_t begin = 0, end = 0; // byte offsets in the source
    int line = 1;
    bool inBody = false; // inside a function body
};

bool identStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool identChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Operators of more than one character, longest first.
const char* const kOperators[] = {
    "<<=", ">>=", "<=", ">=", "==", "!=", "&&", "||", "^^", "++", "--",
    "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>"};

// The GLSL scanner: comments, preprocessor lines and whitespace are skipped; string literals
// (debugPrintfEXT formats) are one token.
class Scanner {
  public:
    explicit Scanner(const std::string& s) : m_s(s) {}

    std::vector<Tok> scan() {
        bool lineStart = true;
        while (m_i < m_s.size()) {
            char c = m_s[m_i];
            if (c == '\n') {
                ++m_line, ++m_i, lineStart = true;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_i;
                continue;
            }
            if (lineStart && c == '#') {
                skipPreprocessor();
                continue;
            }
            lineStart = false;
            if (m_s.compare(m_i, 2, "//") == 0) {
                skipWhile([&] { return m_s[m_i] != '\n'; });
                continue;
            }
            if (m_s.compare(m_i, 2, "/*") == 0) {
                skipBlockComment();
                continue;
            }
            m_out.push_back(next());
        }
        markBodies();
        return std::move(m_out);
    }

  private:
    template <class F> void skipWhile(F f) {
        while (m_i < m_s.size() && f())
            ++m_i;
    }
    void skipPreprocessor() {
        while (m_i < m_s.size() && m_s[m_i] != '\n') {
            if (m_s[m_i] == '\\' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '\n') ++m_line, ++m_i;
            ++m_i;
        }
    }
    void skipBlockComment() {
        m_i += 2;
        while (m_i < m_s.size() && m_s.compare(m_i, 2, "*/") != 0) {
            if (m_s[m_i] == '\n') ++m_line;
            ++m_i;
        }
        m_i = std::min(m_s.size(), m_i + 2);
    }
    Tok next() {
        Tok t{TokKind::Punct, m_i, m_i, m_line};
        char c = m_s[m_i];
        if (identStart(c)) {
            t.kind = TokKind::Ident;
            skipWhile([&] { return identChar(m_s[m_i]); });
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && m_i + 1 < m_s.size() &&
                    std::isdigit(static_cast<unsigned char>(m_s[m_i + 1])))) {
            t.kind = TokKind::Number;
            skipWhile([&] {
                char d = m_s[m_i];
                bool exponentSign = (d == '+' || d == '-') && m_i > 0 &&
                                    (m_s[m_i - 1] == 'e' || m_s[m_i - 1] == 'E') &&
                                    m_s.compare(t.begin, 2, "0x") != 0;
                return identChar(d) || d == '.' || exponentSign;
            });
        } else if (c == '"') {
            t.kind = TokKind::String;
            ++m_i;
            skipWhile([&] { return m_s[m_i] != '"' && m_s[m_i] != '\n'; });
            if (m_i < m_s.size() && m_s[m_i] == '"') ++m_i;
        } else {
            size_t len = 1;
            for (const char* op : kOperators)
                if (m_s.compare(m_i, std::char_traits<char>::length(op), op) == 0) {
                    len = std::char_traits<char>::length(op);
                    break;
                }
            m_i += len;
        }
        t.end = m_i;
        return t;
    }
    // A function body is a top-level `{` that follows a `)`; buffer blocks follow a name.
    void markBodies() {
        int depth = 0;
        bool body = false;
        for (size_t k = 0; k < m_out.size(); ++k) {
            std::string_view text(m_s.data() + m_out[k].begin, m_out[k].end - m_out[k].begin);
            if (text == "{") {
                if (depth == 0) body = k > 0 && m_s[m_out[k - 1].begin] == ')';
                ++depth;
            } else if (text == "}") {
                depth = std::max(0, depth - 1);
                m_out[k].inBody = body;
                if (depth == 0) body = false;
                continue;
            }
            m_out[k].inBody = body && depth > 0;
        }
    }

    const std::string& m_s;
    size_t m_i = 0;
    int m_line = 1;
    std::vector<Tok> m_out;
};

const std::set<std::string> kTypes = {
    "float", "int",   "uint",  "bool",  "double", "vec2",  "vec3",    "vec4", "uvec2", "uvec3",
    "uvec4", "ivec2", "ivec3", "ivec4", "bvec2",  "bvec3", "bvec4",   "mat2", "mat3",  "mat4",
    "dvec2", "dvec3", "dvec4", "const", "shared", "highp", "mediump", "lowp"};

// Builds the mutants of one source, each a replacement of a span of text.
class Mutator {
  public:
    Mutator(const std::string& source, const MutationContext& context)
        : m_s(source), m_ctx(context), m_toks(Scanner(source).scan()) {}

    std::vector<Mutant> run() {
        for (size_t k = 0; k < m_toks.size(); ++k) {
            if (!m_toks[k].inBody) continue;
            barrier(k);
            builtins(k);
            comparison(k);
            guard(k);
            index(k);
            sizes(k);
            plusTimes(k);
            loopBound(k);
            lastRound(k);
        }
        std::sort(m_out.begin(), m_out.end(), [](const Span& a, const Span& b) {
            return a.begin != b.begin ? a.begin < b.begin : int(a.kind) < int(b.kind);
        });
        std::vector<Mutant> mutants;
        std::set<std::string> seen = {m_s};
        for (const Span& sp : m_out) {
            Mutant m = make(sp);
            if (!seen.insert(m.text).second) continue;
            mutants.push_back(std::move(m));
        }
        return mutants;
    }

  private:
    struct Span {
        MutationKind kind;
        size_t begin, end; // replaced bytes
        std::string after;
        int line;
    };

    std::string text(size_t k) const {
        return k < m_toks.size() ? m_s.substr(m_toks[k].begin, m_toks[k].end - m_toks[k].begin)
                                 : std::string();
    }
    bool is(size_t k, const char* t) const { return k < m_toks.size() && text(k) == t; }
    std::string between(size_t first, size_t last) const { // tokens first..last inclusive
        return m_s.substr(m_toks[first].begin, m_toks[last].end - m_toks[first].begin);
    }
    void add(MutationKind kind, size_t first, size_t last, std::string after) {
        m_out.push_back(
            {kind, m_toks[first].begin, m_toks[last].end, std::move(after), m_toks[first].line});
    }
    // The token that closes the bracket opened at `open` ("(" or "["), or m_toks.size().
    size_t closing(size_t open) const {
        std::string o = text(open), c = o == "(" ? ")" : o == "[" ? "]" : "}";
        int depth = 0;
        for (size_t k = open; k < m_toks.size(); ++k) {
            std::string t = text(k);
            if (t == o) ++depth;
            if (t == c && --depth == 0) return k;
        }
        return m_toks.size();
    }
    // The last token of the statement starting at `k` (a block, or up to its `;`).
    size_t statementEnd(size_t k) const {
        if (is(k, "{")) return closing(k);
        if (is(k, "if") || is(k, "for") || is(k, "while")) {
            size_t close = closing(k + 1);
            if (close >= m_toks.size()) return close;
            size_t end = statementEnd(close + 1);
            if (is(k, "if") && is(end + 1, "else")) return statementEnd(end + 2);
            return end;
        }
        int depth = 0;
        for (; k < m_toks.size(); ++k) {
            std::string t = text(k);
            depth += (t == "(" || t == "[") - (t == ")" || t == "]");
            if (t == ";" && depth <= 0) return k;
        }
        return m_toks.size();
    }

    void barrier(size_t k) {
        if ((is(k, "barrier") || is(k, "memoryBarrierShared")) && is(k + 1, "(") &&
            is(k + 2, ")") && is(k + 3, ";"))
            add(MutationKind::BarrierRemoved, k, k + 3, "");
    }
    void builtins(size_t k) {
        if (is(k, "gl_GlobalInvocationID"))
            add(MutationKind::LocalForGlobal, k, k, "gl_LocalInvocationID");
        if (!m_ctx.twoD || m_toks[k].kind != TokKind::Ident || !text(k).starts_with("gl_") ||
            !is(k + 1, "."))
            return;
        static const std::map<std::string, std::string> swap = {
            {"x", "y"}, {"y", "x"}, {"xy", "yx"}, {"yx", "xy"}};
        auto it = swap.find(text(k + 2));
        if (it != swap.end()) add(MutationKind::SwapXY, k, k + 2, text(k) + "." + it->second);
    }
    void comparison(size_t k) {
        static const std::map<std::string, std::string> swap = {
            {"<", "<="}, {"<=", "<"}, {">", ">="}, {">=", ">"}};
        auto it = swap.find(text(k));
        if (it != swap.end()) add(MutationKind::Comparison, k, k, it->second);
    }
    static bool relational(const std::string& t) {
        return t == "<" || t == "<=" || t == ">" || t == ">=";
    }
    void guard(size_t k) {
        if (!is(k, "if") || !is(k + 1, "(")) return;
        size_t close = closing(k + 1);
        if (close >= m_toks.size()) return;
        bool bounds = false;
        for (size_t j = k + 2; j < close; ++j)
            bounds = bounds || relational(text(j));
        size_t end = statementEnd(close + 1);
        if (!bounds || end >= m_toks.size() || is(end + 1, "else")) return;
        add(MutationKind::GuardRemoved, k, close, "if (true)");
    }
    void index(size_t k) {
        if (m_toks[k].kind != TokKind::Ident || !is(k + 1, "[") || kTypes.count(text(k)) ||
            (k > 0 && kTypes.count(text(k - 1))))
            return;
        size_t close = closing(k + 1);
        if (close >= m_toks.size() || close == k + 2) return;
        std::string e = between(k + 2, close - 1);
        if (close != k + 3) e = "(" + e + ")";
        for (const char* d : {" + 1", " - 1"})
            add(MutationKind::IndexOffset, k, close, text(k) + "[" + e + d + "]");
    }
    void sizes(size_t k) {
        std::string t = text(k);
        if (is(k + 1, ".") && is(k + 2, "length") && is(k + 3, "(") && is(k + 4, ")")) {
            auto it = m_ctx.lengths.find(t);
            if (it != m_ctx.lengths.end())
                add(MutationKind::HardcodedSize, k, k + 4, std::to_string(it->second));
            return;
        }
        if (auto it = m_ctx.constants.find(t);
            it != m_ctx.constants.end() && !is(k + 1, "=") && !(k > 0 && kTypes.count(text(k - 1))))
            add(MutationKind::HardcodedSize, k, k, std::to_string(it->second) + "u");
        if ((t == "gl_WorkGroupSize" || t == "gl_NumWorkGroups") && is(k + 1, ".") &&
            (is(k + 2, "x") || is(k + 2, "y"))) {
            const auto& v = t == "gl_WorkGroupSize" ? m_ctx.workgroupSize : m_ctx.workgroups;
            add(MutationKind::HardcodedSize, k, k + 2,
                std::to_string(v[is(k + 2, "x") ? 0 : 1]) + "u");
        }
    }
    void plusTimes(size_t k) {
        if (!is(k, "+") && !is(k, "*")) return;
        if (k == 0) return;
        const Tok& prev = m_toks[k - 1];
        std::string p = text(k - 1);
        if (prev.kind != TokKind::Ident && prev.kind != TokKind::Number && p != ")" && p != "]")
            return;
        add(MutationKind::PlusTimes, k, k, is(k, "+") ? "*" : "+");
    }
    // The tokens of `for (INIT; COND; STEP)` at k: the two semicolons and the closing
    // parenthesis; nothing where k starts no for loop or its header is not three parts.
    struct ForHeader {
        size_t semi = 0, semi2 = 0, close = 0;
    };
    std::optional<ForHeader> forHeader(size_t k) const {
        if (!is(k, "for") || !is(k + 1, "(")) return std::nullopt;
        ForHeader h{k + 2, 0, closing(k + 1)};
        while (h.semi < h.close && !is(h.semi, ";"))
            ++h.semi;
        h.semi2 = h.semi + 1;
        while (h.semi2 < h.close && !is(h.semi2, ";"))
            ++h.semi2;
        if (h.semi2 >= h.close) return std::nullopt;
        return h;
    }
    void loopBound(size_t k) {
        auto h = forHeader(k);
        if (!h) return;
        for (size_t j = h->semi + 1; j < h->semi2; ++j) {
            if (!is(j, "<") && !is(j, "<=")) continue;
            if (j + 1 >= h->semi2) return;
            std::string bound = between(j + 1, h->semi2 - 1);
            if (bound.find("gl_WorkGroupSize") != std::string::npos) return;
            add(MutationKind::LoopBound, j + 1, h->semi2 - 1, "gl_WorkGroupSize.x");
            return;
        }
    }

    // A loop over distances that double (or halve) each time, its condition on the distance:
    // one distance fewer is the shortcut a learner takes when the cases never need the last one.
    void lastRound(size_t k) {
        auto h = forHeader(k);
        if (!h || h->semi2 + 1 >= h->close || h->semi + 3 >= h->semi2) return;
        if (m_toks[h->semi + 1].kind != TokKind::Ident) return;
        const std::string var = text(h->semi + 1), op = text(h->semi + 2);
        std::string step; // the STEP part without spaces, a trailing u on its number dropped
        for (size_t j = h->semi2 + 1; j < h->close; ++j)
            step += text(j);
        if (step.size() > 1 && step.back() == 'u' &&
            std::isdigit((unsigned char)step[step.size() - 2]))
            step.pop_back();
        auto stepIs = [&](std::initializer_list<const char*> forms) {
            for (const char* f : forms)
                if (step == var + f) return true;
            return false;
        };
        bool doubles = stepIs({"*=2", "<<=1"}) || step == var + "+=" + var ||
                       step == var + "=" + var + "*2" || step == var + "=" + var + "<<1";
        bool halves = stepIs({"/=2", ">>=1"}) || step == var + "=" + var + "/2" ||
                      step == var + "=" + var + ">>1";
        if (doubles && (op == "<" || op == "<="))
            add(MutationKind::LastDistance, h->semi + 1, h->semi + 1, "(" + var + " << 1)");
        // Up to half the bound: the same as `<` where the bound is a power of two, a distance
        // short where it is not (a block of 48 reaches distance 16, not 32).
        if (doubles && op == "<" && h->semi + 3 < h->semi2)
            add(MutationKind::LastDistance, h->semi + 2, h->semi2 - 1,
                "<= (" + between(h->semi + 3, h->semi2 - 1) + ") / 2");
        else if (halves && (op == ">" || op == ">="))
            add(MutationKind::LastDistance, h->semi + 1, h->semi + 1, "(" + var + " >> 1)");
    }

    Mutant make(const Span& sp) const {
        Mutant m;
        m.kind = sp.kind;
        m.line = sp.line;
        size_t lineBegin = m_s.rfind('\n', sp.begin == 0 ? 0 : sp.begin - 1);
        lineBegin = lineBegin == std::string::npos ? 0 : lineBegin + 1;
        if (sp.begin == 0) lineBegin = 0;
        size_t lineEnd = m_s.find('\n', sp.begin);
        if (lineEnd == std::string::npos) lineEnd = m_s.size();
        std::string line = m_s.substr(lineBegin, lineEnd - lineBegin);
        size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
        m.lineText = a == std::string::npos ? "" : line.substr(a, b - a + 1);
        m.before = m_s.substr(sp.begin, sp.end - sp.begin);
        m.after = sp.after;
        m.text = m_s.substr(0, sp.begin) + sp.after + m_s.substr(sp.end);
        return m;
    }

    const std::string& m_s;
    const MutationContext& m_ctx;
    std::vector<Tok> m_toks;
    std::vector<Span> m_out;
};

struct KindName {
    MutationKind kind;
    const char* name;
};
const KindName kKindNames[] = {
    {MutationKind::BarrierRemoved, "barrier-removed"},
    {MutationKind::LocalForGlobal, "local-for-global"},
    {MutationKind::SwapXY, "swap-xy"},
    {MutationKind::Comparison, "comparison"},
    {MutationKind::GuardRemoved, "guard-removed"},
    {MutationKind::IndexOffset, "index-offset"},
    {MutationKind::HardcodedSize, "hardcoded-size"},
    {MutationKind::PlusTimes, "plus-times"},
    {MutationKind::LoopBound, "loop-bound"},
    {MutationKind::LastDistance, "last-distance"},
};

} // namespace

const char* mutationKindName(MutationKind kind) {
    for (const KindName& k : kKindNames)
        if (k.kind == kind) return k.name;
    return "?";
}

std::optional<MutationKind> mutationKindFromName(const std::string& name) {
    for (const KindName& k : kKindNames)
        if (name == k.name) return k.kind;
    // Its name until "round" was kept for barrier rounds (docs/glossary.md): packs still say it.
    if (name == "last-round") return MutationKind::LastDistance;
    return std::nullopt;
}

std::string mutationKindNames() {
    std::string s;
    for (const KindName& k : kKindNames)
        s += (s.empty() ? "" : ", ") + std::string(k.name);
    return s;
}

std::vector<Mutant> makeMutants(const std::string& source, const MutationContext& context) {
    return Mutator(source, context).run();
}

std::string mutationChangeText(const Mutant& m) {
    if (m.after.empty()) return m.before + " removed";
    return m.before + " -> " + m.after;
}

std::string mutatedLine(const Mutant& m) {
    size_t at = 0;
    for (int k = 1; k < m.line && at != std::string::npos; ++k) {
        at = m.text.find('\n', at);
        if (at != std::string::npos) ++at;
    }
    if (at == std::string::npos) return {};
    std::string line = m.text.substr(at, m.text.find('\n', at) - at);
    size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : line.substr(a, b - a + 1);
}

std::string mutationAdvice(MutationKind kind, int line) {
    std::string at = " on line " + std::to_string(line);
    switch (kind) {
    case MutationKind::BarrierRemoved:
        return "your cases pass a kernel without the barrier" + at +
               ": add a case with more than one subgroup per workgroup (a workgroup larger than "
               "the device's subgroup, e.g. 64 or more threads) where threads read what others "
               "wrote";
    case MutationKind::LocalForGlobal:
        return "your cases pass a kernel that uses gl_LocalInvocationID for gl_GlobalInvocationID" +
               at + ": add a case with more than one workgroup";
    case MutationKind::SwapXY:
        return "your cases pass a kernel with x and y swapped" + at +
               ": add a case whose grid is not square (rows != columns, and a workgroup that is "
               "not square)";
    case MutationKind::Comparison:
        return "your cases pass a kernel with the comparison" + at +
               " off by one: add a case whose size sits right at that boundary (n not a "
               "multiple of the workgroup size, more threads than elements)";
    case MutationKind::GuardRemoved:
        return "your cases pass a kernel without the bounds check" + at +
               ": add a case that launches more threads than there are elements";
    case MutationKind::IndexOffset:
        return "your cases pass a kernel that reads or writes one element off" + at +
               ": add a case with distinct values in every element (not all equal, not a "
               "constant fill) whose last element matters";
    case MutationKind::HardcodedSize:
        return "your cases pass a kernel with the first case's size hard-coded" + at +
               ": add cases with other sizes (other n, workgroup size and workgroup count)";
    case MutationKind::PlusTimes:
        return "your cases pass a kernel with + and * swapped" + at +
               ": add a case with values other than 0, 1 and 2 (random values)";
    case MutationKind::LoopBound:
        return "your cases pass a kernel whose loop" + at +
               " runs to the workgroup size instead of its bound: add a case where the bound and "
               "the workgroup size differ";
    case MutationKind::LastDistance:
        return "your cases pass a kernel whose loop" + at +
               " skips its last distance (one doubling short): add a case that needs the last "
               "distance (a workgroup, segment or run of data as long as the loop goes)";
    }
    return "";
}

} // namespace vkp
