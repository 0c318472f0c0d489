#include "puzzle/bench_case.h"

#include <bit>
#include <cmath>
#include <map>

#include "puzzle/passes.h"
#include "puzzle/puzzle_loader.h"
#include "reference/reference_ops.h"

namespace vkp {
namespace {

// Whether an expression changes with the data: it names N, rows or cols, or a constant whose
// expression does (one level: constants are not written in terms of each other).
bool followsN(const Expr& e, const Puzzle& p, const TestCase& c, int depth = 0) {
    if (e.usesN()) return true;
    for (const std::string& name : e.names()) {
        if (isShapeName(name)) return true;
        for (const ConstantDecl& d : p.constants)
            if (d.name == name && depth == 0 && c.constantExprs.count(d.id) &&
                followsN(c.constantExprs.at(d.id), p, c, 1))
                return true;
    }
    return false;
}

uint64_t elementsOf(const Puzzle& p, const TestCase& c) {
    auto first = p.firstInput();
    return first && c.data[*first] ? c.data[*first]->shape.count() : 0;
}

} // namespace

bool launchFollowsN(const Puzzle& p, const TestCase& c) {
    if (p.multiPass()) return true;
    for (const Expr& e : c.workgroupExprs)
        if (followsN(e, p, c)) return true;
    return false;
}

std::optional<std::string> dataFixedAt(const Puzzle& p, const TestCase& c) {
    auto first = p.firstInput();
    if (!first || !c.data[*first]) return p.slug + " has no input buffer to scale";
    if (c.data[*first]->kind == DataSpec::Kind::Values)
        return "'" + p.buffers[*first].name + "' is written out value by value";
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        if (p.buffers[b].role != RoleKind::Output || !c.data[b]) continue;
        const DataSpec& d = *c.data[b];
        if (d.kind == DataSpec::Kind::Op) continue;
        if (d.kind == DataSpec::Kind::Each && !d.shapeGiven) continue; // follows the first input
        return d.kind == DataSpec::Kind::Each
                   ? "the expected '" + p.buffers[b].name + "' has a shape of its own"
                   : "the expected '" + p.buffers[b].name + "' is written out value by value";
    }
    return std::nullopt;
}

bool scalesToAnyN(const Puzzle& p, const TestCase& c) {
    return !c.hidden && !c.own && launchFollowsN(p, c) && !dataFixedAt(p, c);
}

size_t deriveBenchCase(const Puzzle& p) {
    std::optional<size_t> best;
    auto better = [&](size_t i, auto key) { return !best || key(i) >= key(*best); };
    auto groupSize = [&](size_t i) {
        const auto& s = p.cases[i].workgroupSize;
        return uint64_t(s[0]) * s[1] * s[2];
    };
    for (size_t i = 0; i < p.cases.size(); ++i)
        if (scalesToAnyN(p, p.cases[i]) && better(i, groupSize)) best = i;
    if (best) return *best;
    // A fixed launch (one workgroup): its largest run is the benchmark's.
    auto size = [&](size_t i) {
        return std::pair{p.cases[i].threadCount(), elementsOf(p, p.cases[i])};
    };
    for (size_t i = 0; i < p.cases.size(); ++i)
        if (!p.cases[i].hidden && !p.cases[i].own && better(i, size)) best = i;
    return best.value_or(p.cases.empty() ? 0 : p.cases.size() - 1);
}

namespace {

Error sizeError(std::string message) {
    return Error{ErrorKind::Usage, std::move(message)};
}

Result<TestCase> scaledOutputs(const Puzzle& p, TestCase c);

// The first input at N elements: a 1-D input N long; a matrix `cols` wide (the puzzle's
// bench_cols), else as square as N allows, rows the largest divisor of N not above its square
// root (2^20: 1024 x 1024, 2^21: 1024 x 2048), so that rows x cols is N.
Result<Shape> benchShape(const Shape& from, uint64_t n, uint64_t cols, bool square) {
    if (from.dims.size() != 2) return Shape{{n}};
    if (square) { // bench_square: a kernel that reads one SIZE for rows and columns
        uint64_t side = static_cast<uint64_t>(std::sqrt(double(n)));
        while (side * side > n)
            --side;
        while ((side + 1) * (side + 1) <= n)
            ++side;
        // An odd power of two lies between two even ones, which are squares.
        bool power = (n & (n - 1)) == 0;
        if (side * side != n)
            return sizeError(
                "N = " + countText(n) +
                " is not a square, and the puzzle's matrix stays square (its bench_square): "
                "give N as a square, such as " +
                countText(power ? n / 2 : side * side) + " or " +
                countText(power ? n * 2 : (side + 1) * (side + 1)));
        return Shape{{side, side}};
    }
    if (cols) {
        if (n % cols != 0)
            return sizeError("N = " + std::to_string(n) + " is not a whole number of rows of " +
                             std::to_string(cols) + " columns (the puzzle's bench_cols)");
        return Shape{{n / cols, cols}};
    }
    uint64_t rows = static_cast<uint64_t>(std::sqrt(double(n)));
    while (rows * rows > n)
        --rows;
    while (rows > 1 && n % rows != 0)
        --rows;
    return Shape{{rows, n / rows}};
}

// The template case re-sized for N: the first input's fill at length N, scratch from its size
// expression, workgroup counts and constants re-evaluated. A fixed launch is run as it is.
} // namespace

