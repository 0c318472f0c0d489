#include "puzzle/own_case.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "puzzle/passes.h"
#include "puzzle/puzzle_loader.h"
#include "reference/reference_ops.h"

namespace vkp {
namespace {

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& s, char separator) {
    std::vector<std::string> out;
    std::string piece;
    std::istringstream in(s);
    while (std::getline(in, piece, separator))
        out.push_back(piece);
    if (!s.empty() && s.back() == separator) out.push_back("");
    return out;
}

// What a value of this type must look like, for messages.
std::string typeRule(ElementKind type) {
    switch (type) {
    case ElementKind::Float:
        return "a float needs a number such as 2, -1.5 or 1e3";
    case ElementKind::Int:
        return "an int needs a whole number from -2147483648 to 2147483647";
    case ElementKind::Uint:
        return "a uint needs a whole number from 0 to 4294967295";
    }
    return "";
}

std::optional<double> parseElement(const std::string& text, ElementKind type) {
    const char* end = text.data() + text.size();
    if (type == ElementKind::Float) {
        double v = 0;
        auto [at, ec] = std::from_chars(text.data(), end, v);
        if (ec != std::errc() || at != end || !std::isfinite(v)) return std::nullopt;
        return v;
    }
    int64_t v = 0;
    auto [at, ec] = std::from_chars(text.data() + (text.starts_with("+") ? 1 : 0), end, v);
    if (ec != std::errc() || at != end) return std::nullopt;
    if (type == ElementKind::Int && (v < INT32_MIN || v > INT32_MAX)) return std::nullopt;
    if (type == ElementKind::Uint && (v < 0 || v > UINT32_MAX)) return std::nullopt;
    return static_cast<double>(v);
}

std::optional<uint64_t> wholeNumber(const std::string& text) {
    uint64_t v = 0;
    auto [at, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || at != text.data() + text.size()) return std::nullopt;
    return v;
}

class OwnCaseBuilder {
  public:
    OwnCaseBuilder(const Puzzle& p, const OwnCaseSpec& spec, const OwnCaseFieldNamer& name)
        : m_puzzle(p), m_spec(spec), m_name(name) {}

    Result<TestCase> build() {
        if (m_spec.templateCase >= m_puzzle.puzzleCaseCount())
            return Error{ErrorKind::Usage, m_name(OwnCaseField::TemplateCase, "") + ": " +
                                               m_puzzle.slug + " has cases 1 to " +
                                               std::to_string(m_puzzle.puzzleCaseCount())};
        m_case = m_puzzle.cases[m_spec.templateCase];
        // A case of your own shows its data in full: it cannot start from one the teacher hid.
        if (m_case.hidden)
            return Error{ErrorKind::Usage,
                         "case " + std::to_string(m_spec.templateCase + 1) + " of " +
                             m_puzzle.slug +
                             " is hidden by your teacher: a case of your own starts from a "
                             "visible one"};
        m_case.own = true;
        m_case.name = "your case, from case " + std::to_string(m_spec.templateCase + 1);
        for (const auto& [buffer, text] : m_spec.inputs)
            if (auto e = setInput(buffer, text)) return *e;
        // Inputs left as they were whose sizes follow the first input's ("N", "cols": a scan's
        // flags, matmul's b) follow the learner's first input too.
        if (auto s = evaluateShapeExprs(m_puzzle, m_case); !s)
            return error(OwnCaseField::Input, m_puzzle.buffers[*m_puzzle.firstInput()].name,
                         s.error().message);
        if (auto e = setWorkgroupSize()) return *e;
        if (auto e = setConstants()) return *e;
        if (auto e = sizeScratch()) return *e;
        if (auto e = setWorkgroups()) return *e;
        if (auto e = setOutputs()) return *e;
        return m_case;
    }

  private:
    Error error(OwnCaseField field, const std::string& name, const std::string& message) const {
        return Error{ErrorKind::Usage, m_name(field, name) + ": " + message};
    }
    std::string inputNames() const {
        std::string s;
        for (const BufferDecl& b : m_puzzle.buffers)
            if (b.role != RoleKind::Output && !b.size) s += (s.empty() ? "" : ", ") + b.name;
        return s;
    }

