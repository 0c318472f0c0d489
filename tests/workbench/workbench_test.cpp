// The app's state without a window: drafts, progress, reset/restore, solution loading, on a real
// device (lavapipe on CI) and a temporary data folder.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include <unistd.h>

#include "support/crashing_kernel.h"
#include "support/test_env.h"
#include "views/walkthrough_player.h"
#include "workbench/shown_case.h"
#include "workbench/workbench.h"
#include "workbench/workbench_fixture.h"

namespace fs = std::filesystem;

namespace vkp::ui {
namespace {

using namespace std::chrono_literals;
using namespace views; // the view state, selection and walkthrough player these tests drive

TEST_F(WorkbenchTest, OpensThePuzzleWithItsStarterAndChecksIt) {
    Workbench wb(options());
    ASSERT_NE(wb.puzzle(), nullptr);
    EXPECT_EQ(wb.puzzle()->slug, "map");
    EXPECT_EQ(wb.document().text(), wb.starterText());
    EXPECT_TRUE(wb.messages().empty());
    const CheckReport& r = settle(wb);
    EXPECT_TRUE(r.compiled());
    EXPECT_FALSE(r.allPass()) << "the starter does not solve the puzzle";
}

TEST_F(WorkbenchTest, EditsAreCheckedAndADraftSurvivesARestart) {
    std::string edited;
    {
        Workbench wb(options());
        wb.document().moveToEnd(false);
        wb.document().insert("\n// my note\n");
        edited = wb.document().text();
        settle(wb);
        EXPECT_TRUE(fs::exists(m_dir + "/drafts/01-map.json"));
    }
    Workbench wb(options(""));
    EXPECT_EQ(wb.puzzle()->slug, "map") << "the last puzzle opens again";
    EXPECT_EQ(wb.document().text(), edited);
}

// Issue 19: a draft that crashed the compiler is kept, marked, and at the next start opened but not
// compiled until the learner asks.
TEST_F(WorkbenchTest, ADraftThatCrashedTheCompilerIsNotCompiledAtTheNextStart) {
    std::string crashing = test::crashingKernel();
    {
        Workbench wb(options());
        wb.document().replaceAll(crashing);
        const CheckReport& r = settle(wb);
        EXPECT_TRUE(r.compilerCrashed);
        EXPECT_TRUE(wb.draft().compilerCrashed);
        EXPECT_NE(readFile(m_dir + "/drafts/01-map.json").find("\"compiler_crashed\": true"),
                  std::string::npos);
    }
    Workbench wb(options(""));
    EXPECT_EQ(wb.document().text(), crashing) << "the text is intact";
    ASSERT_TRUE(wb.session().waitUntilSettled(60s));
    wb.update();
    EXPECT_EQ(wb.snapshot().status, LiveStatusKind::Held) << statusLine(wb.snapshot());
    EXPECT_EQ(wb.snapshot().checksRun, 0u) << "nothing was compiled";
    EXPECT_EQ(wb.report(), nullptr);
    ASSERT_EQ(wb.messages().size(), 1u);
    EXPECT_NE(wb.messages()[0].find("crashed the compiler last time"), std::string::npos)
        << wb.messages()[0];
    EXPECT_NE(wb.messages()[0].find("01-map.json"), std::string::npos) << wb.messages()[0];

    wb.compileAnyway();
    EXPECT_TRUE(settle(wb).compilerCrashed)
        << "compiled on request: the same error, the app unharmed";
    wb.document().replaceAll(test::mapSolution());
    EXPECT_TRUE(settle(wb).allPass());
    EXPECT_FALSE(wb.draft().compilerCrashed) << "the mark goes with a text that compiles";
    EXPECT_EQ(readFile(m_dir + "/drafts/01-map.json").find("compiler_crashed"), std::string::npos);
}

TEST_F(WorkbenchTest, SolvingRecordsProgressAndLoadingTheSolutionKeepsTheDraft) {
    {
        Workbench wb(options());
        wb.document().moveToEnd(false);
        wb.document().insert("\n// my attempt\n");
        std::string mine = wb.document().text();
        wb.loadSolution();
        EXPECT_EQ(wb.document().text(), wb.solutionText());
        ASSERT_TRUE(wb.draft().previous.has_value());
        EXPECT_EQ(*wb.draft().previous, mine);
        EXPECT_TRUE(settle(wb).allPass());
        wb.update();
        EXPECT_FALSE(wb.progress(*wb.puzzle()).solved)
            << "the official solution passing is not the learner solving it";
        EXPECT_EQ(wb.progress(*wb.puzzle()).how, SolvedHow::OfficialSolution);
        EXPECT_TRUE(wb.progress(*wb.puzzle()).solutionRevealed);
    }
    Workbench wb(options());
    EXPECT_EQ(wb.progress(*wb.puzzle()).how, SolvedHow::OfficialSolution) << "remembered";
    ASSERT_TRUE(wb.draft().previous.has_value())
        << "the replaced draft is still there after a restart";
    wb.restorePrevious();
    EXPECT_NE(wb.document().text().find("// my attempt"), std::string::npos);
}

TEST_F(WorkbenchTest, ResetToStarterCanBeUndone) {
    Workbench wb(options("zip"));
    wb.document().moveToEnd(false);
    wb.document().insert("\n// work in progress\n");
    std::string mine = wb.document().text();
    wb.resetToStarter();
    EXPECT_EQ(wb.document().text(), wb.starterText());
    EXPECT_EQ(wb.draft().previousReason, "reset to starter");
    wb.restorePrevious();
    EXPECT_EQ(wb.document().text(), mine);
    wb.document().undo(); // the editor's own undo also walks back through the reset
    EXPECT_EQ(wb.document().text(), wb.starterText());
}

TEST_F(WorkbenchTest, HintsAreRevealedOneAtATimeAndRemembered) {
    {
        Workbench wb(options("shared"));
        EXPECT_EQ(wb.progress(*wb.puzzle()).hintsRevealed, 0);
        wb.revealNextHint();
        wb.revealNextHint();
        EXPECT_EQ(wb.progress(*wb.puzzle()).hintsRevealed, 2);
        for (int i = 0; i < 10; ++i)
            wb.revealNextHint();
        EXPECT_EQ(wb.progress(*wb.puzzle()).hintsRevealed,
                  static_cast<int>(wb.puzzle()->hints.size()));
    }
    Workbench wb(options("shared"));
    EXPECT_EQ(wb.progress(*wb.puzzle()).hintsRevealed, static_cast<int>(wb.puzzle()->hints.size()));
}

TEST_F(WorkbenchTest, SwitchingPuzzlesKeepsEachDraft) {
    Workbench wb(options("map"));
    wb.document().moveToEnd(false);
    wb.document().insert("\n// map draft\n");
    std::string mapDraft = wb.document().text();
    int map = wb.puzzleIndex();
    wb.requestPuzzle(map + 1);
    wb.update();
    EXPECT_EQ(wb.document().text(), wb.starterText());
    wb.requestPuzzle(map);
    wb.update();
    EXPECT_EQ(wb.document().text(), mapDraft);
}

TEST_F(WorkbenchTest, AnotherPuzzleNeverShowsTheOldPuzzlesReport) {
    Workbench wb(options("matmul"));
    settle(wb);
    ASSERT_NE(wb.report(), nullptr);
    wb.requestPuzzle(0); // map: one buffer fewer than matmul
    // Asked for while panels draw: nothing changes under them until the next frame's update().
    EXPECT_EQ(wb.puzzle()->slug, "matmul");
    EXPECT_NE(wb.report(), nullptr);
    uint64_t generation = wb.puzzleGeneration();
    wb.update();
    EXPECT_EQ(wb.puzzle()->slug, "map");
    EXPECT_NE(wb.puzzleGeneration(), generation);
    EXPECT_EQ(wb.report(), nullptr);
    EXPECT_EQ(wb.outcome(0), nullptr);
    EXPECT_EQ(settle(wb).cases.size(), wb.puzzle()->cases.size());
}

// The crash of issue 18: a click in the puzzle list opened the new puzzle while the panels after
// the list still drew the shown case of the old one (its outcome freed with the old report). Now
// the switch waits for the next frame's update(), and the views forget the old puzzle's case,
// selection, dispatch and trace before they work out the new shown case.
TEST_F(WorkbenchTest, APuzzleSwitchLeavesNoViewStateOfTheOldPuzzle) {
    Workbench wb(options("scan-hillis-steele"));
    wb.loadSolution();
    settle(wb);
    ViewState view;
    view.selectedCase = 1;
    view.selection.thread = Uvec3{5, 0, 0};
    view.pickedDispatch = 2;
    view.timelineWorkgroup = 1;
    view.walkthroughActive = false;
    ShownCase before = shownCase(wb, view);
    ASSERT_NE(before.outcome, nullptr);
    ASSERT_NE(before.trace(), nullptr);
    EXPECT_EQ(before.dispatch, 2u);

    wb.requestPuzzle(0); // a click in the list, drawn before the memory panel
    ShownCase sameFrame = shownCase(wb, view);
    EXPECT_EQ(sameFrame.outcome, before.outcome)
        << "the frame that asked still draws the old puzzle, whole";

    uint64_t generation = wb.puzzleGeneration();
    wb.update(); // the next frame
    ASSERT_NE(wb.puzzleGeneration(), generation);
    view.forgetPuzzle(); // MainView does this when the generation changes, before anything draws
    EXPECT_EQ(view.selectedCase, 0);
    EXPECT_FALSE(view.selection.thread);
    EXPECT_FALSE(view.pickedDispatch);
    EXPECT_EQ(view.timelineWorkgroup, 0u);
    EXPECT_EQ(view.traces.trace(), nullptr);
    ShownCase after = shownCase(wb, view);
    EXPECT_EQ(after.puzzle->slug, "map");
    EXPECT_EQ(after.outcome, nullptr) << "map has not run yet";
    EXPECT_EQ(after.entry, nullptr) << "map runs one dispatch";
    EXPECT_EQ(after.trace(), nullptr);
}

TEST_F(WorkbenchTest, ACorruptDraftIsReportedAndTheStarterUsed) {
    fs::create_directories(m_dir + "/drafts");
    std::ofstream(m_dir + "/drafts/01-map.json") << "{ not json";
    Workbench wb(options());
    ASSERT_EQ(wb.messages().size(), 1u);
    EXPECT_NE(wb.messages()[0].find("01-map.json"), std::string::npos);
    EXPECT_EQ(wb.document().text(), wb.starterText());
}

TEST_F(WorkbenchTest, ADraftSavedUnderAnOldFolderNumberIsOpenedAndTheLearnerTold) {
    {
        UserState old(m_dir);
        ASSERT_TRUE(
            old.saveDraft("22-scan-levels", {"// my levels draft\n", std::nullopt, ""}).ok());
    }
    Workbench wb(options("scan-levels"));
    ASSERT_NE(wb.puzzle(), nullptr);
    EXPECT_EQ(wb.puzzle()->folder, "18-scan-levels");
    EXPECT_EQ(wb.document().text(), "// my levels draft\n");
    ASSERT_EQ(wb.messages().size(), 1u);
    EXPECT_NE(wb.messages()[0].find("22-scan-levels is now 18-scan-levels"), std::string::npos)
        << wb.messages()[0];
}

TEST_F(WorkbenchTest, ScriptedRunsTouchNoUserFiles) {
    WorkbenchOptions o = options();
    o.persist = false;
    o.kernelFile = test::puzzleDir() + "/01-map/solution.comp";
    {
        Workbench wb(o);
        EXPECT_EQ(wb.document().text(), wb.solutionText());
        EXPECT_TRUE(settle(wb).allPass());
        wb.update();
        wb.revealNextHint();
    }
    EXPECT_FALSE(fs::exists(m_dir));
}

// Issue 18, item 6: a pack (--puzzles) is added beside the built-in puzzles. Its 01-map is not the
// built-in 01-map: each keeps its own draft, and a pack session leaves the built-in place alone.
TEST_F(WorkbenchTest, APacksPuzzleKeepsItsOwnDraftAndAPackSessionLeavesTheBuiltInPlace) {
    std::string pack = m_dir + "-packs/course";
    fs::create_directories(pack);
    fs::copy(test::puzzleDir() + "/01-map", pack + "/01-map", fs::copy_options::recursive);
    auto withPack = [&] {
        WorkbenchOptions o = options("");
        o.packs = {pack};
        return o;
    };
    {
        Workbench wb(options("zip"));
        wb.document().replaceAll("// built-in zip draft\n");
        settle(wb);
    }
    {
        Workbench wb(withPack());
        ASSERT_NE(wb.puzzle(), nullptr);
        EXPECT_EQ(wb.puzzle()->key(), "course/01-map") << "a pack session opens in the pack";
        EXPECT_EQ(wb.document().text(), wb.starterText()) << "no other puzzle's draft";
        wb.document().replaceAll("// pack map draft\n");
        settle(wb);
        EXPECT_TRUE(fs::exists(m_dir + "/drafts/course@01-map.json"));
        EXPECT_FALSE(fs::exists(m_dir + "/drafts/01-map.json"));
        EXPECT_EQ(wb.puzzles().puzzles.size(), loadPuzzleSet(test::puzzleDir()).puzzles.size() + 1)
            << "the built-in puzzles and the pack's one";
    }
    {
        Workbench wb(options(""));
        EXPECT_EQ(wb.puzzle()->key(), "02-zip") << "the built-in puzzle open last, not the pack's";
        EXPECT_EQ(wb.document().text(), "// built-in zip draft\n");
        wb.requestPuzzle(0);
        wb.update();
        EXPECT_EQ(wb.puzzle()->key(), "01-map");
        EXPECT_EQ(wb.document().text(), wb.starterText()) << "the pack's draft stays the pack's";
    }
    Workbench wb(withPack());
    EXPECT_EQ(wb.puzzle()->key(), "course/01-map");
    EXPECT_EQ(wb.document().text(), "// pack map draft\n");
    fs::remove_all(m_dir + "-packs");
}

// An author saves puzzle.toml (or a kernel) while the app runs: the puzzle is reloaded between
// frames, the learner's text stays, and a file that does not load keeps the version before.
TEST_F(WorkbenchTest, APuzzleWhoseFilesChangeOnDiskIsReloadedAndTheTextKept) {
    std::string pack = m_dir + "-packs/course";
    fs::create_directories(pack);
    fs::copy(test::puzzleDir() + "/01-map", pack + "/01-map", fs::copy_options::recursive);
    WorkbenchOptions o = options("");
    o.packs = {pack};
    Workbench wb(o);
    ASSERT_EQ(wb.puzzle()->key(), "course/01-map");
    std::string title = wb.puzzle()->title;
    const std::string mine = test::mapSolution() + "// the learner's kernel\n";
    wb.document().replaceAll(mine);
    settle(wb);
    uint64_t generation = wb.puzzleGeneration();
    std::string toml = readFile(pack + "/01-map/puzzle.toml");
    ASSERT_EQ(toml.rfind("title = \"" + title + "\"\n", 0), 0u)
        << "the title is puzzle.toml's first line";
    std::string edited =
        "title = \"Map, edited\"\n# retitled by the author\n" + toml.substr(toml.find('\n') + 1);
    std::ofstream(pack + "/01-map/puzzle.toml") << edited;
    auto waitFor = [&](auto done) {
        for (auto until = std::chrono::steady_clock::now() + test::kPatience;
             !done() && std::chrono::steady_clock::now() < until;) {
            wb.update();
            std::this_thread::sleep_for(20ms);
        }
        return done();
    };
    ASSERT_TRUE(waitFor([&] { return wb.puzzle()->title == "Map, edited"; }))
        << "the edited puzzle.toml was not reloaded";
    EXPECT_GT(wb.puzzleGeneration(), generation)
        << "views drop what they derived from the old version";
    EXPECT_EQ(wb.document().text(), mine);
    ASSERT_FALSE(wb.messages().empty());
    EXPECT_NE(wb.messages().back().find("changed on disk"), std::string::npos)
        << wb.messages().back();
    EXPECT_EQ(wb.puzzle()->key(), "course/01-map") << "still the pack's puzzle";
    EXPECT_TRUE(settle(wb).allPass()) << "checked again against the new version";

    size_t said = wb.messages().size();
    std::ofstream(pack + "/01-map/puzzle.toml")
        << edited << "\n[limits]\nglobal_read = 1\n[limits]\n";
    ASSERT_TRUE(waitFor([&] { return wb.messages().size() > said; }));
    EXPECT_NE(wb.messages().back().find("do not load, so the version read before stays"),
              std::string::npos)
        << wb.messages().back();
    EXPECT_NE(wb.messages().back().find("puzzle.toml"), std::string::npos)
        << "it names the file: " << wb.messages().back();
    EXPECT_EQ(wb.puzzle()->title, "Map, edited");
    EXPECT_EQ(wb.document().text(), mine);
    fs::remove_all(m_dir + "-packs");
}

TEST_F(WorkbenchTest, AnUnknownPuzzleOpensTheFirstAndSaysSo) {
    Workbench wb(options("no-such-puzzle"));
    ASSERT_NE(wb.puzzle(), nullptr);
    EXPECT_EQ(wb.puzzleIndex(), 0);
    ASSERT_FALSE(wb.messages().empty());
    EXPECT_NE(wb.messages()[0].find("no-such-puzzle"), std::string::npos);
}

// The walkthrough player: the official solution runs aside on the walkthrough's case (traced),
// the learner's text and report stay, and a step points at threads, cells and a round of it.
TEST_F(WorkbenchTest, AWalkthroughStepPointsAtTheOfficialRun) {
    Workbench wb(options("matmul"));
    const CheckReport& mine = settle(wb);
    std::string text = wb.document().text();
    const Walkthrough* w = wb.walkthrough();
    ASSERT_NE(w, nullptr) << "matmul has a walkthrough.toml";
    ASSERT_GE(w->steps.size(), 3u);
    wb.requestOfficialRun(w->caseIndex);
    auto until = std::chrono::steady_clock::now() + test::kPatience;
    while (!wb.officialOutcome(w->caseIndex) && std::chrono::steady_clock::now() < until) {
        wb.update();
        std::this_thread::sleep_for(5ms);
    }
    const CaseOutcome* official = wb.officialOutcome(w->caseIndex);
    ASSERT_NE(official, nullptr);
    EXPECT_TRUE(official->pass) << "the official solution passes its case";
    ASSERT_TRUE(official->trace);
    EXPECT_EQ(wb.document().text(), text) << "the learner's kernel is untouched";
    EXPECT_EQ(wb.report(), &mine) << "and so is their report";
    const Puzzle& p = *wb.puzzle();
    const TestCase& tc = p.cases[w->caseIndex];
    // Step 3: barrier 1, then multiply the tiles: thread (1, 1), round 1, tile cells of workgroup
    // (0, 0).
    PlayerFocus f = playerFocus(w->steps[2], p, tc, *official->trace, *official->analysis);
    ASSERT_TRUE(f.thread);
    EXPECT_EQ(*f.thread, (Uvec3{1, 1, 0}));
    EXPECT_EQ(f.workgroup, 0u);
    ASSERT_TRUE(f.round);
    EXPECT_EQ(*f.round, 1u);
    ASSERT_FALSE(f.focus.cells.empty());
    for (const CellRef& c : f.focus.cells) {
        EXPECT_TRUE(c.shared);
        EXPECT_EQ(c.workgroup, 0u);
    }
    EXPECT_EQ(f.focus.lines, w->steps[2].focus.lines);
    // Step 1 rings result[1][1] of the 3 x 3 output: flat index 4.
    PlayerFocus first = playerFocus(w->steps[0], p, tc, *official->trace, *official->analysis);
    ASSERT_EQ(first.focus.cells.size(), 1u);
    EXPECT_EQ(first.focus.cells[0], CellRef::buffer(2, 4));
    WalkthroughPlayer player;
    player.start(w->steps.size());
    EXPECT_TRUE(player.needsApply(1));
    EXPECT_FALSE(player.needsApply(1)) << "applied once per step";
    player.next();
    EXPECT_TRUE(player.needsApply(1));
    EXPECT_TRUE(player.needsApply(2)) << "and again for a new trace";
    player.go(99);
    EXPECT_EQ(player.step(), w->steps.size() - 1);
}

TEST_F(WorkbenchTest, WatchedLinesAreKeptPerPuzzle) {
    {
        Workbench wb(options("matmul"));
        wb.toggleWatch(52);
        wb.toggleWatch(39);
        EXPECT_EQ(wb.watchedLines(), (std::vector<uint32_t>{39, 52}));
        wb.toggleWatch(52);
        EXPECT_EQ(wb.watchedLines(), (std::vector<uint32_t>{39}));
        wb.requestPuzzle(0);
        wb.update();
        EXPECT_TRUE(wb.watchedLines().empty()) << "another puzzle, its own lines";
    }
    Workbench again(options("matmul"));
    EXPECT_EQ(again.watchedLines(), (std::vector<uint32_t>{39})) << "kept in progress.json";
}

// Progress records how a puzzle came to pass (issue 18, item 7).
TEST_F(WorkbenchTest, ProgressRecordsHowThePuzzleWasSolved) {
    const std::string own =
        "\n    if (i < uint(a.length())) { float v = a[i]; result[i] = v + 10.0; }\n";
    {
        // The official solution opened as a file, only its comments and layout changed: not solved.
        fs::create_directories(m_dir + "/in");
        std::string text = readFile(test::puzzleDir() + "/01-map/solution.comp");
        std::string plain;
        for (size_t at = 0; at < text.size();) {
            size_t nl = text.find('\n', at);
            std::string line =
                text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
            at = nl == std::string::npos ? text.size() : nl + 1;
            if (line.find("//") != std::string::npos && line.find("#version") == std::string::npos)
                line = line.substr(0, line.find("//"));
            plain += "  " + line + "\n\n";
        }
        std::ofstream(m_dir + "/in/solution-reformatted.comp") << plain;
        WorkbenchOptions o = options();
        o.kernelFile = m_dir + "/in/solution-reformatted.comp";
        Workbench wb(o);
        EXPECT_TRUE(settle(wb).allPass()) << plain;
        wb.update();
        EXPECT_EQ(wb.progress(*wb.puzzle()).how, SolvedHow::OfficialSolution);
        EXPECT_FALSE(wb.progress(*wb.puzzle()).solved);
    }
    {
        // Map, solved by the learner before revealing anything: on their own.
        fs::remove(m_dir + "/progress.json");
        Workbench wb(options());
        std::string starter = wb.starterText();
        wb.document().selectAll();
        wb.document().insert(starter.substr(0, starter.rfind('}')) + own + "}\n");
        EXPECT_TRUE(settle(wb).allPass()) << wb.document().text();
        wb.update();
        EXPECT_EQ(wb.progress(*wb.puzzle()).how, SolvedHow::OnTheirOwn);
        EXPECT_TRUE(wb.progress(*wb.puzzle()).solved);
        // Loading the solution afterwards does not take that back.
        wb.loadSolution();
        EXPECT_TRUE(settle(wb).allPass());
        wb.update();
        EXPECT_EQ(wb.progress(*wb.puzzle()).how, SolvedHow::OnTheirOwn);
    }
    {
        // Zip: the solution revealed first, then the learner's own kernel passes.
        Workbench wb(options("zip"));
        wb.revealSolution();
        std::string starter = wb.starterText();
        wb.document().selectAll();
        wb.document().insert(starter.substr(0, starter.rfind('}')) +
                             "\n    uint j = gl_GlobalInvocationID.x;\n    if (j < "
                             "uint(a.length())) result[j] = b[j] + a[j];\n}\n");
        EXPECT_TRUE(settle(wb).allPass()) << wb.document().text();
        wb.update();
        EXPECT_EQ(wb.progress(*wb.puzzle()).how, SolvedHow::AfterSeeingTheSolution);
        EXPECT_TRUE(wb.progress(*wb.puzzle()).solved);
    }
    Workbench later(options());
    auto progress = readFile(m_dir + "/progress.json");
    EXPECT_NE(progress.find("\"solved_how\": \"on_their_own\""), std::string::npos) << progress;
    EXPECT_NE(progress.find("\"solved_how\": \"after_seeing_the_solution\""), std::string::npos)
        << progress;
}

// Issue 18 item 10: the kernel exported as files the command line reads back (one .comp, or a
// folder of NAME.comp for a multi-kernel puzzle); a name in use is never overwritten.
TEST_F(WorkbenchTest, TheKernelIsExportedAsFilesTheCommandLineReads) {
    std::string out = m_dir + "/exports";
    {
        Workbench wb(options("map"));
        wb.document().moveToEnd(false);
        wb.document().insert("// exported\n");
        auto first = wb.exportKernel(out);
        ASSERT_TRUE(first.ok()) << first.error().message;
        EXPECT_EQ(*first, out + "/map.comp");
        EXPECT_EQ(readFile(*first), wb.document().text());
        auto second = wb.exportKernel(out);
        ASSERT_TRUE(second.ok());
        EXPECT_EQ(*second, out + "/map-2.comp") << "the first export is kept";
        auto back = kernelFileText(*wb.puzzle(), *first);
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(*back, wb.document().text());
    }
    Workbench wb(options("scan-levels"));
    ASSERT_GT(wb.puzzle()->kernels.size(), 1u);
    auto folder = wb.exportKernel(out);
    ASSERT_TRUE(folder.ok()) << folder.error().message;
    EXPECT_EQ(*folder, out + "/scan-levels");
    for (const KernelDecl& k : wb.puzzle()->kernels)
        EXPECT_TRUE(fs::is_regular_file(*folder + "/" + k.name + ".comp")) << k.name;
    auto back = kernelFileText(*wb.puzzle(), *folder);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(*back, wb.document().text()) << "the folder reads back as the editor's text";
}

// The two-window report of issue 19: B opens Map, A solves Zip with the official solution; A
// quits, then B. Before, B's save wrote progress.json as {} and A's work was gone.
TEST_F(WorkbenchTest, TwoWindowsOnOneDataFolderKeepBothWindowsWork) {
    auto b = std::make_unique<Workbench>(options("map"));
    EXPECT_TRUE(b->messages().empty()) << b->messages().front();
    {
        WorkbenchOptions o = options("zip");
        o.kernelFile = test::puzzleDir() + "/02-zip/solution.comp";
        Workbench a(o);
        ASSERT_FALSE(a.messages().empty());
        EXPECT_NE(a.messages().front().find("Another vkpuzzles window is open"), std::string::npos)
            << a.messages().front();
        EXPECT_TRUE(settle(a).allPass());
        a.update();
        EXPECT_EQ(a.progress(*a.puzzle()).how, SolvedHow::OfficialSolution);
        a.revealNextHint();
    }
    b->document().moveToEnd(false);
    b->document().insert("\n// B's edit\n");
    b.reset();
    Workbench later(options("zip"));
    EXPECT_EQ(later.progress(*later.puzzle()).how, SolvedHow::OfficialSolution)
        << readFile(m_dir + "/progress.json");
    EXPECT_EQ(later.progress(*later.puzzle()).hintsRevealed, 1)
        << readFile(m_dir + "/progress.json");
    EXPECT_NE(readFile(m_dir + "/drafts/01-map.json").find("B's edit"), std::string::npos);
}

TEST_F(WorkbenchTest, TheSaveStatusTellsTheTruth) {
    Workbench wb(options());
    EXPECT_EQ(wb.draftSaved(), Workbench::DraftSaved::Saved) << "nothing edited yet";
    // The data folder becomes a file: the next save fails, and says so until one succeeds.
    fs::remove_all(m_dir);
    std::ofstream(m_dir) << "not a folder";
    wb.document().moveToEnd(false);
    wb.document().insert("\n// edit\n");
    EXPECT_EQ(wb.draftSaved(), Workbench::DraftSaved::Pending);
    wb.update();
    wb.update();
    EXPECT_EQ(wb.draftSaved(), Workbench::DraftSaved::Failed);
    EXPECT_NE(wb.saveProblem().find("is a file, not a folder"), std::string::npos)
        << wb.saveProblem();
    fs::remove(m_dir);
    wb.document().insert("// another\n");
    wb.update();
    wb.update();
    EXPECT_EQ(wb.draftSaved(), Workbench::DraftSaved::Saved) << wb.saveProblem();
    EXPECT_NE(readFile(m_dir + "/drafts/01-map.json").find("// another"), std::string::npos);
}

} // namespace
} // namespace vkp::ui
