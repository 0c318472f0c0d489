// Everything the app's panels show and change, headless: the puzzles, the open puzzle's kernel
// text, the live session that checks it, and the learner's saved state. Panels read it each frame
// and change it only through these methods.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "puzzle/puzzle_loader.h"
#include "puzzle/walkthrough.h"
#include "report/case_file.h"
#include "session/background_bench.h"
#include "session/live_session.h"
#include "store/own_cases.h"
#include "store/user_state.h"
#include "text/text_document.h"

namespace vkp::ui {

struct WorkbenchOptions {
    std::string puzzleRoot; // the built-in puzzles' folder
    std::vector<std::string>
        packs;                  // packs listed after them (--puzzles); the first one opens first
    std::string dataDir;        // the user's data folder (UserState)
    bool persist = true;        // false: read and write no user state (screenshots)
    std::string deviceSelector; // overrides the saved device when not empty
    std::string puzzle;         // open this puzzle first (name, slug or number)
    std::string kernelFile;     // and put this kernel's text in the editor (see kernelFileText)
    std::chrono::milliseconds debounce{250};
    std::chrono::milliseconds autosaveDelay{800};
    RunnerFactory runnerFactory; // where kernels run (empty: in this process)
    // lavapipe at other subgroup sizes (LiveOptions::subgroupSizeFactory; empty: none)
    RunnerFactory subgroupSizeFactory;
};

// The editor's text from --kernel: a file (a kernel, or a multi-pass puzzle's joined text), a
// folder of NAME.comp files, or NAME.comp files separated by commas (joined with markers).
Result<std::string> kernelFileText(const Puzzle& puzzle, const std::string& spec);

class Workbench {
  public:
    explicit Workbench(WorkbenchOptions options);
    ~Workbench(); // saves the open draft, progress and settings

    // Once per frame, before the panels draw: opens a requested puzzle, reloads the open one when
    // its files changed on disk (about once a second), hands new text to the session, takes its
    // snapshot, records a solved puzzle and autosaves the draft after a pause.
    void update();

    // The live session's latest snapshot, or while a case file is open, the file's (Done, with its
    // report and device).
    const LiveSnapshot& snapshot() const { return m_caseFile ? m_caseSnapshot : m_snapshot; }
    LiveSession& session() { return *m_session; }
    const PuzzleSet& puzzles() const { return m_puzzles; }
    const Puzzle* puzzle() const; // the open puzzle (null when none loaded)
    int puzzleIndex() const { return m_caseFile ? -1 : m_index; } // -1: a case file's puzzle
    // Asks for another puzzle (any control: the list, a search result, a menu, a key). It opens at
    // the start of the next update(), between frames: panels still drawing this frame keep the
    // data they started with. Out-of-range indices are ignored.
    void requestPuzzle(int index);
    // Changes each time another puzzle opens: views drop what they derived from the old one.
    uint64_t puzzleGeneration() const { return m_puzzleGeneration; }
    // The editor's text: the learner's, or a case file's kernel (read-only: see caseFile()).
    text::TextDocument& document() { return m_caseFile ? m_caseDocument : m_document; }
    // The report, if it is about the text now in the editor (not an older version).
    const CheckReport* currentReport() const;
    // The latest report about the open puzzle (possibly of an earlier version of the text).
    const CheckReport* report() const;
    // A case of that report, if it ran.
    const CaseOutcome* outcome(size_t caseIndex) const;

    // The kernel text the report checked (null when none).
    std::shared_ptr<const std::string> reportSource() const;

    // The official solution run aside on one case (traced), for the walkthrough: asked for once,
    // then its outcome once it has run. The learner's text and report are never touched.
    void requestOfficialRun(size_t caseIndex);
    const CaseOutcome* officialOutcome(size_t caseIndex) const;
    const CheckReport* officialReport(size_t caseIndex) const; // its diagnostics if it did not run

    // The open puzzle's walkthrough of its official solution (null: none, or it did not load,
    // which messages() said).
    const Walkthrough* walkthrough() const {
        return m_walkthrough && !m_caseFile ? &*m_walkthrough : nullptr;
    }

    // Watched kernel lines of the open puzzle (kept in progress.json).
    std::vector<uint32_t> watchedLines() const;
    void toggleWatch(uint32_t line);
    void setWatchedLines(std::vector<uint32_t> lines); // scripted runs

    PuzzleProgress progress(const Puzzle& p) const;
    void revealNextHint();
    void revealSolution();
    const std::string& solutionText() const { return m_caseFile ? m_noText : m_solutionText; }
    const std::string& starterText() const { return m_starterText; }
    // Replace the editor's text; the replaced draft is kept and restorePrevious() brings it back.
    void resetToStarter();
    void loadSolution();
    const Draft& draft() const { return m_draft; }
    void restorePrevious();
    // Writes the editor's kernel as a file the command line checks (`vkpuzzles check SLUG FILE`):
    // DIR/SLUG.comp, or for a multi-kernel puzzle a folder DIR/SLUG with one NAME.comp per kernel;
    // a name already taken gets "-2", "-3"... Returns the path written.
    Result<std::string> exportKernel(const std::string& dir);
    // A draft that crashed the compiler last time opens held (LiveStatusKind::Held): this checks
    // it.
    void compileAnyway();

