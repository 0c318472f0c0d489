// What the app keeps for the learner between runs: a draft per puzzle, progress and settings, as
// JSON files in $XDG_DATA_HOME/vkpuzzles (default ~/.local/share/vkpuzzles), written atomically.
// Two windows may share the folder: every save reads what is on disk under a lock first and merges
// (progress only grows; a draft another window saved meanwhile is kept as the text to restore).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/theme_kind.h"

namespace vkp {

// A learner's kernel for one puzzle, and the text it replaced when they reset it to the starter
// or loaded the official solution, so that step can be undone.
struct Draft {
    std::string text;
    std::optional<std::string> previous; // the text before the last reset / solution load
    std::string previousReason;          // "reset to starter", "loaded the solution"
    bool compilerCrashed = false;        // the compiler crashed on `text`: at the next start it is
                                         // opened but not compiled until the learner asks
};

// How a puzzle's cases came to pass, from least to most the learner's own work.
enum class SolvedHow {
    NotYet,
    OfficialSolution,       // the official solution ran (loaded, or opened as a file): not solved
    AfterSeeingTheSolution, // the learner's kernel passed after the solution had been revealed
    OnTheirOwn,             // the learner's kernel passed before the solution was revealed
};
const char* solvedHowName(SolvedHow how); // as in progress.json: "on_their_own", ...

struct PuzzleProgress {
    bool solved =
        false; // the learner's own kernel passed every case (how >= AfterSeeingTheSolution)
    int hintsRevealed = 0;              // hints shown, one at a time
    bool solutionRevealed = false;      // the official solution was opened
    std::vector<uint32_t> watchedLines; // kernel lines in the Watches view (1-based, sorted)
    SolvedHow how = SolvedHow::NotYet;  // the best passing run so far
};

// Panel sizes as fractions of the window, so the layout survives a resize and a font change.
struct LayoutSettings {
    float browserWidth = 0.14f;   // puzzle browser, of the window's width
    float statementWidth = 0.40f; // statement column, of the width right of the browser
    float topHeight = 0.56f;      // statement and editor row, of the height
    float casesWidth = 0.24f;     // test cases list, of the bottom row's width
    float buffersWidth = 0.50f;   // buffers, of the bottom row's width right of the cases
};

struct Settings {
    ThemeKind theme = ThemeKind::Dark;
    float fontScale = 1.0f; // Ctrl+= / Ctrl+- (in presenter mode they change presenterFontScale)
    bool presenter = false; // presenter mode (F5): the projection layout
    float presenterFontScale = 2.0f; // its text size
    LayoutSettings layout;
    std::string device;     // device selector ("" = the best one)
    std::string lastPuzzle; // folder name of the built-in puzzle open last
    std::map<std::string, std::string>
        lastPuzzleInPack; // pack name -> folder open last in that pack
    int windowWidth = 1280;
    int windowHeight = 800;
    bool showLegends = true;      // colour legends above the views
    bool showExplanations = true; // the "(?)" explanations beside them

    // The text size in use: presenter mode has its own.
    float activeFontScale() const { return presenter ? presenterFontScale : fontScale; }
};

class UserState {
  public:
    // $XDG_DATA_HOME/vkpuzzles, or $HOME/.local/share/vkpuzzles.
    static std::string defaultDirectory();

    explicit UserState(std::string directory);

    // Reads settings, progress and every draft. A file that cannot be read is moved aside to
    // NAME.corrupt-YYYYMMDD-HHMMSS and the others are still used; each such event is one message
    // for the learner in the returned list.
    std::vector<std::string> load();

    const std::string& directory() const { return m_dir; }
    Settings& settings() { return m_settings; }
    const Settings& settings() const { return m_settings; }
    Status saveSettings() const;

    PuzzleProgress progress(const std::string& puzzle) const;
    void setProgress(const std::string& puzzle, const PuzzleProgress& progress);
    // Merges with progress.json as another window may have left it (solved, hints and revealed
    // only grow; watched lines are this window's for the puzzles it changed), then writes it.
    Status saveProgress();

    // Another vkpuzzles (a second window) has this data folder open now: a sentence saying so and
    // how both windows' work is kept, else nullopt. Holds this window's claim until destruction.
    std::optional<std::string> claimFolder();

    // Puzzle folders renumbered since the state was saved ("22-scan-levels" is now
    // "18-scan-levels"): state kept under a folder that no longer exists moves to the one folder of
    // `folders` with the same name after its "NN-" number, when that folder has none of its own.
    // Draft files are rewritten under the new name before the old ones are removed. Returns one
    // message per puzzle moved (and per file that could not be written: the old one then stays).
    std::vector<std::string> followRenamedPuzzles(const std::vector<std::string>& folders);

    const Draft* draft(const std::string& puzzle) const; // null when there is none
    // Stores the draft and writes its file. When another window saved a different text for the
    // puzzle since this one last read or wrote it, that text becomes the saved draft's `previous`
    // (reason kOtherWindowReason) instead of being lost.
    struct SavedDraft {
        Draft draft; // as written
        bool keptOtherWindowsText = false;
    };
    Result<SavedDraft> saveDraft(const std::string& puzzle, Draft draft);
    std::string draftPath(
        const std::string& puzzle) const; // a pack's key "PACK/FOLDER" is drafts/PACK@FOLDER.json
    static constexpr const char* kOtherWindowReason = "the text another vkpuzzles window saved";

    UserState(const UserState&) = delete;
    UserState& operator=(const UserState&) = delete;
    ~UserState();

  private:
    std::optional<std::string> loadSettings();
    std::optional<std::string> loadProgress();
    std::vector<std::string> loadDrafts();

    std::string m_dir;
    Settings m_settings;
    std::map<std::string, PuzzleProgress> m_progress;
    std::set<std::string> m_changed; // puzzles whose progress this window set
    std::set<std::string> m_moved;   // puzzles whose progress moved to a renumbered folder
    std::map<std::string, Draft> m_drafts;
    std::map<std::string, std::string>
        m_draftsOnDisk; // each draft's text as this window last read or wrote it
    int m_claim = -1;   // the instance lock held by claimFolder()
};

// A sentence for the learner when `dir` (the data folder) exists but is not a folder, else nullopt.
std::optional<std::string> folderProblem(const std::string& dir);

} // namespace vkp
