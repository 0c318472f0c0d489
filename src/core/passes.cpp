#include "core/passes.h"

#include <algorithm>

#include "core/puzzle_loader.h"

namespace vkp {

std::string CaseDispatch::label(const Puzzle& puzzle) const {
    std::string name = puzzle.kernels.at(kernel).name;
    std::string where;
    if (repetitions > 1)
        where = std::to_string(repetition + 1) + " of " + std::to_string(repetitions);
    if (rounds > 1)
        where += (where.empty() ? "round " : ", round ") + std::to_string(round + 1) + " of " +
                 std::to_string(rounds);
    return where.empty() ? name : name + " (" + where + ")";
}

std::vector<bool> swappedBuffers(const Puzzle& puzzle) {
    std::vector<bool> out(puzzle.buffers.size(), false);
    auto mark = [&](const std::optional<std::array<size_t, 2>>& swap) {
        if (swap) out.at((*swap)[0]) = out.at((*swap)[1]) = true;
    };
    for (const PassDecl& pass : puzzle.passes)
        mark(pass.swap);
    mark(puzzle.rounds.swap);
    return out;
}

void addShapeNames(const Puzzle& puzzle, const TestCase& c,
                   std::map<std::string, uint64_t>& names) {
    auto first = puzzle.firstInput();
    if (!first || *first >= c.data.size() || !c.data[*first]) return;
    const Shape& shape = c.data[*first]->shape;
    names.emplace("rows", shape.rows());
    names.emplace("cols", shape.cols());
}

bool isShapeName(const std::string& name) {
    return name == "rows" || name == "cols";
}

Status evaluateShapeExprs(const Puzzle& puzzle, TestCase& c) {
    auto first = puzzle.firstInput();
    if (!first || !c.data[*first]) return okStatus();
    std::map<std::string, uint64_t> names;
    addShapeNames(puzzle, c, names);
    ExprVars vars{c.data[*first]->shape.count(), c.workgroupSize[0], &names};
    for (size_t b = 0; b < c.data.size() && b < puzzle.buffers.size(); ++b) {
        if (!c.data[b] || c.data[b]->shapeExprs.empty()) continue;
        DataSpec& d = *c.data[b];
        Shape s;
        for (const Expr& e : d.shapeExprs) {
            auto v = e.evaluateChecked(vars, "shape");
            if (!v)
                return Error{ErrorKind::PuzzleFile,
                             "'" + puzzle.buffers[b].name + "': " + v.error().message};
            s.dims.push_back(*v);
        }
        bool inBounds = std::all_of(s.dims.begin(), s.dims.end(),
                                    [](uint64_t n) { return n >= 1 && n <= kMaxBufferElements; });
        if (!inBounds || s.count() > kMaxBufferElements)
            return Error{ErrorKind::PuzzleFile,
                         "the shape of '" + puzzle.buffers[b].name + "' comes to " + s.str() +
                             " when the first input is " + c.data[*first]->shape.str() +
                             "; each size must be from 1 and the whole at most " +
                             std::to_string(kMaxBufferElements) + " elements"};
        d.shape = s;
    }
    return okStatus();
}

std::map<std::string, uint64_t> caseNames(const Puzzle& puzzle, const TestCase& c,
                                          uint64_t repetition, uint64_t round) {
    std::map<std::string, uint64_t> out;
    for (const ConstantDecl& d : puzzle.constants) {
        auto it = c.constants.find(d.id);
        out[d.name] = it == c.constants.end() ? 0 : it->second;
    }
    addShapeNames(puzzle, c, out);
    out["i"] = repetition;
    out["round"] = round;
    return out;
}

ExprVars caseVars(const Puzzle& puzzle, const TestCase& c,
                  const std::map<std::string, uint64_t>& names) {
    auto first = puzzle.firstInput();
    uint64_t n =
        first && *first < c.data.size() && c.data[*first] ? c.data[*first]->shape.count() : 0;
    return {n, c.workgroupSize[0], &names};
}

namespace {

std::vector<size_t> identity(size_t n) {
    std::vector<size_t> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = i;
    return v;
}

Error passError(const PassDecl& pass, const std::string& message) {
    return Error{ErrorKind::PuzzleFile, message, pass.where};
}

std::string tooMany(const Puzzle& puzzle, const PassDecl& pass, uint64_t reps, uint64_t rounds) {
    std::string why =
        "this pass repeats " + std::to_string(reps) + " times (\"" + pass.repeat.text() + "\")";
    if (rounds > 1)
        why += " in each of " + std::to_string(rounds) + " rounds (\"" +
               puzzle.rounds.repeat.text() + "\")";
    return why + "; a case may run at most " + std::to_string(kMaxDispatchesPerCase) +
           " dispatches";
}

} // namespace

Result<std::vector<CaseDispatch>> caseDispatches(const Puzzle& puzzle, const TestCase& c,
                                                 uint64_t maxWorkgroups) {
    std::vector<size_t> at = identity(puzzle.buffers.size());
    if (!puzzle.multiPass()) {
        CaseDispatch d;
        d.workgroups = c.workgroups;
        d.bufferAt = at;
        return std::vector<CaseDispatch>{d};
    }
    std::vector<CaseDispatch> out;
    uint64_t rounds = puzzle.rounds.repeat.evaluate(caseVars(puzzle, c, caseNames(puzzle, c, 0)));
    if (rounds < 1 || rounds > kMaxDispatchesPerCase)
        return Error{ErrorKind::PuzzleFile,
                     "[rounds] repeat (\"" + puzzle.rounds.repeat.text() + "\") comes to " +
                         std::to_string(rounds) + "; it must be 1 to " +
                         std::to_string(kMaxDispatchesPerCase),
                     puzzle.rounds.where};
    for (uint64_t r = 0; r < rounds; ++r) {
        for (size_t p = 0; p < puzzle.passes.size(); ++p) {
            const PassDecl& pass = puzzle.passes[p];
            auto names = caseNames(puzzle, c, 0, r);
            uint64_t reps = pass.repeat.evaluate(caseVars(puzzle, c, names));
            if (out.size() + reps > kMaxDispatchesPerCase)
                return passError(pass, tooMany(puzzle, pass, reps, rounds));
            std::string inRound = rounds > 1 ? " of round " + std::to_string(r) : "";
            for (uint64_t i = 0; i < reps; ++i) {
                names["i"] = i;
                ExprVars vars = caseVars(puzzle, c, names);
                CaseDispatch d{p,
                               pass.kernel,
                               static_cast<uint32_t>(i),
                               static_cast<uint32_t>(reps),
                               static_cast<uint32_t>(r),
                               static_cast<uint32_t>(rounds)};
                for (int a = 0; a < 3; ++a) {
                    auto checked = pass.workgroups[a].evaluateChecked(vars, "workgroups");
                    if (!checked)
                        return passError(pass, checked.error().message + " in repetition " +
                                                   std::to_string(i) + inRound);
                    uint64_t w = *checked;
                    if (w < 1 || w > maxWorkgroups)
                        return passError(
                            pass, "the pass's workgroups (\"" + pass.workgroups[a].text() +
                                      "\") come to " + std::to_string(w) + " in repetition " +
                                      std::to_string(i) + inRound + "; they must be 1 to " +
                                      std::to_string(maxWorkgroups));
                    d.workgroups[a] = static_cast<uint32_t>(w);
                }
                for (const auto& [name, e] : pass.push)
                    d.push.emplace_back(name, static_cast<uint32_t>(e.evaluate(vars)));
                d.bufferAt = at;
                out.push_back(std::move(d));
                if (pass.swap && i + 1 < reps) std::swap(at[(*pass.swap)[0]], at[(*pass.swap)[1]]);
            }
        }
        const auto& swap = puzzle.rounds.swap;
        if (swap && r + 1 < rounds) std::swap(at[(*swap)[0]], at[(*swap)[1]]);
    }
    return out;
}

Result<std::vector<CaseDispatch>> caseDispatches(const Puzzle& puzzle, size_t caseIndex) {
    return caseDispatches(puzzle, puzzle.cases.at(caseIndex));
}

std::vector<size_t> finalBufferAt(const Puzzle& puzzle,
                                  const std::vector<CaseDispatch>& dispatches) {
    if (dispatches.empty()) return identity(puzzle.buffers.size());
    return dispatches.back().bufferAt;
}

} // namespace vkp
