// Grading a class (classroom/grade.h): finding submissions in a folder, and every submission of
// tests/data/grade scored on the real compiler and lavapipe, one of them crashing the compiler.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

#include "classroom/grade.h"
#include "gpu/device_runner.h"
#include "support/crashing_kernel.h"
#include "support/engines.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

std::string gradeData(const std::string& sub = "") {
    return test::sourceDir() + "/tests/data/grade" + (sub.empty() ? "" : "/" + sub);
}

const PuzzleSet& gradePack() {
    static PuzzleSet set = loadPuzzleSet(test::puzzleDir(), {gradeData("pack")});
    return set;
}

const Puzzle& packPuzzle(const std::string& slug) {
    auto p = gradePack().find(slug);
    if (!p) throw std::runtime_error("no puzzle " + slug + ": " + p.error().message);
    return **p;
}

// A fresh folder under /tmp, removed by the test's end.
// Each file's folders apart from the others'.
struct TempDir : test::TempDir {
    explicit TempDir(const std::string& name) : test::TempDir("grade-" + name) {}
};

TEST(GradeTest, EveryCompFileAndFolderIsASubmissionInNameOrder) {
    auto found = findSubmissions(gradeData("offset"));
    ASSERT_TRUE(found) << found.error().message;
    std::vector<std::string> names;
    for (const Submission& s : found->submissions)
        names.push_back(s.name);
    EXPECT_EQ(names, (std::vector<std::string>{"alice", "bob", "carol", "dave", "erin", "frank",
                                               "grace", "heidi", "ivan", "judy"}));
    EXPECT_EQ(found->submissions.back().paths,
              (std::vector<std::string>{gradeData("offset/judy")}));
    EXPECT_TRUE(found->warnings.empty());
}

// alice.comp beside alice/: both graded, each named by its entry, and the teacher told; with
// --all, map.comp beside map/ in one student's folder: which one is graded is said.
TEST(GradeTest, TwoEntriesOfOneNameAreToldApart) {
    TempDir t("twins");
    std::ofstream(t.path / "alice.comp") << "x";
    fs::create_directories(t.path / "alice");
    std::ofstream(t.path / "bob.comp") << "x";
    auto found = findSubmissions(t.path.string());
    ASSERT_TRUE(found) << found.error().message;
    std::vector<std::string> names;
    for (const Submission& s : found->submissions)
        names.push_back(s.name);
    EXPECT_EQ(names, (std::vector<std::string>{"alice.comp", "alice/", "bob"}));
    ASSERT_EQ(found->warnings.size(), 1u);
    EXPECT_EQ(found->warnings[0],
              "both alice.comp and alice/ are alice's: each is graded, as alice.comp and alice/");
    fs::create_directories(t.path / "class/s3/offset");
    std::ofstream(t.path / "class/s3/offset.comp") << "x";
    auto cls = findClassSubmissions({&packPuzzle("offset")}, (t.path / "class").string());
    ASSERT_TRUE(cls) << cls.error().message;
    ASSERT_EQ(cls->warnings.size(), 1u);
    EXPECT_NE(cls->warnings[0].find("s3: both "), std::string::npos) << cls->warnings[0];
    EXPECT_NE(cls->warnings[0].find(" are offset; "), std::string::npos) << cls->warnings[0];
}

TEST(GradeTest, AFolderThatIsMissingEmptyOrAFileIsAUsageError) {
    auto missing = findSubmissions(gradeData("no-such-folder"));
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, ErrorKind::Usage);
    EXPECT_NE(missing.error().message.find("there is no folder"), std::string::npos);
    TempDir empty("empty");
    std::ofstream(empty.path / "notes.txt") << "not a kernel";
    fs::create_directories(empty.path / "__MACOSX"); // a zip's resource forks: no student
    std::ofstream(empty.path / ".alice.comp.swp") << "an editor's file";
    auto none = findSubmissions(empty.path.string());
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("holds no submission"), std::string::npos)
        << none.error().message;
    auto file = findSubmissions(gradeData("offset/alice.comp"));
    ASSERT_FALSE(file);
    EXPECT_NE(file.error().message.find("is not a folder"), std::string::npos);
    auto noStudents = findClassSubmissions({&packPuzzle("offset")}, empty.path.string());
    ASSERT_FALSE(noStudents);
    EXPECT_NE(noStudents.error().message.find("holds no student folder"), std::string::npos);
}

