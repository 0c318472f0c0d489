#include "puzzle/pass_loader.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "puzzle/passes.h"
#include "reference/reference_ops.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

bool isIdentifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

class PassParser {
  public:
    PassParser(const Reader& r, Puzzle& p) : m_reader(r), m_puzzle(p) {}

    void parse(const toml::table& root) {
        const toml::node* kernels = root.get("kernels");
        const toml::node* passes = root.get("passes");
        if (!kernels && !passes) {
            for (const char* table : {"laps", "rounds"})
                if (const toml::node* r = root.get(table))
                    m_reader.fail(r, "[" + std::string(table) +
                                         "] repeats a multi-pass puzzle's [[passes]]: this "
                                         "puzzle has none");
            return singleKernel(root);
        }
        if (!passes)
            m_reader.fail(kernels,
                          "a puzzle with [[kernels]] needs [[passes]] saying how they run");
        if (!kernels)
            m_reader.fail(passes, "[[passes]] name kernels: declare them under [[kernels]]");
        for (const toml::node& k : arrayOfTables(kernels, "kernels"))
            parseKernel(m_reader.asTable(&k, "each [[kernels]] entry"));
        for (const toml::node& n : arrayOfTables(passes, "passes"))
            m_puzzle.passes.push_back(parsePass(m_reader.asTable(&n, "each [[passes]] entry")));
        parseLaps(root);
        for (size_t k = 0; k < m_puzzle.kernels.size(); ++k) {
            bool used = std::any_of(m_puzzle.passes.begin(), m_puzzle.passes.end(),
                                    [&](const PassDecl& d) { return d.kernel == k; });
            if (!used)
                m_reader.fail(kernels, "the kernel '" + m_puzzle.kernels[k].name +
                                           "' is not run by any pass");
        }
        for (size_t c = 0; c < m_puzzle.cases.size(); ++c)
            checkCase(c);
    }

