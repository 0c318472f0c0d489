// Presenter mode through real keys: F5 turns the window into the projection layout (text at
// 200%, the editor over the top row, the grid and buffers under it, the list, tabs and cases
// folded), F6 / F7 / F8 unfold a panel whole, never squeezed, a clicker's PgDn / PgUp step the
// walkthrough (else the timeline's rounds), and Esc or F5 leave.
#include <gtest/gtest.h>

#include "gui_driver.h"

namespace vkp {
namespace {

using namespace std::chrono_literals;
using test::Layout;

class GuiPresenterTest : public test::GuiTest {
  protected:
    GuiPresenterTest() : GuiTest("presenter") {}

    int windowWidth() {
        std::string size = m_gui->layout().fact("windowSize");
        return std::stoi(size.substr(0, size.find('x')));
    }
};

TEST_F(GuiPresenterTest, F5MakesAProjectionLayoutAndTheClickerStepsTheWalkthrough) {
    start({"--puzzle", "flash-attention", "--reveal"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "49-flash-attention"));
    ASSERT_TRUE(m_gui->waitFact("presenter", "0"));
    ASSERT_TRUE(m_gui->waitFact("status", "done", 240s));
    // Outside presenter mode PgDn is the focused editor's: a page down, no round stepped.
    ASSERT_TRUE(m_gui->waitFact("editorFocused", "1"));
    m_gui->key("Next");
    ASSERT_TRUE(m_gui->waitFor("the cursor a page down",
                               [](const Layout& l) { return l.fact("editorCursor") != "1:1"; }));
    EXPECT_EQ(m_gui->layout().fact("memoryTab"), "buffers");

    m_gui->key("F5");
    ASSERT_TRUE(m_gui->waitFact("presenter", "1"));
    ASSERT_TRUE(m_gui->waitFact("fontScale", "200"));
    int width = windowWidth();
    ASSERT_TRUE(m_gui->waitFor("the projection layout", [&](const Layout& l) {
        auto editor = l.rect("panel/editor");
        return editor && editor->x1 - editor->x0 > width * 9 / 10 && !l.rect("panel/browser") &&
               !l.rect("panel/side") && !l.rect("panel/cases") && l.rect("panel/memory") &&
               l.rect("panel/threads");
    })) << "the list, the tabs and the cases folded; the editor over the top row";
    ASSERT_TRUE(m_gui->layout().rect("presenterHint")) << "the keys of the folded panels";

    // F6: the puzzle list, with its titles (no bare numbers), and folded again.
    m_gui->key("F6");
    ASSERT_TRUE(m_gui->waitFact("presenterUnfolded", "browser"));
    ASSERT_TRUE(m_gui->waitFor("a readable list", [](const Layout& l) {
        auto list = l.rect("panel/browser");
        return list && l.fact("browserCompact") == "0" && list->x1 - list->x0 >= 18 * 26;
    }));
    m_gui->key("F6");
    ASSERT_TRUE(m_gui->waitFact("presenterUnfolded", ""));

    // F7: the side tabs, their labels whole; the walkthrough then takes the top row.
    m_gui->key("F7");
    ASSERT_TRUE(m_gui->waitFact("presenterUnfolded", "side"));
    for (const char* tab : {"statement", "solution", "efficiency"})
        ASSERT_TRUE(m_gui->waitFor(std::string(tab) + "'s label whole", [&](const Layout& l) {
            return l.fact(std::string("text/tab/") + tab) == l.fact(std::string("full/tab/") + tab);
        })) << m_gui->lastFacts();
    ASSERT_TRUE(m_gui->click("tab/solution"));
    ASSERT_TRUE(m_gui->waitFact("sideTab", "solution"));
    ASSERT_TRUE(m_gui->click("button/Walk through the official solution"));
    ASSERT_TRUE(m_gui->waitFact("walkthrough", "1"));
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "1"));
    ASSERT_TRUE(m_gui->waitFor("the walkthrough over the top row", [&](const Layout& l) {
        auto side = l.rect("panel/side");
        return side && side->x1 - side->x0 > width * 9 / 10;
    }));
    // The clicker: PgDn, PgDn, PgUp (xdotool's Next and Prior).
    m_gui->key("Next");
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "2"));
    m_gui->key("Next");
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "3"));
    m_gui->key("Prior");
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "2"));
    ASSERT_TRUE(m_gui->click("button/End the walkthrough"));
    ASSERT_TRUE(m_gui->waitFact("walkthrough", "0"));

    // Without a walkthrough the clicker steps the timeline's rounds, even from the editor.
    ASSERT_TRUE(m_gui->click("tab/buffers"));
    ASSERT_TRUE(m_gui->waitFact("memoryTab", "buffers"));
    m_gui->key("Next");
    ASSERT_TRUE(m_gui->waitFact("memoryTab", "timeline"));

    // Esc folds the unfolded panels, then leaves; F5 enters and leaves too.
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFact("presenterUnfolded", ""));
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFact("presenter", "0"));
    ASSERT_TRUE(m_gui->waitFact("fontScale", "100"));
    ASSERT_TRUE(m_gui->waitFor("all panels back", [](const Layout& l) {
        return l.rect("panel/browser") && l.rect("panel/side") && l.rect("panel/cases");
    }));
    m_gui->key("F5");
    ASSERT_TRUE(m_gui->waitFact("presenter", "1"));
    m_gui->key("F5");
    ASSERT_TRUE(m_gui->waitFact("presenter", "0"));
    EXPECT_TRUE(m_gui->alive()) << m_gui->tail();
}

