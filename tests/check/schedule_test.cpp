// Forced schedules ([[schedule]], trace/forced_schedule.h) on scan-decoupled, with the real
// compiler, lavapipe and the puzzle's own schedules: the official solution passes with the holds
// on; each mutant of its look-back fails in the cases whose hold exposes it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "check/check.h"
#include "puzzle/kernel_sections.h"
#include "puzzle/puzzle_loader.h"
#include "report/check_report.h"
#include "support/engines.h"

namespace vkp {
namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string wrongKernel(const std::string& name) {
    return test::sourceDir() + "/tests/data/schedule/" + name;
}

CheckReport checkScan(const std::string& source, const std::string& file,
                      CheckOptions options = {}) {
    options.trace = true;
    const Puzzle& p = test::puzzleNamed("scan-decoupled");
    return checkKernel(test::engines().compiler, *test::engines().gpu, p, source, file, options);
}

TEST(ScheduleTest, PuzzleDeclaresItsSchedules) {
    const Puzzle& p = test::puzzleNamed("scan-decoupled");
    ASSERT_EQ(p.schedules.size(), 2u);
    EXPECT_FALSE(p.schedules[0].afterWrite);
    EXPECT_TRUE(p.schedules[1].afterWrite);
    EXPECT_EQ(p.buffers[p.schedules[0].buffer].name, "status");
    EXPECT_EQ(p.scheduleFor(0), nullptr);
    EXPECT_EQ(p.scheduleFor(2), &p.schedules[0]);
    EXPECT_EQ(p.scheduleFor(5), &p.schedules[1]);
}

TEST(ScheduleTest, OfficialSolutionPassesWithTheHoldsForced) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("scan-decoupled");
    CheckReport r = checkScan(readFile(p.solutionPath), p.solutionPath);
    ASSERT_TRUE(r.allPass()) << (r.error ? r.error->message : "a case failed");
    for (const CaseOutcome& c : r.cases) {
        if (!p.scheduleFor(c.index)) {
            EXPECT_TRUE(c.schedules.empty());
            continue;
        }
        ASSERT_EQ(c.schedules.size(), 1u) << "case " << c.index + 1;
        const ScheduleReport& s = c.schedules[0];
        // The workgroup of tile 1 was held, and the others read its status as it was at the hold
        // point. Whether the hold itself lasted until the others finished is reported in the
        // case's text, not asserted: on a loaded lavapipe it can end early (its per-invocation
        // loop limit), which the text then says.
        EXPECT_NE(s.outcome, ScheduleOutcome::NotReached) << c.scheduleTexts[0];
        EXPECT_TRUE(s.forced()) << c.scheduleTexts[0];
        EXPECT_EQ(s.index, 1u);
        EXPECT_NE(c.scheduleTexts[0].find("was held"), std::string::npos) << c.scheduleTexts[0];
    }
}

TEST(ScheduleTest, NoScheduleWhenTurnedOff) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("scan-decoupled");
    CheckOptions o;
    o.forcedSchedules = false;
    o.onlyCase = 4;
    CheckReport r = checkScan(readFile(p.solutionPath), p.solutionPath, o);
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_TRUE(r.cases[0].schedules.empty());
    EXPECT_TRUE(r.cases[0].pass);
}

struct MutantCase {
    const char* file;
    std::vector<size_t> failing; // 0-based cases its hold exposes
    bool waitsForever;           // caught by the loop budget, quoting the rule
};

class ScheduleMutantTest : public ::testing::TestWithParam<MutantCase> {};