  private:
    const toml::array& arrayOfTables(const toml::node* n, const std::string& key) const {
        if (!n->is_array() || n->as_array()->empty())
            m_reader.fail(n, "'" + key + "' must be a non-empty array of tables ([[" + key + "]])");
        return *n->as_array();
    }
    void singleKernel(const toml::table& root) {
        KernelDecl k{"kernel", m_puzzle.starterPath, m_puzzle.solutionPath, {}};
        for (size_t b = 0; b < m_puzzle.buffers.size(); ++b)
            k.buffers.push_back(b);
        m_puzzle.kernels.push_back(std::move(k));
        (void)root;
    }
    void parseKernel(const toml::table& t) {
        m_reader.rejectUnknownKeys(t, {"name", "starter", "solution", "buffers"},
                                   "a [[kernels]] entry");
        KernelDecl k;
        k.name = m_reader.string(t, "name");
        if (!isIdentifier(k.name))
            m_reader.fail(t.get("name"), "a kernel's name must be a word (letters, digits, _): it "
                                         "names its file, NAME.comp");
        for (const KernelDecl& other : m_puzzle.kernels)
            if (other.name == k.name)
                m_reader.fail(t.get("name"), "kernel name '" + k.name + "' is used twice");
        k.starterPath =
            m_reader.fileInFolder(t, "starter", "starter/" + k.name + ".comp", m_puzzle.dir);
        k.solutionPath =
            m_reader.fileInFolder(t, "solution", "solution/" + k.name + ".comp", m_puzzle.dir);
        if (const toml::node* b = t.get("buffers")) {
            if (!b->is_array()) m_reader.fail(b, "'buffers' must be an array of buffer names");
            for (const toml::node& n : *b->as_array())
                k.buffers.push_back(bufferNamed(&n, "buffers"));
            std::sort(k.buffers.begin(), k.buffers.end());
        } else {
            for (size_t i = 0; i < m_puzzle.buffers.size(); ++i)
                k.buffers.push_back(i);
        }
        if (m_puzzle.kernels.empty()) {
            m_puzzle.starterPath =
                k.starterPath; // the first kernel stands for the puzzle where one is shown
            m_puzzle.solutionPath = k.solutionPath;
        }
        m_puzzle.kernels.push_back(std::move(k));
    }
    size_t bufferNamed(const toml::node* n, const std::string& key) const {
        std::string name = m_reader.asString(n, key.c_str());
        auto idx = m_puzzle.bufferIndex(name);
        if (!idx) m_reader.fail(n, "no buffer named '" + name + "' in this puzzle");
        return *idx;
    }
    PassDecl parsePass(const toml::table& t) {
        PassDecl d;
        d.where = m_reader.where(&t);
        std::string kernel = m_reader.string(t, "kernel");
        auto it = std::find_if(m_puzzle.kernels.begin(), m_puzzle.kernels.end(),
                               [&](const KernelDecl& k) { return k.name == kernel; });
        if (it == m_puzzle.kernels.end())
            m_reader.fail(t.get("kernel"), "no kernel named '" + kernel + "' under [[kernels]]");
        d.kernel = static_cast<size_t>(it - m_puzzle.kernels.begin());
        const toml::array& wg = m_reader.array(t, "workgroups");
        if (wg.empty() || wg.size() > 3) m_reader.fail(&wg, "'workgroups' needs 1 to 3 entries");
        for (size_t a = 0; a < wg.size(); ++a)
            d.workgroups[a] = expr(wg.get(a), "workgroups");
        if (const toml::node* n = t.get("repeat")) d.repeat = expr(n, "repeat");
        if (const toml::node* n = t.get("push")) {
            for (const auto& [key, v] : m_reader.asTable(n, "'push'"))
                d.push.emplace_back(std::string(key.str()), expr(&v, std::string(key.str())));
        }
        if (const toml::node* n = t.get("swap")) d.swap = parseSwap(n);
        d.label = m_reader.stringOr(t, "label", "");
        if (t.get("label") && d.label.find_first_not_of(' ') == std::string::npos)
            m_reader.fail(t.get("label"), "'label' names the pass's dispatches: it needs a word");
        for (const auto& [key, v] : t) {
            static const std::set<std::string> known = {"kernel", "workgroups", "repeat",
                                                        "push",   "swap",       "label"};
            if (!known.count(std::string(key.str())))
                m_reader.fail(&v, "unknown field '" + std::string(key.str()) +
                                      "' in a pass (known: kernel, workgroups, repeat, push, "
                                      "swap, label)");
        }
        return d;
    }
    // [laps], or [rounds] (its old name), not both.
    void parseLaps(const toml::table& root) {
        const toml::node* laps = root.get("laps");
        const toml::node* rounds = root.get("rounds");
        if (laps && rounds)
            m_reader.fail(rounds, "[rounds] is the old name of [laps]: keep one of the two");
        if (!laps && !rounds) return;
        LapsDecl& d = m_puzzle.laps;
        d.table = laps ? "[laps]" : "[rounds]";
        const toml::table& t = m_reader.asTable(laps ? laps : rounds, d.table);
        m_reader.rejectUnknownKeys(t, {"repeat", "swap"}, d.table);
        d.where = m_reader.where(&t);
        const toml::node* n = t.get("repeat");
        if (!n) m_reader.fail(&t, d.table + " needs 'repeat': how many times the passes run");
        d.repeat = expr(n, "repeat", false);
        if (const toml::node* sw = t.get("swap")) d.swap = parseSwap(sw);
    }
    std::array<size_t, 2> parseSwap(const toml::node* n) const {
        if (!n->is_array() || n->as_array()->size() != 2)
            m_reader.fail(n, "'swap' names two buffers: swap = [\"a\", \"b\"]");
        std::array<size_t, 2> s{bufferNamed(n->as_array()->get(0), "swap"),
                                bufferNamed(n->as_array()->get(1), "swap")};
        if (s[0] == s[1]) m_reader.fail(n, "'swap' needs two different buffers");
        if (m_puzzle.buffers[s[0]].type != m_puzzle.buffers[s[1]].type)
            m_reader.fail(n, "the two buffers of 'swap' must hold the same element type");
        return s;
    }
    // A pass's expressions may use the repetition i and the lap (`round`, its old name); [laps]'
    // repeat neither.
    Expr expr(const toml::node* n, const std::string& key, bool inPass = true) const {
        Expr e = parseExprValue(m_reader, n, key);
        for (const std::string& name : e.names()) {
            bool known = (inPass && (name == "i" || name == "lap" || name == "round")) ||
                         std::any_of(m_puzzle.constants.begin(), m_puzzle.constants.end(),
                                     [&](const ConstantDecl& c) { return c.name == name; });
            if (!known)
                m_reader.fail(n, "unknown name '" + name + "' in \"" + e.text() +
                                     "\" (known: N, WG" + (inPass ? ", i, lap" : "") +
                                     ", the puzzle's constants)");
        }
        return e;
    }
    // Every case must unroll into valid dispatches, and swapped buffers must be the same size.
    void checkCase(size_t c) {
        const TestCase& tc = m_puzzle.cases[c];
        auto d = caseDispatches(m_puzzle, c);
        if (!d) {
            Error e = d.error();
            e.message = "case " + std::to_string(c + 1) + ": " + e.message;
            throw e;
        }
        auto sameSize = [&](const std::optional<std::array<size_t, 2>>& swap,
                            const SourceLocation& where) {
            auto size = [&](size_t b) { return tc.data[b] ? tc.data[b]->shape.count() : 0; };
            if (swap && size((*swap)[0]) != size((*swap)[1]))
                throw Error{ErrorKind::PuzzleFile,
                            "case " + std::to_string(c + 1) + ": the swapped buffers '" +
                                m_puzzle.buffers[(*swap)[0]].name + "' and '" +
                                m_puzzle.buffers[(*swap)[1]].name + "' have different sizes",
                            where};
        };
        for (const PassDecl& pass : m_puzzle.passes)
            sameSize(pass.swap, pass.where);
        sameSize(m_puzzle.laps.swap, m_puzzle.laps.where);
    }

