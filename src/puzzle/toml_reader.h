// Reading puzzle-folder TOML (puzzle.toml, walkthroughs): every failure is thrown as an Error that
// points at the node's line and column, and the loader's entry point catches it and returns it
// (a Result). Internal to the puzzle format's loaders.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "base/result.h"
#include "puzzle/expr.h"

namespace vkp {

// A file that is not valid TOML: "invalid TOML: ..." at the line and column toml++ names.
inline Error tomlSyntaxError(const toml::parse_error& e, const std::string& file) {
    return Error{
        ErrorKind::PuzzleFile,
        "invalid TOML: " + std::string(e.description()),
        {file, static_cast<int>(e.source().begin.line), static_cast<int>(e.source().begin.column)}};
}

// Walks the TOML tree; every failure is thrown as an Error pointing at a node.
class Reader {
  public:
    explicit Reader(std::string file) : m_file(std::move(file)) {}

    [[noreturn]] void fail(const toml::node* at, const std::string& message) const {
        throw Error{ErrorKind::PuzzleFile, message, where(at)};
    }
    SourceLocation where(const toml::node* at) const {
        if (!at) return {m_file, 0, 0};
        return {m_file, static_cast<int>(at->source().begin.line),
                static_cast<int>(at->source().begin.column)};
    }

    const toml::node* required(const toml::table& t, const char* key) const {
        const toml::node* n = t.get(key);
        if (!n) fail(&t, std::string("missing field '") + key + "'");
        return n;
    }
    std::string string(const toml::table& t, const char* key) const {
        return asString(required(t, key), key);
    }
    std::string stringOr(const toml::table& t, const char* key, std::string def) const {
        const toml::node* n = t.get(key);
        return n ? asString(n, key) : def;
    }
    bool boolean(const toml::node* n, const char* key) const {
        if (!n->is_boolean()) fail(n, std::string("'") + key + "' must be true or false");
        return n->as_boolean()->get();
    }
    std::string asString(const toml::node* n, const char* key) const {
        if (!n->is_string()) fail(n, std::string("'") + key + "' must be a string");
        return n->as_string()->get();
    }
    int64_t integer(const toml::table& t, const char* key) const {
        return asInteger(required(t, key), key);
    }
    int64_t asInteger(const toml::node* n, const std::string& key) const {
        if (!n->is_integer()) fail(n, "'" + key + "' must be an integer");
        return n->as_integer()->get();
    }
    double asNumber(const toml::node* n, const std::string& key) const {
        if (n->is_integer()) return static_cast<double>(n->as_integer()->get());
        if (n->is_floating_point()) return n->as_floating_point()->get();
        fail(n, "'" + key + "' must be a number");
    }
    double numberOr(const toml::table& t, const char* key, double def) const {
        const toml::node* n = t.get(key);
        return n ? asNumber(n, key) : def;
    }
    const toml::array& array(const toml::table& t, const char* key) const {
        return asArray(required(t, key), key);
    }
    const toml::array& asArray(const toml::node* n, const std::string& key) const {
        if (!n->is_array()) fail(n, "'" + key + "' must be an array");
        return *n->as_array();
    }
    const toml::table& asTable(const toml::node* n, const std::string& what) const {
        if (!n->is_table()) fail(n, what + " must be a table");
        return *n->as_table();
    }
    uint32_t boundedUint(const toml::node* n, const std::string& key, int64_t lo,
                         int64_t hi) const {
        int64_t v = asInteger(n, key);
        if (v < lo || v > hi)
            fail(n, "'" + key + "' is " + std::to_string(v) + "; it must be between " +
                        std::to_string(lo) + " and " + std::to_string(hi));
        return static_cast<uint32_t>(v);
    }
    const std::string& file() const { return m_file; }

    // The path of the file `key` names (or `fallback`), relative to the puzzle's folder `dir`.
    // A puzzle pack is a stranger's content: the file must resolve, symbolic links included,
    // inside `dir` (no "../../etc/passwd", no "/etc/shadow").
    std::string fileInFolder(const toml::table& t, const char* key, const std::string& fallback,
                             const std::string& dir) const;

    // Every key of `t` must be one of `known`: a typo (`global_read = 1`, `tolerence`) would
    // otherwise drop a rule without a word. Fails at the key's line with the nearest known key
    // ("did you mean global_reads?") or the list of them. `what` names the table ("[limits]");
    // `noun` is what the file's documentation calls a key ("unknown field 'x'" in walkthroughs).
    void rejectUnknownKeys(const toml::table& t, const std::vector<std::string>& known,
                           const std::string& what, const std::string& noun = "key") const;

  private:
    std::string m_file;
};

template <class Enum>
Enum parseEnum(const Reader& r, const toml::table& t, const char* key,
               std::initializer_list<std::pair<const char*, Enum>> options) {
    const toml::node* n = r.required(t, key);
    std::string v = r.asString(n, key);
    std::string names;
    for (const auto& [name, value] : options) {
        if (v == name) return value;
        names += std::string(names.empty() ? "" : ", ") + name;
    }
    r.fail(n, "unknown " + std::string(key) + " '" + v + "' (expected one of: " + names + ")");
}

// An integer, or a string holding an expression of N and WG (puzzle/expr.h).
inline Expr parseExprValue(const Reader& r, const toml::node* n, const std::string& key) {
    if (n->is_integer()) {
        int64_t v = n->as_integer()->get();
        if (v < 0) r.fail(n, "'" + key + "' must not be negative");
        return Expr::literal(static_cast<uint64_t>(v));
    }
    if (!n->is_string())
        r.fail(n,
               "'" + key +
                   "' must be an integer or an expression in quotes, such as \"ceil_div(N, WG)\"");
    auto e = Expr::parse(n->as_string()->get(), key);
    if (!e) r.fail(n, e.error().message);
    return *e;
}

// The value of `e` in a case; a division by zero fails at the expression's line.
inline uint64_t evaluateExpr(const Reader& r, const toml::node* n, const std::string& key,
                             const Expr& e, const ExprVars& vars) {
    auto v = e.evaluateChecked(vars, key);
    if (!v) r.fail(n, v.error().message);
    return *v;
}

inline uint32_t boundedValue(const Reader& r, const toml::node* n, const std::string& key,
                             uint64_t v, uint64_t lo, uint64_t hi) {
    if (v < lo || v > hi)
        r.fail(n, "'" + key + "' is " + std::to_string(v) + "; it must be between " +
                      std::to_string(lo) + " and " + std::to_string(hi));
    return static_cast<uint32_t>(v);
}

} // namespace vkp
