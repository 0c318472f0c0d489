// The app driven through real input, as a person would: its own Xvfb, real X events from xdotool
// at the places the app's layout probe names (VKPUZZLES_LAYOUT), never flags that set state. The
// first click in the puzzle list used to kill the app (issue 18); every puzzle, tab, case, a
// thread, a cell, the walkthrough's buttons, menus, text scaling and typing are clicked here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <set>

#include "gui_driver.h"
#include "png_pixels.h"
#include "puzzle/track_order.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::GuiDriver;
using test::Layout;
using test::Rect;
using namespace test; // Png, loadPng, countNear, the theme colours
namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct PuzzleFile {
    std::string folder, slug, title, track;
    int number = 0, order = 0;
};

// The built-in puzzles in list order (by track, then their order in it), with what the window
// title shows. A puzzle added to a track later has a later folder number than the puzzles listed
// after it (39-items-per-thread follows 23-coalesced).
std::vector<PuzzleFile> puzzleFiles() {
    std::vector<PuzzleFile> out;
    for (const auto& e : fs::directory_iterator(test::puzzleDir())) {
        if (!fs::exists(e.path() / "puzzle.toml")) continue;
        std::string toml = test::readFile(e.path() / "puzzle.toml");
        std::smatch m;
        PuzzleFile p;
        p.folder = e.path().filename().string();
        p.number = std::stoi(p.folder.substr(0, 2));
        if (std::regex_search(toml, m, std::regex("\\ntitle = \"([^\"]*)\"")) ||
            std::regex_search(toml, m, std::regex("^title = \"([^\"]*)\"")))
            p.title = m[1];
        if (std::regex_search(toml, m, std::regex("\\nslug = \"([^\"]*)\""))) p.slug = m[1];
        if (std::regex_search(toml, m, std::regex("\\ntrack = \"([^\"]*)\""))) p.track = m[1];
        if (std::regex_search(toml, m, std::regex("\\norder = (\\d+)"))) p.order = std::stoi(m[1]);
        out.push_back(p);
    }
    std::sort(out.begin(), out.end(), [](const PuzzleFile& a, const PuzzleFile& b) {
        if (a.track != b.track) return trackBefore(a.track, b.track);
        return a.order != b.order ? a.order < b.order : a.folder < b.folder;
    });
    return out;
}

// Whether the row named `a` is listed above the row named `b`.
using ListedBefore = std::function<bool(const std::string& a, const std::string& b)>;

// The puzzle list's rows ("puzzle/FOLDER") in the order of `puzzles`.
ListedBefore puzzleRowOrder(const std::vector<PuzzleFile>& puzzles) {
    auto rank = std::make_shared<std::map<std::string, size_t>>();
    for (size_t i = 0; i < puzzles.size(); ++i)
        (*rank)["puzzle/" + puzzles[i].folder] = i;
    return [rank](const std::string& a, const std::string& b) {
        auto ra = rank->find(a), rb = rank->find(b);
        if (ra == rank->end() || rb == rank->end()) return a < b;
        return ra->second < rb->second;
    };
}

class GuiInputTest : public test::GuiTest {
  protected:
    GuiInputTest() : GuiTest("input") {}

    // Scrolls a list with the mouse wheel until `name` is on screen (rows named `prefix`...).
    // Rows sort like their names unless `before` says otherwise (zero-padded case numbers do).
    ::testing::AssertionResult scrollTo(const std::string& name, const std::string& prefix,
                                        const ListedBefore& before = std::less<std::string>()) {
        for (int turn = 0; turn < 60; ++turn) {
            Layout l = m_gui->layout();
            if (auto r = l.rect(name); r && r->y1 - r->y0 >= 8)
                return ::testing::AssertionSuccess();
            std::vector<std::string> rows = l.named(prefix);
            if (rows.empty())
                return ::testing::AssertionFailure() << "no " << prefix << " rows on screen";
            Rect over = *l.rect(rows.front());
            // Wheel towards it: down while it is listed below the last row on screen.
            bool down = before(rows.back(), name) || (turn >= 30);
            if (turn == 30) down = false;
            m_gui->moveTo(over.cx(), over.cy());
            m_gui->xdo(std::string("click ") + (down ? "5" : "4"));
            if (auto s = m_gui->settleFrames(); !s) return s;
        }
        return ::testing::AssertionFailure() << name << " never scrolled into view";
    }

