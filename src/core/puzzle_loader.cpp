#include "core/puzzle_loader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "core/pass_loader.h"
#include "core/passes.h"
#include "core/reference_ops.h"
#include "core/toml_reader.h"

namespace fs = std::filesystem;

namespace vkp {

namespace {

// Edits between two keys: insert, delete or replace a letter, or swap two neighbours ("stpe" is
// one edit from "step", two from "shape").
size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

void Reader::rejectUnknownKeys(const toml::table& t, const std::vector<std::string>& known, const std::string& what) const {
    for (const auto& [key, node] : t) {
        std::string k(key.str());
        if (std::find(known.begin(), known.end(), k) != known.end()) continue;
        std::string nearest;
        size_t best = std::max<size_t>(2, k.size() / 3) + 1; // further than this is not a typo
        for (const std::string& name : known)
            if (size_t d = editDistance(k, name); d < best) best = d, nearest = name;
        std::string hint;
        if (!nearest.empty()) {
            hint = " (did you mean " + nearest + "?)";
        } else {
            for (const std::string& name : known) hint += (hint.empty() ? " (known: " : ", ") + name;
            hint += ")";
        }
        // Point at the key itself: that is the word to fix.
        const toml::source_region& at = key.source().begin.line ? key.source() : node.source();
        throw LoadFailure{Error{ErrorKind::PuzzleFile, "unknown key '" + k + "' in " + what + hint,
                                {m_file, static_cast<int>(at.begin.line), static_cast<int>(at.begin.column)}}};
    }
}

std::string Reader::fileInFolder(const toml::table& t, const char* key, const std::string& fallback, const std::string& dir) const {
    const toml::node* n = t.get(key);
    std::string given = n ? asString(n, key) : fallback;
    const toml::node* at = n ? n : &t;
    auto outside = [&] {
        fail(at, std::string("'") + key + "' names \"" + given + "\", which is outside the puzzle's folder; a puzzle's files must be inside it");
    };
    if (given.empty()) fail(at, std::string("'") + key + "' must name a file");
    fs::path relative(given);
    if (relative.is_absolute()) outside();
    std::error_code ec;
    fs::path base = fs::weakly_canonical(fs::path(dir), ec);
    fs::path full = ec ? fs::path() : fs::weakly_canonical(fs::path(dir) / relative, ec);
    if (ec) fail(at, std::string("'") + key + "': cannot follow \"" + given + "\": " + ec.message());
    // "dir/sub/.." comes back as "dir/", whose last element is empty: drop it.
    for (fs::path* p : {&base, &full})
        if (p->has_relative_path() && p->filename().empty()) *p = p->parent_path();
    // Component by component, so that "/p/01-map-x" is not taken to be inside "/p/01-map".
    auto [inBase, inFull] = std::mismatch(base.begin(), base.end(), full.begin(), full.end());
    if (inBase != base.end() || inFull == full.end()) outside();
    return (fs::path(dir) / relative).string();
}

namespace {

BufferDecl parseBuffer(const Reader& r, const toml::table& t) {
    r.rejectUnknownKeys(t, {"name", "binding", "type", "role", "dims", "size"}, "a [[buffers]] entry");
    BufferDecl b;
    b.name = r.string(t, "name");
    b.binding = r.boundedUint(r.required(t, "binding"), "binding", 0, 31);
    b.type = parseEnum<ElementKind>(r, t, "type",
                                    {{"float", ElementKind::Float},
                                     {"int", ElementKind::Int},
                                     {"uint", ElementKind::Uint}});
    b.role = parseEnum<RoleKind>(r, t, "role",
                                 {{"input", RoleKind::Input},
                                  {"output", RoleKind::Output},
                                  {"scratch", RoleKind::Scratch}});
    if (const toml::node* d = t.get("dims")) b.dims = static_cast<int>(r.boundedUint(d, "dims", 1, 2));
    if (const toml::node* s = t.get("size")) {
        if (b.role != RoleKind::Scratch) r.fail(s, "'size' is for scratch buffers (inputs and outputs get their size from the data)");
        b.size = parseExprValue(r, s, "size");
    }
    return b;
}

std::array<uint32_t, 3> parseDims(const Reader& r, const toml::table& t, const char* key,
                                  uint32_t maxPerDim) {
    const toml::array& a = r.array(t, key);
    if (a.empty() || a.size() > 3) r.fail(&a, std::string("'") + key + "' needs 1 to 3 entries");
    std::array<uint32_t, 3> dims{1, 1, 1};
    for (size_t i = 0; i < a.size(); ++i) dims[i] = r.boundedUint(a.get(i), key, 1, maxPerDim);
    return dims;
}

Shape parseShape(const Reader& r, const toml::table& t) {
    const toml::array& a = r.array(t, "shape");
    if (a.empty() || a.size() > 2) r.fail(&a, "'shape' needs 1 or 2 entries: [n] or [rows, cols]");
    Shape s;
    for (size_t i = 0; i < a.size(); ++i)
        s.dims.push_back(r.boundedUint(a.get(i), "shape", 1, static_cast<int64_t>(kMaxBufferElements)));
    if (s.count() > kMaxBufferElements)
        r.fail(&a, "shape " + s.str() + " holds " + std::to_string(s.count()) +
                       " elements; the limit is " + std::to_string(kMaxBufferElements));
    return s;
}

void flattenValues(const Reader& r, const toml::array& a, std::vector<double>& out) {
    for (const toml::node& n : a) {
        if (n.is_array()) flattenValues(r, *n.as_array(), out);
        else out.push_back(r.asNumber(&n, "values"));
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

// The fill of an input or scratch buffer.
DataSpec parseFill(const Reader& r, const toml::table& t) {
    r.rejectUnknownKeys(t, {"shape", "values", "fill", "start", "step", "value", "seed", "min", "max"}, "a buffer's data");
    DataSpec d;
    d.where = r.where(&t);
    d.shape = parseShape(r, t);
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
        return parseFill(r, r.asTable(root.get("x"), "the data"));
    } catch (const toml::parse_error& e) {
        int column = std::max<int>(1, static_cast<int>(e.source().begin.column) - static_cast<int>(prefix.size()));
        return Error{ErrorKind::Usage, what + ": not a TOML table at column " + std::to_string(column) + ": " + std::string(e.description())};
    } catch (const LoadFailure& f) {
        return Error{ErrorKind::Usage, what + ": " + f.error.message};
    }
}

namespace {

class PuzzleParser {
  public:
    PuzzleParser(const Reader& r, Puzzle& p) : m_r(r), m_p(p) {}

    void parse(const toml::table& root) {
        m_r.rejectUnknownKeys(root, {"title", "slug", "track", "order", "statement", "tolerance", "starter", "solution", "hints", "limits", "buffers",
                                     "constants", "cases", "kernels", "passes", "pitfalls", "bench_case"},
                              "puzzle.toml");
        m_p.title = m_r.string(root, "title");
        m_p.track = m_r.string(root, "track");
        m_p.order = static_cast<int>(m_r.integer(root, "order"));
        m_p.statement = m_r.string(root, "statement");
        m_p.slug = m_r.stringOr(root, "slug", m_p.slug);
        m_p.tolerance = m_r.numberOr(root, "tolerance", m_p.tolerance);
        if (!(m_p.tolerance >= 0) || !std::isfinite(m_p.tolerance))
            m_r.fail(root.get("tolerance"), "'tolerance' must be a finite number, 0 or more");
        m_p.starterPath = m_r.fileInFolder(root, "starter", "starter.comp", m_p.dir);
        m_p.solutionPath = m_r.fileInFolder(root, "solution", "solution.comp", m_p.dir);
        parseHints(root);
        parseLimits(root);
        parseBuffers(root);
        parseConstants(root);
        m_multiPass = root.get("passes") != nullptr || root.get("kernels") != nullptr;
        parseCases(root);
        parseKernelsAndPasses(m_r, root, m_p);
        parsePitfalls(m_r, root, m_p);
        m_p.benchCase = m_p.cases.size() - 1;
        if (const toml::node* b = root.get("bench_case"))
            m_p.benchCase = m_r.boundedUint(b, "bench_case", 1, static_cast<int64_t>(m_p.cases.size())) - 1;
    }

  private:
    void parseHints(const toml::table& root) {
        const toml::array& hints = m_r.array(root, "hints");
        for (const toml::node& h : hints) m_p.hints.push_back(m_r.asString(&h, "hints"));
    }
    void parseLimits(const toml::table& root) {
        const toml::node* n = root.get("limits");
        if (!n) return;
        const toml::table& t = m_r.asTable(n, "'limits'");
        m_r.rejectUnknownKeys(t, {"global_reads", "global_writes"}, "[limits]");
        if (const toml::node* v = t.get("global_reads"))
            m_p.limits.globalReads = m_r.boundedUint(v, "global_reads", 0, 1 << 20);
        if (const toml::node* v = t.get("global_writes"))
            m_p.limits.globalWrites = m_r.boundedUint(v, "global_writes", 0, 1 << 20);
    }
    void parseBuffers(const toml::table& root) {
        const toml::array& a = m_r.array(root, "buffers");
        if (a.empty()) m_r.fail(&a, "a puzzle needs at least one buffer");
        std::set<uint32_t> bindings;
        std::set<std::string> names;
        bool anyOutput = false;
        for (const toml::node& n : a) {
            BufferDecl b = parseBuffer(m_r, m_r.asTable(&n, "each [[buffers]] entry"));
            if (!bindings.insert(b.binding).second)
                m_r.fail(&n, "binding " + std::to_string(b.binding) + " is used twice");
            if (!names.insert(b.name).second) m_r.fail(&n, "buffer name '" + b.name + "' is used twice");
            anyOutput |= b.role == RoleKind::Output;
            m_p.buffers.push_back(b);
        }
        if (!anyOutput) m_r.fail(&a, "a puzzle needs at least one buffer with role = \"output\"");
    }
    void parseConstants(const toml::table& root) {
        const toml::node* n = root.get("constants");
        if (!n) return;
        if (!n->is_array()) m_r.fail(n, "'constants' must be an array of tables ([[constants]])");
        std::set<uint32_t> ids;
        for (const toml::node& c : *n->as_array()) {
            const toml::table& t = m_r.asTable(&c, "each [[constants]] entry");
            m_r.rejectUnknownKeys(t, {"name", "id"}, "a [[constants]] entry");
            ConstantDecl d{m_r.string(t, "name"), m_r.boundedUint(m_r.required(t, "id"), "id", 3, 4095)};
            if (!ids.insert(d.id).second) m_r.fail(&c, "constant id " + std::to_string(d.id) + " is used twice");
            m_p.constants.push_back(d);
        }
    }
    void parseCases(const toml::table& root) {
        if (const toml::node* bufs = root.get("buffers"); bufs && bufs->is_array())
            for (size_t i = 0; i < m_p.buffers.size(); ++i)
                if (m_p.buffers[i].size) checkNames(bufs->as_array()->get(i), *m_p.buffers[i].size, true);
        const toml::array& a = m_r.array(root, "cases");
        if (a.empty()) m_r.fail(&a, "a puzzle needs at least one test case");
        for (const toml::node& n : a) m_p.cases.push_back(parseCase(m_r.asTable(&n, "each [[cases]] entry")));
    }
    TestCase parseCase(const toml::table& t) {
        m_r.rejectUnknownKeys(t, {"name", "workgroup_size", "workgroups", "inputs", "expected", "constants"}, "a [[cases]] entry");
        TestCase c;
        c.where = m_r.where(&t);
        c.name = m_r.stringOr(t, "name", "");
        c.workgroupSize = parseDims(m_r, t, "workgroup_size", kMaxWorkgroupThreads);
        uint64_t threads = uint64_t(c.workgroupSize[0]) * c.workgroupSize[1] * c.workgroupSize[2];
        if (threads > kMaxWorkgroupThreads)
            m_r.fail(t.get("workgroup_size"), "a workgroup of " + std::to_string(threads) +
                                                  " threads is over the limit of " +
                                                  std::to_string(kMaxWorkgroupThreads));
        parseCaseData(t, c);
        ExprVars vars = varsOf(c);
        parseCaseConstants(t, c, vars);
        std::map<std::string, uint64_t> names = constantValues(c);
        vars.names = &names;
        fillSizedScratch(t, c, vars);
        parseWorkgroups(t, c, vars);
        return c;
    }
    ExprVars varsOf(const TestCase& c) const {
        auto first = m_p.firstInput();
        return {first && c.data[*first] ? c.data[*first]->shape.count() : 0, c.workgroupSize[0]};
    }
    void parseWorkgroups(const toml::table& t, TestCase& c, const ExprVars& vars) {
        if (m_multiPass) {
            if (t.get("workgroups")) m_r.fail(t.get("workgroups"), "in a multi-pass puzzle each pass says its workgroups; remove them from the case");
            return;
        }
        const toml::array& a = m_r.array(t, "workgroups");
        if (a.empty() || a.size() > 3) m_r.fail(&a, "'workgroups' needs 1 to 3 entries");
        for (size_t i = 0; i < a.size(); ++i) {
            c.workgroupExprs[i] = parseExprValue(m_r, a.get(i), "workgroups");
            checkNames(a.get(i), c.workgroupExprs[i], true);
            c.workgroups[i] = boundedValue(m_r, a.get(i), "workgroups", evaluateExpr(m_r, a.get(i), "workgroups", c.workgroupExprs[i], vars), 1, kMaxWorkgroupsPerDim);
        }
    }
    void parseCaseConstants(const toml::table& t, TestCase& c, const ExprVars& vars) {
        const toml::table* given = nullptr;
        if (const toml::node* n = t.get("constants")) given = &m_r.asTable(n, "'constants'");
        for (const ConstantDecl& d : m_p.constants) {
            const toml::node* v = given ? given->get(d.name) : nullptr;
            if (!v) m_r.fail(given ? static_cast<const toml::node*>(given) : &t,
                             "this case gives no value for the constant '" + d.name + "'");
            if (v->is_string()) {
                c.constantExprs[d.id] = parseExprValue(m_r, v, d.name);
                checkNames(v, c.constantExprs[d.id], false);
                c.constants[d.id] = boundedValue(m_r, v, d.name, evaluateExpr(m_r, v, d.name, c.constantExprs[d.id], vars), 0, UINT32_MAX);
                continue;
            }
            int64_t x = m_r.asInteger(v, d.name);
            if (x < INT32_MIN || x > UINT32_MAX) m_r.fail(v, "'" + d.name + "' does not fit 32 bits");
            c.constants[d.id] = static_cast<uint32_t>(x);
            c.constantExprs[d.id] = Expr::literal(c.constants[d.id]);
        }
        if (!given) return;
        for (const auto& [key, v] : *given) {
            std::string name(key.str()); // (clang 14 cannot capture a structured binding)
            bool known = std::any_of(m_p.constants.begin(), m_p.constants.end(),
                                     [&](const ConstantDecl& d) { return d.name == name; });
            if (!known) m_r.fail(&v, "'" + std::string(key.str()) + "' is not a constant of this puzzle (declare it under [[constants]])");
        }
    }
    void parseCaseData(const toml::table& t, TestCase& c) {
        c.data.resize(m_p.buffers.size());
        const toml::table* inputs = t.get("inputs") ? &m_r.asTable(t.get("inputs"), "'inputs'") : nullptr;
        const toml::table* expected = t.get("expected") ? &m_r.asTable(t.get("expected"), "'expected'") : nullptr;
        rejectUnknown(inputs, false);
        rejectUnknown(expected, true);
        for (size_t i = 0; i < m_p.buffers.size(); ++i) {
            const BufferDecl& b = m_p.buffers[i];
            if (b.role != RoleKind::Output) {
                const toml::node* n = inputs ? inputs->get(b.name) : nullptr;
                if (!n && b.size) continue; // sized by its expression once N and the constants are known
                if (!n) m_r.fail(&t, "this case has no inputs." + b.name + " (every input and scratch buffer needs data, or a size)");
                c.data[i] = parseFill(m_r, m_r.asTable(n, "inputs." + b.name));
            }
        }
        for (size_t i = 0; i < m_p.buffers.size(); ++i) {
            const BufferDecl& b = m_p.buffers[i];
            if (b.role == RoleKind::Output) {
                const toml::node* n = expected ? expected->get(b.name) : nullptr;
                if (!n) m_r.fail(&t, "this case has no expected." + b.name + " (every output needs its expected values)");
                c.data[i] = parseExpected(m_r.asTable(n, "expected." + b.name), c);
            }
        }
    }
    void fillSizedScratch(const toml::table& t, TestCase& c, const ExprVars& vars) {
        for (size_t i = 0; i < m_p.buffers.size(); ++i) {
            if (c.data[i] || !m_p.buffers[i].size) continue;
            if (auto v = m_p.buffers[i].size->evaluateChecked(vars, "size"); !v)
                m_r.fail(&t, "buffer '" + m_p.buffers[i].name + "': " + v.error().message);
            c.data[i] = sizedScratch(*m_p.buffers[i].size, vars);
            c.data[i]->where = m_r.where(&t);
            if (c.data[i]->shape.dims[0] < 1 || c.data[i]->shape.dims[0] > kMaxBufferElements)
                m_r.fail(&t, "the size of '" + m_p.buffers[i].name + "' (" + m_p.buffers[i].size->text() + ") is " +
                                 std::to_string(c.data[i]->shape.dims[0]) + " in this case; it must be between 1 and " + std::to_string(kMaxBufferElements));
        }
    }
    // Names in an expression must be the puzzle's constants (and constants cannot use each other).
    void checkNames(const toml::node* at, const Expr& e, bool constantsAllowed) const {
        for (const std::string& name : e.names()) {
            bool known = std::any_of(m_p.constants.begin(), m_p.constants.end(), [&](const ConstantDecl& d) { return d.name == name; });
            if (known && constantsAllowed) continue;
            if (known) m_r.fail(at, "a constant's value cannot use another constant ('" + name + "'); use N and WG");
            m_r.fail(at, "unknown name '" + name + "' in \"" + e.text() + "\" (known: N, WG, the puzzle's constants)");
        }
    }
    std::map<std::string, uint64_t> constantValues(const TestCase& c) const {
        std::map<std::string, uint64_t> out;
        for (const ConstantDecl& d : m_p.constants) out[d.name] = c.constants.at(d.id);
        return out;
    }
    void rejectUnknown(const toml::table* t, bool outputs) {
        if (!t) return;
        for (const auto& [key, v] : *t) {
            auto idx = m_p.bufferIndex(std::string(key.str()));
            if (!idx) m_r.fail(&v, "no buffer named '" + std::string(key.str()) + "' in this puzzle");
            bool isOutput = m_p.buffers[*idx].role == RoleKind::Output;
            if (isOutput != outputs)
                m_r.fail(&v, "'" + std::string(key.str()) + "' is " + (isOutput ? "an output: give it under expected." : "not an output: give it under inputs."));
        }
    }
    DataSpec parseExpected(const toml::table& t, const TestCase& c) {
        if (!t.get("op")) return parseFill(m_r, t);
        DataSpec d;
        d.kind = DataSpec::Kind::Op;
        d.where = m_r.where(&t);
        d.op = m_r.string(t, "op");
        const toml::node* opNode = t.get("op");
        const ReferenceOpInfo* info = findReferenceOp(d.op);
        if (!info) m_r.fail(opNode, "unknown reference op '" + d.op + "'" + knownOps());
        std::vector<std::string> keys{"op", "args", "shape"};
        keys.insert(keys.end(), info->params.begin(), info->params.end());
        m_r.rejectUnknownKeys(t, keys, "an expected '" + d.op + "'");
        std::vector<Shape> argShapes;
        const toml::array& args = m_r.array(t, "args");
        for (const toml::node& a : args) {
            std::string name = m_r.asString(&a, "args");
            auto idx = m_p.bufferIndex(name);
            if (!idx) m_r.fail(&a, "no buffer named '" + name + "' in this puzzle");
            if (m_p.buffers[*idx].role == RoleKind::Output) m_r.fail(&a, "'" + name + "' is an output; an op reads inputs");
            d.args.push_back(*idx);
            argShapes.push_back(c.data[*idx]->shape);
        }
        for (const auto& [key, v] : t) {
            std::string k(key.str());
            if (k != "op" && k != "args" && k != "shape") d.params[k] = m_r.asNumber(&v, k);
        }
        auto shape = referenceOpShape(d.op, argShapes, d.params);
        if (!shape) m_r.fail(&t, shape.error().message);
        d.shape = *shape;
        if (t.get("shape")) {
            Shape given = parseShape(m_r, t);
            if (given.count() != d.shape.count())
                m_r.fail(t.get("shape"), "shape " + given.str() + " disagrees with " + d.op + "'s result " + d.shape.str());
            d.shape = given;
        }
        return d;
    }
    static std::string knownOps() {
        std::string s = " (known: ";
        for (const auto& op : referenceOps()) s += std::string(op.name) + (&op == &referenceOps().back() ? ")" : ", ");
        return s;
    }

    const Reader& m_r;
    Puzzle& m_p;
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

Result<Puzzle> parsePuzzle(const std::string& text, const std::string& file, const std::string& dir) {
    Puzzle p;
    p.dir = dir;
    p.file = file;
    p.folder = fs::path(dir).filename().string();
    p.slug = folderSlug(p.folder, p.number);
    Reader r(file);
    try {
        toml::table root = toml::parse(text, file);
        PuzzleParser(r, p).parse(root);
    } catch (const toml::parse_error& e) {
        return Error{ErrorKind::PuzzleFile, "invalid TOML: " + std::string(e.description()),
                     {file, static_cast<int>(e.source().begin.line), static_cast<int>(e.source().begin.column)}};
    } catch (const LoadFailure& f) {
        return f.error;
    }
    return p;
}

Result<Puzzle> loadPuzzle(const std::string& dir) {
    std::string file = (fs::path(dir) / "puzzle.toml").string();
    auto text = readTextFile(file, kPuzzleFileLimit);
    if (!text) return text.error();
    auto p = parsePuzzle(*text, file, dir);
    if (!p) return p;
    for (const KernelDecl& k : p->kernels)
        for (const std::string* path : {&k.starterPath, &k.solutionPath}) {
            std::error_code ec;
            fs::file_status st = fs::status(*path, ec);
            std::string shown = fs::path(*path).lexically_relative(dir).string();
            if (!fs::exists(st)) return Error{ErrorKind::PuzzleFile, "the kernel file '" + shown + "' is missing", {file}};
            if (!fs::is_regular_file(st))
                return Error{ErrorKind::PuzzleFile, "the kernel file '" + shown + "' is not a plain file (a folder, FIFO or device)", {file}};
        }
    return p;
}

namespace {

// The folders under `root` that hold a puzzle.toml, sorted. Every filesystem call is the
// non-throwing kind: a symbolic link loop or an unreadable folder in a downloaded pack becomes
// an error naming its path, and the other puzzles still load.
std::vector<fs::path> puzzleFolders(const std::string& root, std::vector<Error>& errors) {
    std::vector<fs::path> dirs;
    std::vector<Error> found; // sorted by path below, like the puzzles
    std::error_code ec;
    fs::directory_iterator it(root, ec), end;
    if (ec) {
        errors.push_back(Error{ErrorKind::Io, "cannot list this folder: " + ec.message(), {root}});
        return dirs;
    }
    for (; !ec && it != end; it.increment(ec)) {
        const fs::path& path = it->path();
        std::error_code kindError;
        bool isDir = fs::is_directory(path, kindError);
        if (kindError) {
            if (kindError != std::errc::no_such_file_or_directory) // a dangling link is simply not a puzzle
                found.push_back(Error{ErrorKind::Io, "cannot open this folder: " + kindError.message(), {path.string()}});
            continue;
        }
        if (!isDir) continue;
        std::error_code tomlError;
        bool hasToml = fs::exists(path / "puzzle.toml", tomlError);
        if (tomlError) found.push_back(Error{ErrorKind::Io, "cannot read this folder: " + tomlError.message(), {path.string()}});
        else if (hasToml) dirs.push_back(path);
    }
    std::sort(found.begin(), found.end(), [](const Error& a, const Error& b) { return a.where.file < b.where.file; });
    errors.insert(errors.end(), found.begin(), found.end());
    if (ec) errors.push_back(Error{ErrorKind::Io, "cannot list this folder to its end: " + ec.message(), {root}});
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

// Two folders with one slug or number: only the first is reachable by that name; two with one
// order in a track: the list order falls back to the folder names. Both deserve a word. Packs are
// separate name spaces: a pack's "reverse" beside a built-in one is expected, not a mistake.
void warnDuplicates(const std::vector<Puzzle>& puzzles, std::vector<Error>& warnings) {
    std::map<std::string, const Puzzle*> slugs;
    std::map<int, const Puzzle*> numbers;
    std::map<std::pair<std::string, int>, const Puzzle*> orders;
    auto warn = [&](const Puzzle& p, const std::string& message) { warnings.push_back(Error{ErrorKind::PuzzleFile, message, {p.file}}); };
    for (const Puzzle& p : puzzles) {
        if (auto [first, fresh] = slugs.emplace(p.slug, &p); !fresh)
            warn(p, "the folders " + first->second->folder + " and " + p.folder + " both have the slug '" + p.slug + "'; '" + p.slug +
                        "' names " + first->second->folder + " only");
        if (auto [first, fresh] = numbers.emplace(p.number, &p); !fresh && p.number > 0)
            warn(p, "the folders " + first->second->folder + " and " + p.folder + " both have the number " + std::to_string(p.number) + "; '" +
                        std::to_string(p.number) + "' names " + first->second->folder + " only");
        if (auto [first, fresh] = orders.emplace(std::make_pair(p.track, p.order), &p); !fresh)
            warn(p, "the folders " + first->second->folder + " and " + p.folder + " both have order = " + std::to_string(p.order) + " in the '" +
                        p.track + "' track; they are listed by folder name");
    }
}

// The puzzles of one folder of puzzle folders, sorted for the list.
std::vector<Puzzle> loadFolderOfPuzzles(const std::string& root, std::vector<Error>& errors, std::vector<Error>& warnings) {
    std::vector<Puzzle> puzzles;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
        errors.push_back(Error{ErrorKind::NotFound, "no puzzle folder here", {root}});
        return puzzles;
    }
    size_t errorsBefore = errors.size();
    for (const fs::path& d : puzzleFolders(root, errors)) {
        auto p = loadPuzzle(d.string());
        if (p) puzzles.push_back(std::move(*p));
        else errors.push_back(p.error());
    }
    std::stable_sort(puzzles.begin(), puzzles.end(), [](const Puzzle& a, const Puzzle& b) {
        bool ac = a.track == "classic", bc = b.track == "classic";
        if (ac != bc) return ac;
        if (a.track != b.track) return a.track < b.track;
        return a.order < b.order;
    });
    warnDuplicates(puzzles, warnings);
    if (puzzles.empty() && errors.size() == errorsBefore)
        errors.push_back(Error{ErrorKind::NotFound, "no puzzle folders (NN-name/puzzle.toml) here", {root}});
    return puzzles;
}

// The folder as one path whatever way it was written (relative, "pack/", through a link).
std::string sameFolder(const std::string& dir) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(dir, ec), ec);
    if (ec) p = fs::absolute(dir, ec).lexically_normal();
    std::string s = p.string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
}

// A pack's name: its folder's name, made unique among the packs before it.
std::string packName(const std::string& root, const std::vector<PuzzlePack>& before) {
    std::string base = fs::path(root).filename().string();
    if (base.empty()) base = "pack";
    std::string name = base;
    for (int n = 2; std::any_of(before.begin(), before.end(), [&](const PuzzlePack& k) { return k.name == name; }); ++n)
        name = base + "-" + std::to_string(n);
    return name;
}

bool isDigits(const std::string& s) { return !s.empty() && s.size() < 9 && std::all_of(s.begin(), s.end(), ::isdigit); }

bool answersTo(const Puzzle& p, const std::string& name) {
    return p.folder == name || p.slug == name || (isDigits(name) && p.number > 0 && p.number == std::stoi(name));
}

} // namespace

PuzzleSet loadPuzzleSet(const std::string& root) { return loadPuzzleSet(root, {}); }

PuzzleSet loadPuzzleSet(const std::string& root, const std::vector<std::string>& packs) {
    PuzzleSet set;
    set.root = root;
    set.puzzles = loadFolderOfPuzzles(root, set.errors, set.warnings);
    std::vector<std::string> seen = {sameFolder(root)};
    for (const std::string& given : packs) {
        std::string dir = sameFolder(given);
        if (std::find(seen.begin(), seen.end(), dir) != seen.end()) continue;
        seen.push_back(dir);
        PuzzlePack pack{packName(dir, set.packs), dir};
        if (pack.name != fs::path(dir).filename().string())
            set.warnings.push_back(Error{ErrorKind::PuzzleFile, "another pack is also called " + fs::path(dir).filename().string() +
                                         "; this one's drafts and progress are kept as " + pack.name, {dir}});
        for (Puzzle& p : loadFolderOfPuzzles(dir, set.errors, set.warnings)) {
            p.pack = pack.name;
            p.packRoot = pack.root;
            set.puzzles.push_back(std::move(p));
        }
        set.packs.push_back(std::move(pack));
    }
    return set;
}

Result<const Puzzle*> PuzzleSet::find(const std::string& name) const {
    std::string packPart, puzzlePart = name;
    if (size_t slash = name.find('/'); slash != std::string::npos && !packs.empty()) {
        packPart = name.substr(0, slash);
        puzzlePart = name.substr(slash + 1);
    }
    // Packs first, in the order given, then the built-in puzzles (pack "").
    std::vector<std::string> order;
    for (const PuzzlePack& k : packs) order.push_back(k.name);
    order.push_back("");
    for (const std::string& pack : order) {
        if (!packPart.empty() && pack != packPart) continue;
        for (const Puzzle& p : puzzles)
            if (p.pack == pack && answersTo(p, puzzlePart)) return &p;
    }
    std::string close;
    for (const Puzzle& p : puzzles)
        if (p.slug.find(puzzlePart) != std::string::npos || (puzzlePart.size() > 2 && p.slug.starts_with(puzzlePart.substr(0, 2))))
            close += (close.empty() ? "" : ", ") + (p.pack.empty() ? p.slug : p.pack + "/" + p.slug);
    std::string msg = "no puzzle named '" + name + "'";
    if (!close.empty()) msg += " (did you mean: " + close + "?)";
    msg += "; `vkpuzzles list` shows them all";
    return Error{ErrorKind::NotFound, msg};
}

uint64_t puzzleFilesStamp(const std::string& dir) {
    uint64_t h = 1469598103934665603ull; // FNV-1a over every file's name, size and time
    auto mix = [&h](const void* data, size_t n) {
        for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
    };
    std::error_code ec;
    int seen = 0;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end && seen < 512;
         it.increment(ec), ++seen) {
        if (it.depth() > 2) it.disable_recursion_pending();
        std::error_code fe;
        if (!it->is_regular_file(fe)) continue;
        std::string name = it->path().string();
        auto size = it->file_size(fe);
        auto time = it->last_write_time(fe).time_since_epoch().count();
        mix(name.data(), name.size());
        mix(&size, sizeof size);
        mix(&time, sizeof time);
    }
    return h;
}

std::vector<const Puzzle*> PuzzleSet::inScope() const {
    std::vector<const Puzzle*> out;
    for (const Puzzle& p : puzzles)
        if (packs.empty() == p.pack.empty()) out.push_back(&p);
    return out;
}

} // namespace vkp
