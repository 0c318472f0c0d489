// The app's "Add a case" form and "Benchmark at large N", driven by real X events (xdotool) on
// the app under its own Xvfb, as tests/app/gui_input_test.cpp does.
#include <gtest/gtest.h>

#include <cstdlib>

#include "gui_driver.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

// The learner's case in the case list, whatever number the puzzle's own cases leave it: the fact
// of the case row that says "own: ...", or "" when there is none.
std::string ownCaseFact(const test::Layout& l) {
    for (const auto& [key, value] : l.facts)
        if (key.rfind("case/", 0) == 0 && value.rfind("own: ", 0) == 0) return value;
    return "";
}

using namespace test;

class OwnCaseGuiTest : public test::GuiTest {
  protected:
    OwnCaseGuiTest() : GuiTest("own") {}

    void start(const std::string& puzzle, const std::string& kernel) {
        GuiTest::start({"--puzzle", puzzle, "--kernel", kernel});
    }
    // Replaces a text field's contents by typing, as a person would: click, select all, type.
    void typeInto(const std::string& field, const std::string& text) {
        ASSERT_TRUE(m_gui->click(field));
        m_gui->key("ctrl+a");
        m_gui->type(text);
        m_gui->settleFrames(3); // every character taken before the next click moves the focus
    }
};

// Typed values become "Your case 1", checked against zip's reference op; a bad value is named in
// the form and what was typed stays; the case is kept on disk and never marks the puzzle solved.
TEST_F(OwnCaseGuiTest, TheFormAddsALearnersCaseThatIsCheckedAndKept) {
    start("zip", puzzleDir() + "/02-zip/starter.comp");
    ASSERT_TRUE(m_gui->waitFor(
        "the starter checked",
        [](const Layout& l) { return l.fact("status") == "done" && !l.fact("case/1").empty(); },
        120s));
    ASSERT_TRUE(m_gui->click("button/Add a case"));
    ASSERT_TRUE(m_gui->waitFact("ownCaseForm", "1"));
    typeInto("field/own/a", "1, x, 3");
    ASSERT_TRUE(m_gui->click("button/Run own case"));
    ASSERT_TRUE(m_gui->waitFor("the bad value named", [](const Layout& l) {
        return l.fact("ownCaseError").starts_with("the values of a: 'x' (value 2) is not a float");
    })) << m_gui->layout().fact("ownCaseError");
    shoot("own-case-form-error");
    typeInto("field/own/a", "1, 2, 3");
    typeInto("field/own/b", "10 20 30");
    typeInto("field/own/workgroup_size", "3");
    typeInto("field/own/workgroups", "1");
    shoot("own-case-form");
    ASSERT_TRUE(m_gui->click("button/Run own case"));
    // The starter writes nothing: 3 cells wrong against add(a, b) = 11, 22, 33.
    ASSERT_TRUE(m_gui->waitFor(
        "Your case 1 checked",
        [](const Layout& l) { return ownCaseFact(l) == "own: result: 3 of 3 cells wrong"; }, 120s))
        << ownCaseFact(m_gui->layout());
    EXPECT_EQ(m_gui->layout().fact("ownCaseForm"), "");
    shoot("own-case-in-list");
    std::string saved = readFile(m_gui->dataDir() / "own_cases.json");
    EXPECT_NE(saved.find("\"02-zip\""), std::string::npos) << saved;
    EXPECT_NE(saved.find("1, 2, 3"), std::string::npos) << saved;
    // Removed again from its button.
    ASSERT_TRUE(m_gui->click("button/Remove own case"));
    ASSERT_TRUE(m_gui->waitFor("Your case 1 removed",
                               [](const Layout& l) { return ownCaseFact(l).empty(); }));
    EXPECT_EQ(readFile(m_gui->dataDir() / "own_cases.json").find("1, 2, 3"), std::string::npos);
}

// The official solution's check of a hand-written puzzle's own case: it runs, says it has nothing
// to check against, and the case list and the puzzle's verdict are unchanged.
TEST_F(OwnCaseGuiTest, ACaseOfAPuzzleWithoutAReferenceOpRunsUnchecked) {
    start("compact", puzzleDir() + "/22-compact/solution.comp");
    ASSERT_TRUE(m_gui->waitFor(
        "the solution checked",
        [](const Layout& l) { return l.fact("status") == "done" && l.fact("case/1") == "pass"; },
        120s));
    ASSERT_TRUE(m_gui->click("button/Add a case"));
    ASSERT_TRUE(m_gui->waitFact("ownCaseForm", "1"));
    typeInto("field/own/a", "5 6 7 8 9");
    ASSERT_TRUE(m_gui->click("button/Run own case"));
    ASSERT_TRUE(m_gui->waitFor(
        "Your case 1 ran",
        [](const Layout& l) { return ownCaseFact(l).starts_with("own: ran; no expected output"); },
        120s))
        << ownCaseFact(m_gui->layout());
    shoot("own-case-unchecked");
}

// "Benchmark at large N" on the official Hillis-Steele scan at N = 2^16: the same figures as
// `vkpuzzles bench`, while the window keeps drawing frames.
TEST_F(OwnCaseGuiTest, TheBenchmarkButtonShowsTheFigures) {
    start("scan-hillis-steele",
          puzzleDir() + "/15-scan-hillis-steele/solution"); // a folder of NAME.comp
    ASSERT_TRUE(m_gui->waitFor(
        "the solution checked", [](const Layout& l) { return l.fact("status") == "done"; }, 120s));
    typeInto("field/bench N", "lots");
    ASSERT_TRUE(m_gui->click("button/Benchmark at large N"));
    ASSERT_TRUE(m_gui->waitFor("the bad N named", [](const Layout& l) {
        return l.fact("benchError").starts_with("N needs an element count");
    }));
    EXPECT_EQ(m_gui->layout().fact("bench"), "idle");
    typeInto("field/bench N", "2^16");
    ASSERT_TRUE(m_gui->click("button/Benchmark at large N"));
    ASSERT_TRUE(m_gui->waitFor("the benchmark started",
                               [](const Layout& l) { return l.fact("bench") != "idle"; }));
    uint64_t frame = m_gui->layout().frame;
    ASSERT_TRUE(m_gui->waitFor(
        "the figures",
        [](const Layout& l) { return l.fact("bench") == "done" || l.fact("bench") == "failed"; },
        300s));
    Layout l = m_gui->layout();
    ASSERT_EQ(l.fact("bench"), "done") << l.fact("benchError");
    EXPECT_GT(l.frame, frame + 2) << "the window kept drawing while the benchmark ran";
    std::string figures = l.fact("benchFigures");
    EXPECT_NE(figures.find("ms median of 20"), std::string::npos) << figures;
    EXPECT_NE(figures.find("GB/s (vkCmdCopyBuffer)"), std::string::npos) << figures;
    EXPECT_NE(figures.find("of the limit"), std::string::npos) << figures;
    EXPECT_EQ(l.fact("benchResult"), "matches the CPU reference");
    shoot("bench-figures");
}

// A puzzle that cannot be scaled (Map: fixed launch shapes) offers no benchmark.
TEST_F(OwnCaseGuiTest, TheBenchmarkIsOfferedOnlyWhereItCanRun) {
    start("map", puzzleDir() + "/01-map/solution.comp");
    ASSERT_TRUE(m_gui->waitFor(
        "the solution checked",
        [](const Layout& l) { return l.fact("status") == "done" && l.rect("button/Add a case"); },
        120s));
    EXPECT_FALSE(m_gui->layout().rect("button/Benchmark at large N"));
}

} // namespace
} // namespace vkp
