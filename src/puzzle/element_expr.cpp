#include "puzzle/element_expr.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

namespace vkp {
namespace {

using K = Expr::Node::Kind;

// A Name or Index node, resolved against the scope once per buffer.
struct Binding {
    enum class Kind { None, Index, Count, Row, Col, Rows, Cols, Value, Buffer };
    Kind kind = Kind::None;
    uint64_t value = 0;                 // Value: a constant
    const BufferData* buffer = nullptr; // Buffer
};

Binding::Kind variable(const std::string& name) {
    static const std::pair<const char*, Binding::Kind> vars[] = {
        {"i", Binding::Kind::Index}, {"n", Binding::Kind::Count},   {"r", Binding::Kind::Row},
        {"c", Binding::Kind::Col},   {"rows", Binding::Kind::Rows}, {"cols", Binding::Kind::Cols}};
    for (const auto& [text, kind] : vars)
        if (name == text) return kind;
    return Binding::Kind::None;
}

std::string numberText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// Evaluates in T: double for float buffers, int32_t or uint32_t (wrapping like the GPU) else.
template <class T> class Evaluator {
  public:
    Evaluator(const Expr& e, const ElementScope& s) : m_expr(e), m_scope(s) {}

    // Binds every name; an error names the column.
    bool resolve() {
        const auto& nodes = m_expr.nodes();
        m_bindings.resize(nodes.size());
        for (size_t k = 0; k < nodes.size() && m_error.empty(); ++k)
            resolveNode(nodes[k], m_bindings[k]);
        return m_error.empty();
    }
    // The value at element i (row r, column c); false on an error.
    bool at(uint64_t i, uint64_t r, uint64_t c, const Shape& shape, T& out) {
        m_i = i;
        m_r = r;
        m_c = c;
        m_shape = &shape;
        out = eval(static_cast<int>(m_expr.nodes().size()) - 1);
        return m_error.empty();
    }
    const std::string& error() const { return m_error; }
    uint32_t errorColumn() const { return m_errorAt + 1; }

  private:
    static constexpr bool kFloat = std::is_same_v<T, double>;

    void fail(const Expr::Node& n, std::string message) {
        if (!m_error.empty()) return;
        m_error = std::move(message);
        m_errorAt = n.at;
    }
    void resolveNode(const Expr::Node& n, Binding& b) {
        if (n.kind == K::Name) return resolveName(n, b);
        if (n.kind == K::Index) return resolveBuffer(n, b);
        if constexpr (!kFloat) {
            if (n.kind == K::Sqrt || n.kind == K::Exp)
                fail(n, std::string(n.kind == K::Sqrt ? "sqrt" : "exp") +
                            " needs float values; this buffer holds " + typeName());
            if (n.kind == K::Real && std::floor(real(n)) != real(n))
                fail(n, numberText(real(n)) + " is not a whole number; this buffer holds " +
                            typeName());
        }
    }
    void resolveName(const Expr::Node& n, Binding& b) {
        const std::string& name = m_expr.name(n.value);
        if ((b.kind = variable(name)) != Binding::Kind::None) return;
        if (auto it = m_scope.constants.find(name); it != m_scope.constants.end()) {
            b = {Binding::Kind::Value, it->second, nullptr};
            return;
        }
        if (m_scope.buffers.count(name) || m_scope.unreadable.count(name))
            return fail(n, "'" + name + "' is a buffer: read one element, " + name + "[i]");
        fail(n, "unknown name '" + name +
                    "' (known: i, n, r, c, rows, cols, N, WG, the case's constants, and the "
                    "puzzle's buffers as a[i] or m[r, c])");
    }
    void resolveBuffer(const Expr::Node& n, Binding& b) {
        const std::string& name = m_expr.name(n.value);
        if (m_scope.unreadable.count(name))
            return fail(n, "'" + name +
                               "' cannot be read here: an input's values come from i, "
                               "n, r, c, rows, cols, N, WG and the constants");
        auto it = m_scope.buffers.find(name);
        if (it == m_scope.buffers.end())
            return fail(n, "'" + name + "' is not a buffer of this puzzle; only buffers take [ ]");
        if (n.b >= 0 && it->second->shape.dims.size() != 2)
            return fail(n, "'" + name + "' is 1-D " + it->second->shape.str() + ": read it as " +
                               name + "[i]");
        b = {Binding::Kind::Buffer, 0, it->second};
    }
    static const char* typeName() { return std::is_same_v<T, int32_t> ? "int" : "uint"; }
    static double real(const Expr::Node& n) {
        double d;
        std::memcpy(&d, &n.value, sizeof d);
        return d;
    }
    static T fromInteger(uint64_t v) {
        if constexpr (kFloat)
            return static_cast<double>(v);
        else
            return static_cast<T>(static_cast<uint32_t>(v));
    }
    static T fromDouble(double v) {
        if constexpr (kFloat)
            return v;
        else
            return static_cast<T>(toWord(ElementKind::Uint, std::isfinite(v) ? v : 0.0));
    }
    static bool truthy(T v) { return v != T{}; }
    static T wrap(uint32_t v) { return static_cast<T>(v); }

    T eval(int k) {
        const Expr::Node& n = m_expr.nodes()[k];
        if (!m_error.empty()) return T{};
        switch (n.kind) {
        case K::Number:
            return fromInteger(n.value);
        case K::Real:
            return fromDouble(real(n));
        case K::N:
            return fromInteger(m_scope.n);
        case K::WG:
            return fromInteger(m_scope.wg);
        case K::Name:
            return name(m_bindings[k]);
        case K::Index:
            return element(n, m_bindings[k]);
        case K::Select:
            return truthy(eval(n.a)) ? eval(n.b) : eval(n.c);
        case K::And:
            return T(truthy(eval(n.a)) && truthy(eval(n.b)));
        case K::Or:
            return T(truthy(eval(n.a)) || truthy(eval(n.b)));
        case K::Not:
            return T(!truthy(eval(n.a)));
        default:
            return arithmetic(n);
        }
    }
    T name(const Binding& b) const {
        switch (b.kind) {
        case Binding::Kind::Index:
            return fromInteger(m_i);
        case Binding::Kind::Count:
            return fromInteger(m_shape->count());
        case Binding::Kind::Row:
            return fromInteger(m_r);
        case Binding::Kind::Col:
            return fromInteger(m_c);
        case Binding::Kind::Rows:
            return fromInteger(m_shape->rows());
        case Binding::Kind::Cols:
            return fromInteger(m_shape->cols());
        case Binding::Kind::Value:
            return fromInteger(b.value);
        default:
            return T{};
        }
    }
    // An index as a whole number in [0, size), else an error naming it.
    std::optional<uint64_t> index(const Expr::Node& n, int operand, uint64_t size,
                                  const std::string& what) {
        T v = eval(operand);
        if (!m_error.empty()) return std::nullopt;
        double d = static_cast<double>(v);
        if (d >= 0 && d < static_cast<double>(size) && std::floor(d) == d)
            return static_cast<uint64_t>(d);
        const std::string& buffer = m_expr.name(n.value);
        if (std::floor(d) != d)
            fail(n, what + " " + numberText(d) + " into '" + buffer + "' is not a whole number");
        else
            fail(n, what + " " + numberText(d) + " is outside '" + buffer + "' (it has " +
                        std::to_string(size) + " " + (what == "index" ? "element" : what) +
                        (size == 1 ? ")" : "s)"));
        return std::nullopt;
    }
    T element(const Expr::Node& n, const Binding& b) {
        const BufferData& buf = *b.buffer;
        uint64_t flat = 0;
        if (n.b < 0) {
            auto i = index(n, n.a, buf.shape.count(), "index");
            if (!i) return T{};
            flat = *i;
        } else {
            auto r = index(n, n.a, buf.shape.rows(), "row");
            auto c = r ? index(n, n.b, buf.shape.cols(), "column") : std::nullopt;
            if (!c) return T{};
            flat = *r * buf.shape.cols() + *c;
        }
        if (kFloat || buf.type == ElementKind::Float) return fromDouble(buf.get(flat));
        return wrap(buf.words[flat]); // int and uint: the bit pattern, as uint(x) and int(x)
    }
    T arithmetic(const Expr::Node& n) {
        T a = eval(n.a);
        T b = n.b >= 0 ? eval(n.b) : T{};
        if (!m_error.empty()) return T{};
        auto u = [](T x) { return static_cast<uint32_t>(x); };
        switch (n.kind) {
        case K::Add:
            if constexpr (kFloat)
                return a + b;
            else
                return wrap(u(a) + u(b));
        case K::Sub:
            if constexpr (kFloat)
                return a - b;
            else
                return wrap(u(a) - u(b));
        case K::Mul:
            if constexpr (kFloat)
                return a * b;
            else
                return wrap(u(a) * u(b));
        case K::Neg:
            if constexpr (kFloat)
                return -a;
            else
                return wrap(0u - u(a));
        case K::Div:
        case K::Mod:
            return divide(n, a, b);
        case K::Lt:
            return T(a < b);
        case K::Le:
            return T(a <= b);
        case K::Gt:
            return T(a > b);
        case K::Ge:
            return T(a >= b);
        case K::Eq:
            return T(a == b);
        case K::Ne:
            return T(a != b);
        case K::Min:
            return std::min(a, b);
        case K::Max:
            return std::max(a, b);
        case K::Abs:
            if constexpr (kFloat)
                return std::fabs(a);
            else
                return a < T{} ? wrap(0u - u(a)) : a;
        case K::Floor:
            if constexpr (kFloat)
                return std::floor(a);
            else
                return a;
        case K::Sqrt:
            if constexpr (kFloat)
                return std::sqrt(a);
            else
                return a; // refused by resolve()
        case K::Exp:
            if constexpr (kFloat)
                return std::exp(a);
            else
                return a;
        default:
            fail(n, "this function is for sizes (workgroups, constants), not for values");
            return T{};
        }
    }
    // Division truncates toward zero (float: exact); % keeps the dividend's sign (float: fmod).
    T divide(const Expr::Node& n, T a, T b) {
        if (b == T{}) {
            fail(n, "division by zero");
            return T{};
        }
        bool div = n.kind == K::Div;
        if constexpr (kFloat) {
            return div ? a / b : std::fmod(a, b);
        } else if constexpr (std::is_same_v<T, int32_t>) {
            if (a == INT32_MIN && b == -1) return div ? a : 0; // wraps, as on the GPU
            return div ? a / b : a % b;
        } else {
            return div ? a / b : a % b;
        }
    }

    const Expr& m_expr;
    const ElementScope& m_scope;
    std::vector<Binding> m_bindings; // per node
    uint64_t m_i = 0, m_r = 0, m_c = 0;
    const Shape* m_shape = nullptr;
    std::string m_error;
    uint32_t m_errorAt = 0;
};

std::string elementText(const Shape& shape, uint64_t i, uint64_t r, uint64_t c) {
    if (shape.dims.size() == 2)
        return "[" + std::to_string(r) + ", " + std::to_string(c) + "] (r = " + std::to_string(r) +
               ", c = " + std::to_string(c) + ")";
    return "[" + std::to_string(i) + "] (i = " + std::to_string(i) + ")";
}

template <class T>
Result<BufferData> fillWith(const Expr& e, const Shape& shape, const ElementScope& scope,
                            const std::string& field) {
    Evaluator<T> ev(e, scope);
    auto error = [&](const std::string& at) {
        return Error{ErrorKind::PuzzleFile, Expr::describe(e.text(), field) + ", column " +
                                                std::to_string(ev.errorColumn()) + ": " +
                                                ev.error() + at};
    };
    if (!ev.resolve()) return error("");
    BufferData out = BufferData::zeros(scope.type, shape);
    uint64_t cols = std::max<uint64_t>(1, shape.cols());
    for (uint64_t i = 0; i < out.words.size(); ++i) {
        T v{};
        uint64_t r = shape.dims.size() == 2 ? i / cols : 0,
                 c = shape.dims.size() == 2 ? i % cols : i;
        if (!ev.at(i, r, c, shape, v)) return error(", at element " + elementText(shape, i, r, c));
        if constexpr (std::is_same_v<T, double>)
            out.set(i, v);
        else
            out.words[i] = static_cast<uint32_t>(v);
    }
    return out;
}

} // namespace

Result<BufferData> evaluateEach(const Expr& e, const Shape& shape, const ElementScope& scope,
                                const std::string& field) {
    switch (scope.type) {
    case ElementKind::Float:
        return fillWith<double>(e, shape, scope, field);
    case ElementKind::Int:
        return fillWith<int32_t>(e, shape, scope, field);
    case ElementKind::Uint:
        return fillWith<uint32_t>(e, shape, scope, field);
    }
    return fillWith<double>(e, shape, scope, field);
}

} // namespace vkp
