#include "puzzle/expr.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace vkp {

class ExprParser {
  public:
    // `element`: the per-element dialect (decimals, comparisons, indexing; see expr.h).
    ExprParser(const std::string& text, const std::string& field, bool element)
        : m_source(text), m_field(field), m_element(element) {
        m_expr.m_text = text;
    }

    Result<Expr> run() {
        top();
        skip();
        if (!m_error.empty()) return fail();
        if (m_position != m_source.size()) {
            m_error = "unexpected '" + std::string(1, m_source[m_position]) + "'";
            m_errorAt = m_position;
            return fail();
        }
        return std::move(m_expr);
    }

  private:
    using K = Expr::Node::Kind;
    Error fail() const {
        return Error{ErrorKind::PuzzleFile, Expr::describe(m_source, m_field) + ", column " +
                                                std::to_string(m_errorAt + 1) + ": " + m_error};
    }
    void skip() {
        while (m_position < m_source.size() &&
               std::isspace(static_cast<unsigned char>(m_source[m_position])))
            ++m_position;
    }
    bool eat(char c) {
        skip();
        if (m_position < m_source.size() && m_source[m_position] == c) {
            ++m_position;
            return true;
        }
        return false;
    }
    // `op` (one or two characters) next, and not the start of a longer operator `longer`.
    bool eatOp(const char* op, const char* longer = nullptr) {
        skip();
        if (m_source.compare(m_position, std::strlen(op), op) != 0) return false;
        if (longer && m_source.compare(m_position, std::strlen(longer), longer) == 0) return false;
        m_position += std::strlen(op);
        return true;
    }
    int node(K kind, size_t at, uint64_t value = 0, int a = -1, int b = -1, int c = -1) {
        if (m_expr.m_nodes.size() == kMaxExprNodes)
            error("it has more than " + std::to_string(kMaxExprNodes) +
                  " numbers, names and operators; write it shorter");
        if (!m_error.empty()) return 0; // parsing stops at the first error; node 0 stands in
        m_expr.m_nodes.push_back({kind, value, a, b, static_cast<uint32_t>(at), c});
        return static_cast<int>(m_expr.m_nodes.size()) - 1;
    }
    void error(const std::string& message) {
        if (m_error.empty()) {
            m_error = message;
            m_errorAt = m_position;
        }
    }
    int top() { return m_element ? conditional() : sum(); }
    // c ? a : b, right to left; the branches recurse, so they count as nesting.
    int conditional() {
        int cond = logicalOr();
        skip();
        size_t at = m_position;
        if (!m_error.empty() || !eat('?')) return cond;
        if (!enter()) return 0;
        int a = conditional();
        if (!eat(':')) error("':' expected: a condition reads c ? a : b");
        int b = conditional();
        --m_depth;
        return node(K::Select, at, 0, cond, a, b);
    }
    int logicalOr() {
        int left = logicalAnd();
        while (m_error.empty()) {
            skip();
            size_t at = m_position;
            if (!eatOp("||")) break;
            left = node(K::Or, at, 0, left, logicalAnd());
        }
        return left;
    }
    int logicalAnd() {
        int left = comparison();
        while (m_error.empty()) {
            skip();
            size_t at = m_position;
            if (!eatOp("&&")) break;
            left = node(K::And, at, 0, left, comparison());
        }
        return left;
    }
    // One comparison at most: "a < b < c" means nothing useful here.
    int comparison() {
        int left = sum();
        skip();
        size_t at = m_position;
        static const std::pair<const char*, K> ops[] = {{"<=", K::Le}, {">=", K::Ge}, {"==", K::Eq},
                                                        {"!=", K::Ne}, {"<", K::Lt},  {">", K::Gt}};
        for (const auto& [text, kind] : ops)
            if (m_error.empty() && eatOp(text)) return node(kind, at, 0, left, sum());
        return left;
    }
    int sum() {
        int left = product();
        while (m_error.empty()) {
            skip();
            size_t at = m_position;
            if (eat('+'))
                left = node(K::Add, at, 0, left, product());
            else if (eat('-'))
                left = node(K::Sub, at, 0, left, product());
            else
                break;
        }
        return left;
    }
    int product() {
        int left = unary();
        while (m_error.empty()) {
            skip();
            size_t at = m_position;
            if (eat('*'))
                left = node(K::Mul, at, 0, left, unary());
            else if (eat('/'))
                left = node(K::Div, at, 0, left, unary());
            else if (eat('%'))
                left = node(K::Mod, at, 0, left, unary());
            else
                break;
        }
        return left;
    }
    // -x and !x (per-element dialect): each sign is a level of nesting ("- - - ... x").
    int unary() {
        if (!m_element) return atom();
        skip();
        size_t at = m_position;
        K kind = K::Neg;
        if (eatOp("!", "!="))
            kind = K::Not;
        else if (!eat('-'))
            return atom();
        if (!enter()) return 0;
        int operand = unary();
        --m_depth;
        return node(kind, at, 0, operand);
    }
    // Parentheses and function arguments recurse; the depth bound keeps the stack small.
    bool enter() {
        if (++m_depth <= kMaxExprDepth) return true;
        error("it nests deeper than " + std::to_string(kMaxExprDepth) +
              " levels of parentheses and function calls");
        return false;
    }
    int atom() {
        skip();
        if (!m_error.empty()) return 0;
        if (m_position < m_source.size() && m_source[m_position] == '(') {
            if (!enter()) return 0;
            ++m_position;
            int inner = top();
            if (!eat(')')) error("')' expected");
            --m_depth;
            return inner;
        }
        if (m_position < m_source.size() &&
            std::isdigit(static_cast<unsigned char>(m_source[m_position])))
            return number();
        size_t start = m_position;
        while (m_position < m_source.size() &&
               (std::isalnum(static_cast<unsigned char>(m_source[m_position])) ||
                m_source[m_position] == '_'))
            ++m_position;
        std::string name = m_source.substr(start, m_position - start);
        if (name == "N") return node(K::N, start);
        if (name == "WG") return node(K::WG, start);
        if (int f = function(name, start); f >= 0) return f;
        if (!name.empty()) {
            // A constant's name (checked against the puzzle by the loader), or in the
            // per-element dialect an index or a buffer's element (element_expr.cpp).
            m_expr.m_names.push_back(name);
            if (m_element && eat('[')) return element(start);
            return node(K::Name, start, m_expr.m_names.size() - 1);
        }
        m_position = start;
        error(m_element ? "a number, a name, a function or '(' expected"
                        : "a number, N, WG, a constant, a function or '(' expected");
        return 0;
    }
    // a[i] or m[r, c], after the '['.
    int element(size_t start) {
        size_t name = m_expr.m_names.size() - 1;
        if (!enter()) return 0;
        int a = top(), b = -1;
        if (eat(',')) b = top();
        if (!eat(']')) error("']' expected");
        --m_depth;
        return node(K::Index, start, name, a, b);
    }
    int number() {
        size_t start = m_position;
        uint64_t v = 0;
        while (m_position < m_source.size() &&
               std::isdigit(static_cast<unsigned char>(m_source[m_position])))
            v = v * 10 + uint64_t(m_source[m_position++] - '0');
        bool decimal = m_element && m_position < m_source.size() &&
                       (m_source[m_position] == '.' || m_source[m_position] == 'e' ||
                        m_source[m_position] == 'E');
        if (!decimal) return node(K::Number, start, v);
        const char* begin = m_source.c_str() + start;
        char* end = nullptr;
        double d = std::strtod(begin, &end);
        m_position = start + static_cast<size_t>(end - begin);
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        return node(K::Real, start, bits);
    }
    // A call of one of the functions, or -1 when `name` is none of them.
    int function(const std::string& name, size_t start) {
        struct Function {
            const char* name;
            K kind;
            int arity;
            bool element; // the per-element dialect's (else the size dialect's)
        };
        static const Function functions[] = {{"ceil_div", K::CeilDiv, 2, false},
                                             {"min", K::Min, 2, false},
                                             {"max", K::Max, 2, false},
                                             {"log2ceil", K::Log2Ceil, 1, false},
                                             {"pow2ceil", K::Pow2Ceil, 1, false},
                                             {"pow2", K::Pow2, 1, false},
                                             {"pow", K::Pow, 2, false},
                                             {"logceil", K::LogCeil, 2, false},
                                             {"min", K::Min, 2, true},
                                             {"max", K::Max, 2, true},
                                             {"abs", K::Abs, 1, true},
                                             {"floor", K::Floor, 1, true},
                                             {"sqrt", K::Sqrt, 1, true},
                                             {"exp", K::Exp, 1, true},
                                             {"select", K::Select, 3, true}};
        for (const Function& f : functions) {
            if (name != f.name || f.element != m_element) continue;
            if (!eat('(')) error("'(' expected after " + name);
            if (!enter()) return 0;
            int args[3] = {top(), -1, -1};
            static const char* const counts[] = {"", "one argument", "two arguments",
                                                 "three arguments"};
            for (int i = 1; i < f.arity; ++i) {
                if (!eat(',')) error("',' expected: " + name + " takes " + counts[f.arity]);
                args[i] = top();
            }
            if (!eat(')')) error("')' expected");
            --m_depth;
            return node(f.kind, start, 0, args[0], args[1], args[2]);
        }
        return -1;
    }

