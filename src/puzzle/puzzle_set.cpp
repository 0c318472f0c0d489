// Loading sets of puzzle folders: the built-in ones and the packs given with --puzzles, and
// finding a puzzle among them by name.
#include "base/os.h"
#include "puzzle/puzzle_loader.h"
#include "puzzle/track_order.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace vkp {

namespace {

// The folders under `root` that hold a puzzle.toml, sorted. Every filesystem call is the
// non-throwing kind: a symbolic link loop or an unreadable folder in a downloaded pack becomes
// an error naming its path, and the other puzzles still load.
std::vector<fs::path> puzzleFolders(const std::string& root, std::vector<Error>& errors) {
    std::vector<fs::path> dirs;
    std::vector<Error> found; // sorted by path below, like the puzzles
    std::error_code ec;
    fs::directory_iterator it(os::toPath(root), ec), end;
    if (ec) {
        errors.push_back(Error{ErrorKind::Io, "cannot list this folder: " + ec.message(), {root}});
        return dirs;
    }
    for (; !ec && it != end; it.increment(ec)) {
        const fs::path& path = it->path();
        std::error_code kindError;
        bool isDir = fs::is_directory(path, kindError);
        if (kindError) {
            if (kindError !=
                std::errc::no_such_file_or_directory) // a dangling link is simply not a puzzle
                found.push_back(Error{ErrorKind::Io,
                                      "cannot open this folder: " + kindError.message(),
                                      {os::pathText(path)}});
            continue;
        }
        if (!isDir) continue;
        std::error_code tomlError;
        bool hasToml = fs::exists(path / "puzzle.toml", tomlError);
        if (tomlError)
            found.push_back(Error{ErrorKind::Io,
                                  "cannot read this folder: " + tomlError.message(),
                                  {os::pathText(path)}});
        else if (hasToml)
            dirs.push_back(path);
    }
    std::sort(found.begin(), found.end(),
              [](const Error& a, const Error& b) { return a.where.file < b.where.file; });
    errors.insert(errors.end(), found.begin(), found.end());
    if (ec)
        errors.push_back(
            Error{ErrorKind::Io, "cannot list this folder to its end: " + ec.message(), {root}});
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
    auto warn = [&](const Puzzle& p, const std::string& message) {
        warnings.push_back(Error{ErrorKind::PuzzleFile, message, {p.file}});
    };
    for (const Puzzle& p : puzzles) {
        if (auto [first, fresh] = slugs.emplace(p.slug, &p); !fresh)
            warn(p, "the folders " + first->second->folder + " and " + p.folder +
                        " both have the slug '" + p.slug + "'; '" + p.slug + "' names " +
                        first->second->folder + " only");
        if (auto [first, fresh] = numbers.emplace(p.number, &p); !fresh && p.number > 0)
            warn(p, "the folders " + first->second->folder + " and " + p.folder +
                        " both have the number " + std::to_string(p.number) + "; '" +
                        std::to_string(p.number) + "' names " + first->second->folder + " only");
        if (auto [first, fresh] = orders.emplace(std::make_pair(p.track, p.order), &p); !fresh)
            warn(p, "the folders " + first->second->folder + " and " + p.folder +
                        " both have order = " + std::to_string(p.order) + " in the '" + p.track +
                        "' track; they are listed by folder name");
    }
}

// The puzzles of one folder of puzzle folders, sorted for the list.
std::vector<Puzzle> loadFolderOfPuzzles(const std::string& root, std::vector<Error>& errors,
                                        std::vector<Error>& warnings) {
    std::vector<Puzzle> puzzles;
    std::error_code ec;
    if (!fs::is_directory(os::toPath(root), ec)) {
        bool exists = fs::exists(os::toPath(root), ec);
        errors.push_back(
            Error{ErrorKind::Usage,
                  exists ? "not a folder: a pack is a folder of puzzle folders" : "no such folder",
                  {root}});
        return puzzles;
    }
    size_t errorsBefore = errors.size();
    for (const fs::path& d : puzzleFolders(root, errors)) {
        auto p = loadPuzzle(os::pathText(d));
        if (p)
            puzzles.push_back(std::move(*p));
        else
            errors.push_back(p.error());
    }
    std::stable_sort(puzzles.begin(), puzzles.end(), [](const Puzzle& a, const Puzzle& b) {
        if (a.track != b.track) return trackBefore(a.track, b.track);
        return a.order < b.order;
    });
    warnDuplicates(puzzles, warnings);
    if (puzzles.empty() && errors.size() == errorsBefore)
        errors.push_back(
            Error{ErrorKind::Usage, "no puzzle folders (NN-name/puzzle.toml) here", {root}});
    return puzzles;
}

// The folder as one path whatever way it was written (relative, "pack/", through a link).
std::string sameFolder(const std::string& dir) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(os::toPath(dir), ec), ec);
    if (ec) p = fs::absolute(os::toPath(dir), ec).lexically_normal();
    while (p.has_relative_path() && p.filename().empty()) // "pack/"
        p = p.parent_path();
    return os::pathText(p);
}