// --presenter starts the window in presenter mode, without the editor's toolbar (a row more of
// code); Ctrl+Z still undoes, from the keyboard and the Edit menu.
TEST_F(GuiPresenterTest, ThePresenterOptionStartsInItWithoutTheToolbar) {
    start({"--puzzle", "shared", "--presenter"});
    ASSERT_TRUE(m_gui->waitFact("presenter", "1"));
    ASSERT_TRUE(m_gui->waitFact("fontScale", "200"));
    ASSERT_TRUE(m_gui->waitFor("the editor drawn",
                               [](const Layout& l) { return l.rect("editor").has_value(); }));
    EXPECT_FALSE(m_gui->layout().rect("button/Undo")) << "no toolbar in presenter mode";
    m_gui->key("F5");
    ASSERT_TRUE(m_gui->waitFact("presenter", "0"));
    ASSERT_TRUE(m_gui->waitFor("the toolbar back",
                               [](const Layout& l) { return l.rect("button/Undo").has_value(); }));
}

// A 1280x720 projector at 200% (640x360 at 100%): every step's whole text stands beside its code
// (the top row grows, then the text takes more of the width, then a smaller font, not below
// 70%), and the grid's title and info are whole, on two lines.
TEST_F(GuiPresenterTest, At720pEveryStepsTextIsWholeBesideTheCode) {
    start({"--puzzle", "scan-blocks", "--presenter", "--tab", "walkthrough", "--size", "1280x720"});
    ASSERT_TRUE(m_gui->waitFact("walkthrough", "1"));
    ASSERT_TRUE(m_gui->waitFact("presenter", "1"));
    ASSERT_TRUE(m_gui->waitFor(
        "the official solution's run",
        [](const Layout& l) { return !l.fact("full/title/threads").empty(); }, 240s))
        << m_gui->lastFacts();
    EXPECT_FALSE(m_gui->layout().rect("tab/statement")) << "the tab bar folded while it plays";
    for (int step = 1; step <= 7; ++step) {
        if (step > 1) m_gui->key("Next");
        ASSERT_TRUE(m_gui->waitFact("walkthroughStep", std::to_string(step)));
        ASSERT_TRUE(m_gui->waitFact("walkthroughTextWhole", "1"))
            << "step " << step << ": " << m_gui->lastFacts();
        EXPECT_GE(std::stoi(m_gui->layout().fact("walkthroughTextScale")), 70);
    }
    ASSERT_TRUE(m_gui->waitFor("the grid's title whole", [](const Layout& l) {
        return l.fact("text/title/threads") == l.fact("full/title/threads");
    })) << m_gui->lastFacts();
    auto side = m_gui->layout().rect("panel/side");
    auto threads = m_gui->layout().rect("panel/threads");
    ASSERT_TRUE(side && threads);
    EXPECT_GE(threads->y1 - threads->y0, 5 * 26) << "the bottom row keeps its rows";
    ASSERT_TRUE(m_gui->click("button/End the walkthrough"));
    ASSERT_TRUE(m_gui->waitFact("walkthrough", "0"));
    EXPECT_TRUE(m_gui->alive()) << m_gui->tail();
}

// At 200% in the usual layout the walkthrough's row has no room for "End the walkthrough" after
// "Next >": it goes under them, never over Next (where it used to be drawn).
TEST_F(GuiPresenterTest, TheWalkthroughsButtonsNeverOverlapAt200Percent) {
    start({"--puzzle", "shared", "--font-scale", "2", "--tab", "walkthrough"});
    ASSERT_TRUE(m_gui->waitFor("the walkthrough's buttons", [](const Layout& l) {
        return l.rect("button/Next >") && l.rect("button/End the walkthrough");
    }));
    Layout l = m_gui->layout();
    test::Rect next = *l.rect("button/Next >"), end = *l.rect("button/End the walkthrough");
    bool apart = end.x0 > next.x1 || end.y0 > next.y1 || end.x1 < next.x0 || end.y1 < next.y0;
    EXPECT_TRUE(apart) << "Next " << next.x0 << "," << next.y0 << "-" << next.x1 << "," << next.y1
                       << " End " << end.x0 << "," << end.y0 << "-" << end.x1 << "," << end.y1;
}

} // namespace
} // namespace vkp
