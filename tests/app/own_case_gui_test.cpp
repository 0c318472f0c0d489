// The app's "Add a case" form and "Benchmark at large N", driven by real X events (xdotool) on
// the app under its own Xvfb, as tests/app/gui_input_test.cpp does.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

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

// The official solution of a classic, a one-workgroup scan and a detective puzzle, benchmarked
// from the button as `vkpuzzles bench` would: each on the case its puzzle benchmarks (zip's and
// missing-barrier's follow the N typed; compact's one workgroup runs at its own N, which the row
// and the window say), each result right.
class BenchButtonGuiTest : public OwnCaseGuiTest {
  protected:
    void benchmarkTheSolution(const std::string& slug, const std::string& folder, bool fixed) {
        start(slug, puzzleDir() + "/" + folder + "/solution.comp");
        ASSERT_TRUE(m_gui->waitFor(
            "the solution checked", [](const Layout& l) { return l.fact("status") == "done"; },
            120s));
        std::string button = fixed ? "button/Benchmark" : "button/Benchmark at large N";
        if (!fixed) typeInto("field/bench N", "2^12");
        ASSERT_TRUE(m_gui->click(button));
        ASSERT_TRUE(m_gui->waitFor(
            "the figures",
            [](const Layout& l) {
                return l.fact("bench") == "done" || l.fact("bench") == "failed";
            },
            300s));
        Layout l = m_gui->layout();
        ASSERT_EQ(l.fact("bench"), "done") << l.fact("benchError");
        EXPECT_EQ(l.fact("benchResult"), "matches the CPU reference");
        std::string figures = l.fact("benchFigures");
        EXPECT_NE(figures.find("of the limit"), std::string::npos) << figures;
        bool saysFixed =
            figures.find("fixed launch   " + slug + " launches one workgroup") != std::string::npos;
        EXPECT_EQ(saysFixed, fixed) << figures;
        EXPECT_EQ(l.fact("benchFixed").starts_with(slug + " launches one workgroup"), fixed)
            << l.fact("benchFixed");
        shoot("bench-" + slug);
    }
};

TEST_F(BenchButtonGuiTest, AClassicPuzzleBenchmarksAtTheNTyped) {
    benchmarkTheSolution("zip", "02-zip", false);
}

TEST_F(BenchButtonGuiTest, AOneWorkgroupScanBenchmarksAtItsOwnN) {
    benchmarkTheSolution("compact", "22-compact", true);
}

TEST_F(BenchButtonGuiTest, ADetectivePuzzleBenchmarksAtTheNTyped) {
    benchmarkTheSolution("missing-barrier", "43-missing-barrier", false);
}

// A pack's puzzle whose named benchmark case is written out value by value cannot be timed: the
// app offers no benchmark (pack check warns its author).
TEST_F(OwnCaseGuiTest, TheBenchmarkIsOfferedOnlyWhereItCanRun) {
    fs::path pack = m_gui->dir() / "pack";
    fs::path folder = pack / "02-fixed-grid";
    fs::create_directories(pack);
    fs::copy(sourceDir() + "/tests/data/bench/02-fixed-grid", folder, fs::copy_options::recursive);
    std::string toml = readFile(folder / "puzzle.toml");
    toml.replace(toml.find("inputs.a = {"),
                 toml.find('\n', toml.find("inputs.a = {")) - toml.find("inputs.a = {"),
                 "inputs.a = { shape = [3], values = [1, 2, 3] }");
    toml.replace(toml.find("workgroups = [3]"), 16, "workgroups = [\"ceil_div(N, WG)\"]");
    std::ofstream(folder / "puzzle.toml") << "bench_case = 1\n" << toml;
    GuiTest::start({"--puzzles", pack.string(), "--puzzle", "fixed-grid", "--kernel",
                    (folder / "solution.comp").string()});
    ASSERT_TRUE(m_gui->waitFor(
        "the solution checked",
        [](const Layout& l) { return l.fact("status") == "done" && l.rect("button/Add a case"); },
        120s));
    EXPECT_EQ(m_gui->layout().fact("puzzle"), "pack/02-fixed-grid");
    EXPECT_FALSE(m_gui->layout().rect("button/Benchmark at large N"));
    EXPECT_FALSE(m_gui->layout().rect("button/Benchmark"));
    shoot("bench-not-offered");
}

} // namespace
} // namespace vkp
