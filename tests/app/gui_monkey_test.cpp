// The monkey test: a minute of random clicks, drags, wheel turns, keys and typing across the whole
// window, from a fixed seed (printed; VKPUZZLES_MONKEY_SEED picks another), on a build of the app
// with AddressSanitizer and UndefinedBehaviorSanitizer (tests/app/run_monkey.sh builds it and
// runs this test; CTest: gui_monkey_asan). It must end with the app alive, no sanitizer report
// from the app or its worker process, and the learner's draft intact.
//
// Leaks: reported at exit; those with a frame of ours fail the test (see ourLeaks()).
//
// The draft: a marker comment is typed on the first line of puzzle 1 before the monkey starts.
// The monkey then never uses what is meant to destroy text (Undo, Reset to starter, Load into
// editor, Cut, Paste, Backspace, Delete, Return, Tab, Space, Ctrl+/, Ctrl+Q): those are the
// learner's own choices, not accidents. It types only after Ctrl+End (at the end of whatever has
// the keyboard), so its text lands after the marker. Everything else is fair: switching puzzles,
// tabs, cases, threads, cells, menus, dialogs, dividers, text size, theme, walkthroughs, edits
// that do not compile.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "gui_driver.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::GuiDriver;
using test::Layout;
using test::Rect;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Widgets whose purpose is to replace or remove the learner's text, or to quit.
bool destructive(const std::string& name) {
    static const char* kNames[] = {"button/Undo",
                                   "button/Reset to starter",
                                   "button/Load into editor",
                                   "button/restore previous",
                                   "menu/Puzzle/Reset to starter",
                                   "menu/Puzzle/Restore the earlier text",
                                   "menu/Puzzle/Quit"};
    for (const char* n : kNames)
        if (name == n) return true;
    return name.rfind("menu/Edit/", 0) == 0;
}

bool insideDestructive(const Layout& l, int x, int y) {
    for (const auto& [name, r] : l.rects)
        if (destructive(name) && r.contains(x, y)) return true;
    return false;
}

// Keys a learner presses without meaning to lose text.
const std::vector<std::string> kKeys = {
    "Escape",     "Up",      "Down",        "Left",     "Right",      "Home",       "End",
    "Prior",      "Next",    "ctrl+Home",   "ctrl+End", "ctrl+Left",  "ctrl+Right", "shift+Right",
    "shift+Down", "F1",      "F9",          "alt+Left", "alt+Right",  "alt+Up",     "alt+Down",
    "alt+Home",   "alt+End", "alt+Prior",   "alt+Next", "ctrl+Prior", "ctrl+Next",  "ctrl+equal",
    "ctrl+minus", "ctrl+0",  "ctrl+Return", "ctrl+c"};

// Text the monkey types: kernel-ish characters (no quote, which the shell command would need to
// escape).
std::string randomText(std::mt19937& rng) {
    static const std::string kChars = "abcxyz019 ;{}()[]=+-*/<>.,_#";
    std::uniform_int_distribution<int> len(1, 12), pick(0, static_cast<int>(kChars.size()) - 1);
    std::string s;
    for (int n = len(rng); n > 0; --n)
        s += kChars[pick(rng)];
    return s;
}

// LeakSanitizer's reports of allocations made by our code (a frame in vkp:: or in the project's
// sources). Measured: every run of the window ends with 112 bytes in 2 blocks allocated by libxcb,
// which GLFW loads with dlopen and unloads at exit, so no suppression file can name it; those
// blocks, with no frame of ours, are not failures.
std::vector<std::string> ourLeaks(const std::string& log) {
    std::vector<std::string> ours;
    std::istringstream in(log);
    std::string line, block;
    auto finish = [&] {
        if (!block.empty() && (block.find(" in vkp::") != std::string::npos ||
                               block.find(test::sourceDir() + "/src/") != std::string::npos))
            ours.push_back(block);
        block.clear();
    };
    while (std::getline(in, line)) {
        if (line.find("Direct leak of") != std::string::npos ||
            line.find("Indirect leak of") != std::string::npos) {
            finish();
            block = line + "\n";
        } else if (!block.empty()) {
            if (line.empty())
                finish();
            else
                block += line + "\n";
        }
    }
    finish();
    return ours;
}

unsigned seed() {
    const char* s = std::getenv("VKPUZZLES_MONKEY_SEED");
    return s ? static_cast<unsigned>(std::strtoul(s, nullptr, 10)) : 18u; // issue 18
}

int seconds() {
    const char* s = std::getenv("VKPUZZLES_MONKEY_SECONDS");
    return s ? std::atoi(s) : 60;
}

