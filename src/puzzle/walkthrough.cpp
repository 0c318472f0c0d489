#include "puzzle/walkthrough.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <toml++/toml.h>

#include "base/os.h"
#include "base/source_text.h"
#include "puzzle/passes.h"
#include "puzzle/puzzle_loader.h"
#include "puzzle/toml_reader.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

// Walks walkthrough.toml with the puzzle file's Reader: every failure is thrown as an Error
// pointing at a node.
class WalkthroughParser {
  public:
    WalkthroughParser(std::string file, const Puzzle& puzzle)
        : m_reader(std::move(file)), m_puzzle(puzzle) {}

    Walkthrough parse(const toml::table& root) {
        rejectUnknown(root, {"title", "case", "steps"}, "walkthrough.toml");
        Walkthrough w;
        w.file = m_reader.file();
        w.title = m_reader.string(root, "title");
        w.caseIndex = caseIndex(root);
        m_case = w.caseIndex;
        const toml::node* steps = root.get("steps");
        if (!steps || !steps->is_array_of_tables() || steps->as_array()->empty())
            m_reader.fail(steps ? steps : &root,
                          "a walkthrough needs at least one [[steps]] table");
        for (const toml::node& s : *steps->as_array())
            w.steps.push_back(step(*s.as_table()));
        return w;
    }

  private:
    // Walkthroughs speak of fields, as their documentation does.
    void rejectUnknown(const toml::table& t, const std::vector<std::string>& known,
                       const std::string& what) const {
        m_reader.rejectUnknownKeys(t, known, what, "field");
    }
    size_t caseIndex(const toml::table& root) const {
        const toml::node* n = root.get("case");
        if (n && m_puzzle.cases.empty()) m_reader.fail(n, "the puzzle has no test cases");
        size_t index =
            n ? m_reader.boundedUint(n, "case", 1, static_cast<int64_t>(m_puzzle.cases.size())) - 1
              : 0;
        // A walkthrough shows its case's data step by step: that is for a case students may see.
        if (index < m_puzzle.cases.size() && m_puzzle.cases[index].hidden)
            m_reader.fail(n ? n : &root,
                          "case " + std::to_string(index + 1) +
                              " is hidden (hidden = true in puzzle.toml); a walkthrough needs a "
                              "visible case" +
                              (n ? "" : " (it shows case 1 unless `case = N` names another)"));
        return index;
    }