TEST(GradeTest, AClassFolderGivesEachStudentTheirLatestExportPerPuzzle) {
    std::vector<const Puzzle*> puzzles = {&packPuzzle("offset"), &packPuzzle("twostep")};
    auto found = findClassSubmissions(puzzles, gradeData("class"));
    ASSERT_TRUE(found) << found.error().message;
    ASSERT_EQ(found->submissions.size(), 3u);
    const Submission& alice = found->submissions[0];
    const Submission& bob = found->submissions[1];
    const Submission& carol = found->submissions[2];
    EXPECT_EQ(alice.name, "alice");
    EXPECT_EQ(alice.paths, (std::vector<std::string>{gradeData("class/alice/offset.comp"),
                                                     gradeData("class/alice/twostep")}));
    EXPECT_EQ(bob.paths[0], gradeData("class/bob/offset-2.comp")); // the second export
    EXPECT_EQ(carol.paths[1], "");                                 // not handed in
    ASSERT_EQ(found->warnings.size(), 1u);
    EXPECT_NE(found->warnings[0].find("notes.comp: its name is no puzzle's slug"),
              std::string::npos)
        << found->warnings[0];
}

struct Expected {
    double score;
    FailureKind failure; // of the first failing case
    std::string reason;  // a part of the submission's reason
};

// Every submission in tests/data/grade/offset plus one that crashes the compiler.
std::vector<SubmissionGrade> gradeOffsetClass(const fs::path& dir) {
    fs::copy(gradeData("offset"), dir, fs::copy_options::recursive);
    std::ofstream(dir / "mallory.comp") << test::crashingKernel();
    auto found = findSubmissions(dir.string());
    if (!found) throw std::runtime_error(found.error().message);
    InProcessRunner runner(*test::engines().gpu);
    CheckOptions options;
    options.trace = true; // as `check` and `grade` do
    return gradeClass(test::engines().compiler, runner, {&packPuzzle("offset")}, found->submissions,
                      options);
}

TEST(GradeTest, EverySubmissionIsScoredByThePointsOfTheCasesItPasses) {
    ASSERT_TRUE(test::engines().gpu);
    TempDir dir("offset");
    std::vector<SubmissionGrade> grades = gradeOffsetClass(dir.path / "class");
    std::map<std::string, Expected> expected = {
        {"alice", {5, FailureKind::None, ""}},
        {"bob",
         {0, FailureKind::WrongValues,
          "case 1: result: 4 of 4 cells wrong (result[0]: "
          "expected 10, got 1)"}},
        {"carol", {0, FailureKind::Finding, "case 1: race"}},
        {"dave", {0, FailureKind::Finding, "case 1: out of bounds"}},
        {"erin", {0, FailureKind::Finding, "case 1: endless loop?"}},
        {"frank", {0, FailureKind::Compile, "does not compile: frank.comp:8: 'missing'"}},
        {"grace", {0, FailureKind::Unreadable, "the file is empty"}},
        {"heidi", {0, FailureKind::Compile, "does not compile: heidi.comp:1"}},
        {"ivan", {4, FailureKind::WrongValues, "case 3: result: "}},
        {"judy", {5, FailureKind::None, ""}},
        {"mallory", {0, FailureKind::Compile, "the compiler crashed"}},
    };
    ASSERT_EQ(grades.size(), expected.size());
    for (const SubmissionGrade& g : grades) {
        SCOPED_TRACE(g.name);
        ASSERT_TRUE(expected.count(g.name));
        const Expected& e = expected[g.name];
        EXPECT_DOUBLE_EQ(g.maxScore(), 5);
        EXPECT_DOUBLE_EQ(g.score(), e.score) << g.reason();
        EXPECT_NE(g.reason().find(e.reason), std::string::npos) << g.reason();
        ASSERT_EQ(g.puzzles.size(), 1u);
        const std::vector<CaseGrade>& cases = g.puzzles[0].cases;
        ASSERT_EQ(cases.size(), 4u);
        EXPECT_DOUBLE_EQ(cases[1].points, 2);
        EXPECT_TRUE(cases[2].hidden);
        FailureKind first = FailureKind::None;
        for (const CaseGrade& c : cases) {
            EXPECT_DOUBLE_EQ(c.earned, c.pass ? c.points : 0);
            EXPECT_EQ(c.reason.empty(), c.pass) << c.reason;
            if (!c.pass && first == FailureKind::None) first = c.failure;
        }
        EXPECT_EQ(first, e.failure) << g.reason();
    }
    EXPECT_EQ(grades[9].puzzles[0].files,
              (std::vector<std::string>{(dir.path / "class/judy/offset.comp").string()}));
    // Hidden case 3 alone fails ivan's kernel: 1 + 2 + 1 of 5 points.
    const std::vector<CaseGrade>& ivan = grades[8].puzzles[0].cases;
    EXPECT_TRUE(ivan[0].pass && ivan[1].pass && !ivan[2].pass && ivan[3].pass);

    // The same inputs, the same scores and reasons.
    TempDir again("offset-again");
    std::vector<SubmissionGrade> second = gradeOffsetClass(again.path / "class");
    ASSERT_EQ(second.size(), grades.size());
    for (size_t i = 0; i < grades.size(); ++i) {
        EXPECT_EQ(second[i].name, grades[i].name);
        EXPECT_DOUBLE_EQ(second[i].score(), grades[i].score());
        for (size_t c = 0; c < 4; ++c)
            EXPECT_EQ(second[i].puzzles[0].cases[c].failure, grades[i].puzzles[0].cases[c].failure)
                << grades[i].name << " case " << c + 1;
    }
}