    // View > Save as PNG > The whole window: the app's own capture of what it shows.
    Png captureWindow(const std::string& slug) {
        SCOPED_TRACE("capturing " + slug);
        fs::path file = m_gui->exportDir() / (slug + "-window.png");
        fs::remove(file);
        EXPECT_TRUE(m_gui->click("menu/View"));
        EXPECT_TRUE(m_gui->click("menu/View/Save as PNG"));
        EXPECT_TRUE(m_gui->click("menu/View/Save as PNG/The whole window"));
        Png img;
        // The PNG is complete once it decodes.
        EXPECT_TRUE(m_gui->waitFor(file.string(), [&](const Layout&) {
            return fs::exists(file) && (img = loadPng(file.string())).width > 0;
        }));
        return img;
    }
};

TEST_F(GuiInputTest, EveryPuzzleInTheListOpensWhenClicked) {
    std::vector<PuzzleFile> puzzles = puzzleFiles();
    ASSERT_GE(puzzles.size(), 20u);
    start({}); // a fresh data folder: the first puzzle opens
    ASSERT_TRUE(m_gui->waitFact("puzzle", puzzles[0].folder));
    Png last = captureWindow(puzzles[0].slug);
    ASSERT_EQ(last.width, 1280);
    for (size_t i = 1; i <= puzzles.size(); ++i) {
        const PuzzleFile& p = puzzles[i % puzzles.size()]; // ends back on the first
        std::string row = "puzzle/" + p.folder;
        ASSERT_TRUE(scrollTo(row, "puzzle/", puzzleRowOrder(puzzles)));
        ASSERT_TRUE(m_gui->click(row));
        ASSERT_TRUE(m_gui->waitFact("puzzle", p.folder)) << "clicked " << p.folder;
        ASSERT_TRUE(m_gui->alive()) << p.folder << ": " << m_gui->howItEnded();
        EXPECT_TRUE(m_gui->waitTitle(std::to_string(p.number) + ". " + p.title +
                                     " \xE2\x80\x94 vkpuzzles"));
        Png now = captureWindow(p.slug);
        EXPECT_EQ(now.width, 1280) << p.folder;
        EXPECT_EQ(now.height, 800) << p.folder;
        EXPECT_GT(differing(now, last), 0.02)
            << p.folder << ": the window shows another puzzle than before";
        last = std::move(now);
    }
    // The other ways to switch: Ctrl+PgDn, the Puzzle menu, a search result.
    m_gui->key("ctrl+Next");
    ASSERT_TRUE(m_gui->waitFact("puzzle", puzzles[1].folder));
    ASSERT_TRUE(m_gui->click("menu/Puzzle"));
    ASSERT_TRUE(m_gui->click("menu/Puzzle/Previous puzzle"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", puzzles[0].folder));
    ASSERT_TRUE(m_gui->click("search"));
    m_gui->type("matmul");
    size_t matching = 0; // by slug, folder or title: 14-matmul and the performance track's
    for (const PuzzleFile& p : puzzles) {
        std::string title = p.title;
        for (char& c : title)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        matching += (p.folder + p.slug + title).find("matmul") != std::string::npos;
    }
    ASSERT_GE(matching, 1u);
    ASSERT_TRUE(m_gui->waitFor("only the matmul puzzles listed", [&](const Layout& l) {
        return l.named("puzzle/").size() == matching && l.rect("puzzle/14-matmul");
    }));
    ASSERT_TRUE(m_gui->click("puzzle/14-matmul"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", "14-matmul"));
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
    EXPECT_NE(
        test::readFile(m_gui->dataDir() / "settings.json").find("\"last_puzzle\": \"14-matmul\""),
        std::string::npos);
}

// Issue 18, item 6: a pack (--puzzles) is listed under its own heading after the built-in puzzles
// and clicked like them; its 01-map is not the built-in 01-map; an author's save of its
// puzzle.toml shows in the running app, the learner's text intact.
TEST_F(GuiInputTest, APackIsListedUnderItsHeadingClickedAndReloadedWhenItsFileIsSaved) {
    fs::path pack = m_gui->exportDir().parent_path() / "packs" / "course";
    fs::create_directories(pack);
    fs::copy(fs::path(test::puzzleDir()) / "01-map", pack / "01-map", fs::copy_options::recursive);
    start({"--puzzles", pack.string()});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "course/01-map")) << "a pack session opens in the pack";
    ASSERT_TRUE(m_gui->waitFor("the pack's heading",
                               [](const Layout& l) { return l.rect("pack/course").has_value(); }));
    Layout l = m_gui->layout();
    ASSERT_TRUE(l.rect("puzzle/course/01-map"));
    ASSERT_TRUE(scrollTo("puzzle/01-map", "puzzle/"));
    ASSERT_TRUE(m_gui->click("puzzle/01-map"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map")) << "the built-in Map, a different puzzle";
    ASSERT_TRUE(scrollTo("puzzle/course/01-map", "puzzle/"));
    l = m_gui->layout();
    ASSERT_TRUE(l.rect("pack/course"));
    EXPECT_LT(l.rect("pack/course")->y1, l.rect("puzzle/course/01-map")->y0)
        << "the heading is above the pack's puzzles";
    ASSERT_TRUE(m_gui->click("puzzle/course/01-map"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", "course/01-map"));
    // The author saves a new title; the running app shows it within a few seconds.
    std::string toml = test::readFile(pack / "01-map/puzzle.toml");
    ASSERT_EQ(toml.rfind("title = \"Map\"\n", 0), 0u);
    std::ofstream(pack / "01-map/puzzle.toml") << "title = \"Map for the course\"\n"
                                               << toml.substr(toml.find('\n') + 1);
    EXPECT_TRUE(m_gui->waitTitle("1. Map for the course \xE2\x80\x94 vkpuzzles"));
    Png window = captureWindow("map"); // named after the puzzle's slug
    EXPECT_EQ(window.width, 1280);
    ASSERT_TRUE(m_gui->alive()) << m_gui->howItEnded();
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    std::string settings = test::readFile(m_gui->dataDir() / "settings.json");
    EXPECT_NE(settings.find("\"course\": \"01-map\""), std::string::npos) << settings;
    EXPECT_NE(settings.find("\"last_puzzle\": \"01-map\""), std::string::npos)
        << "the built-in place is the built-in Map: " << settings;
}

// Tabs, cases, a thread, a cell, the menus, text scaling (keys, menu, buttons), the shortcut and
// about dialogs, and the walkthrough's buttons, on puzzle 8 (it has a walkthrough).
TEST_F(GuiInputTest, TabsCasesThreadsCellsMenusAndTheWalkthroughAnswerClicks) {
    start({"--puzzle", "shared"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "08-shared"));
    for (const char* tab : {"hints", "solution", "device", "statement"}) {
        ASSERT_TRUE(m_gui->click(std::string("tab/") + tab));
        ASSERT_TRUE(m_gui->waitFact("sideTab", tab));
    }
    for (const char* tab : {"timeline", "watches", "buffers"}) {
        ASSERT_TRUE(m_gui->click(std::string("tab/") + tab));
        ASSERT_TRUE(m_gui->waitFact("memoryTab", tab));
    }
    std::string toml = test::readFile(fs::path(test::puzzleDir()) / "08-shared" / "puzzle.toml");
    int cases = 0;
    for (size_t at = toml.find("[[cases]]"); at != std::string::npos;
         at = toml.find("[[cases]]", at + 1))
        ++cases;
    ASSERT_GE(cases, 3);
    for (int n = 1; n <= cases; ++n) { // every case, scrolled into view when needed
        std::string c = "case/" + std::to_string(n);
        ASSERT_TRUE(scrollTo(c, "case/"));
        ASSERT_TRUE(m_gui->click(c));
        ASSERT_TRUE(m_gui->waitFact("case", std::to_string(n)));
    }
    // A thread: selected, then let go by a second click.
    ASSERT_TRUE(m_gui->click("thread/1,0,0"));
    ASSERT_TRUE(m_gui->waitFact("thread", "1,0,0"));
    ASSERT_TRUE(m_gui->click("thread/1,0,0"));
    ASSERT_TRUE(m_gui->waitFact("thread", ""));
    // A cell of the first input.
    ASSERT_TRUE(m_gui->waitFor("an input cell",
                               [](const Layout& l) { return !l.named("cell/buffer0/").empty(); }));
    std::string cell = m_gui->layout().named("cell/buffer0/").front();
    ASSERT_TRUE(m_gui->click(cell));
    ASSERT_TRUE(m_gui->waitFact("cell", "buffer0/" + cell.substr(cell.rfind('/') + 1)));
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFact("cell", ""));
    // Text size: the View menu, the keys, the status bar's buttons.
    ASSERT_TRUE(m_gui->click("menu/View"));
    ASSERT_TRUE(m_gui->click("menu/View/Larger text"));
    ASSERT_TRUE(m_gui->waitFact("fontScale", "110"));
    m_gui->key("ctrl+equal");
    ASSERT_TRUE(m_gui->waitFact("fontScale", "120"));
    m_gui->key("ctrl+minus");
    ASSERT_TRUE(m_gui->waitFact("fontScale", "110"));
    ASSERT_TRUE(m_gui->click("button/A-"));
    ASSERT_TRUE(m_gui->waitFact("fontScale", "100"));
    ASSERT_TRUE(m_gui->click("button/A+"));
    ASSERT_TRUE(m_gui->waitFact("fontScale", "110"));
    m_gui->key("ctrl+0");
    ASSERT_TRUE(m_gui->waitFact("fontScale", "100"));
    // Dialogs from the Help menu and F1, closed with Escape.
    ASSERT_TRUE(m_gui->click("menu/Help"));
    ASSERT_TRUE(m_gui->click("menu/Help/About vkpuzzles"));
    ASSERT_TRUE(m_gui->waitFact("popup", "1"));
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFact("popup", "0"));
    m_gui->key("F1");
    ASSERT_TRUE(m_gui->waitFact("popup", "1"));
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFact("popup", "0"));
    // The walkthrough: Puzzle > Official solution, reveal, play, step on and back, end.
    ASSERT_TRUE(m_gui->click("menu/Puzzle"));
    ASSERT_TRUE(m_gui->click("menu/Puzzle/Official solution"));
    ASSERT_TRUE(m_gui->waitFact("sideTab", "solution"));
    ASSERT_TRUE(m_gui->click("button/Reveal the official solution"));
    ASSERT_TRUE(m_gui->click("button/Walk through the official solution"));
    ASSERT_TRUE(m_gui->waitFact("walkthrough", "1"));
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "1"));
    ASSERT_TRUE(m_gui->click("button/Next >"));
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "2"));
    ASSERT_TRUE(m_gui->click("button/< Prev"));
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "1"));
    ASSERT_TRUE(m_gui->click("button/End the walkthrough"));
    ASSERT_TRUE(m_gui->waitFact("walkthrough", "0"));
    // A walkthrough left running while another puzzle opens ends with it (no stale step).
    ASSERT_TRUE(m_gui->click("button/Walk through the official solution"));
    ASSERT_TRUE(m_gui->waitFact("walkthrough", "1"));
    ASSERT_TRUE(m_gui->click("puzzle/09-pooling"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", "09-pooling"));
    ASSERT_TRUE(m_gui->waitFact("walkthrough", "0"));
    ASSERT_TRUE(m_gui->alive());
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s));
    EXPECT_EQ(m_gui->exitCode(), 0);
}

