// The statement panel through real input (xdotool on its own Xvfb): code lines wider than the
// panel are not cut off. Radix sort's statement has two such blocks at 1280x800 (its worked
// example and its table of passes): the horizontal wheel scrolls a block sideways and back, and
// the vertical wheel over a block still scrolls the statement, not the block.
#include <gtest/gtest.h>

#include "gui_driver.h"

namespace vkp {
namespace {

using test::Layout;
using test::Rect;
using namespace std::chrono_literals;

class GuiStatementTest : public test::GuiTest {
  protected:
    GuiStatementTest() : GuiTest("statement") {}

    // "scroll/max" of a code block, as numbers.
    static std::pair<int, int> scrollOf(const Layout& l, const std::string& block) {
        std::string f = l.fact(block);
        size_t slash = f.find('/');
        if (slash == std::string::npos) return {-1, -1};
        return {std::stoi(f.substr(0, slash)), std::stoi(f.substr(slash + 1))};
    }
};

TEST_F(GuiStatementTest, AWideCodeBlockScrollsSidewaysAndTheWheelStillScrollsTheText) {
    start({"--puzzle", "radix-sort"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "38-radix-sort"));
    const std::string block = "statement/code/1";

    // Wheel down over the statement until its first code block is wholly in view.
    for (int turn = 0; turn < 40; ++turn) {
        Layout l = m_gui->layout();
        auto r = l.rect(block);
        if (r && r->y1 - r->y0 >= 40 && l.rect("panel/side") && r->y1 < l.rect("panel/side")->y1)
            break;
        auto side = l.rect("panel/side");
        ASSERT_TRUE(side);
        m_gui->moveTo(side->cx(), side->y0 + 60);
        m_gui->xdo("click 5");
        ASSERT_TRUE(m_gui->settleFrames());
    }
    Layout l = m_gui->layout();
    auto r = l.rect(block);
    ASSERT_TRUE(r) << "the example never came into view";
    auto [scroll, max] = scrollOf(l, block);
    EXPECT_EQ(scroll, 0);
    ASSERT_GT(max, 0) << "the example's lines are wider than the panel at 1280x800";

    // The horizontal wheel (X buttons 7 and 6) scrolls the block to the right and back.
    m_gui->moveTo(r->cx(), r->cy());
    for (int i = 0; i < 4; ++i)
        m_gui->xdo("click 7");
    ASSERT_TRUE(m_gui->waitFor("the block scrolled right",
                               [&](const Layout& now) { return scrollOf(now, block).first > 0; }));
    for (int i = 0; i < 40 && scrollOf(m_gui->layout(), block).first > 0; ++i) {
        m_gui->xdo("click 6");
        ASSERT_TRUE(m_gui->settleFrames());
    }
    EXPECT_EQ(scrollOf(m_gui->layout(), block).first, 0) << "back to the start of its lines";

    // The vertical wheel over the block scrolls the statement; the block keeps its place.
    l = m_gui->layout();
    int before = std::stoi(l.fact("statementScroll"));
    r = l.rect(block);
    ASSERT_TRUE(r);
    m_gui->moveTo(r->cx(), r->cy());
    m_gui->xdo("click 5");
    ASSERT_TRUE(m_gui->waitFor("the statement scrolled", [&](const Layout& now) {
        return std::stoi(now.fact("statementScroll").empty() ? "0" : now.fact("statementScroll")) >
               before;
    }));
    EXPECT_EQ(scrollOf(m_gui->layout(), block).first, 0);

    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
}

} // namespace
} // namespace vkp
