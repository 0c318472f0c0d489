// `--step K` opens the app on step K of the official solution's walkthrough (the step a teacher
// wants on the projector, the one a screenshot should show), and a K past the last step opens
// the last one, saying so.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gui_driver.h"

namespace vkp {
namespace {

using namespace std::chrono_literals;

class GuiWalkthroughStepTest : public test::GuiTest {
  protected:
    GuiWalkthroughStepTest() : GuiTest("walkthroughstep") {}
};

size_t stepsOf(const std::string& folder) {
    std::ifstream in(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles/" + folder +
                     "/walkthrough.toml");
    std::string line;
    size_t n = 0;
    while (std::getline(in, line))
        n += line.rfind("[[steps]]", 0) == 0;
    return n;
}

TEST_F(GuiWalkthroughStepTest, StepKOpensTheWalkthroughThere) {
    start({"--puzzle", "gemv", "--step", "3"});
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", "3", 240s));
}

TEST_F(GuiWalkthroughStepTest, AStepPastTheEndOpensTheLast) {
    size_t last = stepsOf("01-map");
    ASSERT_GT(last, 1u);
    start({"--puzzle", "map", "--step", "99"});
    ASSERT_TRUE(m_gui->waitFact("walkthroughStep", std::to_string(last), 240s));
    EXPECT_NE(m_gui->log().find("--step 99: the walkthrough of map has " + std::to_string(last) +
                                " steps; it opens at the last"),
              std::string::npos)
        << m_gui->tail();
}

} // namespace
} // namespace vkp