    WalkthroughStep step(const toml::table& t) {
        rejectUnknown(t,
                      {"title", "text", "case", "view", "dispatch", "lines", "round", "workgroup",
                       "threads", "cells"},
                      "a [[steps]] table");
        WalkthroughStep s;
        s.where = m_reader.where(&t);
        s.title = m_reader.string(t, "title");
        s.text = m_reader.string(t, "text");
        if (t.get("case")) s.focus.caseIndex = caseIndex(t);
        if (const toml::node* n = t.get("view")) s.focus.lookback = lookbackView(*n);
        if (const toml::node* n = t.get("dispatch"))
            s.focus.dispatch = dispatch(*n, s.focus.caseIndex.value_or(m_case));
        if (const toml::node* n = t.get("lines")) s.focus.lines = lines(*n);
        if (const toml::node* n = t.get("round"))
            s.focus.round = m_reader.boundedUint(n, "round", 0, 1 << 20);
        if (const toml::node* n = t.get("workgroup")) s.focus.workgroup = triple(*n, "workgroup");
        if (const toml::node* n = t.get("threads"))
            for (const toml::node& th : m_reader.asArray(n, "threads"))
                s.focus.threads.push_back(triple(th, "threads"));
        if (const toml::node* n = t.get("cells"))
            for (const toml::node& c : m_reader.asArray(n, "cells"))
                s.focus.cells.push_back(cell(c));
        return s;
    }
    // The one view a step can name: "lookback", for a puzzle with a [lookback] table.
    bool lookbackView(const toml::node& n) const {
        std::string v = m_reader.asString(&n, "view");
        if (v != "lookback")
            m_reader.fail(&n, "unknown view '" + v + "' (the one a step can name is \"lookback\")");
        if (!m_puzzle.lookback)
            m_reader.fail(&n,
                          "view = \"lookback\" needs a [lookback] table in puzzle.toml, which " +
                              m_puzzle.slug + " has not");
        return true;
    }
    // 1-based, one of the step's case's dispatches.
    size_t dispatch(const toml::node& n, size_t caseIndex) const {
        if (!m_puzzle.multiPass())
            m_reader.fail(&n, "'dispatch' is for multi-pass puzzles; " + m_puzzle.slug +
                                  " runs one dispatch per case");
        std::vector<CaseDispatch> dispatches;
        if (caseIndex < m_puzzle.cases.size())
            if (auto d = caseDispatches(m_puzzle, caseIndex)) dispatches = *d;
        int64_t count = static_cast<int64_t>(std::max<size_t>(1, dispatches.size()));
        return static_cast<size_t>(m_reader.boundedUint(&n, "dispatch", 1, count) - 1);
    }
    // Whole numbers, or "A-B" strings for a range of lines.
    std::vector<uint32_t> lines(const toml::node& n) const {
        std::vector<uint32_t> out;
        for (const toml::node& e : m_reader.asArray(&n, "lines")) {
            if (!e.is_string()) {
                out.push_back(m_reader.boundedUint(&e, "lines", 1, 1 << 20));
                continue;
            }
            std::string r = e.as_string()->get();
            unsigned lo = 0, hi = 0;
            char dash = 0, extra = 0;
            if (std::sscanf(r.c_str(), "%u %c %u %c", &lo, &dash, &hi, &extra) != 3 ||
                dash != '-' || lo < 1 || hi < lo || hi - lo > 500)
                m_reader.fail(&e, "'" + r + "' is not a range of lines such as \"12-15\"");
            for (unsigned l = lo; l <= hi; ++l)
                out.push_back(l);
        }
        return out;
    }
    // [x], [x, y] or [x, y, z]; missing ones are 0.
    std::array<uint32_t, 3> triple(const toml::node& n, const std::string& key) const {
        const toml::array& a = m_reader.asArray(&n, key);
        if (a.empty() || a.size() > 3)
            m_reader.fail(&n, "'" + key +
                                  "' needs 1 to 3 numbers per id, as [x] or [x, y] or [x, y, z]");
        std::array<uint32_t, 3> v{0, 0, 0};
        for (size_t i = 0; i < a.size(); ++i)
            v[i] = m_reader.boundedUint(a.get(i), key, 0, UINT32_MAX);
        return v;
    }
    WalkthroughCell cell(const toml::node& n) const {
        if (!n.is_table())
            m_reader.fail(
                &n,
                "each of 'cells' must be a table such as { variable = \"cache\", index = [3] }");
        const toml::table& t = *n.as_table();
        rejectUnknown(t, {"variable", "index"}, "a cell");
        WalkthroughCell c;
        c.variable = m_reader.string(t, "variable");
        const toml::node* idx = m_reader.required(t, "index");
        if (idx->is_integer()) {
            c.index.push_back(m_reader.boundedUint(idx, "index", 0, UINT32_MAX));
            return c;
        }
        const toml::array& a = m_reader.asArray(idx, "index");
        if (a.empty() || a.size() > 2) m_reader.fail(idx, "'index' needs [i] or [row, col]");
        for (const toml::node& e : a)
            c.index.push_back(m_reader.boundedUint(&e, "index", 0, UINT32_MAX));
        return c;
    }

    const Reader m_reader;
    const Puzzle& m_puzzle;
    size_t m_case = 0; // the walkthrough's
};

} // namespace

Result<Walkthrough> parseWalkthrough(const std::string& text, const std::string& file,
                                     const Puzzle& puzzle) {
    try {
        toml::table root = toml::parse(text, file);
        return WalkthroughParser(file, puzzle).parse(root);
    } catch (const toml::parse_error& e) {
        return tomlSyntaxError(e, file);
    } catch (const Error& e) {
        return e;
    }
}

size_t stepCase(const Walkthrough& w, const WalkthroughStep& step) {
    return step.focus.caseIndex.value_or(w.caseIndex);
}

std::vector<size_t> walkthroughCases(const Walkthrough& w) {
    std::vector<size_t> cases{w.caseIndex};
    for (const WalkthroughStep& s : w.steps)
        if (std::find(cases.begin(), cases.end(), stepCase(w, s)) == cases.end())
            cases.push_back(stepCase(w, s));
    return cases;
}

bool hasWalkthrough(const Puzzle& puzzle) {
    std::error_code ec;
    return fs::exists(os::toPath(puzzle.dir) / kWalkthroughFile, ec);
}

Result<std::optional<Walkthrough>> loadWalkthrough(const Puzzle& puzzle) {
    std::string path = os::pathText(os::toPath(puzzle.dir) / kWalkthroughFile);
    if (!hasWalkthrough(puzzle)) return std::optional<Walkthrough>{};
    auto text = readTextFile(path, kPuzzleFileLimit);
    if (!text) return text.error();
    auto w = parseWalkthrough(*text, path, puzzle);
    if (!w) return w.error();
    return std::optional<Walkthrough>(std::move(*w));
}

} // namespace vkp