Result<TestCase> caseAtSize(const Puzzle& p, size_t templateCase, uint64_t n) {
    if (templateCase >= p.cases.size())
        return sizeError("case " + std::to_string(templateCase + 1) + " does not exist");
    TestCase c = p.cases[templateCase];
    if (!launchFollowsN(p, c)) return c; // a fixed launch runs as it is
    if (auto fixed = dataFixedAt(p, c))
        return sizeError("case " + std::to_string(templateCase + 1) + " of " + p.slug +
                         " cannot be generated at another N: " + *fixed +
                         "; a benchmark needs a generated fill (iota, constant, random or "
                         "each) and expected outputs from a reference op or `each`: pick "
                         "another case with --case, or name one with bench_case");
    auto first = p.firstInput();
    DataSpec& in = *c.data[*first];
    auto scaled = benchShape(in.shape, n, p.benchCols, p.benchSquare);
    if (!scaled) return scaled.error();
    in.shape = *scaled;
    if (auto s = evaluateShapeExprs(p, c); !s) // inputs that follow the first (matmul's b)
        return sizeError("at N = " + std::to_string(n) + ": " + s.error().message);
    ExprVars vars{n, c.workgroupSize[0]};
    std::map<std::string, uint64_t> shape; // rows, cols
    addShapeNames(p, c, shape);
    vars.names = &shape;
    for (auto& [id, e] : c.constantExprs)
        c.constants[id] = static_cast<uint32_t>(e.evaluate(vars));
    std::map<std::string, uint64_t> names;
    for (const ConstantDecl& d : p.constants)
        names[d.name] = c.constants[d.id];
    addShapeNames(p, c, names);
    vars.names = &names;
    for (size_t b = 0; b < p.buffers.size(); ++b)
        if (p.buffers[b].size) c.data[b] = sizedScratch(*p.buffers[b].size, vars);
    if (p.multiPass()) return scaledOutputs(p, c);
    for (int d = 0; d < 3; ++d) {
        uint64_t w = c.workgroupExprs[d].evaluate(vars);
        if (w < 1 || w > UINT32_MAX)
            return sizeError("at N = " + std::to_string(n) + " the workgroup count \"" +
                             c.workgroupExprs[d].text() + "\" is " + std::to_string(w));
        c.workgroups[d] = static_cast<uint32_t>(w);
    }
    return scaledOutputs(p, c);
}

namespace {

// Where an op's arguments no longer fit at N: the inputs that kept a shape of numbers while the
// first input grew, which is usually why ("; 'b' keeps its shape [1024] ...").
std::string fixedBesideFirst(const Puzzle& p, const TestCase& c) {
    std::string out;
    for (size_t b = 0; b < p.buffers.size(); ++b)
        if (p.buffers[b].role == RoleKind::Input && b != *p.firstInput() && c.data[b] &&
            c.data[b]->shapeExprs.empty())
            out += "; '" + p.buffers[b].name + "' keeps its shape " + c.data[b]->shape.str() +
                   " at any N: to follow the first input, write it as [\"N\"] (or [\"rows\", "
                   "\"cols\"])";
    return out;
}

// The expected outputs' shapes for the scaled inputs.
Result<TestCase> scaledOutputs(const Puzzle& p, TestCase c) {
    for (size_t b = 0; b < p.buffers.size(); ++b) {
        const BufferDecl& decl = p.buffers[b];
        if (decl.role != RoleKind::Output) continue;
        if (c.data[b]->kind == DataSpec::Kind::Each && !c.data[b]->shapeGiven) {
            c.data[b]->shape = c.data[*p.firstInput()]->shape; // follows the scaled input
            continue;
        }
        if (c.data[b]->kind != DataSpec::Kind::Op) continue; // an `each` of its own shape
        std::vector<Shape> shapes;
        for (size_t a : c.data[b]->args)
            shapes.push_back(c.data[a]->shape);
        auto shape = referenceOpShape(c.data[b]->op, shapes, c.data[b]->params);
        if (!shape) return sizeError(shape.error().message + fixedBesideFirst(p, c));
        c.data[b]->shape = *shape;
    }
    return c;
}

} // namespace

Result<uint64_t> parseCount(const std::string& text) {
    auto number = [](const std::string& s) -> std::optional<uint64_t> {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 12)
            return std::nullopt;
        return std::stoull(s);
    };
    size_t caret = text.find('^'), shift = text.find("<<");
    std::optional<uint64_t> v;
    if (caret != std::string::npos) {
        auto base = number(text.substr(0, caret)), exp = number(text.substr(caret + 1));
        if (base == 2u && exp && *exp < 40) v = uint64_t(1) << *exp;
    } else if (shift != std::string::npos) {
        auto a = number(text.substr(0, shift)), b = number(text.substr(shift + 2));
        if (a && b && *b < 40) v = *a << *b;
    } else {
        v = number(text);
    }
    if (!v || *v == 0 || *v > kMaxBufferElements)
        return Error{
            ErrorKind::Usage,
            "--n needs an element count from 1 to 2^28, written as 2^K, A<<B or a number, not '" +
                text + "'"};
    return *v;
}

std::string countText(uint64_t n) {
    if (n == 0 || (n & (n - 1)) != 0) return std::to_string(n);
    return "2^" + std::to_string(std::countr_zero(n));
}

} // namespace vkp
