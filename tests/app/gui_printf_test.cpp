// debugPrintfEXT in the app, through real input (xdotool on its own Xvfb): a kernel that prints
// is checked, the Console tab clicked lists every thread's lines, a click on a line selects its
// thread and the inspector shows that thread's lines; the filter keeps only them.
#include <gtest/gtest.h>

#include "gui_driver.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::GuiDriver;
using test::Layout;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

class GuiPrintfTest : public test::GuiTest {
  protected:
    GuiPrintfTest() : GuiTest("printf") {}
};

TEST_F(GuiPrintfTest, TheConsoleListsLinesAndAClickSelectsTheThreadTheInspectorShows) {
    std::string kernel = test::sourceDir() + "/tests/data/printf/map_printf.comp";
    m_gui->startApp(test::binaryPath(),
                    {"--puzzle", "map", "--kernel", kernel, "--case", "1", "--size", "1280x800"});
    ASSERT_FALSE(m_gui->window().empty())
        << "no window appeared (the app: " << m_gui->howItEnded() << ")\n"
        << m_gui->tail();
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map"));
    ASSERT_TRUE(m_gui->click("tab/console"));
    ASSERT_TRUE(m_gui->waitFact("memoryTab", "console"));
    ASSERT_TRUE(m_gui->waitFact("consoleLines", "12")) << "6 threads print 2 lines each";
    EXPECT_EQ(m_gui->layout().fact("thread"), "") << "nothing selected yet";
    // Row 6 is thread 3's first line (rows go by thread, then program order).
    ASSERT_TRUE(m_gui->waitFact("console/row/6", "3,0,0"));
    ASSERT_TRUE(m_gui->click("console/row/6"));
    ASSERT_TRUE(m_gui->waitFact("thread", "3,0,0"));
    ASSERT_TRUE(m_gui->waitFact("inspectorPrintf", "i=3 a=3.0"));
    // Only the selected thread's lines: two rows, both thread 3's.
    ASSERT_TRUE(m_gui->click("console/only-selected"));
    ASSERT_TRUE(m_gui->waitFor("two rows of thread 3", [](const Layout& l) {
        return l.fact("console/row/0") == "3,0,0" && l.fact("console/row/1") == "3,0,0" &&
               !l.rect("console/row/2");
    }));
    // Another thread picked in the grid: the filtered console follows the selection.
    ASSERT_TRUE(m_gui->click("thread/5,0,0"));
    ASSERT_TRUE(m_gui->waitFact("thread", "5,0,0"));
    ASSERT_TRUE(m_gui->waitFact("console/row/0", "5,0,0"));
    ASSERT_TRUE(m_gui->waitFact("inspectorPrintf", "i=5 a=5.0"));
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
}

} // namespace
} // namespace vkp
