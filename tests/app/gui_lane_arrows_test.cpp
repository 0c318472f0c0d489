// The thread grid's lane arrows, through real input (xdotool on its own Xvfb): butterfly's
// official solution (v += subgroupShuffleXor(v, 1u); v += subgroupShuffleXor(v, 2u)) on case 1,
// a click on a thread draws arrows from the two lanes it took values from, labelled with their
// ops, and lighter arrows to the two lanes that took its values; the arrows stay with the
// selected thread when the pointer leaves the grid and follow the pointer over another thread.
// Subgroup broadcast's subgroupBroadcastFirst: every lane's arrow comes from its subgroup's first
// active lane, the one that loaded the scale.
#include <gtest/gtest.h>

#include "gui_driver.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::Layout;
using namespace std::chrono_literals;

class GuiLaneArrowsTest : public test::GuiTest {
  protected:
    GuiLaneArrowsTest() : GuiTest("lanes") {}
    // Opens the official solution of puzzles/FOLDER on case 1 and waits until it is checked and
    // traced, with `lastThread` in the grid.
    void openSolution(const std::string& slug, const std::string& folder,
                      const std::string& lastThread) {
        std::string kernel = test::sourceDir() + "/puzzles/" + folder + "/solution.comp";
        start({"--puzzle", slug, "--kernel", kernel, "--case", "1"});
        ASSERT_TRUE(m_gui->waitFact("puzzle", folder));
        ASSERT_TRUE(m_gui->waitFor(
            "the cases checked and traced",
            [&](const Layout& l) {
                return l.fact("status") == "done" && l.rect("thread/" + lastThread);
            },
            180s));
    }
    void quit() {
        m_gui->key("ctrl+q");
        ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
        EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
    }
    // Waits until the arrows on show are those of `thread`, into it and out of it as listed.
    ::testing::AssertionResult arrowsOf(const std::string& thread, const std::string& into,
                                        const std::string& fed) {
        return m_gui->waitFor(
            "the lane arrows of thread " + thread + ": " + into + " | " + fed,
            [&](const Layout& l) {
                return l.fact("laneArrowsOf") == thread && l.fact("laneArrows") == into &&
                       l.fact("laneArrowsFed") == fed;
            },
            180s);
    }
};

TEST_F(GuiLaneArrowsTest, ASelectedButterflyLaneHasArrowsFromTheLanesItTookValuesFrom) {
    ASSERT_NO_FATAL_FAILURE(openSolution("butterfly", "35-butterfly", "7,0,0"));
    EXPECT_EQ(m_gui->layout().fact("laneArrows"), "") << "no thread hovered or selected yet";

    // Thread 0 (lane 0) took lane 1's value with xor 1 and lane 2's with xor 2; lanes 1 and 2
    // took its values the same way.
    ASSERT_TRUE(m_gui->click("thread/0,0,0"));
    ASSERT_TRUE(m_gui->waitFact("thread", "0,0,0"));
    ASSERT_TRUE(arrowsOf("0,0,0", "1,0,0>0,0,0:xor 1;2,0,0>0,0,0:xor 2",
                         "0,0,0>1,0,0:xor 1;0,0,0>2,0,0:xor 2"));
    shoot("lanes-thread0");

    // Thread 5 (lane 1 of team 4-7): from 4 (xor 1) and 7 (xor 2). The pointer then leaves the
    // grid: the selected thread keeps its arrows.
    ASSERT_TRUE(m_gui->click("thread/5,0,0"));
    ASSERT_TRUE(m_gui->waitFact("thread", "5,0,0"));
    ASSERT_TRUE(m_gui->click("tab/buffers"));
    ASSERT_TRUE(m_gui->waitFact("memoryTab", "buffers"));
    ASSERT_TRUE(arrowsOf("5,0,0", "4,0,0>5,0,0:xor 1;7,0,0>5,0,0:xor 2",
                         "5,0,0>4,0,0:xor 1;5,0,0>7,0,0:xor 2"));
    shoot("lanes-thread5");

    // Hovering thread 6 shows its arrows (from 7, then 4, in the order it took them; the lanes
    // it fed in lane order) while thread 5 stays selected.
    auto six = m_gui->layout().rect("thread/6,0,0");
    ASSERT_TRUE(six);
    m_gui->moveTo(six->cx(), six->cy());
    ASSERT_TRUE(arrowsOf("6,0,0", "7,0,0>6,0,0:xor 1;4,0,0>6,0,0:xor 2",
                         "6,0,0>4,0,0:xor 2;6,0,0>7,0,0:xor 1"));
    EXPECT_EQ(m_gui->layout().fact("thread"), "5,0,0");
    shoot("lanes-hover6");

    quit();
}

TEST_F(GuiLaneArrowsTest, ABroadcastFirstComesFromTheSubgroupsFirstLane) {
    ASSERT_NO_FATAL_FAILURE(openSolution("subgroup-broadcast", "36-subgroup-broadcast", "23,0,0"));

    // Workgroup 1 (threads 8-15, one subgroup of 8 lanes on lavapipe or part of one of 32):
    // thread 11 took the scale from thread 8, the first lane of its subgroup.
    ASSERT_TRUE(m_gui->click("thread/11,0,0"));
    ASSERT_TRUE(m_gui->waitFact("thread", "11,0,0"));
    ASSERT_TRUE(arrowsOf("11,0,0", "8,0,0>11,0,0:broadcast first", ""));
    shoot("lanes-broadcast11");

    // Thread 8 took nothing from another lane and fed the seven others of its workgroup.
    ASSERT_TRUE(m_gui->click("thread/8,0,0"));
    ASSERT_TRUE(m_gui->waitFact("thread", "8,0,0"));
    std::string fed;
    for (int t = 9; t <= 15; ++t)
        fed += (fed.empty() ? "" : ";") + std::string("8,0,0>") + std::to_string(t) +
               ",0,0:broadcast first";
    ASSERT_TRUE(arrowsOf("8,0,0", "", fed));
    shoot("lanes-broadcast8");

    quit();
}

} // namespace
} // namespace vkp