    std::optional<Error> setInput(const std::string& buffer, const std::string& text) {
        auto idx = m_puzzle.bufferIndex(buffer);
        if (!idx)
            return error(OwnCaseField::Input, buffer,
                         "no buffer named '" + buffer + "' in " + m_puzzle.slug +
                             " (its inputs: " + inputNames() + ")");
        const BufferDecl& b = m_puzzle.buffers[*idx];
        if (b.role == RoleKind::Output)
            return error(OwnCaseField::Input, buffer,
                         "'" + buffer + "' is an output: the kernel writes it (its inputs: " +
                             inputNames() + ")");
        if (b.size)
            return error(OwnCaseField::Input, buffer,
                         "'" + buffer + "' is scratch sized by \"" + b.size->text() +
                             "\" and starts zero-filled; it takes no values");
        if (m_given.count(*idx))
            return error(OwnCaseField::Input, buffer, "'" + buffer + "' is given twice");
        m_given[*idx] = true;
        auto data = parseData(b, *idx, trim(text));
        if (!data) return data.error();
        m_case.data[*idx] = std::move(*data);
        return std::nullopt;
    }
    Result<DataSpec> parseData(const BufferDecl& b, size_t idx, const std::string& text) const {
        if (text.starts_with("{")) return parseDataTable(text, m_name(OwnCaseField::Input, b.name));
        DataSpec d;
        std::vector<std::string> rows = split(text, ';');
        if (rows.size() > 1 && b.dims == 1)
            return error(OwnCaseField::Input, b.name,
                         "'" + b.name +
                             "' is one-dimensional: separate its values with commas, not ';'");
        size_t width = 0;
        for (size_t r = 0; r < rows.size(); ++r) {
            size_t before = d.values.size();
            if (auto e = parseRow(b, rows[r], r, rows.size(), d.values)) return *e;
            size_t n = d.values.size() - before;
            if (r > 0 && n != width)
                return error(OwnCaseField::Input, b.name,
                             "row " + std::to_string(r + 1) + " has " + std::to_string(n) +
                                 " values, row 1 has " + std::to_string(width) +
                                 "; every row needs as many");
            width = n;
        }
        if (d.values.empty())
            return error(OwnCaseField::Input, b.name, "give at least one value, e.g. 1, 2, 3");
        if (d.values.size() > kMaxBufferElements)
            return error(OwnCaseField::Input, b.name,
                         std::to_string(d.values.size()) + " values; the limit is " +
                             std::to_string(kMaxBufferElements));
        auto shape = shapeOf(b, idx, rows.size(), d.values.size());
        if (!shape) return shape.error();
        d.shape = *shape;
        return d;
    }
    std::optional<Error> parseRow(const BufferDecl& b, const std::string& row, size_t r,
                                  size_t rows, std::vector<double>& out) const {
        std::vector<std::string> pieces = split(row, ',');
        std::string where = rows > 1 ? " in row " + std::to_string(r + 1) : "";
        if (trim(row).empty() && (rows > 1 || !out.empty()))
            return error(OwnCaseField::Input, b.name,
                         "an empty row" + where + " (a ';' too many?)");
        for (const std::string& piece : pieces) {
            std::istringstream words(piece);
            std::string w;
            bool any = false;
            while (words >> w) {
                any = true;
                auto v = parseElement(w, b.type);
                if (!v)
                    return error(OwnCaseField::Input, b.name,
                                 "'" + w + "' (value " + std::to_string(out.size() + 1) + where +
                                     ") is not a " + elementKindName(b.type) + ": " +
                                     typeRule(b.type));
                out.push_back(*v);
            }
            if (!any && pieces.size() > 1)
                return error(OwnCaseField::Input, b.name,
                             "an empty value between commas" + where + " (a ',' too many?)");
        }
        return std::nullopt;
    }
    // 1D: [n]. 2D: the rows given, or one line cut into rows as wide as the template's.
    Result<Shape> shapeOf(const BufferDecl& b, size_t idx, size_t rows, size_t count) const {
        if (b.dims == 1) return Shape{{count}};
        if (rows > 1) return Shape{{rows, count / rows}};
        const DataSpec& templ = *m_puzzle.cases[m_spec.templateCase].data[idx];
        uint64_t width = templ.shape.cols();
        if (width == 0 || count % width != 0)
            return error(OwnCaseField::Input, b.name,
                         std::to_string(count) + " values do not make rows of " +
                             std::to_string(width) + " (case " +
                             std::to_string(m_spec.templateCase + 1) +
                             "'s width); separate the rows with ';', e.g. 1 2 3; 4 5 6");
        return Shape{{count / width, width}};
    }

