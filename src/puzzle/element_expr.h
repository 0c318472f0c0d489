// Per-element expressions of a case's data, evaluated on the CPU: `each = "a[n - 1 - i] * 2"`
// for an expected output (or an input: `each = "(i * 7) % 5 - 2"`). Parsed by
// Expr::parseElement (puzzle/expr.h); documented in docs/puzzle-format.md, "Per-element values".
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "base/result.h"
#include "puzzle/expr.h"
#include "reference/buffer_data.h"

namespace vkp {

// What an expression may read while filling one buffer of one case.
struct ElementScope {
    ElementKind type = ElementKind::Float; // the arithmetic: double, or 32-bit int or uint
    uint64_t n = 0;                        // N: the element count of the puzzle's first input
    uint64_t wg = 1;                       // WG: the case's workgroup size in x
    std::map<std::string, uint64_t> constants;
    std::map<std::string, const BufferData*> buffers; // readable by name: a[i], m[r, c]
    // Buffers of the puzzle that this expression may not read (an input's `each` reads none),
    // named in the error instead of "unknown name".
    std::set<std::string> unreadable;
};

// A buffer of `shape` whose element i is `e` with i (the flat index), n (the element count),
// r, c (row and column; 1-D: r = 0, c = i), rows and cols. Errors (an unknown name, an index
// outside a buffer, a division by zero) name the column in the expression and, when it depends
// on one, the element: "..., column 3: index 8 is outside 'a' (8 elements), at element [0]".
Result<BufferData> evaluateEach(const Expr& e, const Shape& shape, const ElementScope& scope,
                                const std::string& field = "each");

} // namespace vkp
