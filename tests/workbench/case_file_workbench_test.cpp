// Case files in the Workbench (report/case_file.h): saved from the learner's check, opened in
// place of the puzzle, closed; a kernel file dropped while one shows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "workbench/workbench_fixture.h"

namespace fs = std::filesystem;

namespace vkp::ui {
namespace {

// A case file (report/case_file.h) saved from the learner's check opens in place of the puzzle,
// read-only, with its own report; nothing it shows is recorded as the learner's, and closing it
// (or asking for a puzzle) brings the learner's draft back as it was.
TEST_F(WorkbenchTest, ACaseFileShowsInPlaceOfTheDraftAndLeavesItUntouched) {
    Workbench wb(options("shared"));
    settle(wb);
    wb.loadSolution(); // a passing text, so an opened file's pass could be taken for a solve
    const CheckReport& r = settle(wb);
    ASSERT_TRUE(r.allPass());
    std::string solution = wb.document().text();
    std::string folder = m_dir + "/cases";
    auto first = wb.exportCaseFile(folder, 1);
    ASSERT_TRUE(first.ok()) << first.error().str();
    EXPECT_EQ(fs::path(*first).filename(), "shared-case2.vkpcase");
    auto second = wb.exportCaseFile(folder, 1);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(fs::path(*second).filename(), "shared-case2-2.vkpcase") << "the first is kept";

    // The learner's own text, different from the file's.
    wb.resetToStarter();
    settle(wb);
    std::string draft = wb.document().text();
    ASSERT_NE(draft, solution);
    SolvedHow before = wb.progress(*wb.puzzle()).how;

    ASSERT_TRUE(wb.openCaseFile(*first).ok());
    EXPECT_EQ(wb.caseFile(), nullptr) << "shown between frames";
    wb.update();
    ASSERT_NE(wb.caseFile(), nullptr);
    EXPECT_EQ(wb.puzzle()->slug, "shared");
    EXPECT_EQ(wb.puzzleIndex(), -1);
    EXPECT_EQ(wb.document().text(), solution);
    ASSERT_NE(wb.report(), nullptr);
    ASSERT_EQ(wb.report()->cases.size(), 1u);
    EXPECT_EQ(wb.report()->cases[0].index, 1u);
    EXPECT_NE(wb.outcome(1), nullptr);
    EXPECT_EQ(wb.outcome(0), nullptr) << "only the file's case";
    EXPECT_EQ(wb.walkthrough(), nullptr);
    EXPECT_TRUE(wb.solutionText().empty()) << "a case file holds no solution";
    EXPECT_FALSE(wb.exportKernel(m_dir + "/out").ok());
    wb.resetToStarter();
    for (int i = 0; i < 20; ++i)
        wb.update();
    EXPECT_EQ(wb.document().text(), solution) << "read-only";
    EXPECT_EQ(wb.snapshot().status, LiveStatusKind::Done);
    EXPECT_EQ(wb.progress(*wb.puzzle()).how, before) << "the file's pass is not the learner's";

    wb.closeCaseFile();
    wb.update();
    EXPECT_EQ(wb.caseFile(), nullptr);
    EXPECT_EQ(wb.document().text(), draft);
    EXPECT_EQ(wb.puzzle()->slug, "shared");

    // A damaged file changes nothing; asking for a puzzle leaves an open file.
    std::ofstream(m_dir + "/bad.vkpcase") << "VKPCASE but not really";
    auto bad = wb.openCaseFile(m_dir + "/bad.vkpcase");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().str().find("bad.vkpcase"), std::string::npos) << bad.error().str();
    wb.update();
    EXPECT_EQ(wb.caseFile(), nullptr);
    EXPECT_EQ(wb.document().text(), draft);
    // A kernel file dropped on the window while the file shows: the file closes and the kernel
    // replaces the learner's text, which Restore brings back.
    std::string kernel = m_dir + "/mine.comp";
    std::ofstream(kernel) << "// dropped\n" << solution;
    ASSERT_TRUE(wb.openCaseFile(*first).ok());
    wb.update();
    ASSERT_NE(wb.caseFile(), nullptr);
    ASSERT_TRUE(wb.openKernelFile(kernel).ok());
    wb.update();
    EXPECT_EQ(wb.caseFile(), nullptr);
    EXPECT_EQ(wb.document().text(), "// dropped\n" + solution);
    ASSERT_TRUE(wb.draft().previous.has_value());
    EXPECT_EQ(*wb.draft().previous, draft);
    EXPECT_EQ(wb.draft().previousReason, "opened mine.comp");
    auto missing = wb.openKernelFile(m_dir + "/nothing.comp");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("nothing.comp"), std::string::npos);

    ASSERT_TRUE(wb.openCaseFile(*second).ok());
    wb.update();
    auto map = wb.puzzles().find("map");
    ASSERT_TRUE(map.ok());
    wb.requestPuzzle(static_cast<int>(*map - wb.puzzles().puzzles.data()));
    wb.update();
    EXPECT_EQ(wb.caseFile(), nullptr);
    EXPECT_EQ(wb.puzzle()->slug, "map");
}

} // namespace
} // namespace vkp::ui
