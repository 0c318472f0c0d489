// The Look-back view through real clicks: scan-decoupled's walkthrough stepped with its Next
// button to the step that shows the look-back of the statement's example (3 tiles), then to the
// one that shows case 3 under its forced schedule (8 tiles, tile 2's fallback), where a click on
// the fallback's mark selects the thread that polled.
#include <gtest/gtest.h>

#include "gui_driver.h"

namespace vkp {
namespace {

using namespace std::chrono_literals;
using test::Layout;

class GuiLookbackTest : public test::GuiTest {
  protected:
    GuiLookbackTest() : GuiTest("lookback") {}
};

TEST_F(GuiLookbackTest, TheWalkthroughShowsTheLookBackAndItsMarksSelectThreads) {
    start({"--puzzle", "scan-decoupled", "--tab", "walkthrough"});
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "1", 240s));
    for (int step = 2; step <= 6; ++step) {
        ASSERT_TRUE(m_gui->click("button/Next >"));
        ASSERT_TRUE(m_gui->waitFact("walkthroughStep", std::to_string(step)));
    }
    // Step 6: the statement's example, three tiles, each with its row.
    ASSERT_TRUE(m_gui->waitFact("memoryTab", "lookback", 240s));
    ASSERT_TRUE(m_gui->waitFact("lookbackTiles", "3", 240s));
    ASSERT_TRUE(m_gui->waitFor("three rows and the polls of tiles 1 and 2", [](const Layout& l) {
        return l.rect("lookback/tile 2") && l.named("lookback/poll ").size() >= 2 &&
               l.named("lookback/fallback ").empty();
    })) << "no fallback in the statement's example";
    // Step 7: case 3, traced under its forced schedule: tile 2 falls back.
    ASSERT_TRUE(m_gui->click("button/Next >"));
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "7"));
    ASSERT_TRUE(m_gui->waitFact("case", "3", 240s));
    ASSERT_TRUE(m_gui->waitFact("lookbackTiles", "8", 240s));
    ASSERT_TRUE(m_gui->click("lookback/fallback 2"));
    // The first read of the run that fell back is lane 0's: thread 0 of tile 2's workgroup
    // (whichever workgroup took that ticket), a multiple of the workgroup size, 32.
    ASSERT_TRUE(m_gui->waitFor("the polling thread selected", [](const Layout& l) {
        std::string t = l.fact("thread");
        return !t.empty() && std::stoi(t) % 32 == 0 && t.find(",0,0") != std::string::npos;
    })) << m_gui->layout().fact("thread");
    EXPECT_EQ(m_gui->layout().fact("memoryTab"), "lookback") << "the view stays on show";
    ASSERT_TRUE(m_gui->alive()) << m_gui->howItEnded();
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s));
    EXPECT_EQ(m_gui->exitCode(), 0);
}

} // namespace
} // namespace vkp
