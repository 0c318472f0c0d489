// Generated cases in the app, through its real window: segmented-scan's search finds the case
// that breaks rounds stopping at WG / 2, shows it small under the case list, and "Keep it as my
// case" adds it to the learner's own cases, checked like the others.
#include <gtest/gtest.h>

#include "gui_driver.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::Layout;
using namespace std::chrono_literals;

class GuiCaseSearchTest : public test::GuiTest {
  protected:
    GuiCaseSearchTest() : GuiTest("case-search") {}
};

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

std::string ownCaseFact(const Layout& l) {
    for (const auto& [key, value] : l.facts)
        if (key.rfind("case/", 0) == 0 && value.rfind("own: ", 0) == 0) return value;
    return "";
}

TEST_F(GuiCaseSearchTest, AFoundCaseIsShownAndKeptAsTheLearnersOwn) {
    std::string kernel = test::sourceDir() + "/tests/data/wrong/segmented-scan-rounds-to-half.comp";
    m_gui->startApp(test::binaryPath(), {"--puzzle", "segmented-scan", "--kernel", kernel, "--case",
                                         "8", "--size", "1280x1000"});
    ASSERT_FALSE(m_gui->window().empty())
        << "no window appeared (the app: " << m_gui->howItEnded() << ")\n"
        << m_gui->tail();
    ASSERT_TRUE(m_gui->waitFact("puzzle", "33-segmented-scan"));
    ASSERT_TRUE(m_gui->waitFor(
        "the generated case",
        [](const Layout& l) {
            const std::string found = l.fact("case search");
            return has(found, "like case 8, N = ") && has(found, "expected") && has(found, "a = ");
        },
        120s))
        << m_gui->layout().fact("case search");
    // Down the case list to the button under it.
    auto add = m_gui->layout().rect("button/Add a case");
    ASSERT_TRUE(add);
    for (int k = 0; k < 30; ++k)
        m_gui->clickAt(add->cx(), add->cy() + 120, 5); // the wheel, down
    shoot("case-search-found");
    ASSERT_TRUE(m_gui->click("button/Keep it as my case"));
    ASSERT_TRUE(m_gui->waitFor(
        "the kept case checked",
        [](const Layout& l) { return has(ownCaseFact(l), "own: result: "); }, 120s))
        << ownCaseFact(m_gui->layout());
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
}

} // namespace
} // namespace vkp