TEST(GradeTest, AMultiPassSubmissionIsAFolderOrOneFileWithSections) {
    ASSERT_TRUE(test::engines().gpu);
    std::vector<const Puzzle*> puzzles = {&packPuzzle("offset"), &packPuzzle("twostep")};
    auto found = findClassSubmissions(puzzles, gradeData("class"));
    ASSERT_TRUE(found) << found.error().message;
    InProcessRunner runner(*test::engines().gpu);
    CheckOptions options;
    options.trace = true;
    auto grades =
        gradeClass(test::engines().compiler, runner, puzzles, found->submissions, options);
    ASSERT_EQ(grades.size(), 3u);
    EXPECT_DOUBLE_EQ(grades[0].score(), 9) << grades[0].reason(); // alice: both right
    EXPECT_EQ(grades[0].puzzles[1].files.size(), 2u);             // copy.comp and add.comp
    EXPECT_DOUBLE_EQ(grades[1].score(), 5) << grades[1].reason(); // bob: twostep adds 1
    EXPECT_EQ(grades[1].puzzles[1].cases[0].failure, FailureKind::WrongValues);
    EXPECT_NE(grades[1].reason().find("twostep: case 1: result: "), std::string::npos)
        << grades[1].reason();
    EXPECT_DOUBLE_EQ(grades[2].score(), 4) << grades[2].reason(); // carol: hidden case wrong
    EXPECT_EQ(grades[2].puzzles[1].cases[1].failure, FailureKind::NotHandedIn);
    EXPECT_EQ(grades[2].puzzles[1].reason, "not handed in");
    EXPECT_DOUBLE_EQ(grades[2].maxScore(), 9);
}

// Runs on lavapipe, but the device is lost in the N-th job (one submission's check).
class LosingRunner : public DeviceRunner {
  public:
    LosingRunner(DeviceRunner& inner, int lose) : m_inner(inner), m_lose(lose) {}
    const DeviceInfo& info() const override { return m_inner.info(); }
    Result<DeviceJobResult> run(const DeviceJob& job) override {
        if (++m_jobs != m_lose) return m_inner.run(job);
        DeviceJobResult lost;
        for (size_t i = 0; i < job.items.size(); ++i)
            lost.items.push_back(Error{ErrorKind::DeviceLost, "the device was lost"});
        return lost;
    }
    Result<BenchRun> bench(const BenchJob& job) override { return m_inner.bench(job); }
    Result<CopyBandwidth> copyBandwidth(const CopyJob& job) override {
        return m_inner.copyBandwidth(job);
    }

  private:
    DeviceRunner& m_inner;
    int m_lose;
    int m_jobs = 0;
};

TEST(GradeTest, ALostDeviceCostsThatSubmissionOnly) {
    ASSERT_TRUE(test::engines().gpu);
    TempDir dir("lost");
    for (const char* name : {"alice.comp", "bob.comp", "ivan.comp"})
        fs::copy(gradeData("offset/") + name, dir.path / name);
    auto found = findSubmissions(dir.path.string());
    ASSERT_TRUE(found) << found.error().message;
    for (Submission& s : found->submissions) // bob's kernel right too: only the device fails it
        if (s.name == "bob") s.paths = {(dir.path / "alice.comp").string()};
    InProcessRunner gpu(*test::engines().gpu);
    // A check runs its cases one job each: the device is lost at bob's first case.
    LosingRunner runner(gpu, static_cast<int>(packPuzzle("offset").cases.size()) + 1);
    CheckOptions options;
    options.trace = true;
    auto grades = gradeClass(test::engines().compiler, runner, {&packPuzzle("offset")},
                             found->submissions, options);
    ASSERT_EQ(grades.size(), 3u);
    EXPECT_DOUBLE_EQ(grades[0].score(), 5) << grades[0].reason();
    EXPECT_DOUBLE_EQ(grades[1].score(), 0);
    EXPECT_EQ(grades[1].puzzles[0].cases[0].failure, FailureKind::Error);
    EXPECT_NE(grades[1].reason().find("the device was lost"), std::string::npos)
        << grades[1].reason();
    EXPECT_DOUBLE_EQ(grades[2].score(), 4) << grades[2].reason();
}