    // The learner's own cases (store/own_cases.h, drawn by panels/own_case_form.h): listed and
    // checked after the puzzle's cases, kept across restarts, never counted towards solving.
    // Adding returns the new case's index, or the error that names the form's field.
    Result<size_t> addOwnCase(const OwnCaseSpec& spec);
    void removeOwnCase(size_t caseIndex);
    // "Benchmark at large N" (session/background_bench.h): the editor's text at N elements.
    void startBench(uint64_t n);
    BackgroundBench& bench() { return *m_bench; }

    // A case file (report/case_file.h) on show in place of the learner's puzzle: its puzzle, its
    // kernel (read-only), its case and report, with every view; nothing runs. The learner's
    // puzzle, draft and checks wait behind it untouched, and come back when it closes or when
    // another puzzle is asked for. The file is read at once (an error says why it cannot be
    // opened, and nothing changes); it shows, and closes, at the start of the next update(),
    // between frames, as another puzzle does: panels still drawing keep what they started with.
    Status openCaseFile(const std::string& path);
    void closeCaseFile();
    const OpenedCaseFile* caseFile() const { return m_caseFile ? &*m_caseFile : nullptr; }
    // A kernel file (or a folder of NAME.comp, as --kernel takes) put in the editor in place of
    // the learner's text, which "Restore" brings back; a case file on show closes first. Read
    // at once (an error says why not, nothing changes), applied by the next update().
    Status openKernelFile(const std::string& path);
    // Case `caseIndex` of the current report, traced, as DIR/SLUG-caseN.vkpcase (a name already
    // taken gets "-2", "-3"...). Returns the path written.
    Result<std::string> exportCaseFile(const std::string& dir, size_t caseIndex);

    Settings& settings() { return m_state.settings(); }
    void saveSettings();
    void selectDevice(const std::string& selector);

    // Things the learner must be told (a corrupt file set aside, a failed save), oldest first.
    std::vector<std::string>& messages() { return m_messages; }
    std::string dataDir() const { return m_state.directory(); }
    bool persistent() const { return m_options.persist; }
    // Whether the editor's text is on disk: saved, waiting for a pause in typing, or the last
    // save failed (`saveProblem()` says why; the text is still in the editor).
    enum class DraftSaved { Saved, Pending, Failed };
    DraftSaved draftSaved() const;
    const std::string& saveProblem() const { return m_saveProblem; }

  private:
    void openPuzzle(int index);
    int firstPuzzle();
    void readPuzzleTexts(const Puzzle& p); // starter, solution and walkthrough
    bool refreshFromDisk(int index);       // reloads a puzzle whose files changed; true if it did
    void reloadOpenPuzzle();
    void replaceText(const std::string& text, const std::string& reason);
    void saveDraftNow();
    void writeDraft();        // the editor's text and the crash mark, now
    void noteCompilerCrash(); // keeps the draft's crash mark in step with the current report
    void saveProgress();
    std::string readKernel(const std::string& path);
    std::string readKernels(const Puzzle& p, bool solution); // joined, for a multi-kernel puzzle
    int findIndex(const std::string& name) const;

    WorkbenchOptions m_options;
    PuzzleSet m_puzzles;
    std::vector<uint64_t> m_stamps; // per puzzle: puzzleFilesStamp() when its files were read
    std::chrono::steady_clock::time_point m_lastDiskLook;
    static constexpr std::chrono::milliseconds kDiskLookInterval{
        1000}; // how often the open puzzle's files are looked at
    UserState m_state;
    std::unique_ptr<LiveSession> m_session;
    LiveSnapshot m_snapshot;
    text::TextDocument m_document;
    int m_index = -1;
    std::optional<int> m_requestedIndex; // opened by the next update()
    uint64_t m_puzzleGeneration = 0;
    Draft m_draft; // of the open puzzle; m_draft.text follows the editor when saved
    std::string m_starterText, m_solutionText;
    uint64_t m_sentRevision = UINT64_MAX; // document revision handed to the session
    uint64_t m_savedRevision = 0;         // document revision written to disk
    uint64_t m_failedRevision =
        UINT64_MAX;            // revision whose save failed (retried after the next edit)
    std::string m_saveProblem; // why the last draft save failed ("" when it did not)
    std::chrono::steady_clock::time_point m_lastEdit;
    std::vector<std::string> m_messages;
    OwnCaseStore m_ownCases{""}; // the learner's own cases, per puzzle
    std::unique_ptr<BackgroundBench> m_bench;
    void rebuildOwnCases();         // the open puzzle's own cases into its case list; re-checks
    bool m_ownCasesChanged = false; // rebuilt by the next update()
    std::optional<Walkthrough> m_walkthrough; // of the open puzzle
    uint64_t m_officialKey = 0;               // the latest aside request
    std::string m_officialFor;                // "folder#case" it was made for
    // The case file on show (null: none), its kernel as the editor shows it, and its snapshot.
    std::optional<OpenedCaseFile> m_caseFile;
    std::optional<OpenedCaseFile> m_caseFileDue;                    // opened by the next update()
    bool m_caseFileClosing = false;                                 // closed by the next update()
    std::optional<std::pair<std::string, std::string>> m_kernelDue; // (path, text) to put in
    void showCaseFile(OpenedCaseFile opened);
    void hideCaseFile();
    text::TextDocument m_caseDocument;
    LiveSnapshot m_caseSnapshot;
    std::vector<uint32_t> m_caseWatches; // watched lines while a case file shows (not saved)
    const std::string m_noText;
};

} // namespace vkp::ui
