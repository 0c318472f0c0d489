#include "workbench/workbench.h"

#include <algorithm>
#include <filesystem>

#include "base/os.h"
#include "base/source_text.h"
#include "base/text_file.h"
#include "check/kernel_text.h"

namespace vkp::ui {

Workbench::Workbench(WorkbenchOptions options)
    : m_options(std::move(options)), m_state(m_options.dataDir) {
    m_puzzles = loadPuzzleSet(m_options.puzzleRoot, m_options.packs);
    for (const Error& e : m_puzzles.errors)
        m_messages.push_back("A puzzle was skipped: " + e.str());
    for (const Error& e : m_puzzles.warnings)
        m_messages.push_back("Puzzle pack: " + e.str());
    if (m_puzzles.puzzles.empty())
        m_messages.push_back("No puzzles could be loaded from " + m_puzzles.root + ".");
    for (const Puzzle& p : m_puzzles.puzzles)
        m_stamps.push_back(puzzleFilesStamp(p.dir));
    if (m_options.persist) {
        if (auto other = m_state.claimFolder()) m_messages.push_back(*other);
        for (std::string& p : m_state.load())
            m_messages.push_back(std::move(p));
        std::vector<std::string> keys;
        for (const Puzzle& p : m_puzzles.puzzles)
            keys.push_back(p.key());
        for (std::string& p : m_state.followRenamedPuzzles(keys))
            m_messages.push_back(std::move(p));
    }
    LiveOptions live;
    live.deviceSelector =
        m_options.deviceSelector.empty() ? settings().device : m_options.deviceSelector;
    live.debounce = m_options.debounce;
    live.runnerFactory = m_options.runnerFactory;
    live.subgroupSizeFactory = m_options.subgroupSizeFactory;
    m_session = std::make_unique<LiveSession>(live);
    m_bench = std::make_unique<BackgroundBench>(live.runnerFactory, live.deviceSelector);
    m_ownCases = OwnCaseStore(m_options.persist ? m_state.directory() : "");
    if (m_ownCases.loadProblem()) m_messages.push_back(*m_ownCases.loadProblem());
    if (!m_puzzles.puzzles.empty()) openPuzzle(firstPuzzle());
    if (!m_options.kernelFile.empty() && puzzle()) {
        auto text = kernelFileText(*puzzle(), m_options.kernelFile);
        if (text)
            replaceText(*text, "opened " + m_options.kernelFile);
        else
            m_messages.push_back(text.error().message);
    }
    m_snapshot = m_session->snapshot();
}

Workbench::~Workbench() {
    m_failedRevision = UINT64_MAX; // one more try on the way out
    saveDraftNow();
    saveProgress();
    saveSettings();
    m_session.reset();
}

Result<std::string> kernelFileText(const Puzzle& puzzle, const std::string& spec) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    std::error_code ec;
    if (fs::is_directory(os::toPath(spec), ec)) {
        // A folder of NAME.comp files, one per kernel (a puzzle's solution/ or starter/ folder).
        for (const KernelDecl& k : puzzle.kernels)
            files.push_back(os::pathText(os::toPath(spec) / os::toPath(k.name + ".comp")));
    } else {
        for (size_t start = 0; start <= spec.size();) {
            size_t comma = spec.find(',', start);
            files.push_back(
                spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    if (files.size() == 1 && !fs::is_directory(os::toPath(spec), ec)) {
        auto text = readTextFile(files[0]);
        if (!text)
            return Error{ErrorKind::Usage, "Cannot read the kernel file " + files[0] + ": " +
                                               text.error().message + "."};
        return *text;
    }
    std::vector<std::string> texts(puzzle.kernels.size());
    std::vector<bool> found(puzzle.kernels.size(), false);
    for (const std::string& f : files) {
        std::string stem = os::pathText(os::toPath(f).stem());
        auto k = std::find_if(puzzle.kernels.begin(), puzzle.kernels.end(),
                              [&](const KernelDecl& d) { return d.name == stem; });
        if (k == puzzle.kernels.end())
            return Error{ErrorKind::Usage, "The kernel file " + f + " names no kernel of " +
                                               puzzle.displayName() + "."};
        auto text = readTextFile(f);
        if (!text)
            return Error{ErrorKind::Usage,
                         "Cannot read the kernel file " + f + ": " + text.error().message + "."};
        texts[k - puzzle.kernels.begin()] = *text;
        found[k - puzzle.kernels.begin()] = true;
    }
    for (size_t k = 0; k < found.size(); ++k)
        if (!found[k])
            return Error{ErrorKind::Usage, "No file for the kernel " + puzzle.kernels[k].name +
                                               " of " + puzzle.displayName() + " in " + spec + "."};
    return joinKernelTexts(puzzle, texts);
}

// The puzzle to open first: the one asked for; else, when packs were given, the one open last in
// the first pack (a pack session starts in the pack and leaves the built-in place alone); else
// the built-in one open last.
int Workbench::firstPuzzle() {
    if (!m_options.puzzle.empty()) {
        int asked = findIndex(m_options.puzzle);
        if (asked < 0)
            m_messages.push_back("There is no puzzle '" + m_options.puzzle +
                                 "'; opening the first one.");
        return std::max(0, asked);
    }
    std::string pack = m_puzzles.packs.empty() ? "" : m_puzzles.packs.front().name;
    auto last = settings().lastPuzzleInPack.find(pack);
    std::string folder = pack.empty()                                ? settings().lastPuzzle
                         : last == settings().lastPuzzleInPack.end() ? ""
                                                                     : last->second;
    int firstOfPack = -1;
    for (size_t i = 0; i < m_puzzles.puzzles.size(); ++i) {
        const Puzzle& p = m_puzzles.puzzles[i];
        if (p.pack != pack) continue;
        if (p.folder == folder) return static_cast<int>(i);
        if (firstOfPack < 0) firstOfPack = static_cast<int>(i);
    }
    return std::max(0, firstOfPack);
}

int Workbench::findIndex(const std::string& name) const {
    auto found = m_puzzles.find(name);
    if (!found) return -1;
    return static_cast<int>(*found - m_puzzles.puzzles.data());
}

const Puzzle* Workbench::puzzle() const {
    if (m_caseFile) return m_caseFile->puzzle.get();
    return m_index >= 0 ? &m_puzzles.puzzles[m_index] : nullptr;
}

std::string Workbench::readKernels(const Puzzle& p, bool solution) {
    auto text = readKernelTexts(p, solution);
    if (text) return *text;
    m_messages.push_back("Cannot read the " +
                         std::string(solution ? "official solution" : "starter") + " of " +
                         p.displayName() + ": " + text.error().str());
    return "";
}

std::string Workbench::readKernel(const std::string& path) {
    auto text = readTextFile(path);
    if (text) return *text;
    m_messages.push_back("Cannot read " + path + ": " + text.error().message + ".");
    return "";
}

void Workbench::requestPuzzle(int index) {
    if (index < 0 || index >= static_cast<int>(m_puzzles.puzzles.size())) return;
    m_requestedIndex = index;
}

void Workbench::openPuzzle(int index) {
    if (index < 0 || index >= static_cast<int>(m_puzzles.puzzles.size()) || index == m_index)
        return;
    saveDraftNow();
    refreshFromDisk(index);
    m_index = index;
    ++m_puzzleGeneration;
    Puzzle& p = m_puzzles.puzzles[index];
    vkp::applyOwnCases(p, m_ownCases.specs(p.key()),
                       m_messages); // before the session gets the puzzle
    readPuzzleTexts(p);
    const Draft* saved = m_options.persist ? m_state.draft(p.key()) : nullptr;
    m_draft = saved ? *saved : Draft{m_starterText, std::nullopt, ""};
    m_document.setText(m_draft.text);
    m_savedRevision = m_document.revision();
    m_sentRevision = m_document.revision();
    // A draft the compiler crashed on is shown but not compiled until the learner asks.
    bool held = m_draft.compilerCrashed;
    m_session->open(p, m_document.text(), !held);
    if (held)
        m_messages.push_back("Your draft of " + p.displayName() + " (" +
                             m_state.draftPath(p.key()) +
                             ") crashed the compiler last time, so it was not compiled; edit it or "
                             "press Compile anyway.");
    m_officialFor.clear();              // open() dropped any aside check
    m_snapshot = m_session->snapshot(); // no report of the previous puzzle survives the switch
    if (p.pack.empty())
        settings().lastPuzzle = p.folder;
    else
        settings().lastPuzzleInPack[p.pack] = p.folder;
}

// A multi-pass puzzle's kernels are edited as one text, each after a `//// kernel NAME` line.
void Workbench::readPuzzleTexts(const Puzzle& p) {
    m_starterText = readKernels(p, false);
    m_solutionText = readKernels(p, true);
    m_walkthrough.reset();
    if (auto w = loadWalkthrough(p); !w)
        m_messages.push_back("The walkthrough of " + p.displayName() +
                             " could not be read: " + w.error().str());
    else
        m_walkthrough = *w;
}

bool Workbench::refreshFromDisk(int index) {
    Puzzle& current = m_puzzles.puzzles[index];
    uint64_t stamp = puzzleFilesStamp(current.dir);
    if (stamp == m_stamps[index]) return false;
    m_stamps[index] = stamp; // a file that does not load is reported once, not every second
    auto fresh = loadPuzzle(current.dir);
    if (!fresh) {
        m_messages.push_back(
            "The files of " + current.displayName() +
            " changed on disk but do not load, so the version read before stays: " +
            fresh.error().str());
        return false;
    }
    fresh->pack = current.pack;
    fresh->packRoot = current.packRoot;
    current = std::move(*fresh);
    return true;
}

// The open puzzle's files changed (an author saved puzzle.toml or a kernel): the new cases,
// statement and walkthrough apply at once; the learner's text stays, unless it is still the old
// starter, which becomes the new one.
void Workbench::reloadOpenPuzzle() {
    const Puzzle& p = m_puzzles.puzzles[m_index];
    ++m_puzzleGeneration;
    std::string oldStarter = m_starterText;
    readPuzzleTexts(p);
    if (m_document.text() == oldStarter && m_starterText != oldStarter)
        m_document.replaceAll(m_starterText);
    rebuildOwnCases(); // the learner's cases on the new version, handed to the session with the
                       // text
    m_messages.push_back(p.displayName() + " changed on disk (" + p.dir +
                         ") and was reloaded; your kernel is kept.");
}

const CheckReport* Workbench::currentReport() const {
    if (m_caseFile) return m_caseFile->report.get();
    return m_snapshot.current() && m_sentRevision == m_document.revision() ? report() : nullptr;
}

const CheckReport* Workbench::report() const {
    if (m_caseFile) return m_caseFile->report.get();
    // The snapshot is of the open puzzle (openPuzzle() takes a fresh one); this also holds if the
    // session's answer about the previous puzzle arrives late.
    const Puzzle* p = puzzle();
    if (!p || !m_snapshot.report || !m_snapshot.puzzle || m_snapshot.puzzle->key() != p->key())
        return nullptr;
    return m_snapshot.report.get();
}

const CaseOutcome* Workbench::outcome(size_t caseIndex) const {
    const CheckReport* r = report();
    if (!r) return nullptr;
    for (const CaseOutcome& c : r->cases)
        if (c.index == caseIndex) return &c;
    return nullptr;
}

void Workbench::update() {
    if (m_requestedIndex) {
        int index = *m_requestedIndex;
        m_requestedIndex.reset();
        hideCaseFile(); // asking for a puzzle leaves the case file
        m_caseFileDue.reset();
        openPuzzle(index);
    }
    if (m_caseFileClosing) hideCaseFile();
    m_caseFileClosing = false;
    if (m_caseFileDue) {
        showCaseFile(std::move(*m_caseFileDue));
        m_caseFileDue.reset();
    }
    if (m_kernelDue && !m_caseFile) {
        replaceText(m_kernelDue->second,
                    "opened " + os::pathText(os::toPath(m_kernelDue->first).filename()));
        m_kernelDue.reset();
    }
    if (m_caseFile) { // nothing runs, nothing is saved: the learner's session only goes on
        m_snapshot = m_session->snapshot();
        return;
    }
    if (m_ownCasesChanged && puzzle()) rebuildOwnCases();
    m_ownCasesChanged = false;
    auto now = std::chrono::steady_clock::now();
    if (m_index >= 0 && now - m_lastDiskLook >= kDiskLookInterval) {
        m_lastDiskLook = now;
        if (refreshFromDisk(m_index)) reloadOpenPuzzle();
    }
    if (m_document.revision() != m_sentRevision) {
        m_session->edit(m_document.text());
        m_sentRevision = m_document.revision();
        m_lastEdit = now;
    }
    m_snapshot = m_session->snapshot();
    noteCompilerCrash();
    if (const Puzzle* p = puzzle();
        p && currentReport() && !m_snapshot.besideDue() && // every run beside is in
        puzzleCasesPass(*currentReport(), *p)) {           // own cases never count
        // How it passed: the official solution itself (loaded, or opened as a file: only comments
        // and layout changed) is not solving it; after revealing the solution is not on one's own.
        PuzzleProgress pr = progress(*p);
        std::shared_ptr<const std::string> passed = reportSource();
        SolvedHow how = SolvedHow::OnTheirOwn;
        if (passed &&
            codeWithoutCommentsOrLayout(*passed) == codeWithoutCommentsOrLayout(m_solutionText))
            how = SolvedHow::OfficialSolution;
        else if (pr.solutionRevealed)
            how = SolvedHow::AfterSeeingTheSolution;
        if (how > pr.how) {
            pr.how = how;
            pr.solved = how >= SolvedHow::AfterSeeingTheSolution;
            m_state.setProgress(p->key(), pr);
            saveProgress();
        }
    }
    if (m_document.revision() != m_savedRevision && now - m_lastEdit >= m_options.autosaveDelay)
        saveDraftNow();
}

PuzzleProgress Workbench::progress(const Puzzle& p) const {
    return m_state.progress(p.key());
}

std::shared_ptr<const std::string> Workbench::reportSource() const {
    if (m_caseFile) return m_caseSnapshot.reportSource;
    return report() ? m_snapshot.reportSource : nullptr;
}

void Workbench::requestOfficialRun(size_t caseIndex) {
    const Puzzle* p = puzzle();
    if (!p || m_caseFile) return;
    std::string key = p->key() + "#" + std::to_string(caseIndex);
    if (key == m_officialFor) return;
    m_officialFor = key;
    m_session->checkAside(++m_officialKey, m_solutionText, caseIndex);
}

const CheckReport* Workbench::officialReport(size_t caseIndex) const {
    const Puzzle* p = puzzle();
    if (!p || m_caseFile || m_officialFor != p->key() + "#" + std::to_string(caseIndex))
        return nullptr;
    if (!m_snapshot.aside || m_snapshot.asideKey != m_officialKey) return nullptr;
    return m_snapshot.aside.get();
}

const CaseOutcome* Workbench::officialOutcome(size_t caseIndex) const {
    const CheckReport* r = officialReport(caseIndex);
    if (!r) return nullptr;
    for (const CaseOutcome& c : r->cases)
        if (c.index == caseIndex) return &c;
    return nullptr;
}

std::vector<uint32_t> Workbench::watchedLines() const {
    if (m_caseFile) return m_caseWatches;
    const Puzzle* p = puzzle();
    return p ? progress(*p).watchedLines : std::vector<uint32_t>{};
}

void Workbench::setWatchedLines(std::vector<uint32_t> lines) {
    const Puzzle* p = puzzle();
    if (!p) return;
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    if (m_caseFile) return void(m_caseWatches = std::move(lines));
    PuzzleProgress pr = progress(*p);
    pr.watchedLines = std::move(lines);
    m_state.setProgress(p->key(), pr);
    saveProgress();
}

void Workbench::toggleWatch(uint32_t line) {
    std::vector<uint32_t> lines = watchedLines();
    auto it = std::find(lines.begin(), lines.end(), line);
    if (it != lines.end())
        lines.erase(it);
    else
        lines.push_back(line);
    setWatchedLines(std::move(lines));
}

void Workbench::revealNextHint() {
    const Puzzle* p = puzzle();
    if (!p) return;
    PuzzleProgress pr = progress(*p);
    pr.hintsRevealed = std::min<int>(pr.hintsRevealed + 1, static_cast<int>(p->hints.size()));
    m_state.setProgress(p->key(), pr);
    saveProgress();
}

void Workbench::revealSolution() {
    const Puzzle* p = puzzle();
    if (!p || m_caseFile) return; // a case file holds no solution
    PuzzleProgress pr = progress(*p);
    pr.solutionRevealed = true;
    m_state.setProgress(p->key(), pr);
    saveProgress();
}

void Workbench::replaceText(const std::string& text, const std::string& reason) {
    if (m_caseFile) return; // the learner's text is not on show
    std::string current = m_document.text();
    if (current == text) return;
    m_draft.previous = current;
    m_draft.previousReason = reason;
    m_document.replaceAll(text);
    saveDraftNow();
}

void Workbench::resetToStarter() {
    replaceText(m_starterText, "reset to starter");
}

void Workbench::loadSolution() {
    revealSolution();
    replaceText(m_solutionText, "loaded the official solution");
}

void Workbench::restorePrevious() {
    if (!m_draft.previous) return;
    std::string previous = *m_draft.previous; // replaceText() overwrites m_draft.previous
    replaceText(previous, "restored the earlier text");
}

Result<std::string> Workbench::exportKernel(const std::string& dir) {
    namespace fs = std::filesystem;
    const Puzzle* p = puzzle();
    if (!p) return Error{ErrorKind::Usage, "no puzzle is open"};
    if (m_caseFile)
        return Error{ErrorKind::Usage, "a case file is open: close it to export your own kernel"};
    auto sections = splitKernelText(*p, m_document.text());
    if (!sections)
        return Error{ErrorKind::Usage,
                     "the kernels cannot be told apart: " + sections.error().message};
    bool folder = p->kernels.size() > 1;
    std::error_code ec;
    fs::path target;
    for (int n = 1; n < 1000; ++n) {
        std::string name =
            p->slug + (n > 1 ? "-" + std::to_string(n) : "") + (folder ? "" : ".comp");
        target = os::toPath(dir) / os::toPath(name);
        if (!fs::exists(fs::symlink_status(target, ec))) break;
    }
    for (const KernelSection& k : *sections) {
        fs::path file = folder ? target / os::toPath(k.source.name + ".comp") : target;
        std::string text = k.source.text;
        if (folder) { // the blank line that separated it from the next marker is not the kernel's
            while (text.size() >= 2 && text[text.size() - 1] == '\n' &&
                   text[text.size() - 2] == '\n')
                text.pop_back();
        }
        if (Status s = writeFileAtomically(os::pathText(file), text); !s) return s.error();
    }
    return os::pathText(target);
}

void Workbench::compileAnyway() {
    if (m_caseFile) return;
    m_session->recheck();
}

void Workbench::noteCompilerCrash() {
    const CheckReport* r = currentReport();
    if (!r || r->compilerCrashed == m_draft.compilerCrashed) return;
    m_draft.compilerCrashed = r->compilerCrashed;
    writeDraft();
}

void Workbench::saveDraftNow() {
    uint64_t revision = m_document.revision();
    if (revision == m_savedRevision || revision == m_failedRevision) return;
    writeDraft();
}

// Writes the draft now (also to record a compiler crash on an unchanged text).
void Workbench::writeDraft() {
    if (!m_options.persist || m_index < 0) return;
    uint64_t revision = m_document.revision();
    m_draft.text = m_document.text();
    auto saved = m_state.saveDraft(m_puzzles.puzzles[m_index].key(), m_draft);
    if (!saved) {
        m_failedRevision = revision;
        m_saveProblem = saved.error().message;
        m_messages.push_back("Your draft could not be saved (" + saved.error().message +
                             "); it is still in the editor.");
        return;
    }
    m_savedRevision = revision;
    m_failedRevision = UINT64_MAX;
    m_saveProblem.clear();
    m_draft = saved->draft;
    if (saved->keptOtherWindowsText)
        m_messages.push_back("Another vkpuzzles window had saved a different text for " +
                             m_puzzles.puzzles[m_index].displayName() +
                             ". Yours is saved; theirs is kept: the editor's \"Other window's "
                             "text\" button puts it back.");
}

Workbench::DraftSaved Workbench::draftSaved() const {
    if (!m_saveProblem.empty() && m_document.revision() == m_failedRevision)
        return DraftSaved::Failed;
    return m_document.revision() == m_savedRevision ? DraftSaved::Saved : DraftSaved::Pending;
}

void Workbench::saveProgress() {
    if (!m_options.persist) return;
    if (auto s = m_state.saveProgress(); !s)
        m_messages.push_back("Progress could not be saved: " + s.error().message);
}

void Workbench::saveSettings() {
    if (!m_options.persist) return;
    if (auto s = m_state.saveSettings(); !s)
        m_messages.push_back("Settings could not be saved: " + s.error().message);
}

void Workbench::selectDevice(const std::string& selector) {
    settings().device = selector;
    saveSettings();
    m_session->selectDevice(selector);
    m_bench->setDevice(selector);
}

} // namespace vkp::ui
