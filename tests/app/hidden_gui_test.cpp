// Issue 22 in the app, driven by real X events (xdotool) under its own Xvfb, as
// tests/app/gui_input_test.cpp does: a hidden case is listed with its verdict and shows no data
// when selected (items 2), and "Export submission" (Ctrl+Shift+S) writes what `grade` reads: one
// SLUG.comp, or a folder SLUG/ of NAME.comp for a multi-pass puzzle (item 7).
#include <gtest/gtest.h>

#include "gui_driver.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using namespace test;

// The text without the blank lines it ends in (an exported kernel of a multi-pass puzzle loses
// the one that separated it from the next kernel in the editor).
std::string trimmedEnd(std::string s) {
    while (s.size() >= 2 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n')
        s.pop_back();
    return s;
}

class HiddenGuiTest : public test::GuiTest {
  protected:
    HiddenGuiTest() : GuiTest("hidden") {}

    ::testing::AssertionResult waitChecked() {
        return m_gui->waitFor(
            "the kernel checked",
            [](const Layout& l) { return l.fact("status") == "done" && !l.fact("case/1").empty(); },
            180s);
    }
};

// A kernel without a guard writes past the end only in the hidden case (more threads than
// elements): the list says the case fails and how, selecting it shows the teacher's notice in
// place of buffers and threads, and no case of one's own starts from it.
TEST_F(HiddenGuiTest, AHiddenCaseShowsItsVerdictAndNoData) {
    std::string pack = sourceDir() + "/tests/data/hidden";
    start({"--puzzles", pack, "--puzzle", "hidden-shift", "--kernel",
           pack + "/kernels/no-guard.comp"});
    ASSERT_TRUE(waitChecked());
    std::string verdict = m_gui->layout().fact("case/3");
    EXPECT_TRUE(verdict.find("out of bounds") != std::string::npos) << verdict;
    ASSERT_TRUE(m_gui->click("case/3"));
    ASSERT_TRUE(m_gui->waitFact("hidden/buffers", "3"));
    ASSERT_TRUE(m_gui->waitFact("hidden/threads", "3"));
    Layout l = m_gui->layout();
    EXPECT_TRUE(l.named("thread/").empty()) << "no thread of the hidden case is drawn";
    EXPECT_TRUE(l.rect("hidden/buffers")) << "the notice is on screen";
    ASSERT_TRUE(m_gui->click("button/Add a case"));
    m_gui->settleFrames(5);
    EXPECT_NE(m_gui->layout().fact("ownCaseForm"), "1") << "Add a case is off on a hidden case";
    // A visible case opens as before.
    ASSERT_TRUE(m_gui->click("case/2"));
    ASSERT_TRUE(m_gui->waitFor("case 2's threads", [](const Layout& l) {
        return l.fact("hidden/threads").empty() && !l.named("thread/").empty();
    }));
}

// Ctrl+Shift+S: the single kernel as SLUG.comp, the message strip naming where it went.
TEST_F(HiddenGuiTest, ExportSubmissionWritesSlugComp) {
    std::string kernel = puzzleDir() + "/01-map/solution.comp";
    start({"--puzzle", "map", "--kernel", kernel});
    ASSERT_TRUE(waitChecked());
    m_gui->key("ctrl+shift+s");
    fs::path exported = m_gui->exportDir() / "map.comp";
    ASSERT_TRUE(
        m_gui->waitFor("map.comp exported", [&](const Layout&) { return fs::exists(exported); }));
    EXPECT_EQ(readFile(exported), readFile(kernel));
    ASSERT_TRUE(m_gui->waitFor("the message naming the file", [&](const Layout& l) {
        return l.fact("message").find("submission was saved as " + exported.string()) !=
               std::string::npos;
    }));
}

// Ctrl+Shift+S on a multi-pass puzzle: a folder SLUG/ with one NAME.comp per kernel.
TEST_F(HiddenGuiTest, ExportSubmissionWritesAFolderForAMultiPassPuzzle) {
    fs::path solution = fs::path(puzzleDir()) / "17-scan-blocks" / "solution";
    start({"--puzzle", "scan-blocks", "--kernel", solution.string()});
    ASSERT_TRUE(waitChecked());
    m_gui->key("ctrl+shift+s");
    fs::path folder = m_gui->exportDir() / "scan-blocks";
    ASSERT_TRUE(m_gui->waitFor("scan-blocks/ exported", [&](const Layout&) {
        return fs::exists(folder / "add_offsets.comp");
    }));
    for (const char* k : {"scan_tiles", "scan_sums", "add_offsets"})
        EXPECT_EQ(trimmedEnd(readFile(folder / (std::string(k) + ".comp"))),
                  trimmedEnd(readFile(solution / (std::string(k) + ".comp"))))
            << k;
    ASSERT_TRUE(m_gui->waitFor("the message naming the folder", [&](const Layout& l) {
        return l.fact("message").find("the folder " + folder.string()) != std::string::npos;
    }));
    // The command it suggests checks the files it wrote.
    CliRun check = vkpuzzles("check scan-blocks " + (folder / "scan_tiles.comp").string() + " " +
                             (folder / "scan_sums.comp").string() + " " +
                             (folder / "add_offsets.comp").string() + " --no-trace");
    EXPECT_EQ(check.exit, 0) << check.out;
}

} // namespace
} // namespace vkp