class GuiMonkeyTest : public test::GuiTest {
  protected:
    GuiMonkeyTest() : GuiTest("monkey") {}

    void TearDown() override {
        fs::path dir = m_gui->dir();
        m_gui.reset();
        if (!HasFailure())
            fs::remove_all(dir);
        else
            std::cerr << "kept for a look: " << dir << "\n";
    }

    // One random action; returns what it did (for the log of a failing run).
    std::string act(std::mt19937& rng, const Layout& l, int width, int height) {
        std::uniform_int_distribution<int> kind(0, 99), px(0, width - 1), py(0, height - 1);
        int k = kind(rng);
        auto point = [&](int& x, int& y) {
            for (int tries = 0; tries < 20; ++tries) {
                x = px(rng), y = py(rng);
                if (!insideDestructive(l, x, y)) return true;
            }
            return false;
        };
        int x = 0, y = 0;
        if (k < 30) { // a named widget: tabs, cases, threads, cells, puzzles, menu items, buttons
            std::vector<std::string> names;
            for (const auto& [name, r] : l.rects)
                if (!destructive(name)) names.push_back(name);
            if (names.empty()) return "nothing named";
            const std::string& name =
                names[std::uniform_int_distribution<size_t>(0, names.size() - 1)(rng)];
            Rect r = l.rects.at(name);
            m_gui->clickAt(r.cx(), r.cy());
            return "click " + name;
        }
        if (k < 55) {
            if (!point(x, y)) return "no safe point";
            int button = k < 50 ? 1 : 3;
            m_gui->clickAt(x, y, button);
            return "click " + std::to_string(button) + " at " + std::to_string(x) + "," +
                   std::to_string(y);
        }
        if (k < 63) { // a drag: dividers, scrollbars, text selection
            int x2 = 0, y2 = 0;
            if (!point(x, y) || !point(x2, y2)) return "no safe drag";
            m_gui->moveTo(x, y);
            m_gui->xdo("mousedown 1");
            m_gui->moveTo((x + x2) / 2, (y + y2) / 2);
            m_gui->moveTo(x2, y2);
            m_gui->xdo("mouseup 1");
            return "drag " + std::to_string(x) + "," + std::to_string(y) + " to " +
                   std::to_string(x2) + "," + std::to_string(y2);
        }
        if (k < 70) {
            if (!point(x, y)) return "no safe point";
            m_gui->moveTo(x, y);
            std::string wheel = k < 66 ? "5" : "4";
            m_gui->xdo("click --repeat 3 " + wheel);
            return "wheel " + wheel + " at " + std::to_string(x) + "," + std::to_string(y);
        }
        if (k < 88) {
            const std::string& key =
                kKeys[std::uniform_int_distribution<size_t>(0, kKeys.size() - 1)(rng)];
            m_gui->key(key);
            return "key " + key;
        }
        std::string text = randomText(rng);
        m_gui->key("ctrl+End");
        m_gui->type(text);
        return "type '" + text + "'";
    }
};

// The leak filter itself (runs in every CTest run; the monkey only on the sanitized build).
TEST(GuiMonkeyLeaksTest, OnlyLeaksThroughOurCodeCount) {
    std::string foreign =
        "Indirect leak of 56 byte(s) in 1 object(s) allocated from:\n"
        "    #0 0x7f61874b83b7 in __interceptor_calloc "
        "../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:77\n"
        "    #1 0x7f6181a776e3  (/usr/lib/x86_64-linux-gnu/libxcb.so.1.1.0+0xa6e3)\n\n";
    std::string ours = "Direct leak of 24 byte(s) in 1 object(s) allocated from:\n"
                       "    #0 0x7f61874b83b7 in operator new(unsigned long)\n"
                       "    #1 0x55d0 in vkp::ui::Workbench::openPuzzle(int) " +
                       test::sourceDir() + "/src/workbench/workbench.cpp:120\n\n";
    std::string log = "=================================================================\n==1=="
                      "ERROR: LeakSanitizer: detected memory leaks\n\n" +
                      foreign + ours +
                      "SUMMARY: AddressSanitizer: 80 byte(s) leaked in 2 allocation(s).\n";
    std::vector<std::string> found = ourLeaks(log);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NE(found[0].find("Workbench::openPuzzle"), std::string::npos) << found[0];
    EXPECT_TRUE(ourLeaks(foreign).empty());
}