    Result<std::array<uint32_t, 3>> dimsList(OwnCaseField field, const std::string& text,
                                             uint64_t hi) const {
        std::vector<std::string> parts = split(text, ',');
        std::string rule = "give X, X,Y or X,Y,Z, whole numbers from 1 to " + std::to_string(hi);
        if (parts.empty() || parts.size() > 3)
            return error(field, "", rule + ", not '" + text + "'");
        std::array<uint32_t, 3> out{1, 1, 1};
        for (size_t i = 0; i < parts.size(); ++i) {
            auto v = wholeNumber(trim(parts[i]));
            if (!v || *v < 1 || *v > hi) return error(field, "", rule + ", not '" + text + "'");
            out[i] = static_cast<uint32_t>(*v);
        }
        return out;
    }
    std::optional<Error> setWorkgroupSize() {
        if (trim(m_spec.workgroupSize).empty()) return std::nullopt;
        auto size =
            dimsList(OwnCaseField::WorkgroupSize, trim(m_spec.workgroupSize), kMaxWorkgroupThreads);
        if (!size) return size.error();
        uint64_t threads = uint64_t((*size)[0]) * (*size)[1] * (*size)[2];
        if (threads > kMaxWorkgroupThreads)
            return error(OwnCaseField::WorkgroupSize, "",
                         "a workgroup of " + std::to_string(threads) +
                             " threads is over the limit of " +
                             std::to_string(kMaxWorkgroupThreads));
        m_case.workgroupSize = *size;
        return std::nullopt;
    }
    ExprVars vars() const {
        auto first = m_puzzle.firstInput();
        return {first && m_case.data[*first] ? m_case.data[*first]->shape.count() : 0,
                m_case.workgroupSize[0], &m_names};
    }
    // Given constants are set; the others are re-evaluated for the new N and WG.
    std::optional<Error> setConstants() {
        std::map<uint32_t, bool> given;
        for (const auto& [name, text] : m_spec.constants) {
            auto decl =
                std::find_if(m_puzzle.constants.begin(), m_puzzle.constants.end(),
                             [&key = name](const ConstantDecl& d) { return d.name == key; });
            if (decl == m_puzzle.constants.end())
                return error(OwnCaseField::Constant, name,
                             "'" + name + "' is not a constant of " + m_puzzle.slug +
                                 constantsList());
            auto v = wholeNumber(trim(text));
            if (!v || *v > UINT32_MAX)
                return error(OwnCaseField::Constant, name,
                             "needs a whole number from 0 to 4294967295, not '" + text + "'");
            m_case.constants[decl->id] = static_cast<uint32_t>(*v);
            m_case.constantExprs[decl->id] = Expr::literal(*v); // a benchmark at N keeps it
            given[decl->id] = true;
        }
        ExprVars v = vars();
        std::map<std::string, uint64_t> shape;  // constants do not use each other, only N, WG,
        addShapeNames(m_puzzle, m_case, shape); // rows and cols
        v.names = &shape;
        for (const auto& [id, e] : m_case.constantExprs) {
            if (given.count(id)) continue;
            auto value = e.evaluateChecked(v);
            if (!value || *value > UINT32_MAX)
                return error(OwnCaseField::Constant, nameOf(id),
                             "\"" + e.text() + "\" has no 32-bit value for this case; set it");
            m_case.constants[id] = static_cast<uint32_t>(*value);
        }
        for (const ConstantDecl& d : m_puzzle.constants)
            m_names[d.name] = m_case.constants.at(d.id);
        addShapeNames(m_puzzle, m_case, m_names);
        return std::nullopt;
    }
    std::string nameOf(uint32_t id) const {
        for (const ConstantDecl& d : m_puzzle.constants)
            if (d.id == id) return d.name;
        return std::to_string(id);
    }
    std::string constantsList() const {
        if (m_puzzle.constants.empty()) return " (it has none)";
        std::string s;
        for (const ConstantDecl& d : m_puzzle.constants)
            s += (s.empty() ? " (its constants: " : ", ") + d.name;
        return s + ")";
    }
    std::optional<Error> sizeScratch() {
        for (size_t b = 0; b < m_puzzle.buffers.size(); ++b) {
            if (!m_puzzle.buffers[b].size) continue;
            auto n = m_puzzle.buffers[b].size->evaluateChecked(vars(), "size");
            if (!n || *n < 1 || *n > kMaxBufferElements)
                return Error{ErrorKind::Usage, "the scratch buffer '" + m_puzzle.buffers[b].name +
                                                   "' (size \"" + m_puzzle.buffers[b].size->text() +
                                                   "\") would hold " +
                                                   (n ? std::to_string(*n) : "no") +
                                                   " elements for these inputs; it needs 1 to " +
                                                   std::to_string(kMaxBufferElements)};
            m_case.data[b] = sizedScratch(*m_puzzle.buffers[b].size, vars());
        }
        return std::nullopt;
    }
    std::optional<Error> setWorkgroups() {
        std::string given = trim(m_spec.workgroups);
        if (m_puzzle.multiPass()) {
            if (!given.empty())
                return error(
                    OwnCaseField::Workgroups, "",
                    m_puzzle.slug +
                        " is multi-pass: each pass computes its own workgroup count from N");
            return std::nullopt;
        }
        if (!given.empty()) {
            auto wg = dimsList(OwnCaseField::Workgroups, given, kMaxWorkgroupsPerDim);
            if (!wg) return wg.error();
            m_case.workgroups = *wg;
            return std::nullopt;
        }
        for (int d = 0; d < 3; ++d) {
            auto w = m_case.workgroupExprs[d].evaluateChecked(vars(), "workgroups");
            if (!w || *w < 1 || *w > kMaxWorkgroupsPerDim)
                return error(OwnCaseField::Workgroups, "",
                             "\"" + m_case.workgroupExprs[d].text() + "\" gives " +
                                 (w ? std::to_string(*w) : "no count") +
                                 " workgroups for these inputs; give a count from 1 to " +
                                 std::to_string(kMaxWorkgroupsPerDim));
            m_case.workgroups[d] = static_cast<uint32_t>(*w);
        }
        return std::nullopt;
    }
    // Reference ops follow the new inputs; outputs written out by hand have no expected values.
    std::optional<Error> setOutputs() {
        auto first = m_puzzle.firstInput();
        const TestCase& templ = m_puzzle.cases[m_spec.templateCase];
        for (size_t b = 0; b < m_puzzle.buffers.size(); ++b) {
            if (m_puzzle.buffers[b].role != RoleKind::Output) continue;
            DataSpec& d = *m_case.data[b];
            if (d.kind == DataSpec::Kind::Op) {
                std::vector<Shape> shapes;
                for (size_t a : d.args)
                    shapes.push_back(m_case.data[a]->shape);
                auto shape = referenceOpShape(d.op, shapes, d.params);
                if (!shape)
                    return Error{ErrorKind::Usage, "these inputs do not fit '" +
                                                       m_puzzle.buffers[b].name + "' = " + d.op +
                                                       ": " + shape.error().message};
                if (shape->count() != d.shape.count())
                    d.shape = *shape; // a same-sized one keeps the case's view (2D)
                continue;
            }
            if (d.kind == DataSpec::Kind::Each && !d.shapeGiven && first) {
                d.shape = m_case.data[*first]->shape; // the expression follows the new inputs
                continue;
            }
            // As long as the first input in the template: as long as the new one; else its own
            // size.
            bool followsN =
                first && templ.data[*first] && d.shape.count() == templ.data[*first]->shape.count();
            d.kind = DataSpec::Kind::Unchecked;
            d.values.clear();
            if (followsN) d.shape = m_case.data[*first]->shape;
        }
        return std::nullopt;
    }

