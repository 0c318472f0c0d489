// The app driven through real input, as a person would: its own Xvfb, real X events from xdotool
// at the places the app's layout probe names (VKPUZZLES_LAYOUT), never flags that set state. The
// first click in the puzzle list used to kill the app (issue 18); every puzzle, tab, case, a
// thread, a cell, the walkthrough's buttons, menus, text scaling and typing are clicked here.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include <stb_image.h>

#include "gui_driver.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::GuiDriver;
using test::Layout;
using test::Rect;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

struct PuzzleFile {
    std::string folder, slug, title;
    int number = 0;
};

// The built-in puzzles in list order (folder order), with what the window title shows.
std::vector<PuzzleFile> puzzleFiles() {
    std::vector<PuzzleFile> out;
    for (const auto& e : fs::directory_iterator(test::puzzleDir())) {
        if (!fs::exists(e.path() / "puzzle.toml")) continue;
        std::string toml = test::readFile(e.path() / "puzzle.toml");
        std::smatch m;
        PuzzleFile p;
        p.folder = e.path().filename().string();
        p.number = std::stoi(p.folder.substr(0, 2));
        if (std::regex_search(toml, m, std::regex("\\ntitle = \"([^\"]*)\"")) || std::regex_search(toml, m, std::regex("^title = \"([^\"]*)\""))) p.title = m[1];
        if (std::regex_search(toml, m, std::regex("\\nslug = \"([^\"]*)\""))) p.slug = m[1];
        out.push_back(p);
    }
    std::sort(out.begin(), out.end(), [](const PuzzleFile& a, const PuzzleFile& b) { return a.folder < b.folder; });
    return out;
}

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;
};

Image loadPng(const fs::path& path) {
    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 3);
    if (!data) return img;
    img.rgb.assign(data, data + size_t(img.width) * img.height * 3);
    stbi_image_free(data);
    return img;
}

// Share of pixels that differ between two pictures of the same size.
double differing(const Image& a, const Image& b) {
    if (a.width != b.width || a.height != b.height || a.rgb.empty()) return 1.0;
    size_t n = 0;
    for (size_t i = 0; i < a.rgb.size(); i += 3) n += a.rgb[i] != b.rgb[i] || a.rgb[i + 1] != b.rgb[i + 1] || a.rgb[i + 2] != b.rgb[i + 2];
    return double(n) / (a.rgb.size() / 3);
}

class GuiInputTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(test::runCommand("command -v xdotool >/dev/null && command -v Xvfb >/dev/null").exit, 0)
            << "xdotool and Xvfb are needed: install the xdotool and xvfb packages (./build.sh does)";
        std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
        m_gui = std::make_unique<GuiDriver>(fs::temp_directory_path() / ("vkp-input-" + std::to_string(getpid()) + "-" + name));
        ASSERT_TRUE(m_gui->startX());
    }
    void TearDown() override {
        if (HasFailure()) std::cerr << "app output:\n" << m_gui->tail(60) << "\n";
        fs::path dir = m_gui->dir();
        m_gui.reset();
        fs::remove_all(dir);
    }

    void start(std::vector<std::string> args) {
        args.insert(args.end(), {"--size", "1280x800"});
        m_gui->startApp(test::binaryPath(), args);
        ASSERT_FALSE(m_gui->window().empty()) << "no window appeared (the app: " << m_gui->howItEnded() << ")\n" << m_gui->tail();
    }

    // Scrolls a list with the mouse wheel until `name` is on screen (rows named `prefix`...).
    ::testing::AssertionResult scrollTo(const std::string& name, const std::string& prefix) {
        for (int turn = 0; turn < 60; ++turn) {
            Layout l = m_gui->layout();
            if (auto r = l.rect(name); r && r->y1 - r->y0 >= 8) return ::testing::AssertionSuccess();
            std::vector<std::string> rows = l.named(prefix);
            if (rows.empty()) return ::testing::AssertionFailure() << "no " << prefix << " rows on screen";
            Rect over = *l.rect(rows.front());
            // Names sort like the list (zero-padded folders, case numbers below 10): wheel towards it.
            bool down = name > rows.back() || (turn >= 30);
            if (turn == 30) down = false;
            m_gui->moveTo(over.cx(), over.cy());
            m_gui->xdo(std::string("click ") + (down ? "5" : "4"));
            if (auto s = m_gui->settleFrames(); !s) return s;
        }
        return ::testing::AssertionFailure() << name << " never scrolled into view";
    }

    // View > Save as PNG > The whole window: the app's own capture of what it shows.
    Image captureWindow(const std::string& slug) {
        fs::path file = m_gui->exportDir() / (slug + "-window.png");
        fs::remove(file);
        EXPECT_TRUE(m_gui->click("menu/View"));
        EXPECT_TRUE(m_gui->click("menu/View/Save as PNG"));
        EXPECT_TRUE(m_gui->click("menu/View/Save as PNG/The whole window"));
        Image img;
        // The PNG is complete once it decodes.
        EXPECT_TRUE(m_gui->waitFor(file.string(), [&](const Layout&) { return fs::exists(file) && (img = loadPng(file)).width > 0; }));
        return img;
    }

    std::unique_ptr<GuiDriver> m_gui;
};