TEST_F(GuiMonkeyTest, AMinuteOfRandomInputLeavesTheAppAliveCleanAndTheDraftIntact) {
    unsigned s = seed();
    std::cout << "monkey seed " << s << " (VKPUZZLES_MONKEY_SEED), " << seconds() << " s, app "
              << test::binaryPath() << "\n";
    // Leaks are reported at exit without changing the exit status; ourLeaks() picks ours out.
    m_gui->startApp(test::binaryPath(), {"--puzzle", "map", "--size", "1280x800"},
                    {"ASAN_OPTIONS=detect_leaks=1", "LSAN_OPTIONS=exitcode=0",
                     "UBSAN_OPTIONS=print_stacktrace=1"});
    ASSERT_FALSE(m_gui->window().empty())
        << "no window appeared (the app: " << m_gui->howItEnded() << ")\n"
        << m_gui->tail();
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map", 120s));
    // The learner's marker on line 1 of puzzle 1, saved before the monkey starts.
    const std::string marker = "// my own note " + std::to_string(s);
    ASSERT_TRUE(m_gui->click("editor"));
    ASSERT_TRUE(m_gui->waitFact("editorFocused", "1"));
    m_gui->key("ctrl+Home");
    m_gui->type(marker);
    m_gui->key("Return");
    fs::path draft = m_gui->dataDir() / "drafts" / "01-map.json";
    ASSERT_TRUE(m_gui->waitFor(
        "the marker saved",
        [&](const Layout&) { return test::readFile(draft).find(marker) != std::string::npos; },
        120s));

    std::mt19937 rng(s);
    std::vector<std::string> done;
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds());
    while (std::chrono::steady_clock::now() < until) {
        Layout l = m_gui->layout();
        done.push_back(act(rng, l, 1280, 800));
        ASSERT_TRUE(m_gui->alive())
            << "after " << done.size() << " actions, the last: " << done.back() << "\n"
            << m_gui->tail(80);
        ASSERT_TRUE(m_gui->settleFrames(1)) << "after: " << done.back();
    }
    std::cout << done.size() << " actions; the last ones:\n";
    for (size_t i = done.size() > 10 ? done.size() - 10 : 0; i < done.size(); ++i)
        std::cout << "  " << done[i] << "\n";
    ASSERT_TRUE(m_gui->alive()) << m_gui->tail(80);

    // Quit as a person does (Esc closes any dialog or menu first); everything is saved on the way
    // out.
    for (int i = 0; i < 3; ++i)
        m_gui->key("Escape");
    uint64_t framesBefore = m_gui->layout().frame;
    m_gui->key("ctrl+q");
    if (!m_gui->waitExit(30s)) {
        // On Debian 13 (the ASan build under Xvfb, a loaded CI machine) a Ctrl+Q was left
        // unanswered while the app went on drawing frames: the Q reached ImGui after Ctrl was up
        // (platform/imgui_keys.h, fixed; gui_keys_test.cpp). Should a press still be lost, a
        // person presses it again: so does the test, after giving the window the keyboard focus,
        // and says so.
        uint64_t framesSince = m_gui->layout().frame - framesBefore;
        std::cout << "the first Ctrl+Q went unanswered (" << framesSince
                  << " frames drawn since); pressing it again\n";
        m_gui->xdo("windowfocus --sync " + m_gui->window());
        m_gui->key("ctrl+q");
    }
    ASSERT_TRUE(m_gui->waitExit(120s))
        << "Ctrl+Q, pressed twice, did not quit (" << m_gui->layout().frame - framesBefore
        << " frames drawn since the first); the last frame said: " << m_gui->lastFacts() << "\n"
        << m_gui->tail();
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->howItEnded();
    std::string log = m_gui->log();
    EXPECT_EQ(log.find("ERROR: AddressSanitizer"), std::string::npos) << log;
    EXPECT_EQ(log.find("runtime error:"), std::string::npos) << "UndefinedBehaviorSanitizer\n"
                                                             << log;
    std::vector<std::string> leaks = ourLeaks(log);
    EXPECT_TRUE(leaks.empty()) << leaks.size() << " leaks from our code; the first:\n"
                               << (leaks.empty() ? "" : leaks[0]);
    // Every draft on disk is whole, and the marker is still in puzzle 1's.
    for (const auto& f : fs::directory_iterator(m_gui->dataDir() / "drafts")) {
        auto j = nlohmann::json::parse(test::readFile(f.path()), nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << f.path();
        EXPECT_TRUE(j.is_object() && j.contains("text")) << f.path();
    }
    auto saved = nlohmann::json::parse(test::readFile(draft), nullptr, false);
    ASSERT_FALSE(saved.is_discarded());
    EXPECT_EQ(saved.value("text", "").rfind(marker + "\n", 0), 0u)
        << "the marker begins the draft\n"
        << saved.value("text", "");
}

} // namespace
} // namespace vkp