    const std::string& m_source;
    const std::string& m_field;
    bool m_element = false;
    size_t m_position = 0, m_errorAt = 0;
    int m_depth = 0;
    std::string m_error;
    Expr m_expr;
};

Result<Expr> Expr::parse(const std::string& text, const std::string& field) {
    return ExprParser(text, field, false).run();
}

Result<Expr> Expr::parseElement(const std::string& text, const std::string& field) {
    return ExprParser(text, field, true).run();
}

std::string Expr::describe(const std::string& text, const std::string& field) {
    constexpr size_t kShown = 60; // a hostile expression may be megabytes long
    std::string shown = text.size() <= kShown ? text : text.substr(0, kShown) + "...";
    if (field.empty()) return "in the expression \"" + shown + "\"";
    return "in the expression of '" + field + "' (\"" + shown + "\")";
}

Expr Expr::literal(uint64_t value) {
    Expr e;
    e.m_nodes.push_back({Node::Kind::Number, value});
    e.m_text = std::to_string(value);
    return e;
}

uint64_t Expr::evaluate(const ExprVars& vars) const {
    return m_nodes.empty() ? 0 : eval(static_cast<int>(m_nodes.size()) - 1, vars, nullptr);
}

Result<uint64_t> Expr::evaluateChecked(const ExprVars& vars, const std::string& field) const {
    Trouble trouble;
    uint64_t v = m_nodes.empty() ? 0 : eval(static_cast<int>(m_nodes.size()) - 1, vars, &trouble);
    if (trouble.at == 0) return v;
    return Error{ErrorKind::PuzzleFile, std::string(trouble.what) + " " + describe(m_text, field) +
                                            ", column " + std::to_string(trouble.at) + " (" +
                                            (std::string(trouble.what) == "division by zero"
                                                 ? "the divisor is 0"
                                                 : "sizes are whole numbers from 0 to 2^64 - 1") +
                                            " in this case)"};
}

