// Reading one puzzle folder: puzzle.toml's buffers, constants, cases and their data, then the
// kernels beside it. Sets of folders and packs: puzzle_set.cpp.
#include "puzzle/puzzle_loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <toml++/toml.h>

#include "base/os.h"
#include "puzzle/bench_case.h"
#include "puzzle/pass_loader.h"
#include "puzzle/passes.h"
#include "puzzle/peer_loader.h"
#include "puzzle/rule_loader.h"
#include "puzzle/schedule_loader.h"
#include "puzzle/toml_reader.h"
#include "reference/reference_ops.h"

namespace fs = std::filesystem;

namespace vkp {

namespace {

BufferDecl parseBuffer(const Reader& r, const toml::table& t) {
    r.rejectUnknownKeys(t, {"name", "binding", "type", "role", "dims", "size", "zeroed"},
                        "a [[buffers]] entry");
    BufferDecl b;
    b.name = r.string(t, "name");
    b.binding = r.boundedUint(r.required(t, "binding"), "binding", 0, 31);
    b.type = parseEnum<ElementKind>(
        r, t, "type",
        {{"float", ElementKind::Float}, {"int", ElementKind::Int}, {"uint", ElementKind::Uint}});
    b.role = parseEnum<RoleKind>(
        r, t, "role",
        {{"input", RoleKind::Input}, {"output", RoleKind::Output}, {"scratch", RoleKind::Scratch}});
    if (const toml::node* d = t.get("dims"))
        b.dims = static_cast<int>(r.boundedUint(d, "dims", 1, 2));
    if (const toml::node* s = t.get("size")) {
        if (b.role != RoleKind::Scratch)
            r.fail(
                s,
                "'size' is for scratch buffers (inputs and outputs get their size from the data)");
        b.size = parseExprValue(r, s, "size");
    }
    if (const toml::node* z = t.get("zeroed")) {
        if (b.role != RoleKind::Output)
            r.fail(z, "'zeroed' is for outputs (inputs and scratch buffers get their data from "
                      "the cases)");
        b.zeroed = r.boolean(z, "zeroed");
    }
    return b;
}

std::array<uint32_t, 3> parseDims(const Reader& r, const toml::table& t, const char* key,
                                  uint32_t maxPerDim) {
    const toml::array& a = r.array(t, key);
    if (a.empty() || a.size() > 3) r.fail(&a, std::string("'") + key + "' needs 1 to 3 entries");
    std::array<uint32_t, 3> dims{1, 1, 1};
    for (size_t i = 0; i < a.size(); ++i)
        dims[i] = r.boundedUint(a.get(i), key, 1, maxPerDim);
    return dims;
}

// `exprs`: where an input's entries may be expressions (strings) of the first input's N, rows
// and cols; each entry is kept there (numbers as literals), and the shape holds 1s until
// evaluateShapeExprs (puzzle/passes.h) fills it in.
Shape parseShape(const Reader& r, const toml::table& t, std::vector<Expr>* exprs = nullptr) {
    const toml::array& a = r.array(t, "shape");
    if (a.empty() || a.size() > 2) r.fail(&a, "'shape' needs 1 or 2 entries: [n] or [rows, cols]");
    bool written =
        std::any_of(a.begin(), a.end(), [](const toml::node& n) { return n.is_string(); });
    if (written && !exprs)
        r.fail(&a, "this shape must be numbers (only inputs other than the first may write "
                   "expressions such as [\"cols\", \"cols\"]: sizes that follow the first "
                   "input's rows and cols)");
    Shape s;
    for (size_t i = 0; i < a.size(); ++i) {
        if (!written) {
            s.dims.push_back(
                r.boundedUint(a.get(i), "shape", 1, static_cast<int64_t>(kMaxBufferElements)));
            continue;
        }
        if (a.get(i)->is_string()) {
            auto e = Expr::parse(r.asString(a.get(i), "shape"), "shape");
            if (!e) r.fail(a.get(i), e.error().message);
            for (const std::string& name : e->names())
                if (!isShapeName(name))
                    r.fail(a.get(i), "'" + name +
                                         "' cannot size an input: a shape may use N, "
                                         "rows and cols (the first input's), not constants");
            exprs->push_back(std::move(*e));
        } else {
            exprs->push_back(Expr::literal(uint64_t(
                r.boundedUint(a.get(i), "shape", 1, static_cast<int64_t>(kMaxBufferElements)))));
        }
        s.dims.push_back(1);
    }
    if (s.count() > kMaxBufferElements)
        r.fail(&a, "shape " + s.str() + " holds " + std::to_string(s.count()) +
                       " elements; the limit is " + std::to_string(kMaxBufferElements));
    return s;
}

void flattenValues(const Reader& r, const toml::array& a, std::vector<double>& out) {
    for (const toml::node& n : a) {
        if (n.is_array())
            flattenValues(r, *n.as_array(), out);
        else
            out.push_back(r.asNumber(&n, "values"));
    }
}

} // namespace

DataSpec sizedScratch(const Expr& size, const ExprVars& vars) {
    DataSpec d;
    d.kind = DataSpec::Kind::Constant;
    d.value = 0;
    d.shape = Shape{{size.evaluate(vars)}};
    return d;
}

namespace {

// `each = "..."`: a per-element expression (puzzle/element_expr.h), checked for syntax here and
// evaluated, names and indices checked, when the case is materialised.
void parseEach(const Reader& r, const toml::node* n, DataSpec& d) {
    auto e = Expr::parseElement(r.asString(n, "each"), "each");
    if (!e) r.fail(n, e.error().message);
    d.kind = DataSpec::Kind::Each;
    d.each = std::move(*e);
    d.where = r.where(n);
}

// The fill of an input or scratch buffer. `numbersOnly`: the puzzle's first input (the others may
// follow its shape with expressions), and data that is not an input's.
DataSpec parseFill(const Reader& r, const toml::table& t, bool numbersOnly) {
    r.rejectUnknownKeys(
        t, {"shape", "values", "fill", "start", "step", "value", "seed", "min", "max", "each"},
        "a buffer's data");
    DataSpec d;
    d.where = r.where(&t);
    d.shape = parseShape(r, t, numbersOnly ? nullptr : &d.shapeExprs);
    if (!d.shapeExprs.empty() && t.get("values"))
        r.fail(t.get("shape"), "values written out need a shape of numbers");
    if (const toml::node* e = t.get("each")) {
        for (const char* other : {"values", "fill"})
            if (t.get(other))
                r.fail(e, std::string("give either 'each' or '") + other + "', not both");
        parseEach(r, e, d);
        return d;
    }
    if (const toml::node* v = t.get("values")) {
        if (!v->is_array()) r.fail(v, "'values' must be an array");
        d.kind = DataSpec::Kind::Values;
        flattenValues(r, *v->as_array(), d.values);
        if (d.values.size() != d.shape.count())
            r.fail(v, std::to_string(d.values.size()) + " values given for shape " + d.shape.str() +
                          " (" + std::to_string(d.shape.count()) + " elements)");
        return d;
    }
    d.kind = parseEnum<DataSpec::Kind>(r, t, "fill",
                                       {{"iota", DataSpec::Kind::Iota},
                                        {"constant", DataSpec::Kind::Constant},
                                        {"random", DataSpec::Kind::Random}});
    d.start = r.numberOr(t, "start", 0);
    d.step = r.numberOr(t, "step", 1);
    if (d.kind == DataSpec::Kind::Constant) d.value = r.asNumber(r.required(t, "value"), "value");
    if (d.kind == DataSpec::Kind::Random) {
        d.seed = static_cast<uint64_t>(r.integer(t, "seed"));
        d.min = r.integer(t, "min");
        d.max = r.integer(t, "max");
        if (d.min > d.max) r.fail(&t, "random: 'min' is greater than 'max'");
    }
    return d;
}

} // namespace

Result<DataSpec> parseDataTable(const std::string& text, const std::string& what) {
    const std::string prefix = "x = ";
    try {
        toml::table root = toml::parse(prefix + text, what);
        Reader r(what);
        return parseFill(r, r.asTable(root.get("x"), "the data"), true);
    } catch (const toml::parse_error& e) {
        int column = std::max<int>(1, static_cast<int>(e.source().begin.column) -
                                          static_cast<int>(prefix.size()));
        return Error{ErrorKind::Usage, what + ": not a TOML table at column " +
                                           std::to_string(column) + ": " +
                                           std::string(e.description())};
    } catch (const Error& e) {
        return Error{ErrorKind::Usage, what + ": " + e.message};
    }
}

namespace {

class PuzzleParser {
  public:
    PuzzleParser(const Reader& r, Puzzle& p) : m_reader(r), m_puzzle(p) {}