TEST(GradeTest, AFolderWithoutEveryKernelFileSaysWhichIsMissing) {
    ASSERT_TRUE(test::engines().gpu);
    TempDir dir("missing-kernel");
    fs::create_directories(dir.path / "twostep");
    fs::copy(gradeData("pack/02-twostep/solution/copy.comp"), dir.path / "twostep/copy.comp");
    InProcessRunner runner(*test::engines().gpu);
    PuzzleGrade g = gradeSubmission(test::engines().compiler, runner, packPuzzle("twostep"),
                                    (dir.path / "twostep").string(), {});
    EXPECT_DOUBLE_EQ(g.score, 0);
    EXPECT_EQ(g.cases[0].failure, FailureKind::Unreadable);
    EXPECT_NE(g.reason.find("the folder has no add.comp"), std::string::npos) << g.reason;
}

// A folder whose kernel file is empty (a student who uploaded nothing into it) is named as such,
// not as a kernel that does not compile.
TEST(GradeTest, AFolderWithAnEmptyKernelFileSaysItIsEmpty) {
    ASSERT_TRUE(test::engines().gpu);
    TempDir dir("empty-kernel");
    fs::create_directories(dir.path / "student");
    std::ofstream(dir.path / "student/kernel.comp") << "\n  \n";
    InProcessRunner runner(*test::engines().gpu);
    PuzzleGrade g = gradeSubmission(test::engines().compiler, runner, packPuzzle("offset"),
                                    (dir.path / "student").string(), {});
    EXPECT_DOUBLE_EQ(g.score, 0);
    EXPECT_EQ(g.cases[0].failure, FailureKind::Unreadable);
    EXPECT_EQ(g.cases[3].reason, "kernel.comp is empty");
    EXPECT_EQ(g.files, (std::vector<std::string>{(dir.path / "student/kernel.comp").string()}));
}

// Full marks are every point there is; where no case is worth a point, every case passed (a
// submission that passed none was counted as full marks: 0 of 0).
TEST(GradeTest, FullMarksWithoutPointsMeanEveryCasePassed) {
    auto graded = [](size_t passed, size_t total, double maxScore, double score) {
        PuzzleGrade p;
        p.passed = passed;
        p.cases.resize(total);
        p.maxScore = maxScore;
        p.score = score;
        SubmissionGrade g;
        g.puzzles = {p};
        return g;
    };
    EXPECT_FALSE(graded(0, 7, 0, 0).fullMarks());
    EXPECT_TRUE(graded(7, 7, 0, 0).fullMarks());
    EXPECT_TRUE(graded(6, 7, 5, 5).fullMarks()) << "a case worth 0 may fail";
    EXPECT_FALSE(graded(7, 7, 5, 4).fullMarks());
}

// Grading runs the puzzle's searches with one seed for every student: segmented-scan without the
// case built for rounds that stop at WG / 2 still takes the template case's points, as a
// generated case, the same at every grade; the official solution keeps all its points.
TEST(GradeTest, AGeneratedCaseThatFailsTakesItsTemplatesPoints) {
    ASSERT_TRUE(test::engines().gpu);
    Puzzle p = test::puzzleNamed("segmented-scan");
    p.cases.erase(p.cases.begin() + 7, p.cases.end());
    p.searches[0].templateCase = 4; // block-long segments, generated
    InProcessRunner runner(*test::engines().gpu);
    const std::string wrong =
        test::sourceDir() + "/tests/data/wrong/segmented-scan-rounds-to-half.comp";
    PuzzleGrade g = gradeSubmission(test::engines().compiler, runner, p, wrong, {});
    ASSERT_EQ(g.cases.size(), 7u);
    EXPECT_EQ(g.cases[4].failure, FailureKind::Search) << g.cases[4].reason;
    EXPECT_NE(g.cases[4].reason.find("wrong on one generated like it: N = "), std::string::npos)
        << g.cases[4].reason;
    EXPECT_STREQ(failureKindName(FailureKind::Search), "generated case");
    EXPECT_EQ(failureKindNamed("generated case"), FailureKind::Search);
    PuzzleGrade again = gradeSubmission(test::engines().compiler, runner, p, wrong, {});
    EXPECT_EQ(again.cases[4].reason, g.cases[4].reason);
    PuzzleGrade right =
        gradeSubmission(test::engines().compiler, runner, p,
                        test::sourceDir() + "/puzzles/33-segmented-scan/solution.comp", {});
    for (const CaseGrade& c : right.cases)
        EXPECT_TRUE(c.pass) << c.reason;
}

} // namespace
} // namespace vkp
