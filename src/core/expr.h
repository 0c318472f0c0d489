// Integer expressions in puzzle files, for sizes that follow a case's data: workgroup counts,
// constants and scratch-buffer sizes written as e.g. "ceil_div(N, WG * 4)".
// Names: N (element count of the puzzle's first input in the case), WG (the case's workgroup
// size in x), and the puzzle's constants by name (in workgroup counts and sizes). Operators:
// + - * / % (integer), parentheses. Functions: ceil_div(a, b), min(a, b), max(a, b),
// log2ceil(a), pow2ceil(a), pow2(a) = 2^a, pow(a, b) = a^b, logceil(b, a) = the least k with
// b^k >= a (how many times a blocked algorithm must recurse). In a multi-pass puzzle's passes,
// `i` is the repetition index (0, 1, ...) of a repeated pass.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"

namespace vkp {

struct ExprVars {
    uint64_t n = 0;
    uint64_t wg = 1;
    const std::map<std::string, uint64_t>* names = nullptr; // constants; an unknown name is 0
};

class Expr {
  public:
    // Parses `text`; the error message names the column (1-based) of the problem.
    static Result<Expr> parse(const std::string& text);
    static Expr literal(uint64_t value);

    // Division by zero gives 0; results wrap like uint64.
    uint64_t evaluate(const ExprVars& vars) const;
    bool usesN() const;
    std::vector<std::string> names() const; // names other than N and WG it uses
    const std::string& text() const { return m_text; }

    struct Node {
        enum class Kind { Number, N, WG, Name, Add, Sub, Mul, Div, Mod, CeilDiv, Min, Max, Log2Ceil, Pow2Ceil, Pow2, Pow, LogCeil };
        Kind kind = Kind::Number;
        uint64_t value = 0;
        int a = -1, b = -1; // operand node indices
    };

  private:
    uint64_t eval(int node, const ExprVars& v) const;
    std::vector<Node> m_nodes; // the root is the last node
    std::vector<std::string> m_names; // Name nodes: value indexes this
    std::string m_text;
    friend class ExprParser;
};

} // namespace vkp
