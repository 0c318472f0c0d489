#include "puzzle/toml_reader.h"

#include "base/os.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace vkp {

namespace {

// Edits between two keys: insert, delete or replace a letter, or swap two neighbours ("stpe" is
// one edit from "step", two from "shape").
size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

void Reader::rejectUnknownKeys(const toml::table& t, const std::vector<std::string>& known,
                               const std::string& what, const std::string& noun) const {
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
            for (const std::string& name : known)
                hint += (hint.empty() ? " (known: " : ", ") + name;
            hint += ")";
        }
        // Point at the key itself: that is the word to fix.
        const toml::source_region& at = key.source().begin.line ? key.source() : node.source();
        throw Error{ErrorKind::PuzzleFile,
                    "unknown " + noun + " '" + k + "' in " + what + hint,
                    {m_file, static_cast<int>(at.begin.line), static_cast<int>(at.begin.column)}};
    }
}

std::string Reader::fileInFolder(const toml::table& t, const char* key, const std::string& fallback,
                                 const std::string& dir) const {
    const toml::node* n = t.get(key);
    std::string given = n ? asString(n, key) : fallback;
    const toml::node* at = n ? n : &t;
    auto outside = [&] {
        fail(at,
             std::string("'") + key + "' names \"" + given +
                 "\", which is outside the puzzle's folder; a puzzle's files must be inside it");
    };
    if (given.empty()) fail(at, std::string("'") + key + "' must name a file");
    fs::path relative = os::toPath(given);
    if (relative.is_absolute()) outside();
    std::error_code ec;
    fs::path base = fs::weakly_canonical(os::toPath(dir), ec);
    fs::path full = ec ? fs::path() : fs::weakly_canonical(os::toPath(dir) / relative, ec);
    if (ec)
        fail(at, std::string("'") + key + "': cannot follow \"" + given + "\": " + ec.message());
    // "dir/sub/.." comes back as "dir/", whose last element is empty: drop it.
    for (fs::path* p : {&base, &full})
        if (p->has_relative_path() && p->filename().empty()) *p = p->parent_path();
    // Component by component, so that "/p/01-map-x" is not taken to be inside "/p/01-map".
    auto [inBase, inFull] = std::mismatch(base.begin(), base.end(), full.begin(), full.end());
    if (inBase != base.end() || inFull == full.end()) outside();
    return os::pathText((os::toPath(dir) / relative).make_preferred()); // Windows: \\ throughout
}

} // namespace vkp