// The editor's habits with real keys: "{", Enter, "}" close a block once at the right
// indentation, Ctrl+/ comments the selected lines and one Ctrl+Z takes that back, Escape closes an
// open menu and then the find bar (Ctrl+F, F3), and another puzzle opens at line 1, column 1.
TEST_F(GuiInputTest, EditorBracesCommentsFindAndEscapeAnswerKeys) {
    start({"--puzzle", "zip"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "02-zip"));
    ASSERT_TRUE(m_gui->click("editor"));
    ASSERT_TRUE(m_gui->waitFact("editorFocused", "1"));
    fs::path draft = m_gui->dataDir() / "drafts" / "02-zip.json";
    std::string text;
    auto draftEndsWith = [&](const std::string& tail) {
        return [&, tail](const Layout&) {
            auto j = nlohmann::json::parse(test::readFile(draft), nullptr, false);
            text = j.is_object() ? j.value("text", "") : "";
            return text.size() >= tail.size() &&
                   text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
        };
    };
    // The starter ends with "}" and an empty line: the block goes after it.
    m_gui->key("ctrl+End");
    m_gui->type("void helper() {");
    m_gui->key("Return");
    m_gui->type("int x = 1;");
    m_gui->key("Return");
    m_gui->type("}");
    const std::string block = "}\nvoid helper() {\n    int x = 1;\n}";
    ASSERT_TRUE(m_gui->waitFor("the block saved", draftEndsWith(block))) << text;
    // Shift+Up twice selects the three lines; Ctrl+/ comments all of them; Ctrl+Z undoes that.
    m_gui->key("shift+Up");
    m_gui->key("shift+Up");
    m_gui->key("ctrl+slash");
    ASSERT_TRUE(m_gui->waitFor("the lines commented",
                               draftEndsWith("}\n// void helper() {\n//     int x = 1;\n// }")))
        << text;
    m_gui->key("ctrl+z");
    ASSERT_TRUE(m_gui->waitFor("the comment undone", draftEndsWith(block))) << text;
    // Escape closes an open menu.
    ASSERT_TRUE(m_gui->click("menu/Edit"));
    ASSERT_TRUE(m_gui->waitFor("the Edit menu open", [](const Layout& l) {
        return l.fact("popup") == "1" && l.rect("menu/Edit/Find...");
    }));
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFor("the Edit menu closed", [](const Layout& l) {
        return l.fact("popup") == "0" && !l.rect("menu/Edit/Find...");
    }));
    // Ctrl+F: the find bar, a count of the matches, F3; Escape closes it and gives the keys back.
    std::string starter = test::readFile(fs::path(test::puzzleDir()) / "02-zip" / "starter.comp");
    ASSERT_EQ(starter.find("helper"), std::string::npos) << "the search below counts on one match";
    m_gui->key("ctrl+f");
    ASSERT_TRUE(m_gui->waitFact("findOpen", "1"));
    ASSERT_TRUE(m_gui->waitFor("the find field",
                               [](const Layout& l) { return l.rect("find/field").has_value(); }));
    m_gui->type("HELPER");
    ASSERT_TRUE(m_gui->waitFact("findSummary", "1 of 1"));
    m_gui->key("F3");
    ASSERT_TRUE(m_gui->settleFrames());
    EXPECT_EQ(m_gui->layout().fact("findSummary"), "1 of 1");
    Png shot = captureWindow("zip"); // named after the puzzle
    EXPECT_EQ(shot.width, 1280);
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFact("findOpen", "0"));
    ASSERT_TRUE(m_gui->waitFact("editorFocused", "1"));
    // Enough lines to scroll, then the next puzzle: it shows its line 1 from column 1.
    m_gui->key("ctrl+End");
    for (int i = 0; i < 40; ++i)
        m_gui->key("Return");
    ASSERT_TRUE(m_gui->waitFor("the editor scrolled down", [](const Layout& l) {
        std::string s = l.fact("editorScroll");
        return !s.empty() && s.substr(s.find(',') + 1) != "0";
    }));
    m_gui->key("ctrl+Next");
    ASSERT_TRUE(m_gui->waitFact("puzzle", "03-guards"));
    ASSERT_TRUE(m_gui->waitFact("editorScroll", "0,0"));
    ASSERT_TRUE(m_gui->settleFrames(3));
    EXPECT_EQ(m_gui->layout().fact("editorScroll"), "0,0"); // and it stays there
    EXPECT_EQ(m_gui->layout().fact("editorCursor"), "1:1");
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s));
    EXPECT_EQ(m_gui->exitCode(), 0);
    auto saved = nlohmann::json::parse(test::readFile(draft), nullptr, false);
    ASSERT_FALSE(saved.is_discarded());
    EXPECT_NE(saved.value("text", "").find(block), std::string::npos);
}

