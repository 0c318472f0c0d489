// Per-element expressions (`each`): the dialect's syntax, float and 32-bit integer arithmetic,
// reading buffers by index, and errors that name the column and the element.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "puzzle/element_expr.h"

namespace vkp {
namespace {

BufferData buffer(ElementKind type, std::vector<uint64_t> dims, const std::vector<double>& v) {
    BufferData b = BufferData::zeros(type, Shape{std::move(dims)});
    for (size_t i = 0; i < v.size() && i < b.words.size(); ++i)
        b.set(i, v[i]);
    return b;
}

std::vector<double> values(const BufferData& b) {
    std::vector<double> v;
    for (uint64_t i = 0; i < b.words.size(); ++i)
        v.push_back(b.get(i));
    return v;
}

// The values of `text` over a buffer of `dims` and `type`, reading `scope`'s buffers.
std::vector<double> each(const std::string& text, std::vector<uint64_t> dims,
                         ElementKind type = ElementKind::Float, ElementScope scope = {}) {
    auto e = Expr::parseElement(text);
    EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().message);
    if (!e) return {};
    scope.type = type;
    auto b = evaluateEach(*e, Shape{std::move(dims)}, scope);
    EXPECT_TRUE(b.ok()) << text << ": " << (b.ok() ? "" : b.error().message);
    return b ? values(*b) : std::vector<double>{};
}

// The error message of evaluating `text`.
std::string eachError(const std::string& text, std::vector<uint64_t> dims,
                      ElementKind type = ElementKind::Float, ElementScope scope = {}) {
    auto e = Expr::parseElement(text);
    if (!e) return e.error().message;
    scope.type = type;
    auto b = evaluateEach(*e, Shape{std::move(dims)}, scope);
    EXPECT_FALSE(b.ok()) << text << " was accepted";
    return b ? "" : b.error().message;
}

using V = std::vector<double>;
constexpr auto kInt = ElementKind::Int;
constexpr auto kUint = ElementKind::Uint;

TEST(ElementExpr, IndexVariablesIn1D) {
    EXPECT_EQ(each("i", {4}), (V{0, 1, 2, 3}));
    EXPECT_EQ(each("n - 1 - i", {4}), (V{3, 2, 1, 0}));
    EXPECT_EQ(each("(i * 7) % 5 - 2", {6}, kInt), (V{-2, 0, 2, -1, 1, -2}));
    EXPECT_EQ(each("r * 10 + c + rows * 100 + cols * 1000", {3}), (V{3100, 3101, 3102}));
}

TEST(ElementExpr, RowsAndColumnsIn2D) {
    EXPECT_EQ(each("r * 10 + c", {2, 3}), (V{0, 1, 2, 10, 11, 12}));
    EXPECT_EQ(each("i + n", {2, 2}), (V{4, 5, 6, 7}));
    EXPECT_EQ(each("rows * 10 + cols", {2, 3}), (V(6, 23)));
}

TEST(ElementExpr, FloatArithmetic) {
    EXPECT_EQ(each("i / 2", {3}), (V{0, 0.5, 1}));
    EXPECT_EQ(each("-i + 0.25", {2}), (V{0.25, -0.75}));
    EXPECT_EQ(each("i % 2.5", {4}), (V{0, 1, 2, 0.5}));
    EXPECT_EQ(each("1.5e1 + floor(2.7) + abs(-1) + min(i, 1) + max(i, 1)", {2}), (V{19, 20}));
    V roots = each("sqrt(i) + exp(0)", {2});
    ASSERT_EQ(roots.size(), 2u);
    EXPECT_FLOAT_EQ(roots[1], 2.0f);
}

TEST(ElementExpr, IntegerDivisionTruncatesAndWraps) {
    EXPECT_EQ(each("(i - 3) / 2", {7}, kInt), (V{-1, -1, 0, 0, 0, 1, 1}));
    EXPECT_EQ(each("(i - 3) % 2", {7}, kInt), (V{-1, 0, -1, 0, 1, 0, 1}));
    EXPECT_EQ(each("7 / 2 + 0 - 1", {1}, kUint), (V{2}));
    EXPECT_EQ(each("0 - 1", {1}, kUint), (V{4294967295.0}));
    EXPECT_EQ(each("2147483647 + 1", {1}, kInt), (V{-2147483648.0}));
    EXPECT_EQ(each("-2147483647 - 1 - 1", {1}, kInt), (V{2147483647}));
    EXPECT_EQ(each("abs(i - 2)", {4}, kInt), (V{2, 1, 0, 1}));
    EXPECT_EQ(each("4.0 / 2", {1}, kInt), (V{2}));
}

TEST(ElementExpr, ComparisonsConditionsAndSelect) {
    EXPECT_EQ(each("i < 2", {4}), (V{1, 1, 0, 0}));
    EXPECT_EQ(each("i >= 2 && i != 3", {4}), (V{0, 0, 1, 0}));
    EXPECT_EQ(each("i == 0 || !(i <= 2)", {4}), (V{1, 0, 0, 1}));
    EXPECT_EQ(each("i % 2 == 0 ? i : -i", {4}, kInt), (V{0, -1, 2, -3}));
    EXPECT_EQ(each("select(i > 1, 10, 20)", {3}), (V{20, 20, 10}));
    EXPECT_EQ(each("i < 1 ? 0 : i < 2 ? 1 : 2", {3}), (V{0, 1, 2})); // right to left
    // Signed and unsigned compare as their type: -1 is less than 0 as an int only.
    EXPECT_EQ(each("0 - 1 < 0", {1}, kInt), (V{1}));
    EXPECT_EQ(each("0 - 1 < 0", {1}, kUint), (V{0}));
}

TEST(ElementExpr, ReadsBuffersByIndex) {
    BufferData a = buffer(ElementKind::Float, {4}, {1.5, 2, 3, 4});
    BufferData m = buffer(kInt, {2, 3}, {1, 2, 3, 4, 5, 6});
    ElementScope s;
    s.buffers = {{"a", &a}, {"m", &m}};
    EXPECT_EQ(each("a[n - 1 - i] * 2", {4}, ElementKind::Float, s), (V{8, 6, 4, 3}));
    EXPECT_EQ(each("m[c, r]", {3, 2}, kInt, s), (V{1, 4, 2, 5, 3, 6})); // a transpose
    EXPECT_EQ(each("m[i]", {6}, kInt, s), (V{1, 2, 3, 4, 5, 6}));       // flat
    EXPECT_EQ(each("a[i]", {4}, kInt, s), (V{1, 2, 3, 4}));             // 1.5 truncates to 1
    // The branch not taken is not evaluated: the guard keeps a[i - 1] inside.
    EXPECT_EQ(each("i > 0 ? a[i - 1] : 0", {4}, ElementKind::Float, s), (V{0, 1.5, 2, 3}));
}

TEST(ElementExpr, CaseNamesAndConstants) {
    ElementScope s;
    s.n = 100;
    s.wg = 8;
    s.constants = {{"ITEMS", 4}};
    EXPECT_EQ(each("N + WG * ITEMS + i", {2}, kUint, s), (V{132, 133}));
}

TEST(ElementExpr, ErrorsNameTheColumnAndTheElement) {
    BufferData a = buffer(ElementKind::Float, {4}, {1, 2, 3, 4});
    BufferData m = buffer(ElementKind::Float, {2, 2}, {1, 2, 3, 4});
    ElementScope s;
    s.buffers = {{"a", &a}, {"m", &m}};
    s.unreadable = {"b"};
    struct Row {
        std::string text;
        const char* message;
        ElementKind type = ElementKind::Float;
        std::vector<uint64_t> dims = {4};
    } rows[] = {
        {"a[i + 1]",
         "column 1: index 4 is outside 'a' (it has 4 elements), at element [3] (i = 3)"},
        {"2 * a[i - 1]", "column 5: index -1 is outside 'a' (it has 4 elements), at element [0]"},
        {"a[i / 2]", "column 1: index 0.5 into 'a' is not a whole number, at element [1]"},
        {"m[c, r + 1]",
         "column 1: column 2 is outside 'm' (it has 2 columns), at element [1, 0] (r = 1, c = 0)",
         ElementKind::Float,
         {2, 2}},
        {"m[2, 0]", "row 2 is outside 'm' (it has 2 rows)"},
        {"a[0, 0]", "column 1: 'a' is 1-D [4]: read it as a[i]"},
        {"1 / (i - 2)", "column 3: division by zero, at element [2]", kInt},
        {"i % 0", "column 3: division by zero", ElementKind::Float},
        {"x + 1", "column 1: unknown name 'x'"},
        {"q[i]", "'q' is not a buffer of this puzzle"},
        {"1 + a", "column 5: 'a' is a buffer: read one element, a[i]"},
        {"b[i]", "column 1: 'b' cannot be read here"},
        {"sqrt(i)", "column 1: sqrt needs float values; this buffer holds int", kInt},
        {"i * 0.5", "column 5: 0.5 is not a whole number; this buffer holds uint", kUint},
    };
    for (const Row& r : rows) {
        std::string message = eachError(r.text, r.dims, r.type, s);
        EXPECT_NE(message.find(r.message), std::string::npos) << r.text << ": " << message;
        EXPECT_NE(message.find("in the expression of 'each' (\"" + r.text + "\")"),
                  std::string::npos)
            << message;
    }
}

TEST(ElementExpr, SyntaxErrorsNameTheColumn) {
    struct Row {
        const char* text;
        const char* message;
    } rows[] = {
        {"a[i", "column 4: ']' expected"},
        {"i < 2 ? 1", "column 10: ':' expected"},
        {"select(i, 1)", "column 12: ',' expected: select takes three arguments"},
        {"i +", "column 4: a number, a name, a function or '(' expected"},
        {"ceil_div(i, 2)", "column 9: unexpected '('"}, // the size dialect's functions are not here
    };
    for (const Row& r : rows) {
        auto e = Expr::parseElement(r.text, "each");
        ASSERT_FALSE(e.ok()) << r.text;
        EXPECT_NE(e.error().message.find(r.message), std::string::npos)
            << r.text << ": " << e.error().message;
    }
}

// The per-element dialect is bounded like the size dialect: unary signs and conditions nest.
TEST(ElementExpr, HostileInputIsBounded) {
    for (const std::string& text : {std::string(100000, '-') + "1", std::string(100000, '!') + "1",
                                    std::string(50000, '(') + "1", [] {
                                        std::string s;
                                        for (int k = 0; k < 20000; ++k)
                                            s += "i ? ";
                                        return s + "1";
                                    }()}) {
        auto e = Expr::parseElement(text, "each");
        ASSERT_FALSE(e.ok());
        EXPECT_NE(e.error().message.find("nests deeper than 64 levels"), std::string::npos)
            << e.error().message;
    }
    std::string chain = "i";
    for (int k = 0; k < 100000; ++k)
        chain += " < 1 || i";
    auto e = Expr::parseElement(chain);
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("more than 512"), std::string::npos) << e.error().message;
}

// The size dialect is unchanged: what only the per-element dialect reads is an error there.
TEST(ElementExpr, SizeExpressionsStayIntegerOnly) {
    for (const char* text : {"1.5", "-N", "N < 2", "a[0]", "N ? 1 : 2", "abs(N)"}) {
        EXPECT_FALSE(Expr::parse(text, "workgroups").ok()) << text;
    }
    EXPECT_EQ(Expr::parse("ceil_div(N, WG)")->evaluate({100, 8}), 13u);
}

} // namespace
} // namespace vkp
