#include "authoring/pack_lint.h"

#include <algorithm>
#include <cctype>

namespace vkp {
namespace {

bool wordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `word` appears in `text` as a whole word (`a` in "`a` (input)", not in "and").
bool namesWord(const std::string& text, const std::string& word) {
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        bool left = at == 0 || !wordChar(text[at - 1]);
        bool right = at + word.size() >= text.size() || !wordChar(text[at + word.size()]);
        if (left && right) return true;
    }
    return false;
}

std::string caseName(size_t i) {
    return "case " + std::to_string(i + 1);
}

class Linter {
  public:
    Linter(const Puzzle& p, const std::vector<std::string>& solutions)
        : m_p(p), m_solutions(solutions) {}

    std::vector<Diagnostic> run() {
        statement();
        for (size_t i = 0; i < m_p.cases.size(); ++i) {
            auto d = materializeCase(m_p, i);
            m_data.push_back(d ? std::move(*d) : CaseData{});
        }
        distinct();
        square();
        oneWorkgroup();
        sizes();
        equalInputs();
        return std::move(m_out);
    }

  private:
    void add(SeverityKind severity, std::string message, SourceLocation where) {
        if (where.file.empty()) where = {m_p.file, 0, 0};
        m_out.push_back(diagnosticAt(where, severity, std::move(message)));
    }
    void error(std::string message, SourceLocation where = {}) {
        add(SeverityKind::Error, std::move(message), std::move(where));
    }
    void warning(std::string message, SourceLocation where = {}) {
        add(SeverityKind::Warning, std::move(message), std::move(where));
    }
    bool twoD() const {
        for (const BufferDecl& b : m_p.buffers)
            if (b.dims == 2) return true;
        return std::any_of(m_p.cases.begin(), m_p.cases.end(), [](const TestCase& c) {
            return c.workgroupSize[1] > 1 || c.workgroups[1] > 1;
        });
    }
    uint64_t elements(size_t i) const { // the case's N: its first input's length
        auto in = m_p.firstInput();
        if (!in || i >= m_data.size() || *in >= m_data[i].initial.size()) return 0;
        return m_data[i].initial[*in].shape.count();
    }

    void statement() {
        for (const BufferDecl& b : m_p.buffers)
            if (!namesWord(m_p.statement, b.name))
                error("the statement never names the buffer '" + b.name +
                      "': say what it holds (a learner sees the name in the starter)");
    }
    bool sameCase(size_t a, size_t b) const {
        const TestCase &x = m_p.cases[a], &y = m_p.cases[b];
        if (x.workgroupSize != y.workgroupSize || x.workgroups != y.workgroups ||
            x.constants != y.constants)
            return false;
        const auto &dx = m_data[a].initial, &dy = m_data[b].initial;
        if (dx.size() != dy.size() || dx.empty()) return false;
        for (size_t k = 0; k < dx.size(); ++k)
            if (dx[k].words != dy[k].words || dx[k].shape.dims != dy[k].shape.dims) return false;
        return true;
    }
    void distinct() {
        for (size_t b = 1; b < m_p.cases.size(); ++b)
            for (size_t a = 0; a < b; ++a)
                if (sameCase(a, b)) {
                    error(caseName(b) + " is the same as " + caseName(a) +
                              " (same launch, constants and data): it tests nothing new",
                          m_p.cases[b].where);
                    break;
                }
    }
    void square() {
        if (!twoD() || m_p.cases.empty()) return;
        for (size_t i = 0; i < m_p.cases.size(); ++i) {
            const TestCase& c = m_p.cases[i];
            if (c.workgroupSize[0] * uint64_t(c.workgroups[0]) !=
                    c.workgroupSize[1] * uint64_t(c.workgroups[1]) ||
                c.workgroupSize[0] != c.workgroupSize[1])
                return;
            for (const BufferData& d : m_data[i].initial)
                if (d.shape.dims.size() == 2 && d.shape.dims[0] != d.shape.dims[1]) return;
        }
        warning("every case is square (buffers, launch grid and workgroup): a kernel with x "
                "and y swapped passes them; add a case with rows != columns");
    }
    void oneWorkgroup() {
        bool aboutSeveral = std::any_of(m_solutions.begin(), m_solutions.end(), [](const auto& s) {
            return s.find("gl_WorkGroupID") != std::string::npos ||
                   s.find("gl_GlobalInvocationID") != std::string::npos;
        });
        bool allOne = std::all_of(m_p.cases.begin(), m_p.cases.end(), [](const TestCase& c) {
            return c.workgroups == std::array<uint32_t, 3>{1, 1, 1};
        });
        if (aboutSeveral && allOne && !promisesOneWorkgroup(m_p) && !m_p.multiPass() &&
            !m_p.cases.empty())
            warning("every case launches one workgroup, but the official solution uses the "
                    "workgroup or global id: a kernel that assumes one workgroup passes; add "
                    "a case with several workgroups");
    }
    void sizes() {
        if (twoD() || m_p.cases.empty() || !m_p.firstInput()) return;
        bool allMultiples = true, someSmaller = false, someExtra = false;
        for (size_t i = 0; i < m_p.cases.size(); ++i) {
            const TestCase& c = m_p.cases[i];
            uint64_t n = elements(i), wg = c.workgroupSize[0];
            allMultiples = allMultiples && n % wg == 0;
            someSmaller = someSmaller || n < wg;
            someExtra = someExtra || c.threadCount() > n;
        }
        if (allMultiples)
            warning("every case's size is a multiple of its workgroup size: a kernel without "
                    "its bounds check, or one that assumes whole workgroups, passes; add a case "
                    "whose n is not a multiple of the workgroup size");
        if (someExtra && !someSmaller)
            warning("no case has fewer elements than the workgroup size, though cases may "
                    "launch more threads than elements; add one (n < workgroup size)");
    }
    void equalInputs() {
        for (size_t i = 0; i < m_data.size(); ++i)
            for (size_t b = 0; b < m_p.buffers.size() && b < m_data[i].initial.size(); ++b) {
                const BufferData& d = m_data[i].initial[b];
                if (m_p.buffers[b].role != RoleKind::Input || d.words.size() < 2) continue;
                if (std::all_of(d.words.begin(), d.words.end(),
                                [&](uint32_t w) { return w == d.words[0]; }))
                    warning(caseName(i) + ": every element of input '" + m_p.buffers[b].name +
                                "' is the same: a kernel that reads the wrong element passes it; "
                                "use distinct values (a random fill, or iota)",
                            m_p.cases[i].where);
            }
    }

    const Puzzle& m_p;
    const std::vector<std::string>& m_solutions;
    std::vector<CaseData> m_data;
    std::vector<Diagnostic> m_out;
};

} // namespace

std::vector<Diagnostic> lintPuzzle(const Puzzle& puzzle,
                                   const std::vector<std::string>& solutionTexts) {
    return Linter(puzzle, solutionTexts).run();
}

bool promisesOneWorkgroup(const Puzzle& puzzle) {
    std::string statement = puzzle.statement;
    std::transform(statement.begin(), statement.end(), statement.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return statement.find("one workgroup is launched") != std::string::npos;
}

} // namespace vkp
