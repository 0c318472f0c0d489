#include "store/user_state.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "base/os.h"
#include "base/text_file.h"
#include "report/json_text.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace vkp {
namespace {

constexpr int kFormatVersion = 1;

std::string timestamp() {
    std::tm tm = os::localTime(std::time(nullptr));
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
    return buf;
}

// Puzzle folder names become file names: keep them to a safe alphabet.
std::string safeName(const std::string& name) {
    std::string out;
    for (char c : name)
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')
                   ? c
                   : '_';
    return out.empty() ? "_" : out;
}

// A state file's text; nullopt when there is none yet. A FIFO, a device, a link loop or a huge
// file is an error, so that it is set aside and reported instead of hanging the app.
std::optional<Result<std::string>> readStateFile(const fs::path& path) {
    std::error_code ec;
    if (fs::symlink_status(path, ec).type() == fs::file_type::not_found) return std::nullopt;
    return readTextFile(os::pathText(path), kStateFileLimit);
}

// Moves an unreadable file out of the way and says where it went.
std::string setAside(const fs::path& path, const std::string& why) {
    fs::path aside = path;
    aside += ".corrupt-" + timestamp();
    std::error_code ec;
    fs::rename(path, aside, ec);
    std::string where = ec ? "it could not be moved aside (" + ec.message() + ")"
                           : "it was moved to " + os::pathText(aside);
    return os::pathText(path.filename()) + " could not be read (" + why + "); " + where;
}

// Parses a JSON object of our format or throws with a short reason.
json parseObject(const std::string& text) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw std::runtime_error("not valid JSON near byte " + std::to_string(e.byte));
    }
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    if (j.value("version", kFormatVersion) > kFormatVersion)
        throw std::runtime_error("written by a newer vkpuzzles");
    return j;
}

const char* themeName(ThemeKind t) {
    return t == ThemeKind::Light          ? "light"
           : t == ThemeKind::HighContrast ? "high_contrast"
                                          : "dark";
}

ThemeKind themeFrom(const std::string& name) {
    if (name == "light") return ThemeKind::Light;
    if (name == "high_contrast") return ThemeKind::HighContrast;
    return ThemeKind::Dark;
}

json layoutJson(const LayoutSettings& l) {
    return {{"browser_width", l.browserWidth},
            {"statement_width", l.statementWidth},
            {"top_height", l.topHeight},
            {"cases_width", l.casesWidth},
            {"buffers_width", l.buffersWidth}};
}

// Fractions outside (0.05, 0.95) would hide a panel: fall back to the default.
float fraction(const json& j, const char* key, float fallback) {
    float v = j.value(key, fallback);
    return (v > 0.05f && v < 0.95f) ? v : fallback;
}

LayoutSettings layoutFrom(const json& j) {
    LayoutSettings d, l;
    l.browserWidth = fraction(j, "browser_width", d.browserWidth);
    l.statementWidth = fraction(j, "statement_width", d.statementWidth);
    l.topHeight = fraction(j, "top_height", d.topHeight);
    l.casesWidth = fraction(j, "cases_width", d.casesWidth);
    l.buffersWidth = fraction(j, "buffers_width", d.buffersWidth);
    return l;
}

Settings settingsFrom(const json& j) {
    Settings s;
    s.theme = themeFrom(j.value("theme", std::string("dark")));
    s.fontScale = std::clamp(j.value("font_scale", 1.0f), 0.5f, 4.0f);
    s.presenter = j.value("presenter", false);
    s.presenterFontScale = std::clamp(j.value("presenter_font_scale", 2.0f), 0.5f, 4.0f);
    if (j.contains("layout")) s.layout = layoutFrom(j.at("layout"));
    s.device = j.value("device", std::string());
    s.lastPuzzle = j.value("last_puzzle", std::string());
    if (auto packs = j.find("last_puzzle_in_pack"); packs != j.end() && packs->is_object())
        for (auto& [pack, folder] : packs->items())
            if (folder.is_string()) s.lastPuzzleInPack[pack] = folder.get<std::string>();
    s.windowWidth = std::clamp(j.value("window_width", s.windowWidth), 640, 16384);
    s.windowHeight = std::clamp(j.value("window_height", s.windowHeight), 400, 16384);
    s.showLegends = j.value("show_legends", true);
    s.showExplanations = j.value("show_explanations", true);
    return s;
}