    const Puzzle& m_puzzle;
    const OwnCaseSpec& m_spec;
    const OwnCaseFieldNamer& m_name;
    TestCase m_case;
    std::map<size_t, bool> m_given;
    std::map<std::string, uint64_t> m_names; // the case's constants, for size expressions
};

} // namespace

Result<TestCase> buildOwnCase(const Puzzle& puzzle, const OwnCaseSpec& spec,
                              const OwnCaseFieldNamer& name) {
    return OwnCaseBuilder(puzzle, spec, name).build();
}

bool ownCaseChecked(const TestCase& c) {
    return std::none_of(c.data.begin(), c.data.end(), [](const std::optional<DataSpec>& d) {
        return d && d->kind == DataSpec::Kind::Unchecked;
    });
}

std::string valuesText(const BufferData& data, int dims) {
    std::string s;
    uint64_t cols = std::max<uint64_t>(1, data.shape.cols());
    for (uint64_t i = 0; i < data.shape.count(); ++i) {
        if (i > 0) s += dims == 2 && i % cols == 0 ? "; " : ", ";
        s += data.format(i);
    }
    return s;
}

std::string dataSpecFormText(const DataSpec& d, const BufferData& materialised, int dims) {
    auto number = [](double v) {
        std::ostringstream s;
        s << v;
        return s.str();
    };
    std::string shape = "shape = " + d.shape.str();
    switch (d.kind) {
    case DataSpec::Kind::Iota:
        return "{ " + shape + ", fill = \"iota\", start = " + number(d.start) +
               ", step = " + number(d.step) + " }";
    case DataSpec::Kind::Constant:
        return "{ " + shape + ", fill = \"constant\", value = " + number(d.value) + " }";
    case DataSpec::Kind::Random:
        return "{ " + shape + ", fill = \"random\", seed = " + std::to_string(d.seed) +
               ", min = " + std::to_string(d.min) + ", max = " + std::to_string(d.max) + " }";
    default:
        return valuesText(materialised, dims);
    }
}

std::string dimsListText(const std::array<uint32_t, 3>& dims) {
    std::string s = std::to_string(dims[0]);
    if (dims[1] != 1 || dims[2] != 1) s += "," + std::to_string(dims[1]);
    if (dims[2] != 1) s += "," + std::to_string(dims[2]);
    return s;
}

Puzzle withCase(const Puzzle& puzzle, TestCase c) {
    Puzzle p = puzzle;
    p.cases.push_back(std::move(c));
    return p;
}

} // namespace vkp