    void parse(const toml::table& root) {
        m_reader.rejectUnknownKeys(
            root, {"title",        "slug",       "track",    "order",  "statement",  "tolerance",
                   "starter",      "solution",   "hints",    "limits", "buffers",    "constants",
                   "cases",        "kernels",    "passes",   "laps",   "rounds",     "pitfalls",
                   "rules",        "bench_case", "schedule", "peers",  "bench_cols", "bench_n",
                   "bench_square", "lookback",   "search"},
            "puzzle.toml");
        m_puzzle.title = m_reader.string(root, "title");
        m_puzzle.track = m_reader.string(root, "track");
        m_puzzle.order = static_cast<int>(m_reader.integer(root, "order"));
        m_puzzle.statement = m_reader.string(root, "statement");
        m_puzzle.slug = m_reader.stringOr(root, "slug", m_puzzle.slug);
        // Commands name the puzzle by its slug (`vkpuzzles hint SLUG`): a word they can take.
        if (root.get("slug"))
            if (auto bad = slugError(m_puzzle.slug)) m_reader.fail(root.get("slug"), *bad);
        m_puzzle.tolerance = m_reader.numberOr(root, "tolerance", m_puzzle.tolerance);
        if (!(m_puzzle.tolerance >= 0) || !std::isfinite(m_puzzle.tolerance))
            m_reader.fail(root.get("tolerance"), "'tolerance' must be a finite number, 0 or more");
        m_puzzle.starterPath = m_reader.fileInFolder(root, "starter", "starter.comp", m_puzzle.dir);
        m_puzzle.solutionPath =
            m_reader.fileInFolder(root, "solution", "solution.comp", m_puzzle.dir);
        parseHints(root);
        parseBuffers(root);
        parseConstants(root);
        m_multiPass = root.get("passes") != nullptr || root.get("kernels") != nullptr;
        parseCases(root);
        parseKernelsAndPasses(m_reader, root, m_puzzle);
        parsePitfalls(m_reader, root, m_puzzle);
        parseLimits(m_reader, root, m_puzzle);
        parseRules(m_reader, root, m_puzzle);
        parseSchedules(m_reader, root, m_puzzle);
        parseLookback(m_reader, root, m_puzzle);
        parseSearches(m_reader, root, m_puzzle);
        parsePeers(m_reader, root, m_puzzle);
        m_puzzle.benchCase = deriveBenchCase(m_puzzle);
        if (const toml::node* b = root.get("bench_case")) {
            m_puzzle.benchCase = m_reader.boundedUint(b, "bench_case", 1,
                                                      static_cast<int64_t>(m_puzzle.cases.size())) -
                                 1;
            m_puzzle.benchCaseNamed = true;
        }
        if (const toml::node* n = root.get("bench_n"))
            m_puzzle.benchN = readBenchCount(m_reader, n, "bench_n");
        auto matrixOnly = [&](const toml::node* n, const std::string& what) {
            auto first = m_puzzle.firstInput();
            const TestCase& bench = m_puzzle.cases[m_puzzle.benchCase];
            if (!first || !bench.data[*first] || bench.data[*first]->shape.dims.size() != 2)
                m_reader.fail(n, what + ", and the benchmark case's first input is not 2D");
        };
        if (const toml::node* c = root.get("bench_cols")) {
            matrixOnly(c, "'bench_cols' keeps a matrix's columns at the benchmark");
            m_puzzle.benchCols = m_reader.boundedUint(c, "bench_cols", 1, 1 << 20);
        }
        if (const toml::node* q = root.get("bench_square")) {
            matrixOnly(q, "'bench_square' keeps a matrix square at the benchmark");
            m_puzzle.benchSquare = m_reader.boolean(q, "bench_square");
            if (m_puzzle.benchSquare && m_puzzle.benchCols)
                m_reader.fail(q, "'bench_square' and 'bench_cols' both set the benchmark's "
                                 "columns: give one of them");
        }
    }

