// Integer expressions in puzzle files, for sizes that follow a case's data: workgroup counts,
// constants and scratch-buffer sizes written as e.g. "ceil_div(N, WG * 4)".
// Names: N (element count of the puzzle's first input in the case), WG (the case's workgroup
// size in x), and the puzzle's constants by name (in workgroup counts and sizes). Operators:
// + - * / % (integer), parentheses. Functions: ceil_div(a, b), min(a, b), max(a, b),
// log2ceil(a), pow2ceil(a), pow2(a) = 2^a, pow(a, b) = a^b, logceil(b, a) = the least k with
// b^k >= a (how many times a blocked algorithm must recurse). In a multi-pass puzzle's passes,
// `i` is the repetition index (0, 1, ...) of a repeated pass and `lap` the index of the run of
// all passes ([laps]).
//
// The same parser reads the per-element expressions of a case's data (`each = "a[n - 1 - i]"`,
// Expr::parseElement): that dialect adds decimal numbers, unary minus and '!', comparisons,
// && and ||, `c ? a : b`, indexing of buffers (`a[i]`, `m[r, c]`) and the functions abs, floor,
// sqrt, exp, select(c, a, b). puzzle/element_expr.h evaluates it; evaluate() here is for sizes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace vkp {

struct ExprVars {
    uint64_t n = 0;
    uint64_t wg = 1;
    const std::map<std::string, uint64_t>* names = nullptr; // constants; an unknown name is 0
};

// Limits that keep a hostile puzzle file from overflowing the stack: parsing and evaluating
// recurse once per nesting level and once per operator of a chain.
inline constexpr int kMaxExprDepth = 64;     // parentheses and function calls inside each other
inline constexpr size_t kMaxExprNodes = 512; // numbers, names and operators in all

class Expr {
  public:
    // Parses `text`; the error message names the column (1-based) of the problem and, when
    // given, the puzzle field the expression is written in ("workgroups").
    static Result<Expr> parse(const std::string& text, const std::string& field = {});
    // The per-element dialect (see the top of this file), for puzzle/element_expr.h.
    static Result<Expr> parseElement(const std::string& text, const std::string& field = {});
    static Expr literal(uint64_t value);

    // Division by zero gives 0; results wrap like uint64.
    uint64_t evaluate(const ExprVars& vars) const;
    // The same, but a division (or %, ceil_div) by zero, a subtraction below 0 and a result past
    // 2^64 - 1 (+, *, pow, pow2) are errors naming their column: a puzzle file whose sizes wrap in
    // one of its cases has a bug its author must see.
    Result<uint64_t> evaluateChecked(const ExprVars& vars, const std::string& field = {}) const;
    bool usesN() const;
    std::vector<std::string> names() const; // names other than N and WG it uses
    const std::string& text() const { return m_text; }

    struct Node {
        enum class Kind {
            Number,
            N,
            WG,
            Name,
            Add,
            Sub,
            Mul,
            Div,
            Mod,
            CeilDiv,
            Min,
            Max,
            Log2Ceil,
            Pow2Ceil,
            Pow2,
            Pow,
            LogCeil,
            // The per-element dialect only:
            Real,  // value holds the double's bits
            Index, // value indexes names(); a = the index, b = the column index of m[r, c] or -1
            Neg,
            Not,
            Lt,
            Le,
            Gt,
            Ge,
            Eq,
            Ne,
            And,
            Or,
            Select, // a ? b : c, select(a, b, c)
            Abs,
            Floor,
            Sqrt,
            Exp
        };
        Kind kind = Kind::Number;
        uint64_t value = 0;
        int a = -1, b = -1; // operand node indices
        uint32_t at = 0;    // 0-based column of the operator or operand in the text
        int c = -1;         // the third operand (Select)
    };

    const std::vector<Node>& nodes() const { return m_nodes; }     // the root is the last node
    const std::string& name(size_t i) const { return m_names[i]; } // of a Name or Index node

    // "the expression in 'field' ("text")", the text cut short when it is long.
    static std::string describe(const std::string& text, const std::string& field);

  private:
    // The first operation that has no uint64 result: its column and what went wrong.
    struct Trouble {
        size_t at = 0; // 1 + the column; 0: none
        const char* what = "";
    };
    // `trouble`, when given, receives the first one (the result is then not the true value).
    uint64_t eval(int node, const ExprVars& v, Trouble* trouble) const;
    std::vector<Node> m_nodes;        // the root is the last node
    std::vector<std::string> m_names; // Name nodes: value indexes this
    std::string m_text;
    friend class ExprParser;
};

} // namespace vkp
