#include "puzzle/passes.h"

#include <algorithm>

#include "puzzle/puzzle_loader.h"

namespace vkp {

std::string CaseDispatch::label(const Puzzle& puzzle) const {
    std::string name = passLabel(puzzle, pass, kernel);
    std::string where;
    if (repetitions > 1)
        where = std::to_string(repetition + 1) + " of " + std::to_string(repetitions);
    if (laps > 1)
        where += (where.empty() ? "lap " : ", lap ") + std::to_string(lap + 1) + " of " +
                 std::to_string(laps);
    return where.empty() ? name : name + " (" + where + ")";
}

std::string passLabel(const Puzzle& puzzle, size_t pass, size_t kernel) {
    if (pass < puzzle.passes.size() && !puzzle.passes[pass].label.empty())
        return puzzle.passes[pass].label;
    return puzzle.kernels.at(kernel).name;
}

std::vector<bool> swappedBuffers(const Puzzle& puzzle) {
    std::vector<bool> out(puzzle.buffers.size(), false);
    auto mark = [&](const std::optional<std::array<size_t, 2>>& swap) {
        if (swap) out.at((*swap)[0]) = out.at((*swap)[1]) = true;
    };
    for (const PassDecl& pass : puzzle.passes)
        mark(pass.swap);
    mark(puzzle.laps.swap);
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
                                          uint64_t repetition, uint64_t lap) {
    std::map<std::string, uint64_t> out;
    for (const ConstantDecl& d : puzzle.constants) {
        auto it = c.constants.find(d.id);
        out[d.name] = it == c.constants.end() ? 0 : it->second;
    }
    addShapeNames(puzzle, c, out);
    out["i"] = repetition;
    out["lap"] = lap;
    out["round"] = lap; // the old name
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

uint64_t saturatedAdd(uint64_t a, uint64_t b) {
    return a + b < a ? UINT64_MAX : a + b;
}

// A pass's or [laps]' expression for one case, checked (puzzle/expr.h), its errors at `where`.
Result<uint64_t> checkedValue(const Expr& e, const ExprVars& vars, const std::string& field,
                              const SourceLocation& where, const std::string& when = {}) {
    auto v = e.evaluateChecked(vars, field);
    if (!v) return Error{ErrorKind::PuzzleFile, v.error().message + when, where};
    return *v;
}

// How a case's dispatches add up: "step 1000 times (\"N\")", "count 256, scan 256 and scatter
// 256 times over 256 laps (\"256\")".
std::string dispatchSum(const Puzzle& puzzle, const std::vector<std::vector<uint64_t>>& reps) {
    std::string s;
    for (size_t p = 0; p < puzzle.passes.size(); ++p) {
        uint64_t all = 0;
        for (const auto& lap : reps)
            all = saturatedAdd(all, lap[p]);
        s += (p == 0                          ? ""
              : p + 1 == puzzle.passes.size() ? " and "
                                              : ", ") +
             puzzle.kernels.at(puzzle.passes[p].kernel).name + " " + std::to_string(all);
        if (reps.size() == 1)
            s += std::string(all == 1 ? " time" : " times") + " (\"" +
                 puzzle.passes[p].repeat.text() + "\")";
    }
    if (reps.size() > 1)
        s += " times over " + std::to_string(reps.size()) + " laps (\"" +
             puzzle.laps.repeat.text() + "\")";
    return s;
}

// Where to point at too many dispatches in one lap: the pass that repeats the most.
const SourceLocation& busiest(const Puzzle& puzzle, const std::vector<uint64_t>& reps) {
    size_t most = std::max_element(reps.begin(), reps.end()) - reps.begin();
    return puzzle.passes.at(most).where;
}

// How many times each pass runs in each lap of case `c`, checked: 1 to kMaxDispatchesPerCase
// dispatches in all.
Result<std::vector<std::vector<uint64_t>>> repetitions(const Puzzle& puzzle, const TestCase& c) {
    const SourceLocation& firstPass = puzzle.passes.front().where;
    const LapsDecl& decl = puzzle.laps;
    const SourceLocation& lapsAt = decl.where.file.empty() ? firstPass : decl.where;
    auto laps = checkedValue(decl.repeat, caseVars(puzzle, c, caseNames(puzzle, c, 0)),
                             decl.table + " repeat", lapsAt);
    if (!laps) return laps.error();
    if (*laps < 1 || *laps > kMaxDispatchesPerCase)
        return Error{ErrorKind::PuzzleFile,
                     decl.table + " repeat (\"" + decl.repeat.text() + "\") comes to " +
                         std::to_string(*laps) + "; it must be 1 to " +
                         std::to_string(kMaxDispatchesPerCase),
                     lapsAt};
    std::vector<std::vector<uint64_t>> reps(*laps, std::vector<uint64_t>(puzzle.passes.size()));
    uint64_t total = 0;
    for (uint64_t r = 0; r < *laps; ++r)
        for (size_t p = 0; p < puzzle.passes.size(); ++p) {
            const PassDecl& pass = puzzle.passes[p];
            std::string when =
                *laps > 1 ? " in lap " + std::to_string(r + 1) + " of " + std::to_string(*laps)
                          : "";
            auto v = checkedValue(pass.repeat, caseVars(puzzle, c, caseNames(puzzle, c, 0, r)),
                                  "repeat", pass.where, when);
            if (!v) return v.error();
            reps[r][p] = *v;
            total = saturatedAdd(total, *v);
        }
    if (total > kMaxDispatchesPerCase)
        return Error{ErrorKind::PuzzleFile,
                     "this case would run " + std::to_string(total) +
                         " dispatches: " + dispatchSum(puzzle, reps) + "; a case may run at most " +
                         std::to_string(kMaxDispatchesPerCase),
                     *laps > 1 ? lapsAt : busiest(puzzle, reps.front())};
    if (total == 0)
        return Error{ErrorKind::PuzzleFile,
                     "this case would run no dispatch: " + dispatchSum(puzzle, reps) +
                         "; a case must run at least one (\"max(1, ...)\" keeps one)",
                     firstPass};
    return reps;
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
    auto reps = repetitions(puzzle, c);
    if (!reps) return reps.error();
    std::vector<CaseDispatch> out;
    uint32_t laps = static_cast<uint32_t>(reps->size());
    for (uint32_t r = 0; r < laps; ++r) {
        for (size_t p = 0; p < puzzle.passes.size(); ++p) {
            const PassDecl& pass = puzzle.passes[p];
            auto names = caseNames(puzzle, c, 0, r);
            uint32_t count = static_cast<uint32_t>((*reps)[r][p]);
            for (uint32_t i = 0; i < count; ++i) {
                names["i"] = i;
                ExprVars vars = caseVars(puzzle, c, names);
                CaseDispatch d{p, pass.kernel, i, count, r, laps};
                std::string when = " in " + d.label(puzzle);
                for (int a = 0; a < 3; ++a) {
                    auto w = checkedValue(pass.workgroups[a], vars, "workgroups", pass.where, when);
                    if (!w) return w.error();
                    if (*w < 1 || *w > maxWorkgroups)
                        return passError(
                            pass, "the pass's workgroups (\"" + pass.workgroups[a].text() +
                                      "\") come to " + std::to_string(*w) + when +
                                      "; they must be 1 to " + std::to_string(maxWorkgroups));
                    d.workgroups[a] = static_cast<uint32_t>(*w);
                }
                for (const auto& [name, e] : pass.push) {
                    auto v = checkedValue(e, vars, "push " + name, pass.where, when);
                    if (!v) return v.error();
                    if (*v > UINT32_MAX)
                        return passError(pass, "push constant '" + name + "' (\"" + e.text() +
                                                   "\") comes to " + std::to_string(*v) + when +
                                                   "; a push constant holds 0 to 4294967295");
                    d.push.emplace_back(name, static_cast<uint32_t>(*v));
                }
                d.bufferAt = at;
                out.push_back(std::move(d));
                if (pass.swap && i + 1 < count) std::swap(at[(*pass.swap)[0]], at[(*pass.swap)[1]]);
            }
        }
        const auto& swap = puzzle.laps.swap;
        if (swap && r + 1 < laps) std::swap(at[(*swap)[0]], at[(*swap)[1]]);
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