  private:
    void parseHints(const toml::table& root) {
        const toml::array& hints = m_reader.array(root, "hints");
        for (const toml::node& h : hints)
            m_puzzle.hints.push_back(m_reader.asString(&h, "hints"));
    }
    void parseBuffers(const toml::table& root) {
        const toml::array& a = m_reader.array(root, "buffers");
        if (a.empty()) m_reader.fail(&a, "a puzzle needs at least one buffer");
        std::set<uint32_t> bindings;
        std::set<std::string> names;
        bool anyOutput = false;
        for (const toml::node& n : a) {
            BufferDecl b = parseBuffer(m_reader, m_reader.asTable(&n, "each [[buffers]] entry"));
            if (!bindings.insert(b.binding).second)
                m_reader.fail(&n, "binding " + std::to_string(b.binding) + " is used twice");
            if (!names.insert(b.name).second)
                m_reader.fail(&n, "buffer name '" + b.name + "' is used twice");
            anyOutput |= b.role == RoleKind::Output;
            m_puzzle.buffers.push_back(b);
        }
        if (!anyOutput)
            m_reader.fail(&a, "a puzzle needs at least one buffer with role = \"output\"");
    }
    // A constant is named in expressions beside N, WG, i, lap, rows, cols and the buffers: a
    // name that one of them has already would silently mean the other.
    void checkConstantName(const std::string& name, const toml::node* at) const {
        bool word = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                    std::all_of(name.begin(), name.end(), [](char c) {
                        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                    });
        if (!word)
            m_reader.fail(at, "constant name '" + name +
                                  "' must be a word (letters, digits and _), as the kernel's "
                                  "constant_id declaration names it");
        static const std::set<std::string> reserved = {"N",     "WG",   "i",   "lap",
                                                       "round", "rows", "cols"};
        if (reserved.count(name))
            m_reader.fail(at, "'" + name +
                                  "' already means something in expressions (N, WG, i, "
                                  "lap, rows, cols): name the constant otherwise");
        for (const ConstantDecl& d : m_puzzle.constants)
            if (d.name == name) m_reader.fail(at, "constant name '" + name + "' is used twice");
        for (const BufferDecl& b : m_puzzle.buffers)
            if (b.name == name)
                m_reader.fail(at, "constant name '" + name + "' is also a buffer's name");
    }
    void parseConstants(const toml::table& root) {
        const toml::node* n = root.get("constants");
        if (!n) return;
        if (!n->is_array())
            m_reader.fail(n, "'constants' must be an array of tables ([[constants]])");
        std::set<uint32_t> ids;
        for (const toml::node& c : *n->as_array()) {
            const toml::table& t = m_reader.asTable(&c, "each [[constants]] entry");
            m_reader.rejectUnknownKeys(t, {"name", "id"}, "a [[constants]] entry");
            ConstantDecl d{m_reader.string(t, "name"),
                           m_reader.boundedUint(m_reader.required(t, "id"), "id", 3, 4095)};
            if (!ids.insert(d.id).second)
                m_reader.fail(&c, "constant id " + std::to_string(d.id) + " is used twice");
            checkConstantName(d.name, t.get("name"));
            m_puzzle.constants.push_back(d);
        }
    }
    void parseCases(const toml::table& root) {
        if (const toml::node* bufs = root.get("buffers"); bufs && bufs->is_array())
            for (size_t i = 0; i < m_puzzle.buffers.size(); ++i)
                if (m_puzzle.buffers[i].size)
                    checkNames(bufs->as_array()->get(i), *m_puzzle.buffers[i].size, true);
        const toml::array& a = m_reader.array(root, "cases");
        if (a.empty()) m_reader.fail(&a, "a puzzle needs at least one test case");
        for (const toml::node& n : a) {
            m_puzzle.cases.push_back(parseCase(m_reader.asTable(&n, "each [[cases]] entry")));
            checkComputedValues(m_puzzle.cases.size() - 1);
        }
    }
    TestCase parseCase(const toml::table& t) {
        m_reader.rejectUnknownKeys(t,
                                   {"name", "workgroup_size", "workgroups", "inputs", "expected",
                                    "constants", "points", "hidden"},
                                   "a [[cases]] entry");
        TestCase c;
        c.where = m_reader.where(&t);
        c.name = m_reader.stringOr(t, "name", "");
        c.points = m_reader.numberOr(t, "points", 1);
        if (!(c.points >= 0 && c.points <= 1e6))
            m_reader.fail(t.get("points"), "'points' must be a number from 0 to 1000000");
        if (const toml::node* h = t.get("hidden")) c.hidden = m_reader.boolean(h, "hidden");
        c.workgroupSize = parseDims(m_reader, t, "workgroup_size", kMaxWorkgroupThreads);
        uint64_t threads = uint64_t(c.workgroupSize[0]) * c.workgroupSize[1] * c.workgroupSize[2];
        if (threads > kMaxWorkgroupThreads)
            m_reader.fail(t.get("workgroup_size"), "a workgroup of " + std::to_string(threads) +
                                                       " threads is over the limit of " +
                                                       std::to_string(kMaxWorkgroupThreads));
        parseCaseData(t, c);
        ExprVars vars = varsOf(c);
        std::map<std::string, uint64_t> shape; // rows, cols: what a constant may use besides N, WG
        addShapeNames(m_puzzle, c, shape);
        vars.names = &shape;
        parseCaseConstants(t, c, vars);
        std::map<std::string, uint64_t> names = constantValues(c);
        addShapeNames(m_puzzle, c, names);
        vars.names = &names;
        fillSizedScratch(t, c, vars);
        parseWorkgroups(t, c, vars);
        return c;
    }
    ExprVars varsOf(const TestCase& c) const {
        auto first = m_puzzle.firstInput();
        return {first && c.data[*first] ? c.data[*first]->shape.count() : 0, c.workgroupSize[0]};
    }
    void parseWorkgroups(const toml::table& t, TestCase& c, const ExprVars& vars) {
        if (m_multiPass) {
            if (t.get("workgroups"))
                m_reader.fail(t.get("workgroups"), "in a multi-pass puzzle each pass says its "
                                                   "workgroups; remove them from the case");
            return;
        }
        const toml::array& a = m_reader.array(t, "workgroups");
        if (a.empty() || a.size() > 3) m_reader.fail(&a, "'workgroups' needs 1 to 3 entries");
        for (size_t i = 0; i < a.size(); ++i) {
            c.workgroupExprs[i] = parseExprValue(m_reader, a.get(i), "workgroups");
            checkNames(a.get(i), c.workgroupExprs[i], true);
            c.workgroups[i] = boundedValue(
                m_reader, a.get(i), "workgroups",
                evaluateExpr(m_reader, a.get(i), "workgroups", c.workgroupExprs[i], vars), 1,
                kMaxWorkgroupsPerDim);
        }
    }
    void parseCaseConstants(const toml::table& t, TestCase& c, const ExprVars& vars) {
        const toml::table* given = nullptr;
        if (const toml::node* n = t.get("constants")) given = &m_reader.asTable(n, "'constants'");
        for (const ConstantDecl& d : m_puzzle.constants) {
            const toml::node* v = given ? given->get(d.name) : nullptr;
            if (!v)
                m_reader.fail(given ? static_cast<const toml::node*>(given) : &t,
                              "this case gives no value for the constant '" + d.name + "'");
            if (v->is_string()) {
                c.constantExprs[d.id] = parseExprValue(m_reader, v, d.name);
                checkNames(v, c.constantExprs[d.id], false);
                c.constants[d.id] = boundedValue(
                    m_reader, v, d.name,
                    evaluateExpr(m_reader, v, d.name, c.constantExprs[d.id], vars), 0, UINT32_MAX);
                continue;
            }
            int64_t x = m_reader.asInteger(v, d.name);
            if (x < INT32_MIN || x > UINT32_MAX)
                m_reader.fail(v, "'" + d.name + "' does not fit 32 bits");
            c.constants[d.id] = static_cast<uint32_t>(x);
            c.constantExprs[d.id] = Expr::literal(c.constants[d.id]);
        }
        if (!given) return;
        for (const auto& [key, v] : *given) {
            std::string name(key.str()); // (clang 14 cannot capture a structured binding)
            bool known = std::any_of(m_puzzle.constants.begin(), m_puzzle.constants.end(),
                                     [&](const ConstantDecl& d) { return d.name == name; });
            if (!known)
                m_reader.fail(
                    &v, "'" + std::string(key.str()) +
                            "' is not a constant of this puzzle (declare it under [[constants]])");
        }
    }
    void parseCaseData(const toml::table& t, TestCase& c) {
        c.data.resize(m_puzzle.buffers.size());
        const toml::table* inputs =
            t.get("inputs") ? &m_reader.asTable(t.get("inputs"), "'inputs'") : nullptr;
        const toml::table* expected =
            t.get("expected") ? &m_reader.asTable(t.get("expected"), "'expected'") : nullptr;
        rejectUnknown(inputs, false);
        rejectUnknown(expected, true);
        for (size_t i = 0; i < m_puzzle.buffers.size(); ++i) {
            const BufferDecl& b = m_puzzle.buffers[i];
            if (b.role != RoleKind::Output) {
                const toml::node* n = inputs ? inputs->get(b.name) : nullptr;
                if (!n && b.size)
                    continue; // sized by its expression once N and the constants are known
                if (!n)
                    m_reader.fail(&t,
                                  "this case has no inputs." + b.name +
                                      " (every input and scratch buffer needs data, or a size)");
                c.data[i] = parseFill(m_reader, m_reader.asTable(n, "inputs." + b.name),
                                      m_puzzle.firstInput() == i);
                checkFits(*c.data[i], b, n);
            }
        }
        if (auto s = evaluateShapeExprs(m_puzzle, c); !s) m_reader.fail(&t, s.error().message);
        for (size_t i = 0; i < m_puzzle.buffers.size(); ++i) {
            const BufferDecl& b = m_puzzle.buffers[i];
            if (b.role == RoleKind::Output) {
                const toml::node* n = expected ? expected->get(b.name) : nullptr;
                if (!n)
                    m_reader.fail(&t, "this case has no expected." + b.name +
                                          " (every output needs its expected values)");
                c.data[i] = parseExpected(m_reader.asTable(n, "expected." + b.name), c, b);
            }
        }
    }
    void fillSizedScratch(const toml::table& t, TestCase& c, const ExprVars& vars) {
        for (size_t i = 0; i < m_puzzle.buffers.size(); ++i) {
            if (c.data[i] || !m_puzzle.buffers[i].size) continue;
            if (auto v = m_puzzle.buffers[i].size->evaluateChecked(vars, "size"); !v)
                m_reader.fail(&t,
                              "buffer '" + m_puzzle.buffers[i].name + "': " + v.error().message);
            c.data[i] = sizedScratch(*m_puzzle.buffers[i].size, vars);
            c.data[i]->where = m_reader.where(&t);
            if (c.data[i]->shape.dims[0] < 1 || c.data[i]->shape.dims[0] > kMaxBufferElements)
                m_reader.fail(&t, "the size of '" + m_puzzle.buffers[i].name + "' (" +
                                      m_puzzle.buffers[i].size->text() + ") is " +
                                      std::to_string(c.data[i]->shape.dims[0]) +
                                      " in this case; it must be between 1 and " +
                                      std::to_string(kMaxBufferElements));
        }
    }
    // Names in an expression must be the puzzle's constants (and constants cannot use each other).
    void checkNames(const toml::node* at, const Expr& e, bool constantsAllowed) const {
        for (const std::string& name : e.names()) {
            if (isShapeName(name)) continue;
            bool known = std::any_of(m_puzzle.constants.begin(), m_puzzle.constants.end(),
                                     [&](const ConstantDecl& d) { return d.name == name; });
            if (known && constantsAllowed) continue;
            if (known)
                m_reader.fail(at, "a constant's value cannot use another constant ('" + name +
                                      "'); use N, WG, rows and cols");
            m_reader.fail(at, "unknown name '" + name + "' in \"" + e.text() +
                                  "\" (known: N, WG, rows, cols, the puzzle's constants)");
        }
    }
    std::map<std::string, uint64_t> constantValues(const TestCase& c) const {
        std::map<std::string, uint64_t> out;
        for (const ConstantDecl& d : m_puzzle.constants)
            out[d.name] = c.constants.at(d.id);
        return out;
    }
    void rejectUnknown(const toml::table* t, bool outputs) {
        if (!t) return;
        for (const auto& [key, v] : *t) {
            auto idx = m_puzzle.bufferIndex(std::string(key.str()));
            if (!idx)
                m_reader.fail(&v,
                              "no buffer named '" + std::string(key.str()) + "' in this puzzle");
            bool isOutput = m_puzzle.buffers[*idx].role == RoleKind::Output;
            if (isOutput != outputs)
                m_reader.fail(&v, "'" + std::string(key.str()) + "' is " +
                                      (isOutput ? "an output: give it under expected."
                                                : "not an output: give it under inputs."));
        }
    }
    // Numbers written for a buffer must be values of its type: a uint 4294967296 was stored as 0,
    // -1 as 4294967295, 4.9 as 4, an int 3000000000 as -1294967296, a float 1e39 as inf.
    void checkFits(const DataSpec& d, const BufferDecl& b, const toml::node* at) const {
        std::vector<double> shown;
        switch (d.kind) {
        case DataSpec::Kind::Values:
            shown = d.values;
            break;
        case DataSpec::Kind::Constant:
            shown = {d.value};
            break;
        case DataSpec::Kind::Iota:
            shown = {d.start,
                     d.start + d.step * double(std::max<uint64_t>(1, d.shape.count()) - 1)};
            break;
        case DataSpec::Kind::Random:
            shown = {double(d.min), double(d.max)};
            break;
        default:
            return;
        }
        for (size_t k = 0; k < shown.size(); ++k)
            if (auto why = valueDoesNotFit(shown[k], b.type))
                m_reader.fail(at, "'" + b.name + "' holds " + elementKindName(b.type) + ": " +
                                      *why +
                                      (d.kind == DataSpec::Kind::Values
                                           ? " (value " + std::to_string(k + 1) + ")"
                                           : ""));
    }
    DataSpec parseExpected(const toml::table& t, const TestCase& c, const BufferDecl& out) {
        if (t.get("each") && !t.get("op")) return parseExpectedEach(t, c);
        if (!t.get("op")) {
            DataSpec d = parseFill(m_reader, t, true);
            checkFits(d, out, &t);
            return d;
        }
        DataSpec d;
        d.kind = DataSpec::Kind::Op;
        d.where = m_reader.where(&t);
        d.op = m_reader.string(t, "op");
        const toml::node* opNode = t.get("op");
        const ReferenceOpInfo* info = findReferenceOp(d.op);
        if (!info) m_reader.fail(opNode, "unknown reference op '" + d.op + "'" + knownOps());
        if (auto wrong = referenceOpTypeError(d.op, out.type, out.name))
            m_reader.fail(opNode, *wrong);
        std::vector<std::string> keys{"op", "args", "shape"};
        keys.insert(keys.end(), info->params.begin(), info->params.end());
        m_reader.rejectUnknownKeys(t, keys, "an expected '" + d.op + "'");
        std::vector<Shape> argShapes;
        const toml::array& args = m_reader.array(t, "args");
        for (const toml::node& a : args) {
            std::string name = m_reader.asString(&a, "args");
            auto idx = m_puzzle.bufferIndex(name);
            if (!idx) m_reader.fail(&a, "no buffer named '" + name + "' in this puzzle");
            if (m_puzzle.buffers[*idx].role == RoleKind::Output)
                m_reader.fail(&a, "'" + name + "' is an output; an op reads inputs");
            d.args.push_back(*idx);
            argShapes.push_back(c.data[*idx]->shape);
        }
        for (const auto& [key, v] : t) {
            std::string k(key.str());
            if (k != "op" && k != "args" && k != "shape") d.params[k] = m_reader.asNumber(&v, k);
        }
        auto shape = referenceOpShape(d.op, argShapes, d.params);
        if (!shape) m_reader.fail(&t, shape.error().message);
        d.shape = *shape;
        if (t.get("shape")) {
            Shape given = parseShape(m_reader, t);
            if (given.count() != d.shape.count())
                m_reader.fail(t.get("shape"), "shape " + given.str() + " disagrees with " + d.op +
                                                  "'s result " + d.shape.str());
            d.shape = given;
        }
        return d;
    }
    // expected.X = { each = "...", shape = [..] }: without a shape, the first input's.
    DataSpec parseExpectedEach(const toml::table& t, const TestCase& c) {
        m_reader.rejectUnknownKeys(t, {"each", "shape"}, "an expected 'each'");
        DataSpec d;
        auto first = m_puzzle.firstInput();
        if (t.get("shape")) {
            d.shape = parseShape(m_reader, t);
            d.shapeGiven = true;
        } else if (first && c.data[*first]) {
            d.shape = c.data[*first]->shape;
        } else {
            m_reader.fail(&t, "give this output's 'shape' (the puzzle has no input to take it "
                              "from)");
        }
        parseEach(m_reader, t.get("each"), d);
        return d;
    }
    // Values computed from the inputs (`each`, ops that read indices) are computed once here, so
    // an index outside a buffer is an error of the file, not of a later check.
    void checkComputedValues(size_t index) {
        const TestCase& c = m_puzzle.cases[index];
        bool computes = std::any_of(c.data.begin(), c.data.end(), [](const auto& d) {
            if (!d) return false;
            if (d->kind == DataSpec::Kind::Each) return true;
            const ReferenceOpInfo* op =
                d->kind == DataSpec::Kind::Op ? findReferenceOp(d->op) : nullptr;
            return op && op->checkValues;
        });
        if (!computes) return;
        if (auto data = materializeCase(m_puzzle, index); !data) throw data.error();
    }
    static std::string knownOps() {
        std::string s = " (known: ";
        for (const auto& op : referenceOps())
            s += std::string(op.name) + (&op == &referenceOps().back() ? ")" : ", ");
        return s;
    }