// progress.json's "puzzles" object; throws on a malformed file.
std::map<std::string, PuzzleProgress> progressFrom(const json& j) {
    std::map<std::string, PuzzleProgress> progress;
    json puzzles = j.value("puzzles", json::object());
    for (auto& [name, p] : puzzles.items()) {
        progress[name] = {p.value("solved", false),
                          std::max(0, p.value("hints_revealed", 0)),
                          p.value("solution_revealed", false),
                          {}};
        PuzzleProgress& pr = progress[name];
        std::string how = p.value("solved_how", std::string());
        for (SolvedHow h : {SolvedHow::OfficialSolution, SolvedHow::AfterSeeingTheSolution,
                            SolvedHow::OnTheirOwn})
            if (how == solvedHowName(h)) pr.how = h;
        // Files from before "solved_how": a solved puzzle was solved one of the learner's ways.
        if (how.empty() && pr.solved)
            pr.how =
                pr.solutionRevealed ? SolvedHow::AfterSeeingTheSolution : SolvedHow::OnTheirOwn;
        pr.solved = pr.how >= SolvedHow::AfterSeeingTheSolution;
        for (const json& line : p.value("watched_lines", json::array()))
            if (line.is_number_unsigned() && line.get<uint64_t>() > 0 &&
                line.get<uint64_t>() < (1u << 20))
                progress[name].watchedLines.push_back(line.get<uint32_t>());
        std::sort(progress[name].watchedLines.begin(), progress[name].watchedLines.end());
    }
    return progress;
}

Draft draftFrom(const json& j) {
    Draft d;
    d.text = j.at("text").get<std::string>();
    if (j.contains("previous") && !j.at("previous").is_null())
        d.previous = j.at("previous").get<std::string>();
    d.previousReason = j.value("previous_reason", std::string());
    d.compilerCrashed = j.value("compiler_crashed", false);
    return d;
}

// Held while a state file is read, merged and written, so two windows' saves never interleave
// (an advisory flock on DIR/.lock; without one, saving goes on unmerged rather than not at all).
class SaveLock {
  public:
    explicit SaveLock(const std::string& dir) {
        std::error_code ec;
        fs::create_directories(os::toPath(dir), ec);
        m_lockFile = os::openForLocking(os::pathText(os::toPath(dir) / ".lock"));
        if (m_lockFile >= 0) os::lockExclusive(m_lockFile, true);
    }
    ~SaveLock() {
        if (m_lockFile >= 0) ::close(m_lockFile); // releases the lock
    }
    SaveLock(const SaveLock&) = delete;
    SaveLock& operator=(const SaveLock&) = delete;

  private:
    int m_lockFile = -1;
};

} // namespace

const char* solvedHowName(SolvedHow how) {
    switch (how) {
    case SolvedHow::NotYet:
        return "not_yet";
    case SolvedHow::OfficialSolution:
        return "official_solution";
    case SolvedHow::AfterSeeingTheSolution:
        return "after_seeing_the_solution";
    case SolvedHow::OnTheirOwn:
        return "on_their_own";
    }
    return "not_yet";
}

std::optional<std::string> folderProblem(const std::string& dir) {
    std::error_code ec;
    fs::file_status st = fs::status(os::toPath(dir), ec);
    if (!fs::exists(st) || fs::is_directory(st)) return std::nullopt;
    return "The data folder " + dir +
           " is a file, not a folder, so drafts, progress and settings cannot be saved; move that "
           "file away.";
}