TEST_F(GuiInputTest, EveryPuzzleInTheListOpensWhenClicked) {
    std::vector<PuzzleFile> puzzles = puzzleFiles();
    ASSERT_GE(puzzles.size(), 20u);
    start({}); // a fresh data folder: the first puzzle opens
    ASSERT_TRUE(m_gui->waitFact("puzzle", puzzles[0].folder));
    Image last = captureWindow(puzzles[0].slug);
    ASSERT_EQ(last.width, 1280);
    for (size_t i = 1; i <= puzzles.size(); ++i) {
        const PuzzleFile& p = puzzles[i % puzzles.size()]; // ends back on the first
        std::string row = "puzzle/" + p.folder;
        ASSERT_TRUE(scrollTo(row, "puzzle/"));
        ASSERT_TRUE(m_gui->click(row));
        ASSERT_TRUE(m_gui->waitFact("puzzle", p.folder)) << "clicked " << p.folder;
        ASSERT_TRUE(m_gui->alive()) << p.folder << ": " << m_gui->howItEnded();
        EXPECT_TRUE(m_gui->waitTitle(std::to_string(p.number) + ". " + p.title + " \xE2\x80\x94 vkpuzzles"));
        Image now = captureWindow(p.slug);
        EXPECT_EQ(now.width, 1280) << p.folder;
        EXPECT_EQ(now.height, 800) << p.folder;
        EXPECT_GT(differing(now, last), 0.02) << p.folder << ": the window shows another puzzle than before";
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
    ASSERT_TRUE(m_gui->waitFor("only matmul listed", [](const Layout& l) { return l.named("puzzle/").size() == 1 && l.rect("puzzle/14-matmul"); }));
    ASSERT_TRUE(m_gui->click("puzzle/14-matmul"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", "14-matmul"));
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
    EXPECT_NE(test::readFile(m_gui->dataDir() / "settings.json").find("\"last_puzzle\": \"14-matmul\""), std::string::npos);
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
    for (size_t at = toml.find("[[cases]]"); at != std::string::npos; at = toml.find("[[cases]]", at + 1)) ++cases;
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
    ASSERT_TRUE(m_gui->waitFor("an input cell", [](const Layout& l) { return !l.named("cell/buffer0/").empty(); }));
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
            return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
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
    ASSERT_TRUE(m_gui->waitFor("the lines commented", draftEndsWith("}\n// void helper() {\n//     int x = 1;\n// }"))) << text;
    m_gui->key("ctrl+z");
    ASSERT_TRUE(m_gui->waitFor("the comment undone", draftEndsWith(block))) << text;
    // Escape closes an open menu.
    ASSERT_TRUE(m_gui->click("menu/Edit"));
    ASSERT_TRUE(m_gui->waitFor("the Edit menu open", [](const Layout& l) { return l.fact("popup") == "1" && l.rect("menu/Edit/Find..."); }));
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFor("the Edit menu closed", [](const Layout& l) { return l.fact("popup") == "0" && !l.rect("menu/Edit/Find..."); }));
    // Ctrl+F: the find bar, a count of the matches, F3; Escape closes it and gives the keys back.
    std::string starter = test::readFile(fs::path(test::puzzleDir()) / "02-zip" / "starter.comp");
    ASSERT_EQ(starter.find("helper"), std::string::npos) << "the search below counts on one match";
    m_gui->key("ctrl+f");
    ASSERT_TRUE(m_gui->waitFact("findOpen", "1"));
    ASSERT_TRUE(m_gui->waitFor("the find field", [](const Layout& l) { return l.rect("find/field").has_value(); }));
    m_gui->type("HELPER");
    ASSERT_TRUE(m_gui->waitFact("findSummary", "1 of 1"));
    m_gui->key("F3");
    ASSERT_TRUE(m_gui->settleFrames());
    EXPECT_EQ(m_gui->layout().fact("findSummary"), "1 of 1");
    Image shot = captureWindow("zip"); // named after the puzzle
    EXPECT_EQ(shot.width, 1280);
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFact("findOpen", "0"));
    ASSERT_TRUE(m_gui->waitFact("editorFocused", "1"));
    // Enough lines to scroll, then the next puzzle: it shows its line 1 from column 1.
    m_gui->key("ctrl+End");
    for (int i = 0; i < 40; ++i) m_gui->key("Return");
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
    ASSERT_TRUE(m_gui->waitFor("the starter's results", [](const Layout& l) { return l.fact("status") == "done" && l.rect("why/1"); }, 120s));
    ASSERT_TRUE(m_gui->click("case/2"));
    ASSERT_TRUE(m_gui->waitFact("case", "2"));
    ASSERT_TRUE(m_gui->waitFor("case 2's explanation unfolded", [](const Layout& l) {
        auto two = l.rect("why/2"), other = l.rect("why/1") ? l.rect("why/1") : l.rect("why/3"); // the list scrolls to case 2
        return other && two && two->y1 - two->y0 > 3 * (other->y1 - other->y0);
    }));
    ASSERT_TRUE(m_gui->alive());
}

TEST_F(GuiInputTest, TypingInTheEditorIsSavedAsTheDraft) {
    start({"--puzzle", "zip"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "02-zip"));
    ASSERT_TRUE(m_gui->click("editor"));
    ASSERT_TRUE(m_gui->waitFact("editorFocused", "1"));
    m_gui->key("ctrl+End");
    m_gui->type("// typed through X events");
    fs::path draft = m_gui->dataDir() / "drafts" / "02-zip.json";
    ASSERT_TRUE(m_gui->waitFor("the draft saved", [&](const Layout&) { return test::readFile(draft).find("// typed through X events") != std::string::npos; }));
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s));
    EXPECT_EQ(m_gui->exitCode(), 0);
    auto saved = nlohmann::json::parse(test::readFile(draft), nullptr, false);
    ASSERT_FALSE(saved.is_discarded());
    std::string text = saved.value("text", "");
    EXPECT_NE(text.find("// typed through X events"), std::string::npos) << text;
    EXPECT_NE(text.find("void main()"), std::string::npos) << "typed at the end, the starter kept\n" << text;
}

} // namespace
} // namespace vkp