std::vector<std::string> Expr::names() const {
    return m_names;
}

bool Expr::usesN() const {
    for (const Node& n : m_nodes)
        if (n.kind == Node::Kind::N) return true;
    return false;
}

namespace {

// a^b, wrapping like uint64 (by squaring: b may be large).
uint64_t power(uint64_t a, uint64_t b) {
    uint64_t r = 1;
    for (; b; b >>= 1, a *= a)
        if (b & 1) r *= a;
    return r;
}

// Whether a^b passes 2^64 - 1.
bool powerOverflows(uint64_t a, uint64_t b) {
    if (a < 2 || b == 0) return false;
    uint64_t r = 1;
    for (uint64_t k = 0; k < b; ++k) {
        if (r > UINT64_MAX / a) return true;
        r *= a;
    }
    return false;
}

// The least k with base^k >= a: how many levels a blocked algorithm with blocks of `base`
// needs for `a` elements (0 for a <= 1). A base below 2 never gets there: 0, as for a division by
// 0.
uint64_t logCeil(uint64_t base, uint64_t a) {
    if (base < 2) return 0;
    uint64_t k = 0;
    for (uint64_t p = 1; p < a; ++k) {
        if (p > UINT64_MAX / base) return k + 1; // the next power passes every uint64
        p *= base;
    }
    return k;
}

} // namespace