std::string UserState::defaultDirectory() {
    return os::pathText(os::toPath(os::dataHome()) / "vkpuzzles");
}

UserState::UserState(std::string directory) : m_dir(std::move(directory)) {}

std::vector<std::string> UserState::load() {
    std::vector<std::string> problems;
    if (auto p = folderProblem(m_dir)) return {*p}; // nothing to read, and every save would fail

    if (auto p = loadSettings()) problems.push_back(*p);
    if (auto p = loadProgress()) problems.push_back(*p);
    for (std::string& p : loadDrafts())
        problems.push_back(std::move(p));
    return problems;
}

std::optional<std::string> UserState::loadSettings() {
    fs::path path = os::toPath(m_dir) / "settings.json";
    auto read = readStateFile(path);
    if (!read) return std::nullopt;
    Result<std::string>& text = *read;
    if (!text) return setAside(path, text.error().message) + "; default settings are used";
    try {
        m_settings = settingsFrom(parseObject(*text));
    } catch (const std::exception& e) {
        m_settings = {};
        return setAside(path, e.what()) + "; default settings are used";
    }
    return std::nullopt;
}

std::optional<std::string> UserState::loadProgress() {
    fs::path path = os::toPath(m_dir) / "progress.json";
    auto read = readStateFile(path);
    if (!read) return std::nullopt;
    Result<std::string>& text = *read;
    if (!text) return setAside(path, text.error().message) + "; progress starts afresh";
    try {
        std::map<std::string, PuzzleProgress> progress = progressFrom(parseObject(*text));
        m_progress = std::move(progress);
    } catch (const std::exception& e) {
        m_progress.clear();
        return setAside(path, e.what()) + "; progress starts afresh";
    }
    return std::nullopt;
}

std::vector<std::string> UserState::loadDrafts() {
    std::vector<std::string> problems;
    std::error_code ec;
    fs::path dir = os::toPath(m_dir) / "drafts";
    // Non-throwing iteration: a draft that is a link loop or a FIFO is set aside, not fatal.
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& path = it->path();
        if (path.extension() != ".json") continue;
        auto read = readStateFile(path);
        if (!read) continue; // removed since it was listed
        Result<std::string>& text = *read;
        if (!text) {
            problems.push_back(setAside(path, text.error().message) +
                               "; that puzzle starts from its starter kernel");
            continue;
        }
        try {
            json j = parseObject(*text);
            std::string puzzle = j.value("puzzle", os::pathText(path.stem()));
            m_drafts[puzzle] = draftFrom(j);
            m_draftsOnDisk[puzzle] = m_drafts[puzzle].text;
        } catch (const std::exception& ex) {
            problems.push_back(setAside(path, ex.what()) +
                               "; that puzzle starts from its starter kernel");
        }
    }
    return problems;
}

Status UserState::saveSettings() const {
    const Settings& s = m_settings;
    json j = {{"version", kFormatVersion},
              {"theme", themeName(s.theme)},
              {"font_scale", s.fontScale},
              {"presenter", s.presenter},
              {"presenter_font_scale", s.presenterFontScale},
              {"layout", layoutJson(s.layout)},
              {"device", s.device},
              {"last_puzzle", s.lastPuzzle},
              {"last_puzzle_in_pack", s.lastPuzzleInPack},
              {"window_width", s.windowWidth},
              {"window_height", s.windowHeight},
              {"show_legends", s.showLegends},
              {"show_explanations", s.showExplanations}};
    return writeFileAtomically(os::pathText(os::toPath(m_dir) / "settings.json"),
                               jsonText(j) + "\n");
}

PuzzleProgress UserState::progress(const std::string& puzzle) const {
    auto it = m_progress.find(puzzle);
    return it == m_progress.end() ? PuzzleProgress{} : it->second;
}

