// mutants.toml: the mutants of a puzzle's official solution that no case can kill, with why.
#include <filesystem>

#include "authoring/mutants.h"
#include "base/os.h"
#include "base/text_file.h"
#include "puzzle/toml_reader.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

constexpr const char* kMutantsFile = "mutants.toml";

// Runs of whitespace as one space, ends trimmed: a line re-indented still matches.
std::string squeezed(const std::string& s) {
    std::string out;
    for (char c : s) {
        bool space = c == ' ' || c == '\t' || c == '\r' || c == '\n';
        if (space && (out.empty() || out.back() == ' ')) continue;
        out += space ? ' ' : c;
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

EquivalentMutant parseEntry(const Reader& r, const toml::table& t) {
    r.rejectUnknownKeys(
        t,
        {"kernel", "kind", "line", "before", "after", "mutated", "subgroup_size", "device", "why"},
        "[[equivalent]]");
    EquivalentMutant e;
    e.where = r.where(&t);
    e.kernel = r.stringOr(t, "kernel", "");
    const toml::node* kindNode = r.required(t, "kind");
    auto kind = mutationKindFromName(r.asString(kindNode, "kind"));
    if (!kind)
        r.fail(kindNode, "unknown kind '" + r.asString(kindNode, "kind") +
                             "' (expected one of: " + mutationKindNames() + ")");
    e.kind = *kind;
    e.line = r.string(t, "line");
    if (squeezed(e.line).empty())
        r.fail(t.get("line"),
               "'line' must be the solution's line as the survivor report prints it");
    e.before = r.string(t, "before");
    if (e.before.empty())
        r.fail(t.get("before"),
               "'before' must be the text the mutant changed, as the report prints "
               "it before '->'");
    e.after = r.stringOr(t, "after", "");
    e.mutated = r.stringOr(t, "mutated", "");
    if (const toml::node* n = t.get("subgroup_size"))
        e.subgroupSize = r.boundedUint(n, "subgroup_size", 1, 128);
    e.device = r.stringOr(t, "device", "");
    if (t.get("device") && squeezed(e.device).empty())
        r.fail(t.get("device"), "'device' must be part of a device's name, such as \"llvmpipe\"");
    e.why = r.string(t, "why");
    if (squeezed(e.why).empty()) r.fail(t.get("why"), "'why' must say why no case can kill it");
    return e;
}

Result<std::vector<EquivalentMutant>> parseFile(const std::string& text, const std::string& file) {
    try {
        toml::table root = toml::parse(text, file);
        Reader r(file);
        r.rejectUnknownKeys(root, {"equivalent"}, file);
        std::vector<EquivalentMutant> out;
        const toml::node* list = root.get("equivalent");
        if (!list) return out;
        for (const toml::node& n : r.asArray(list, "equivalent"))
            out.push_back(parseEntry(r, r.asTable(&n, "each [[equivalent]] entry")));
        return out;
    } catch (const toml::parse_error& e) {
        return tomlSyntaxError(e, file);
    } catch (const Error& e) {
        return e;
    }
}

} // namespace

Result<std::vector<EquivalentMutant>> loadEquivalentMutants(const std::string& dir) {
    std::string path = os::pathText(os::toPath(dir) / kMutantsFile);
    std::error_code ec;
    // A link that leads nowhere is a mutants.toml that cannot be read, not an absent one.
    if (!fs::exists(fs::symlink_status(os::toPath(path), ec)))
        return std::vector<EquivalentMutant>{};
    auto text = readTextFile(path, kPuzzleFileLimit);
    if (!text) return text.error();
    return parseFile(*text, path);
}

bool onEquivalentsLine(const EquivalentMutant& e, const std::string& kernel, const Mutant& m) {
    return (e.kernel.empty() || e.kernel == kernel) && squeezed(e.line) == squeezed(m.lineText);
}

bool sameEquivalent(const EquivalentMutant& a, const EquivalentMutant& b) {
    return a.kernel == b.kernel && a.kind == b.kind && squeezed(a.line) == squeezed(b.line) &&
           a.before == b.before && a.after == b.after &&
           squeezed(a.mutated) == squeezed(b.mutated) && a.subgroupSize == b.subgroupSize &&
           a.device == b.device;
}

bool matchesEquivalent(const EquivalentMutant& e, const std::string& kernel, const Mutant& m) {
    return onEquivalentsLine(e, kernel, m) && e.kind == m.kind && e.before == m.before &&
           e.after == m.after &&
           (e.mutated.empty() || squeezed(e.mutated) == squeezed(mutatedLine(m)));
}

} // namespace vkp