// A pack's name: its folder's name, made unique among the packs before it.
std::string packName(const std::string& root, const std::vector<PuzzlePack>& before) {
    std::string base = os::pathText(os::toPath(root).filename());
    if (base.empty()) base = "pack";
    std::string name = base;
    for (int n = 2; std::any_of(before.begin(), before.end(),
                                [&](const PuzzlePack& k) { return k.name == name; });
         ++n)
        name = base + "-" + std::to_string(n);
    return name;
}

bool isDigits(const std::string& s) {
    return !s.empty() && s.size() < 9 && std::all_of(s.begin(), s.end(), ::isdigit);
}

bool answersTo(const Puzzle& p, const std::string& name) {
    return p.folder == name || p.slug == name ||
           (isDigits(name) && p.number > 0 && p.number == std::stoi(name));
}

} // namespace

bool trackBefore(const std::string& a, const std::string& b) {
    // The order a learner takes them in: basics, then scans, then making correct kernels fast,
    // then the algorithms built on them, sparse matrices and graphs, and the detective's cases.
    static const std::vector<std::string> known = {"classic",    "scan",   "performance",
                                                   "algorithms", "sparse", "detective"};
    auto rank = [](const std::string& t) {
        return std::find(known.begin(), known.end(), t) - known.begin();
    };
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return a < b;
}

PuzzleSet loadPuzzleSet(const std::string& root) {
    return loadPuzzleSet(root, {});
}

PuzzleSet loadPuzzleSet(const std::string& root, const std::vector<std::string>& packs) {
    PuzzleSet set;
    set.root = root;
    set.puzzles = loadFolderOfPuzzles(root, set.errors, set.warnings);
    std::vector<std::string> seen = {sameFolder(root)};
    for (const std::string& given : packs) {
        if (given.empty()) {
            set.errors.push_back(Error{ErrorKind::Usage,
                                       "--puzzles was given an empty folder name; name a pack's "
                                       "folder"});
            continue;
        }
        std::string dir = sameFolder(given);
        if (std::find(seen.begin(), seen.end(), dir) != seen.end()) continue;
        seen.push_back(dir);
        PuzzlePack pack{packName(dir, set.packs), dir};
        if (pack.name != os::pathText(os::toPath(dir).filename()))
            set.warnings.push_back(
                Error{ErrorKind::PuzzleFile,
                      "another pack is also called " + os::pathText(os::toPath(dir).filename()) +
                          "; this one's drafts and progress are kept as " + pack.name,
                      {dir}});
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
    for (const PuzzlePack& k : packs)
        order.push_back(k.name);
    order.push_back("");
    for (const std::string& pack : order) {
        if (!packPart.empty() && pack != packPart) continue;
        for (const Puzzle& p : puzzles)
            if (p.pack == pack && answersTo(p, puzzlePart)) return &p;
    }
    std::string close;
    for (const Puzzle& p : puzzles)
        if (p.slug.find(puzzlePart) != std::string::npos ||
            (puzzlePart.size() > 2 && p.slug.starts_with(puzzlePart.substr(0, 2))))
            close +=
                (close.empty() ? "" : ", ") + (p.pack.empty() ? p.slug : p.pack + "/" + p.slug);
    std::string msg = "no puzzle named '" + name + "'";
    if (!close.empty()) msg += " (did you mean: " + close + "?)";
    msg += "; `vkpuzzles list` shows them all";
    return Error{ErrorKind::NotFound, msg};
}

uint64_t puzzleFilesStamp(const std::string& dir) {
    uint64_t h = 1469598103934665603ull; // FNV-1a over every file's name, size and time
    auto mix = [&h](const void* data, size_t n) {
        for (size_t i = 0; i < n; ++i)
            h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
    };
    std::error_code ec;
    int seen = 0;
    for (fs::recursive_directory_iterator
             it(os::toPath(dir), fs::directory_options::skip_permission_denied, ec),
         end;
         !ec && it != end && seen < 512; it.increment(ec), ++seen) {
        if (it.depth() > 2) it.disable_recursion_pending();
        std::error_code fe;
        if (!it->is_regular_file(fe)) continue;
        std::string name = os::pathText(it->path());
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