    const Reader& m_reader;
    Puzzle& m_puzzle;
    bool m_multiPass = false;
};

std::string folderSlug(const std::string& folder, int& number) {
    size_t dash = folder.find('-');
    if (dash == std::string::npos || dash == 0) return folder;
    std::string prefix = folder.substr(0, dash);
    // Up to 9 digits: a longer run is a name, not a number (std::stoi would throw on it).
    if (prefix.size() > 9 || !std::all_of(prefix.begin(), prefix.end(), ::isdigit)) return folder;
    number = std::stoi(prefix);
    return folder.substr(dash + 1);
}

} // namespace

Result<Puzzle> parsePuzzle(const std::string& text, const std::string& file,
                           const std::string& dir) {
    Puzzle p;
    p.dir = dir;
    p.file = file;
    p.folder = os::pathText(os::toPath(dir).filename());
    p.slug = folderSlug(p.folder, p.number);
    Reader r(file);
    try {
        toml::table root = toml::parse(text, file);
        PuzzleParser(r, p).parse(root);
    } catch (const toml::parse_error& e) {
        return tomlSyntaxError(e, file);
    } catch (const Error& e) {
        return e;
    }
    return p;
}

Result<Puzzle> loadPuzzle(const std::string& dir) {
    std::string file = os::pathText(os::toPath(dir) / "puzzle.toml");
    auto text = readTextFile(file, kPuzzleFileLimit);
    if (!text) return text.error();
    auto p = parsePuzzle(*text, file, dir);
    if (!p) return p;
    for (const KernelDecl& k : p->kernels)
        for (const std::string* path : {&k.starterPath, &k.solutionPath}) {
            std::error_code ec;
            fs::file_status st = fs::status(os::toPath(*path), ec);
            std::string shown = os::pathText(os::toPath(*path).lexically_relative(os::toPath(dir)));
            if (!fs::exists(st))
                return Error{
                    ErrorKind::PuzzleFile, "the kernel file '" + shown + "' is missing", {file}};
            if (!fs::is_regular_file(st))
                return Error{ErrorKind::PuzzleFile,
                             "the kernel file '" + shown +
                                 "' is not a plain file (a folder, FIFO or device)",
                             {file}};
        }
    for (const KernelDecl& k : p->kernels)
        if (auto text = readTextFile(k.solutionPath)) p->needs = p->needs | kernelNeeds(*text);
    return p;
}

} // namespace vkp