// The puzzle author's explanation of a recognised wrong answer (a [[pitfalls]] `why`, as the CLI
// prints it) under the failing case: whole under the selected case, one line under the others.
TEST_F(GuiInputTest, APitfallsExplanationIsShownUnderTheFailingCase) {
    start({"--puzzle", "scan-blocks"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "17-scan-blocks"));
    ASSERT_TRUE(m_gui->waitFor(
        "the starter's results",
        [](const Layout& l) { return l.fact("status") == "done" && l.rect("why/1"); }, 120s));
    ASSERT_TRUE(m_gui->click("case/2"));
    ASSERT_TRUE(m_gui->waitFact("case", "2"));
    ASSERT_TRUE(m_gui->waitFor("case 2's explanation unfolded", [](const Layout& l) {
        auto two = l.rect("why/2"), other = l.rect("why/1")
                                                ? l.rect("why/1")
                                                : l.rect("why/3"); // the list scrolls to case 2
        return other && two && two->y1 - two->y0 > 3 * (other->y1 - other->y0);
    }));
    ASSERT_TRUE(m_gui->alive());
}

// A learner's first session: the missing line typed into Map's starter through X key events; the
// live loop checks it, the puzzle is marked solved, Ctrl+Q saves the draft (the starter's lines
// kept around the typed one) and remembers the puzzle for the next start.
TEST_F(GuiInputTest, TypingTheMissingLineSolvesThePuzzleAndTheDraftIsSaved) {
    start({"--puzzle", "map"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map"));
    ASSERT_TRUE(m_gui->click("editor"));
    ASSERT_TRUE(m_gui->waitFact("editorFocused", "1"));
    m_gui->key("ctrl+End Up Up End Return"); // after "// Your code here", on a new line
    m_gui->type("if (i < uint(a.length())) result[i] = a[i] + 10.0;");
    fs::path progress = m_gui->dataDir() / "progress.json",
             draft = m_gui->dataDir() / "drafts" / "01-map.json";
    ASSERT_TRUE(m_gui->waitFor(
        "Map marked solved",
        [&](const Layout&) {
            return test::readFile(progress).find("\"solved\": true") != std::string::npos;
        },
        180s))
        << "progress.json: " << test::readFile(progress);
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not close the app";
    EXPECT_EQ(m_gui->exitCode(), 0);
    auto saved = nlohmann::json::parse(test::readFile(draft), nullptr, false);
    ASSERT_FALSE(saved.is_discarded()) << test::readFile(draft);
    std::string text = saved.value("text", "");
    EXPECT_NE(text.find("    if (i < uint(a.length())) result[i] = a[i] + 10.0;"),
              std::string::npos)
        << "typed with the line's indent\n"
        << text;
    EXPECT_NE(text.find("    // Your code here"), std::string::npos)
        << "the starter's lines are kept around the typed one\n"
        << text;
    EXPECT_NE(
        test::readFile(m_gui->dataDir() / "settings.json").find("\"last_puzzle\": \"01-map\""),
        std::string::npos)
        << test::readFile(m_gui->dataDir() / "settings.json");
}

// The debugging views through real input: a thread clicked in the grid, Alt+Home then Alt+Down
// (the timeline to the end of round 0), the timeline saved as a PNG from its right-click menu, a
// line of the editor watched with F9 (and remembered).
TEST_F(GuiInputTest, KeysAndClicksDriveTheTimelineTheExportAndTheWatches) {
    start({"--puzzle", "matmul", "--case", "5", "--kernel",
           test::puzzleDir() + "/14-matmul/solution.comp", "--tab", "timeline"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "14-matmul"));
    ASSERT_TRUE(m_gui->waitFor(
        "the traced checks",
        [](const Layout& l) { return l.fact("status") == "done" && !l.fact("timeline").empty(); },
        180s));
    ASSERT_TRUE(m_gui->waitFor("a thread on screen",
                               [](const Layout& l) { return !l.named("thread/").empty(); }));
    std::string thread = m_gui->layout().named("thread/").back();
    ASSERT_TRUE(m_gui->click(thread));
    ASSERT_TRUE(m_gui->waitFact("thread", thread.substr(7)));
    m_gui->key("alt+Home");
    ASSERT_TRUE(m_gui->waitFor("the timeline at its start", [](const Layout& l) {
        return l.fact("timeline").rfind("0/", 0) == 0;
    }));
    std::string total = m_gui->layout().fact("timeline").substr(2);
    m_gui->key("alt+Down");
    ASSERT_TRUE(m_gui->waitFor("the end of round 0", [&](const Layout& l) {
        std::string t = l.fact("timeline");
        return t.rfind("0/", 0) != 0 && t != total + "/" + total;
    })) << "round 0 ends inside the kernel: the second tile step follows it";
    // A right-click on the timeline's cells (its list of buffers and shared arrays).
    ASSERT_TRUE(m_gui->waitFor("the timeline's cells",
                               [](const Layout& l) { return !l.named("cell/").empty(); }));
    ASSERT_TRUE(m_gui->click(m_gui->layout().named("cell/").front(), 3));
    ASSERT_TRUE(m_gui->click("menu/export/Save this view as PNG"));
    fs::path file = m_gui->exportDir() / "matmul-timeline.png";
    Png view;
    ASSERT_TRUE(m_gui->waitFor(
        file.string(), [&](const Layout&) { return (view = loadPng(file.string())).width > 0; }));
    EXPECT_GT(view.width, 300);
    EXPECT_GT(countNear(view, kDarkChanged, 6), 300u)
        << "the timeline at the end of round 0: the tiles it wrote";
    EXPECT_GT(countNear(view, kDarkAccent, 12), 20u) << "the clicked thread is selected";
    // F9 on line 15 of the kernel ("uint c = gl_GlobalInvocationID.x;").
    ASSERT_TRUE(m_gui->click("editor"));
    ASSERT_TRUE(m_gui->waitFact("editorFocused", "1"));
    m_gui->key("ctrl+Home");
    for (int i = 0; i < 14; ++i)
        m_gui->key("Down");
    m_gui->key("F9");
    ASSERT_TRUE(m_gui->waitFact("memoryTab", "watches"));
    // Ctrl+Shift+S exports the kernel; all cases pass, so the next puzzle is a click away.
    m_gui->key("ctrl+shift+s");
    fs::path exported = m_gui->exportDir() / "matmul.comp";
    ASSERT_TRUE(m_gui->waitFor("matmul.comp exported",
                               [&](const Layout&) { return fs::exists(exported); }));
    EXPECT_EQ(test::readFile(exported),
              test::readFile(fs::path(test::puzzleDir()) / "14-matmul" / "solution.comp"));
    ASSERT_TRUE(m_gui->click("button/Next puzzle"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", "15-scan-hillis-steele"));
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not close the app";
    std::string p = test::readFile(m_gui->dataDir() / "progress.json");
    auto progress = nlohmann::json::parse(p, nullptr, false);
    ASSERT_FALSE(progress.is_discarded()) << p;
    EXPECT_EQ(progress["puzzles"]["14-matmul"]["watched_lines"], nlohmann::json::array({15}))
        << "F9 watched line 15\n"
        << p;
}

// Presentation (issue 18 item 8): F11 takes the window to its monitor's size (the test's Xvfb
// screen is 1600x1000) and back to 1280x800.
TEST_F(GuiInputTest, F11TogglesFullscreenAndBack) {
    start({"--puzzle", "map"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map"));
    ASSERT_TRUE(m_gui->waitFact("windowSize", "1280x800"));
    ASSERT_TRUE(m_gui->waitFact("fullscreen", "0"));
    m_gui->moveTo(400, 300);
    m_gui->key("F11");
    ASSERT_TRUE(m_gui->waitFor("fullscreen at the screen's size", [](const Layout& l) {
        return l.fact("fullscreen") == "1" && l.fact("windowSize") == "1600x1000";
    }));
    Rect editor = *m_gui->layout().rect("panel/editor");
    EXPECT_GT(editor.x1, 1280) << "the panels spread over the whole screen";
    m_gui->key("F11");
    ASSERT_TRUE(m_gui->waitFor("back to the window's size", [](const Layout& l) {
        return l.fact("fullscreen") == "0" && l.fact("windowSize") == "1280x800";
    }));
    ASSERT_TRUE(m_gui->alive());
}

// Ctrl+M maximises the panel under the pointer to the whole work area and brings the layout back
// (Ctrl+M again, or Escape, which then leaves the selected thread alone until pressed again).
TEST_F(GuiInputTest, CtrlMMaximisesThePanelUnderThePointerAndBack) {
    start({"--puzzle", "matmul", "--case", "5", "--kernel",
           test::puzzleDir() + "/14-matmul/solution.comp"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "14-matmul"));
    ASSERT_TRUE(m_gui->waitFor(
        "the traced checks and a thread",
        [](const Layout& l) { return l.fact("status") == "done" && l.rect("thread/1,0,0"); },
        180s));
    Layout before = m_gui->layout();
    Rect editor = *before.rect("panel/editor"), threads = *before.rect("panel/threads"),
         thread = *before.rect("thread/1,0,0");
    // Over the editor.
    m_gui->moveTo(editor.cx(), editor.cy());
    m_gui->settleFrames(2);
    m_gui->key("ctrl+m");
    ASSERT_TRUE(m_gui->waitFact("maximised", "editor"));
    Layout big = m_gui->layout();
    ASSERT_TRUE(big.rect("panel/editor"));
    Rect e = *big.rect("panel/editor");
    EXPECT_GT(e.x1 - e.x0, 1200) << "the editor spans the window";
    EXPECT_GT(e.y1 - e.y0, 2 * (editor.y1 - editor.y0) - 100) << "and the height of both rows";
    EXPECT_FALSE(big.rect("panel/threads")) << "the other panels are not drawn";
    EXPECT_FALSE(big.rect("panel/browser"));
    m_gui->key("ctrl+m");
    ASSERT_TRUE(m_gui->waitFor("the layout back", [&](const Layout& l) {
        return l.fact("maximised").empty() && l.rect("panel/threads");
    }));
    Rect editorAgain = *m_gui->layout().rect("panel/editor");
    EXPECT_EQ(editorAgain.x1 - editorAgain.x0, editor.x1 - editor.x0);
    EXPECT_EQ(editorAgain.y1 - editorAgain.y0, editor.y1 - editor.y0);
    // Over the thread grid, with a thread selected.
    ASSERT_TRUE(m_gui->click("thread/1,0,0"));
    ASSERT_TRUE(m_gui->waitFact("thread", "1,0,0"));
    m_gui->moveTo(threads.cx(), threads.y1 - 10);
    m_gui->settleFrames(2);
    m_gui->key("ctrl+m");
    ASSERT_TRUE(m_gui->waitFor("the grid maximised", [](const Layout& l) {
        return l.fact("maximised") == "threads" && l.rect("thread/1,0,0");
    }));
    Layout gridBig = m_gui->layout();
    Rect t = *gridBig.rect("panel/threads"), square = *gridBig.rect("thread/1,0,0");
    EXPECT_GT(t.x1 - t.x0, 1200);
    EXPECT_GT(t.y1 - t.y0, 600);
    EXPECT_GE(square.x1 - square.x0, thread.x1 - thread.x0)
        << "the threads keep at least their size";
    EXPECT_FALSE(gridBig.rect("panel/editor"));
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFor("Escape: the layout back", [](const Layout& l) {
        return l.fact("maximised").empty() && l.rect("panel/editor");
    }));
    EXPECT_EQ(m_gui->layout().fact("thread"), "1,0,0") << "Escape closed the maximised panel first";
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFor("Escape again: no thread",
                               [](const Layout& l) { return l.fact("thread").empty(); }));
}

// At 200% on 1280x800 every panel title and tab is whole or elided with an ellipsis (its
// tooltip has it whole), and what is drawn fits its place: never cut by a panel's edge.
TEST_F(GuiInputTest, AtTwoHundredPercentNoTitleOrTabIsCut) {
    start({"--puzzle", "matmul", "--case", "5", "--kernel",
           test::puzzleDir() + "/14-matmul/solution.comp", "--thread", "1,0", "--font-scale", "2"});
    ASSERT_TRUE(m_gui->waitFact("fontScale", "200"));
    ASSERT_TRUE(m_gui->waitFor(
        "the checks done",
        [](const Layout& l) { return l.fact("status") == "done" && l.rect("title/threads"); },
        180s));
    m_gui->settleFrames(3);
    Layout l = m_gui->layout();
    EXPECT_EQ(l.fact("browserCompact"), "1") << "the puzzle list gives its width to the editor row";
    const std::string dots = "\xE2\x80\xA6";
    int checked = 0, elided = 0;
    for (const auto& [key, shown] : l.facts) {
        if (key.rfind("text/", 0) != 0) continue;
        std::string name = key.substr(5), full = l.fact("full/" + name);
        SCOPED_TRACE(name + ": '" + shown + "' of '" + full + "'");
        auto r = l.rect(name);
        ASSERT_TRUE(r.has_value());
        EXPECT_FALSE(shown.empty());
        EXPECT_LE(std::stoi(l.fact("textWidth/" + name)), r->x1 - r->x0)
            << "the text is wider than its place";
        if (shown == full) {
            ++checked;
            continue;
        }
        ASSERT_GT(shown.size(), dots.size());
        EXPECT_EQ(shown.substr(shown.size() - dots.size()), dots);
        EXPECT_EQ(full.rfind(shown.substr(0, shown.size() - dots.size()), 0), 0u)
            << "the shown part starts the whole";
        ++checked, ++elided;
    }
    for (const char* name : {"title/browser", "title/editor", "title/cases", "title/buffers",
                             "title/threads", "tab/statement", "tab/hints", "tab/solution",
                             "tab/device", "tab/buffers", "tab/timeline", "tab/watches"})
        EXPECT_FALSE(l.fact(std::string("text/") + name).empty()) << name << " is reported";
    EXPECT_GE(checked, 12);
    EXPECT_GT(elided, 0) << "at 200% on 1280x800 some labels must be shortened";
}

} // namespace
} // namespace vkp
