// The efficiency lens in the app, through real input (xdotool on its own Xvfb): a correct but
// uncoalesced map kernel (threads of a workgroup 3 elements apart, case 5: 3 workgroups of 8)
// gets a badge on its line in the editor's gutter and an entry in the Efficiency tab; a click on
// the entry sends the editor to the line and colours the line's worst request in the Buffers tab.
#include <gtest/gtest.h>

#include "gui_driver.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::GuiDriver;
using test::Layout;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

class GuiEfficiencyTest : public test::GuiTest {
  protected:
    GuiEfficiencyTest() : GuiTest("efficiency") {}
};

bool hasLine(const std::string& list, const std::string& line, const std::string& badgeEnd) {
    // "10:3.0x sectors;7:..." : an entry for `line` whose badge ends with `badgeEnd`.
    size_t at = 0;
    while (at < list.size()) {
        size_t end = list.find(';', at);
        std::string entry =
            list.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (entry.rfind(line + ":", 0) == 0 && entry.size() >= badgeEnd.size() &&
            entry.compare(entry.size() - badgeEnd.size(), badgeEnd.size(), badgeEnd) == 0)
            return true;
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return false;
}

TEST_F(GuiEfficiencyTest, AnUncoalescedLineHasABadgeAndAnEntryThatShowsItsRequest) {
    std::string kernel = test::sourceDir() + "/tests/data/efficiency/map_transposed.comp";
    m_gui->startApp(test::binaryPath(),
                    {"--puzzle", "map", "--kernel", kernel, "--case", "5", "--size", "1280x800"});
    ASSERT_FALSE(m_gui->window().empty())
        << "no window appeared (the app: " << m_gui->howItEnded() << ")\n"
        << m_gui->tail();
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map"));
    ASSERT_TRUE(m_gui->waitFact("case", "5"));
    // Line 11 (result[j] = a[j] + 10.0) reads and writes 3 sectors where 1 would do.
    ASSERT_TRUE(m_gui->waitFor("the badge on line 11", [](const Layout& l) {
        return hasLine(l.fact("badges"), "11", "x sectors") && l.rect("badge/11");
    }));
    ASSERT_TRUE(m_gui->click("tab/efficiency"));
    ASSERT_TRUE(m_gui->waitFact("sideTab", "efficiency"));
    ASSERT_TRUE(m_gui->waitFor("the Efficiency entry of line 11", [](const Layout& l) {
        return hasLine(l.fact("efficiencyLines"), "11", "x sectors") &&
               l.rect("efficiency/line/11") && l.fact("efficiencyNote").empty();
    }));
    ASSERT_TRUE(m_gui->click("efficiency/line/11"));
    ASSERT_TRUE(m_gui->waitFact("editorCursor", "11:1"));
    ASSERT_TRUE(m_gui->waitFact("memoryTab", "buffers"));
    // The request on show: the 8 lanes of workgroup 0's subgroup, 3 elements apart.
    ASSERT_TRUE(m_gui->waitFor("the request in the buffers", [](const Layout& l) {
        return l.fact("efficiencyRequest").find("lanes 0-7 of subgroup 0") != std::string::npos &&
               l.fact("efficiencyRequest").find("3 sectors touched, 1 needed") != std::string::npos;
    }));
    m_gui->key("ctrl+q");
    ASSERT_TRUE(m_gui->waitExit(60s)) << "Ctrl+Q did not quit";
    EXPECT_EQ(m_gui->exitCode(), 0) << m_gui->tail();
}

} // namespace
} // namespace vkp