// Each mutant fails in its forced cases whenever the hold was forced.
TEST_P(ScheduleMutantTest, FailsInTheForcedCases) {
    ASSERT_TRUE(test::engines().gpu);
    const MutantCase& m = GetParam();
    std::string path = wrongKernel(m.file);
    CheckReport r = checkScan(readFile(path), path);
    ASSERT_EQ(r.reached, StageKind::Done) << (r.error ? r.error->message : "");
    for (size_t i : m.failing) {
        const CaseOutcome& c = r.cases.at(i);
        ASSERT_EQ(c.schedules.size(), 1u);
        ScheduleOutcome outcome = c.schedules[0].outcome;
        EXPECT_NE(outcome, ScheduleOutcome::NotReached) << c.scheduleTexts[0];
        // Tile 1 is held by index: from the hold point on, the other workgroups read its status as
        // it was there, however long the hold itself could last (on lavapipe a hold can run out
        // early: lavapipe ends every loop of an invocation after 65535 back-edges in all). So the
        // schedule takes place on every run, and the mistake is caught on every run.
        EXPECT_TRUE(c.schedules[0].forced()) << c.scheduleTexts[0];
        EXPECT_EQ(c.schedules[0].view, ScheduleView::Frozen) << c.scheduleTexts[0];
        EXPECT_FALSE(c.pass) << m.file << " passes case " << i + 1 << ": " << c.scheduleTexts[0];
        if (!m.waitsForever) continue;
        // A kernel that waits forever outlasts the hold's bound: the case says so, and a thread
        // the loop budget stopped is told the statement's rule.
        ASSERT_TRUE(c.analysis);
        for (const Finding& f : c.analysis->findings)
            if (f.kind == FindingKind::LoopBudget)
                EXPECT_NE(f.message.find("Waiting forever is not allowed"), std::string::npos)
                    << f.message;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Mutants, ScheduleMutantTest,
    ::testing::Values(MutantCase{"schedule-lookback-stops-at-aggregate.comp", {3, 5}, false},
                      MutantCase{"schedule-fallback-never-taken.comp", {2, 4, 7}, true},
                      MutantCase{"schedule-fallback-off-by-one-tile.comp", {2, 4, 7}, false},
                      MutantCase{"schedule-fallback-wrong-part-of-a.comp", {2, 4, 7}, false},
                      MutantCase{"schedule-unbounded-spin.comp", {2, 4, 7}, true}),
    [](const auto& info) {
        std::string name = info.param.file;
        name = name.substr(9, name.size() - 9 - 5); // drop "schedule-" and ".comp"
        for (char& ch : name)
            if (ch == '-') ch = '_';
        return name;
    });

// Radix sort in one sweep: thread d publishes digit d of its tile, so the workgroup's first write
// to `status` may be any digit's word. A by-index hold names one digit's word of tile 1 in round
// 1: the workgroup is held when the thread that writes it gets there, whichever of its threads
// wrote first, in that round's dispatch only; the other rounds' dispatches never reach the point
// and are no miss.
CheckReport checkOnesweep(const std::string& onesweep) {
    const Puzzle& p = test::puzzleNamed("radix-sort-onesweep");
    auto sources = readKernelSources(p, true);
    EXPECT_TRUE(sources) << sources.error().message;
    if (!sources) return {};
    for (KernelSource& k : *sources)
        if (k.name == "onesweep" && !onesweep.empty()) {
            k.text = readFile(onesweep);
            k.file = onesweep;
        }
    CheckOptions o;
    o.trace = true;
    return checkProgram(test::engines().compiler, *test::engines().gpu, p, *sources, o);
}

TEST(ScheduleTest, AByIndexHoldTakesTheThreadThatWritesTheElementNotTheFirstWriter) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("radix-sort-onesweep");
    CheckReport r = checkOnesweep("");
    ASSERT_TRUE(r.allPass()) << (r.error ? r.error->message : "a case failed");
    size_t scheduled = 0;
    for (const CaseOutcome& c : r.cases) {
        const ScheduleDecl* decl = p.scheduleFor(c.index);
        if (!decl) continue;
        ++scheduled;
        size_t held = 0;
        for (size_t k = 0; k < c.schedules.size(); ++k) {
            if (c.schedules[k].outcome == ScheduleOutcome::NotReached) continue;
            ++held;
            EXPECT_EQ(c.schedules[k].index, decl->index.value_or(0)) << c.scheduleTexts[k];
            EXPECT_EQ(c.schedules[k].view, ScheduleView::Frozen) << c.scheduleTexts[k];
            EXPECT_TRUE(c.schedules[k].forced()) << c.scheduleTexts[k];
        }
        EXPECT_EQ(held, 1u) << "case " << c.index + 1 << ": held in round 1's dispatch only";
        // One line for the learner: the dispatch that held, not the rounds that could not.
        std::vector<std::string> lines = scheduleLines(c);
        ASSERT_EQ(lines.size(), 1u) << "case " << c.index + 1;
        EXPECT_EQ(lines[0].rfind("forced schedule, 1 of ", 0), 0u) << lines[0];
        EXPECT_FALSE(scheduleMayHaveMissed(c)) << lines[0];
    }
    EXPECT_EQ(scheduled, 4u);
}

// A look-back without the fallback waits for tile 1's silent word in every case held before
// its first write: the loop budget stops the wait, and the finding tells the statement's rule.
// (Case 2's wait used to end with no finding: counted as lavapipe counts, the end of the walk's
// inner loop took the count past the budget, and the next back-edge stopped the loop silently.)
TEST(ScheduleTest, AOnesweepLookBackWithoutFallbackFailsEveryHeldCase) {
    ASSERT_TRUE(test::engines().gpu);
    CheckReport r =
        checkOnesweep(test::sourceDir() + "/tests/data/algorithms/radix-sort-onesweep/no-fallback/"
                                          "onesweep.comp");
    ASSERT_EQ(r.reached, StageKind::Done) << (r.error ? r.error->message : "");
    for (size_t i : {1u, 2u, 3u}) { // cases 2, 3 and 4: held before the first write
        const CaseOutcome& c = r.cases.at(i);
        EXPECT_FALSE(c.pass) << "case " << i + 1;
        ASSERT_FALSE(c.schedules.empty()) << "case " << i + 1;
        EXPECT_FALSE(scheduleMayHaveMissed(c)) << scheduleLines(c).front();
        ASSERT_TRUE(c.analysis) << "case " << i + 1;
        bool stopped = false;
        for (const Finding& f : c.analysis->findings)
            if (f.kind == FindingKind::LoopBudget)
                stopped = stopped ||
                          f.message.find("Waiting forever is not allowed") != std::string::npos;
        EXPECT_TRUE(stopped) << "case " << i + 1 << ": " << scheduleLines(c).front();
    }
    // The other cases are not asserted: there its wait ends when the tile before publishes, but
    // on a loaded machine the polls may outgrow the trace (INCONCLUSIVE).
}

TEST(ScheduleTest, LoaderRejectsAScheduleWithoutAWorkgroup) {
    const char* toml = R"(
title = "T"
track = "test"
order = 1
statement = "s"
hints = []
[[buffers]]
name = "result"
binding = 0
type = "uint"
role = "output"
[[cases]]
workgroup_size = [4]
workgroups = [2]
expected.result = { shape = [8], values = [0, 0, 0, 0, 0, 0, 0, 0] }
[[schedule]]
hold = "before_first_write"
buffer = "result"
)";
    auto p = parsePuzzle(toml, "t.toml", "/tmp/01-t");
    ASSERT_FALSE(p.ok());
    EXPECT_NE(p.error().message.find("names the workgroup to hold"), std::string::npos)
        << p.error().message;
}

} // namespace
} // namespace vkp