void UserState::setProgress(const std::string& puzzle, const PuzzleProgress& progress) {
    m_progress[puzzle] = progress;
    PuzzleProgress& p = m_progress[puzzle];
    // `solved` means the learner's kernel passed: how it did is at least one of their ways.
    if (p.solved && p.how < SolvedHow::AfterSeeingTheSolution)
        p.how = p.solutionRevealed ? SolvedHow::AfterSeeingTheSolution : SolvedHow::OnTheirOwn;
    p.solved = p.how >= SolvedHow::AfterSeeingTheSolution;
    m_changed.insert(puzzle);
}

Status UserState::saveProgress() {
    SaveLock lock(m_dir);
    fs::path path = os::toPath(m_dir) / "progress.json";
    if (auto read = readStateFile(path); read && *read) {
        std::map<std::string, PuzzleProgress> disk;
        try {
            disk = progressFrom(parseObject(**read));
        } catch (const std::exception&) {
            // Unreadable now (a newer version, or broken since this window loaded it): this
            // window's progress replaces it, as it did before merging.
        }
        for (auto& [name, theirs] : disk) {
            if (m_moved.count(name)) continue; // renumbered: it lives under its new folder now
            auto mine = m_progress.find(name);
            if (mine == m_progress.end() || !m_changed.count(name)) {
                m_progress[name] = theirs; // another window's, or ours unchanged since loading
                continue;
            }
            PuzzleProgress& p = mine->second;
            p.solved = p.solved || theirs.solved;
            p.hintsRevealed = std::max(p.hintsRevealed, theirs.hintsRevealed);
            p.solutionRevealed = p.solutionRevealed || theirs.solutionRevealed;
            p.how = std::max(p.how, theirs.how);
        }
    }
    json puzzles = json::object();
    for (const auto& [name, p] : m_progress)
        puzzles[name] = {{"solved", p.solved},
                         {"solved_how", solvedHowName(p.how)},
                         {"hints_revealed", p.hintsRevealed},
                         {"solution_revealed", p.solutionRevealed},
                         {"watched_lines", p.watchedLines}};
    json j = {{"version", kFormatVersion}, {"puzzles", puzzles}};
    return writeFileAtomically(os::pathText(path), jsonText(j) + "\n");
}

namespace {

// "22-scan-levels" -> "scan-levels"; a name without a number is itself.
std::string withoutNumber(const std::string& folder) {
    size_t digits = 0;
    while (digits < folder.size() && std::isdigit(static_cast<unsigned char>(folder[digits])))
        ++digits;
    if (digits == 0 || digits >= folder.size() || folder[digits] != '-') return folder;
    return folder.substr(digits + 1);
}

} // namespace

std::vector<std::string> UserState::followRenamedPuzzles(const std::vector<std::string>& folders) {
    std::set<std::string> present(folders.begin(), folders.end());
    std::map<std::string, std::vector<std::string>> byName; // name after the number -> folders
    for (const std::string& f : folders)
        byName[withoutNumber(f)].push_back(f);
    // The one present folder an absent one now goes by, or "".
    auto successor = [&](const std::string& old) -> std::string {
        if (present.count(old)) return "";
        auto it = byName.find(withoutNumber(old));
        if (it == byName.end() || it->second.size() != 1 || it->second[0] == old) return "";
        const std::string& now = it->second[0];
        return m_progress.count(now) || m_drafts.count(now) ? "" : now;
    };
    std::set<std::string> stale;
    for (const auto& [name, p] : m_progress)
        stale.insert(name);
    for (const auto& [name, d] : m_drafts)
        stale.insert(name);
    std::vector<std::string> messages;
    bool progressMoved = false;
    for (const std::string& old : stale) {
        std::string now = successor(old);
        if (now.empty()) continue;
        std::string what;
        if (auto d = m_drafts.find(old); d != m_drafts.end()) {
            Draft draft = d->second;
            if (auto s = saveDraft(now, draft); !s) {
                m_drafts.erase(now);
                messages.push_back("Your draft of " + old + " could not be moved to " + now + " (" +
                                   s.error().message + "); it stays in " + draftPath(old) + ".");
                continue;
            }
            m_drafts.erase(old);
            std::error_code ec;
            fs::remove(os::toPath(draftPath(old)), ec);
            what = "your draft";
        }
        if (auto p = m_progress.find(old); p != m_progress.end()) {
            m_progress[now] = p->second;
            m_progress.erase(old);
            m_changed.insert(now);
            m_moved.insert(old);
            progressMoved = true;
            what += what.empty() ? "your progress" : " and progress";
        }
        if (m_settings.lastPuzzle == old) m_settings.lastPuzzle = now;
        messages.push_back("The puzzle " + old + " is now " + now + "; " + what +
                           " moved with it.");
    }
    if (progressMoved)
        if (Status s = saveProgress(); !s)
            messages.push_back("Progress could not be saved: " + s.error().message);
    return messages;
}