    const Reader& m_reader;
    Puzzle& m_puzzle;
};

} // namespace

void parseKernelsAndPasses(const Reader& r, const toml::table& root, Puzzle& p) {
    PassParser(r, p).parse(root);
}

void parsePitfalls(const Reader& r, const toml::table& root, Puzzle& p) {
    const toml::node* n = root.get("pitfalls");
    if (!n) return;
    if (!n->is_array()) r.fail(n, "'pitfalls' must be an array of tables ([[pitfalls]])");
    for (const toml::node& e : *n->as_array()) {
        const toml::table& t = r.asTable(&e, "each [[pitfalls]] entry");
        PitfallDecl d;
        d.where = r.where(&t);
        std::string buffer = r.string(t, "buffer");
        auto idx = p.bufferIndex(buffer);
        if (!idx || p.buffers[*idx].role != RoleKind::Output)
            r.fail(t.get("buffer"), "'" + buffer + "' is not an output buffer of this puzzle");
        d.buffer = *idx;
        d.op = r.string(t, "op");
        const ReferenceOpInfo* info = findReferenceOp(d.op);
        if (!info) r.fail(t.get("op"), "unknown reference op '" + d.op + "'");
        if (auto wrong = referenceOpTypeError(d.op, p.buffers[d.buffer].type, buffer))
            r.fail(t.get("op"), *wrong);
        std::vector<std::string> keys{"buffer", "op", "args", "message"};
        keys.insert(keys.end(), info->params.begin(), info->params.end());
        r.rejectUnknownKeys(t, keys, "a [[pitfalls]] entry");
        for (const toml::node& a : r.array(t, "args")) {
            std::string name = r.asString(&a, "args");
            auto ai = p.bufferIndex(name);
            if (!ai || p.buffers[*ai].role == RoleKind::Output)
                r.fail(&a, "'" + name + "' is not an input of this puzzle");
            d.args.push_back(*ai);
        }
        d.message = r.string(t, "message");
        for (const auto& [key, v] : t) {
            std::string k(key.str());
            if (k == "buffer" || k == "op" || k == "args" || k == "message") continue;
            d.params[k] = parseExprValue(r, &v, k);
            for (const std::string& name : d.params[k].names())
                if (std::none_of(p.constants.begin(), p.constants.end(),
                                 [&](const ConstantDecl& c) { return c.name == name; }))
                    r.fail(&v, "unknown name '" + name + "' in \"" + d.params[k].text() +
                                   "\" (known: N, WG, the puzzle's constants)");
        }
        p.pitfalls.push_back(std::move(d));
    }
}

} // namespace vkp