uint64_t Expr::eval(int i, const ExprVars& v, Trouble* trouble) const {
    const Node& n = m_nodes[i];
    auto a = [&] { return eval(n.a, v, trouble); };
    auto b = [&] { return eval(n.b, v, trouble); };
    auto note = [&](bool bad, const char* what) {
        if (bad && trouble && trouble->at == 0) *trouble = {n.at + 1, what};
    };
    // The divisor of Div, Mod and CeilDiv, noting where it is 0 (the result is then 0).
    auto divisor = [&] {
        uint64_t d = b();
        note(d == 0, "division by zero");
        return d;
    };
    constexpr const char* kPast = "a result past 2^64 - 1";
    switch (n.kind) {
    case Node::Kind::Number:
        return n.value;
    case Node::Kind::N:
        return v.n;
    case Node::Kind::WG:
        return v.wg;
    case Node::Kind::Name: {
        if (!v.names) return 0;
        auto it = v.names->find(m_names[n.value]);
        return it == v.names->end() ? 0 : it->second;
    }
    case Node::Kind::Add: {
        uint64_t x = a(), y = b();
        note(x + y < x, kPast);
        return x + y;
    }
    case Node::Kind::Sub: {
        uint64_t x = a(), y = b();
        note(y > x, "a subtraction below 0");
        return x - y;
    }
    case Node::Kind::Mul: {
        uint64_t x = a(), y = b();
        note(x != 0 && y > UINT64_MAX / x, kPast);
        return x * y;
    }
    case Node::Kind::Div: {
        uint64_t d = divisor();
        return d ? a() / d : 0;
    }
    case Node::Kind::Mod: {
        uint64_t d = divisor();
        return d ? a() % d : 0;
    }
    case Node::Kind::CeilDiv: {
        uint64_t d = divisor();
        return d ? (a() + d - 1) / d : 0;
    }
    case Node::Kind::Min:
        return std::min(a(), b());
    case Node::Kind::Max:
        return std::max(a(), b());
    case Node::Kind::Log2Ceil: {
        uint64_t x = a(), r = 0;
        while ((uint64_t(1) << r) < x && r < 63)
            ++r;
        return r;
    }
    case Node::Kind::Pow2Ceil: {
        uint64_t x = a(), p = 1;
        while (p < x && p < (uint64_t(1) << 62))
            p <<= 1;
        return p;
    }
    case Node::Kind::Pow2: {
        uint64_t x = a();
        note(x >= 64, kPast);
        return x < 64 ? uint64_t(1) << x : 0;
    }
    case Node::Kind::Pow: {
        uint64_t x = a(), y = b();
        note(powerOverflows(x, y), kPast);
        return power(x, y);
    }
    case Node::Kind::LogCeil:
        return logCeil(a(), b());
    default: // the per-element dialect's: puzzle/element_expr.cpp evaluates those
        return 0;
    }
}

} // namespace vkp
