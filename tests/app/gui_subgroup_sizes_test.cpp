// Other subgroup sizes in the app, through its real window: a kernel right with lavapipe's 8
// lanes only gets its device's verdict first, then the runs at 4 and 16 lanes (and 32 and 64
// emulated) under the case list, and the status line says which sizes it is right and wrong with.
#include <gtest/gtest.h>

#include "gui_driver.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::Layout;
using namespace std::chrono_literals;

class GuiSubgroupSizesTest : public test::GuiTest {
  protected:
    GuiSubgroupSizesTest() : GuiTest("subgroup-sizes") {}
};

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST_F(GuiSubgroupSizesTest, TheSizesAKernelFailsAtAreListedUnderTheCases) {
    std::string kernel =
        test::sourceDir() + "/tests/data/subgroup-sizes/reduce-assumes-8-lanes.comp";
    m_gui->startApp(test::binaryPath(), {"--puzzle", "reduce-subgroup", "--kernel", kernel,
                                         "--case", "5", "--size", "1280x1000"});
    ASSERT_FALSE(m_gui->window().empty())
        << "no window appeared (the app: " << m_gui->howItEnded() << ")\n"
        << m_gui->tail();
    ASSERT_TRUE(m_gui->waitFact("puzzle", "27-reduce-subgroup"));
    ASSERT_TRUE(m_gui->waitFor("the runs at 4 and 16 lanes", [](const Layout& l) {
        const std::string sizes = l.fact("subgroup sizes");
        return has(sizes, "4 lanes: 5 of 5 fail; case 1: result[0]: expected -5") &&
               has(sizes, "16 lanes: ") && has(sizes, "64 lanes (emulated): ") &&
               has(sizes, "right with 8 lanes, wrong with 4, 16, 32 and 64 (32 and 64 "
                          "emulated): does the kernel assume a subgroup size?");
    })) << m_gui->layout().fact("subgroup sizes");
    ASSERT_TRUE(m_gui->waitFor("the status line", [](const Layout& l) {
        return has(l.fact("statusLine"), "right with 8 lanes, wrong with 4, 16, 32 and 64");
    })) << m_gui->layout().fact("statusLine");
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
}

} // namespace
} // namespace vkp
