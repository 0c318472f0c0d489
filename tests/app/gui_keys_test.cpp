// Shortcuts as a fast hand (or xdotool's own chords) sends them: Ctrl down, the key down and up,
// Ctrl up, all within a millisecond, so the window system has Ctrl up again before the app's next
// frame sees the key. The key still counts as pressed with Ctrl. On Debian 13 (ImGui 1.90) the
// key reached ImGui with the keyboard's state at hand-over time, Ctrl already up: Ctrl+Q was a
// plain Q and the app did not quit (the monkey test's unanswered Ctrl+Q).
#include <gtest/gtest.h>

#include "gui_driver.h"

namespace vkp {
namespace {

using namespace std::chrono_literals;

class GuiKeysTest : public test::GuiTest {
  protected:
    GuiKeysTest() : GuiTest("keys") {}
};

TEST_F(GuiKeysTest, AChordSentAllAtOnceIsSeenWithItsModifiers) {
    start({"--puzzle", "map"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map"));
    ASSERT_TRUE(m_gui->waitFact("fontScale", "100"));
    // xdotool's chords, not the driver's key(), which waits for the app to see Ctrl first.
    m_gui->xdo("key ctrl+equal");
    ASSERT_TRUE(m_gui->waitFact("fontScale", "110"));
    m_gui->xdo("key ctrl+minus ctrl+minus");
    ASSERT_TRUE(m_gui->waitFact("fontScale", "90")) << "both chords, in one go";
    m_gui->xdo("key ctrl+0");
    ASSERT_TRUE(m_gui->waitFact("fontScale", "100"));
    m_gui->xdo("key ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
}

} // namespace
} // namespace vkp
