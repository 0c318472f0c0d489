// Case files in the app, by real keys and clicks: Ctrl+O asks for a path and opens the file in
// place of the learner's puzzle, read-only (typing changes nothing), on its case, with a bar that
// says what it is; Close brings the learner's text back untouched; File > Save case N writes the
// case on show to the export folder; a damaged file is refused in the dialog with the reason,
// the path kept for fixing.
#include <gtest/gtest.h>

#include "gui_driver.h"

namespace vkp {
namespace {

using namespace std::chrono_literals;
using test::Layout;
namespace fs = std::filesystem;

class GuiCaseFileTest : public test::GuiTest {
  protected:
    GuiCaseFileTest() : GuiTest("casefile") {}
    // Ctrl+O, the path typed over the field's, Enter.
    void openByKeys(const std::string& path) {
        m_gui->key("ctrl+o");
        ASSERT_TRUE(m_gui->click("caseFile/path"));
        m_gui->key("ctrl+a");
        m_gui->type(path);
        m_gui->key("Return");
    }
};

TEST_F(GuiCaseFileTest, OpensReadOnlyOnItsCaseAndClosesBackToTheDraft) {
    std::string file = (m_gui->dir() / "race.vkpcase").string();
    auto exported = test::vkpuzzles("export missing-barrier --starter --case 2 --out " + file);
    ASSERT_EQ(exported.exit, 0) << exported.out;

    start({"--puzzle", "map"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map"));
    ASSERT_TRUE(m_gui->waitFact("status", "done", 240s));
    std::string draftBytes = m_gui->layout().fact("editorBytes");

    // A damaged copy first: refused in the dialog, which stays open with the reason.
    std::string cut = (m_gui->dir() / "cut.vkpcase").string();
    test::runCommand("head -c 300 " + file + " > " + cut);
    openByKeys(cut);
    ASSERT_TRUE(m_gui->waitFor("the reason in the dialog", [](const Layout& l) {
        return l.rect("caseFile/path").has_value() &&
               l.fact("caseFileProblem").find("cut.vkpcase is damaged") != std::string::npos;
    })) << m_gui->lastFacts();
    EXPECT_EQ(m_gui->layout().fact("caseFile"), "") << "nothing opened";
    m_gui->key("Escape");
    ASSERT_TRUE(m_gui->waitFor("the dialog closed",
                               [](const Layout& l) { return !l.rect("caseFile/path"); }));

    openByKeys(file);
    ASSERT_TRUE(m_gui->waitFact("caseFile", "race.vkpcase"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", "43-missing-barrier"));
    ASSERT_TRUE(m_gui->waitFact("case", "2")) << "the file's case is the one on show";
    ASSERT_TRUE(m_gui->layout().rect("caseFileBadge"));
    shoot("case_file_open");
    std::string fileBytes = m_gui->layout().fact("editorBytes");
    ASSERT_NE(fileBytes, draftBytes);
    // Read-only: typing into the editor changes nothing.
    ASSERT_TRUE(m_gui->click("editor"));
    m_gui->type("zzz");
    m_gui->settleFrames(5);
    EXPECT_EQ(m_gui->layout().fact("editorBytes"), fileBytes);

    ASSERT_TRUE(m_gui->click("button/Close case file"));
    ASSERT_TRUE(m_gui->waitFact("puzzle", "01-map"));
    EXPECT_EQ(m_gui->layout().fact("caseFile"), "");
    EXPECT_EQ(m_gui->layout().fact("editorBytes"), draftBytes) << "the learner's text is back";
}

TEST_F(GuiCaseFileTest, TheFileMenuSavesTheCaseOnShow) {
    start({"--puzzle", "shared", "--case", "2"});
    ASSERT_TRUE(m_gui->waitFact("puzzle", "08-shared"));
    ASSERT_TRUE(m_gui->waitFact("status", "done", 240s));
    ASSERT_TRUE(m_gui->click("menu/File"));
    ASSERT_TRUE(m_gui->click("menu/File/Save case 2 as a case file"));
    ASSERT_TRUE(m_gui->waitFor("where it went", [](const Layout& l) {
        return l.fact("message").find("Case 2 saved as ") == 0;
    })) << m_gui->lastFacts();
    std::string message = m_gui->layout().fact("message");
    fs::path saved = m_gui->exportDir() / "shared-case2.vkpcase";
    EXPECT_TRUE(fs::exists(saved)) << message;
    auto opened = test::vkpuzzles("open " + saved.string() + " --print");
    EXPECT_NE(opened.out.find("case 2:"), std::string::npos) << opened.out;
}

} // namespace
} // namespace vkp
