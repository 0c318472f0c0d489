// What the app keeps for the learner between runs: a draft per puzzle, progress and settings, as
// JSON files in $XDG_DATA_HOME/vkpuzzles (default ~/.local/share/vkpuzzles), written atomically.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

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

struct PuzzleProgress {
    bool solved = false;           // every case passed at least once
    int hintsRevealed = 0;         // hints shown, one at a time
    bool solutionRevealed = false; // the official solution was opened
    std::vector<uint32_t> watchedLines; // kernel lines in the Watches view (1-based, sorted)
};

enum class ThemeKind { Dark, Light };

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
    float fontScale = 1.0f;       // presentation mode: Ctrl+= / Ctrl+-
    LayoutSettings layout;
    std::string device;           // device selector ("" = the best one)
    std::string lastPuzzle;       // folder name
    int windowWidth = 1280;
    int windowHeight = 800;
    bool showLegends = true;      // colour legends above the views
    bool showExplanations = true; // the "(?)" explanations beside them
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
    Status saveProgress() const;

    // Puzzle folders renumbered since the state was saved ("22-scan-levels" is now
    // "18-scan-levels"): state kept under a folder that no longer exists moves to the one folder of
    // `folders` with the same name after its "NN-" number, when that folder has none of its own.
    // Draft files are rewritten under the new name before the old ones are removed. Returns one
    // message per puzzle moved (and per file that could not be written: the old one then stays).
    std::vector<std::string> followRenamedPuzzles(const std::vector<std::string>& folders);

    const Draft* draft(const std::string& puzzle) const; // null when there is none
    // Stores the draft and writes its file.
    Status saveDraft(const std::string& puzzle, const Draft& draft);
    std::string draftPath(const std::string& puzzle) const;

  private:
    std::optional<std::string> loadSettings();
    std::optional<std::string> loadProgress();
    std::vector<std::string> loadDrafts();

    std::string m_dir;
    Settings m_settings;
    std::map<std::string, PuzzleProgress> m_progress;
    std::map<std::string, Draft> m_drafts;
};

// A sentence for the learner when `dir` (the data folder) exists but is not a folder, else nullopt.
std::optional<std::string> folderProblem(const std::string& dir);

// Writes `text` to a temporary file beside `path`, flushes it to disk and renames it over `path`,
// so a crash leaves either the old or the new file, never half of one. Creates missing folders.
Status writeFileAtomically(const std::string& path, const std::string& text);

} // namespace vkp