const Draft* UserState::draft(const std::string& puzzle) const {
    auto it = m_drafts.find(puzzle);
    return it == m_drafts.end() ? nullptr : &it->second;
}

std::string UserState::draftPath(const std::string& puzzle) const {
    // '@' is outside safeName's alphabet, so a pack's draft never takes a built-in puzzle's file.
    size_t slash = puzzle.find('/');
    std::string name = slash == std::string::npos ? safeName(puzzle)
                                                  : safeName(puzzle.substr(0, slash)) + "@" +
                                                        safeName(puzzle.substr(slash + 1));
    return os::pathText(os::toPath(m_dir) / "drafts" / (name + ".json"));
}

Result<UserState::SavedDraft> UserState::saveDraft(const std::string& puzzle, Draft draft) {
    SaveLock lock(m_dir);
    bool keptTheirs = false;
    if (auto read = readStateFile(draftPath(puzzle)); read && *read) {
        try {
            Draft theirs = draftFrom(parseObject(**read));
            auto known = m_draftsOnDisk.find(puzzle);
            bool changedElsewhere = known == m_draftsOnDisk.end() || known->second != theirs.text;
            if (changedElsewhere && theirs.text != draft.text) {
                draft.previous = theirs.text;
                draft.previousReason = kOtherWindowReason;
                keptTheirs = true;
            }
        } catch (const std::exception&) {
            // Not a draft of ours any more: overwritten, as before.
        }
    }
    m_drafts[puzzle] = draft;
    json j = {{"version", kFormatVersion},
              {"puzzle", puzzle},
              {"text", draft.text},
              {"previous", draft.previous ? json(*draft.previous) : json(nullptr)},
              {"previous_reason", draft.previousReason}};
    if (draft.compilerCrashed) j["compiler_crashed"] = true;
    // Invalid UTF-8 (pasted binary) must not make the draft unsavable: jsonText replaces it.
    if (Status s = writeFileAtomically(draftPath(puzzle), jsonText(j) + "\n"); !s) return s.error();
    m_draftsOnDisk[puzzle] = draft.text;
    return SavedDraft{std::move(draft), keptTheirs};
}

std::optional<std::string> UserState::claimFolder() {
    if (m_claim >= 0) return std::nullopt;
    std::error_code ec;
    fs::create_directories(os::toPath(m_dir), ec);
    m_claim = os::openForLocking(os::pathText(os::toPath(m_dir) / ".instance"));
    if (m_claim < 0) return std::nullopt;
    // Every window holds a shared claim; an exclusive one succeeds only when no other window
    // holds one. Tried first (non-blocking), then settled to shared either way.
    bool alone = os::lockExclusive(m_claim, false);
    os::lockShared(m_claim);
    if (alone) return std::nullopt;
    return "Another vkpuzzles window is open with the same data folder (" + m_dir +
           "). Both windows' progress is kept; if both edit one puzzle, the other window's text is "
           "kept "
           "and the editor's \"Other window's text\" button puts it back.";
}

UserState::~UserState() {
    if (m_claim >= 0) ::close(m_claim);
}

} // namespace vkp
