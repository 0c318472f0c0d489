#include "puzzle/bench_case.h"

#include "puzzle/passes.h"

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

} // namespace vkp
