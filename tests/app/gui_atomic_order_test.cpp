// Atomics in another order in the app, through its real window: a kernel whose compaction takes
// its slots from an atomic counter passes every case as lavapipe orders the atomics; the run with
// them in reverse lane order comes after, under the case list, and the status line says so.
#include <gtest/gtest.h>

#include "gui_driver.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::Layout;
using namespace std::chrono_literals;

class GuiAtomicOrderTest : public test::GuiTest {
  protected:
    GuiAtomicOrderTest() : GuiTest("atomic-order") {}
};

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST_F(GuiAtomicOrderTest, AResultThatDependsOnTheOrderOfAtomicsIsSaidUnderTheCases) {
    std::string kernel = test::sourceDir() + "/tests/data/atomic-order/compact-by-atomic-slot.comp";
    m_gui->startApp(test::binaryPath(), {"--puzzle", "compact", "--kernel", kernel, "--case", "10",
                                         "--size", "1280x1000"});
    ASSERT_FALSE(m_gui->window().empty())
        << "no window appeared (the app: " << m_gui->howItEnded() << ")\n"
        << m_gui->tail();
    ASSERT_TRUE(m_gui->waitFact("puzzle", "22-compact"));
    ASSERT_TRUE(m_gui->waitFor("the run in reverse lane order", [](const Layout& l) {
        const std::string order = l.fact("atomic order");
        return has(order, "in reverse lane order: ") && has(order, "case 1: result[0]: expected") &&
               has(order, "the result depends on the order");
    })) << m_gui->layout().fact("atomic order");
    ASSERT_TRUE(m_gui->waitFor("the status line", [](const Layout& l) {
        return has(l.fact("statusLine"),
                   "all 10 cases pass, wrong with atomics in reverse lane order (case 1)");
    })) << m_gui->layout().fact("statusLine");
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
}

} // namespace
} // namespace vkp
