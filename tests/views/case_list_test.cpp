// The Test cases panel's model: what the list says of each case (its badge, title, launch, why and
// tooltip), its heading and buttons, and the runs beside the check, on real puzzles (the map, a
// pack with a hidden case, a multi-pass scan) and reports written as a check leaves them.
#include <gtest/gtest.h>

#include <memory>

#include "puzzle/puzzle_loader.h"
#include "support/test_env.h"
#include "views/case_list.h"

namespace vkp::views {
namespace {

const char* kHidden = "hidden by your teacher";

Puzzle load(const std::string& folder) {
    Result<Puzzle> p = loadPuzzle(test::sourceDir() + "/" + folder);
    if (!p.ok()) ADD_FAILURE() << p.error().message;
    return p.ok() ? std::move(*p) : Puzzle{};
}

size_t bufferNamed(const Puzzle& p, const std::string& name) {
    for (size_t b = 0; b < p.buffers.size(); ++b)
        if (p.buffers[b].name == name) return b;
    ADD_FAILURE() << "no buffer " << name;
    return 0;
}

CaseOutcome passing(size_t index) {
    CaseOutcome c;
    c.index = index;
    c.pass = c.outputsMatch = true;
    return c;
}

// A case whose output `result` has `wrong` of its `cells` cells wrong.
CaseOutcome wrongValues(const Puzzle& p, size_t index, uint64_t wrong, uint64_t cells) {
    CaseOutcome c;
    c.index = index;
    BufferOutcome out;
    out.buffer = bufferNamed(p, "result");
    out.expected.shape = Shape{{cells}};
    out.comparison.pass = false;
    out.comparison.mismatchCount = wrong;
    c.outputs.push_back(out);
    return c;
}

CheckReport done(std::vector<CaseOutcome> cases) {
    CheckReport r;
    r.reached = StageKind::Done;
    r.cases = std::move(cases);
    return r;
}

CaseListFacts factsOf(const Puzzle& p, const CheckReport* r) {
    CaseListFacts f;
    f.puzzle = &p;
    f.report = r;
    f.current = true;
    f.hiddenText = kHidden;
    return f;
}

std::shared_ptr<const TraceAnalysis> analysisWith(Finding f) {
    auto a = std::make_shared<TraceAnalysis>();
    a->findings.push_back(std::move(f));
    return a;
}

TEST(CaseListTest, BadgesHaveAMarkAndATone) {
    EXPECT_STREQ(badgeIcon(BadgeKind::Pass), "\xE2\x9C\x93");
    EXPECT_STREQ(badgeIcon(BadgeKind::Fail), "\xE2\x9C\x97");
    EXPECT_STREQ(badgeIcon(BadgeKind::Inconclusive), "?");
    EXPECT_STREQ(badgeIcon(BadgeKind::Unchecked), "\xE2\x80\xA2");
    EXPECT_STREQ(badgeIcon(BadgeKind::NotRun), "\xE2\x80\x93");
    EXPECT_STREQ(badgeIcon(BadgeKind::Waiting), "\xE2\x80\xA6");
    EXPECT_EQ(badgeTone(BadgeKind::Pass), Tone::Pass);
    EXPECT_EQ(badgeTone(BadgeKind::Fail), Tone::Fail);
    EXPECT_EQ(badgeTone(BadgeKind::Inconclusive), Tone::Warn);
    EXPECT_EQ(badgeTone(BadgeKind::Unchecked), Tone::Warn);
    EXPECT_EQ(badgeTone(BadgeKind::NotRun), Tone::Dim);
    EXPECT_EQ(badgeTone(BadgeKind::Waiting), Tone::Dim);
}

TEST(CaseListTest, WithoutAPuzzleThereIsNoList) {
    CaseListFacts f;
    CaseList list = caseList(f);
    EXPECT_TRUE(list.rows.empty());
    EXPECT_TRUE(list.info.empty());
}

TEST(CaseListTest, NothingCheckedYetWaits) {
    Puzzle p = load("puzzles/01-map");
    CaseList list = caseList(factsOf(p, nullptr));
    ASSERT_EQ(list.rows.size(), p.cases.size());
    EXPECT_EQ(list.rows[0].badge.kind, BadgeKind::Waiting);
    EXPECT_EQ(list.rows[0].badge.text, "not checked yet");
    EXPECT_EQ(list.rows[0].title, "Case 1: " + p.cases[0].name);
    EXPECT_TRUE(list.info.empty()) << "no count before a check";
    EXPECT_TRUE(list.next.empty());
    EXPECT_TRUE(list.beside.empty());
}

TEST(CaseListTest, AKernelThatRanNoCaseSaysWhy) {
    Puzzle p = load("puzzles/01-map");
    CheckReport r; // reached Compile: it did not compile
    EXPECT_EQ(caseBadge(factsOf(p, &r), 0).text, "not run: the kernel does not compile");
    r.error = Error{ErrorKind::Device, "no float64", {}, 0};
    EXPECT_EQ(caseBadge(factsOf(p, &r), 0).text,
              "not run: the device lacks what the kernel enables");
    CheckReport diagnosed = done({});
    diagnosed.diagnostics.push_back(Diagnostic{}); // an error
    CaseBadge b = caseBadge(factsOf(p, &diagnosed), 0);
    EXPECT_EQ(b.kind, BadgeKind::NotRun);
    EXPECT_EQ(b.text, "not run: see the messages under the editor");
    CheckReport stopped = done({});
    stopped.error = Error{ErrorKind::Device, "the device was lost", {}, 0};
    CaseList list = caseList(factsOf(p, &stopped));
    EXPECT_EQ(list.rows[0].badge.text, "not run: the device was lost");
    EXPECT_EQ(list.error, "the device was lost") << "said under the list when no case ran";
}

TEST(CaseListTest, ACheckUnderWayCountsTheCasesDecided) {
    Puzzle p = load("puzzles/01-map");
    CheckReport r = done({passing(0)});
    r.reached = StageKind::Run;
    CaseListFacts f = factsOf(p, &r);
    f.checking = true;
    CaseList list = caseList(f);
    EXPECT_EQ(list.info, "1 of " + std::to_string(p.cases.size()) + " checked");
    EXPECT_EQ(list.infoTone, Tone::Dim);
    EXPECT_EQ(list.rows[0].badge.kind, BadgeKind::Pass);
    EXPECT_EQ(list.rows[1].badge.kind, BadgeKind::Waiting);
    EXPECT_EQ(list.rows[1].badge.text, "checking\xE2\x80\xA6");
}

TEST(CaseListTest, PassingAndFailingCases) {
    Puzzle p = load("puzzles/01-map");
    CheckReport r = done({passing(0), wrongValues(p, 1, 3, 10)});
    CaseListFacts f = factsOf(p, &r);
    f.casesPassed = 1;
    CaseList list = caseList(f);
    EXPECT_EQ(list.info, "1 of " + std::to_string(p.puzzleCaseCount()) + " pass");
    EXPECT_EQ(list.infoTone, Tone::Fail);
    EXPECT_EQ(list.rows[0].badge.kind, BadgeKind::Pass);
    EXPECT_EQ(list.rows[0].badge.text, "pass");
    EXPECT_EQ(list.rows[0].probe, "pass");
    EXPECT_EQ(list.rows[1].badge.kind, BadgeKind::Fail);
    EXPECT_EQ(list.rows[1].badge.text, "result: 3 of 10 cells wrong");
    EXPECT_EQ(list.rows[2].badge.kind, BadgeKind::NotRun) << "a finished check without it";
    EXPECT_EQ(list.rows[2].badge.text, "not run");
    EXPECT_TRUE(list.next.empty()) << "not solved";
    EXPECT_TRUE(list.stale.empty());
    EXPECT_TRUE(list.caseFileNote.empty());
    EXPECT_EQ(list.addCaseTip.rfind("Run your kernel on inputs you choose", 0), 0u);
}

TEST(CaseListTest, TheNextPuzzleOnceSolvedAndSettled) {
    Puzzle p = load("puzzles/01-map");
    CheckReport r = done({passing(0)});
    CaseListFacts f = factsOf(p, &r);
    f.solved = true;
    f.nextPuzzle = "2. Zip";
    CaseList list = caseList(f);
    EXPECT_EQ(list.infoTone, Tone::Pass);
    EXPECT_EQ(list.next, "Next puzzle: 2. Zip \xE2\x86\x92");
    f.besideDue = true; // a run beside may still fail it
    EXPECT_TRUE(caseList(f).next.empty());
    f.besideDue = false;
    f.nextPuzzle.clear(); // the last puzzle
    EXPECT_TRUE(caseList(f).next.empty());
    f.nextPuzzle = "2. Zip";
    f.current = false; // results of an earlier text
    list = caseList(f);
    EXPECT_TRUE(list.next.empty());
    EXPECT_EQ(list.stale, "(results of an earlier version; checking\xE2\x80\xA6)");
}

TEST(CaseListTest, AFindingNamesItsLineInTheWholeTextAndItsDispatch) {
    Puzzle p = load("puzzles/17-scan-blocks");
    Finding race;
    race.kind = FindingKind::SharedRace;
    race.line = 7;
    race.message = "threads 0 and 1 race";
    CaseOutcome c = wrongValues(p, 0, 2, 20);
    c.analysis = analysisWith(race);
    c.dispatches.push_back({"scan_tiles", 0, nullptr, nullptr});
    c.dispatches.push_back({"scan_sums", 1, nullptr, c.analysis});
    CheckReport r = done({c});
    std::vector<uint32_t> offsets(p.kernels.size(), 0);
    offsets.at(1) = 40; // the second kernel's section starts 40 lines down the whole text
    CaseListFacts f = factsOf(p, &r);
    f.lineOffsets = &offsets;
    std::string race47 =
        std::string(findingKindName(FindingKind::SharedRace)) + " on line 47 in scan_sums";
    EXPECT_EQ(caseBadge(f, 0).text, "result: 2 of 20 cells wrong; " + race47);
    r.cases[0].outputs.clear();
    r.cases[0].outputsMatch = true;
    EXPECT_EQ(caseBadge(f, 0).text, "right values, but " + race47);
}

TEST(CaseListTest, ALoopOutOfBudgetUntracedIsTheFinding) {
    Puzzle p = load("puzzles/01-map");
    CaseOutcome c;
    c.index = 0;
    Finding budget;
    budget.kind = FindingKind::LoopBudget;
    budget.line = 12;
    c.runFindings.push_back(budget);
    CheckReport r = done({c});
    EXPECT_EQ(caseBadge(factsOf(p, &r), 0).text,
              std::string(findingKindName(FindingKind::LoopBudget)) + " on line 12");
}

TEST(CaseListTest, AnInconclusiveCaseSaysWhy) {
    Puzzle p = load("puzzles/01-map");
    CaseOutcome c;
    c.index = 0;
    c.inconclusive = true;
    CheckReport r = done({c});
    CaseBadge b = caseBadge(factsOf(p, &r), 0);
    EXPECT_EQ(b.kind, BadgeKind::Inconclusive);
    EXPECT_EQ(b.text, "inconclusive: the trace did not fit");
    Finding overflow;
    overflow.kind = FindingKind::TraceOverflow;
    overflow.message = "the trace held 1000 of 5000 records";
    r.cases[0].analysis = analysisWith(overflow);
    EXPECT_EQ(caseBadge(factsOf(p, &r), 0).text,
              "inconclusive: the trace held 1000 of 5000 records");
}

TEST(CaseListTest, ARunWithoutExpectedValuesIsUnchecked) {
    Puzzle p = load("puzzles/01-map");
    CaseOutcome c = passing(0);
    c.outputs.push_back(BufferOutcome{});
    c.outputs.back().checked = false;
    CheckReport r = done({c});
    CaseBadge b = caseBadge(factsOf(p, &r), 0);
    EXPECT_EQ(b.kind, BadgeKind::Unchecked);
    EXPECT_EQ(b.text,
              "ran; no expected output to check (this puzzle writes its expected values by hand)");
}

TEST(CaseListTest, ACaseThatCouldNotRunFailsWithItsError) {
    Puzzle p = load("puzzles/01-map");
    CaseOutcome c;
    c.index = 0;
    c.error = Error{ErrorKind::Device, "the case ran past its 2 s", {}, 0};
    CheckReport r = done({c});
    CaseBadge b = caseBadge(factsOf(p, &r), 0);
    EXPECT_EQ(b.kind, BadgeKind::Fail);
    EXPECT_EQ(b.text, "the case ran past its 2 s");
}

TEST(CaseListTest, AHiddenCaseShowsNoData) {
    Puzzle p = load("tests/data/hidden/01-shift");
    ASSERT_GE(p.cases.size(), 3u);
    ASSERT_TRUE(p.cases[2].hidden);
    CaseOutcome c = wrongValues(p, 2, 400, 419);
    c.hidden = true;
    CheckReport r = done({c});
    CaseListFacts f = factsOf(p, &r);
    f.selectedCase = 2;
    CaseList list = caseList(f);
    const CaseRow& row = list.rows[2];
    EXPECT_TRUE(row.hidden);
    EXPECT_EQ(row.title, "Case 3 (hidden)") << "not its name";
    EXPECT_EQ(row.launch, kHidden);
    EXPECT_EQ(row.shortLaunch, kHidden);
    EXPECT_TRUE(row.constants.empty());
    EXPECT_EQ(row.badge.text, "result: wrong values") << "no counts: they hint at its size";
    EXPECT_EQ(row.tooltipLaunch.rfind("Your teacher hid this case's data", 0), 0u);
    for (const std::string& text : {row.launch, row.tooltipLaunch, row.badge.text})
        EXPECT_EQ(text.find("419"), std::string::npos) << text;
    EXPECT_TRUE(list.addCaseBlocked) << "an own case never starts from a hidden one";
    EXPECT_EQ(list.addCaseFrom, 2u);
    EXPECT_EQ(list.addCaseTip.rfind("The selected case is hidden by your teacher", 0), 0u);
    f.selectedCase = 0;
    EXPECT_FALSE(caseList(f).addCaseBlocked);
}

TEST(CaseListTest, LaunchesWithConstantsHaveAShortForm) {
    Puzzle p = load("tests/data/hidden/01-shift");
    CaseRow row = caseRow(factsOf(p, nullptr), 0); // 8 elements: (4) x (2), COUNT = 8
    EXPECT_EQ(row.constants, "COUNT = 8");
    EXPECT_EQ(row.launch, "(4) \xC3\x97 (2) = 8 threads, COUNT = 8");
    EXPECT_EQ(row.shortLaunch, "(4) \xC3\x97 (2), COUNT = 8");
    EXPECT_EQ(row.tooltipLaunch, "workgroup size (4), workgroups (2)");
    Puzzle map = load("puzzles/01-map");
    CaseRow plain = caseRow(factsOf(map, nullptr), 0);
    EXPECT_TRUE(plain.constants.empty());
    EXPECT_EQ(plain.launch, launchText(map.cases[0]));
    EXPECT_EQ(plain.shortLaunch, plain.launch) << "nothing to shorten without constants";
}

TEST(CaseListTest, AMultiPassCaseListsItsDispatches) {
    Puzzle p = load("puzzles/17-scan-blocks");
    ASSERT_TRUE(p.multiPass());
    CaseRow row = caseRow(factsOf(p, nullptr), 0);
    std::string launch = caseLaunchText(p, 0, kHidden);
    EXPECT_EQ(launch.rfind("(4) \xC3\x97 (", 0), 0u) << launch;
    EXPECT_NE(launch.find(" in 3 dispatches"), std::string::npos) << launch;
    EXPECT_EQ(row.launch, launch + ", " + row.constants);
    EXPECT_EQ(row.shortLaunch, row.launch) << "a multi-pass launch has no thread count to drop";
    EXPECT_EQ(row.tooltipLaunch, "workgroup size (4); " + launch);
}

TEST(CaseListTest, AFailingCaseSaysWhyAndAPassingOneItsSchedule) {
    Puzzle p = load("puzzles/01-map");
    CaseOutcome wrong = wrongValues(p, 0, 1, 6);
    wrong.notes = {"Each tile was scanned on its own."};
    wrong.scheduleTexts = {"forced schedule: the 2nd workgroup to get there waited."};
    CaseOutcome right = passing(1);
    right.scheduleTexts = {"forced schedule: the 1st workgroup to get there waited."};
    CheckReport r = done({wrong, right});
    CaseList list = caseList(factsOf(p, &r));
    EXPECT_EQ(list.rows[0].why, "why: Each tile was scanned on its own. forced schedule: the 2nd "
                                "workgroup to get there waited.");
    EXPECT_TRUE(list.rows[0].schedules.empty()) << "the why has them";
    EXPECT_TRUE(list.rows[1].why.empty());
    EXPECT_EQ(list.rows[1].schedules, right.scheduleTexts);
    EXPECT_TRUE(list.rows[2].why.empty());
    EXPECT_TRUE(list.rows[2].schedules.empty()) << "not run";
}

TEST(CaseListTest, ALearnersOwnCaseIsMarkedAndRemovable) {
    Puzzle p = load("puzzles/01-map");
    TestCase own = p.cases[0];
    own.own = true;
    own.name = "Your case 1 (from case 1)";
    p.cases.push_back(own);
    size_t ownIndex = p.cases.size() - 1;
    CheckReport r = done({passing(ownIndex)});
    CaseRow row = caseRow(factsOf(p, &r), ownIndex);
    EXPECT_TRUE(row.own);
    EXPECT_EQ(row.title, "Case " + std::to_string(ownIndex + 1) + ": Your case 1 (from case 1)");
    EXPECT_EQ(row.probe, "own: pass");
    EXPECT_EQ(ownCaseRemoval(p, static_cast<int>(ownIndex)), "Remove Your case 1");
    EXPECT_FALSE(ownCaseRemoval(p, 0)) << "a case of the puzzle file";
    EXPECT_FALSE(ownCaseRemoval(p, -1));
    EXPECT_FALSE(ownCaseRemoval(p, static_cast<int>(p.cases.size())));
}

TEST(CaseListTest, ACaseFileHoldsOneCase) {
    Puzzle p = load("puzzles/01-map");
    CheckReport r = done({wrongValues(p, 1, 6, 10)});
    CaseListFacts f = factsOf(p, &r);
    f.caseFileCase = 1;
    CaseList list = caseList(f);
    EXPECT_EQ(list.info, "case file: case 2 only");
    EXPECT_EQ(list.rows[0].badge.kind, BadgeKind::NotRun);
    EXPECT_EQ(list.rows[0].badge.text, "not in this case file");
    EXPECT_EQ(list.rows[1].badge.kind, BadgeKind::Fail);
    EXPECT_EQ(list.caseFileNote, "A case file: the run as it was recorded; nothing runs.");
    EXPECT_TRUE(list.addCaseTip.empty()) << "nothing runs: no Add a case";
}

TEST(CaseListTest, UntracedRunsAndNoticesAreSaid) {
    Puzzle p = load("puzzles/01-map");
    CheckReport r = done({passing(0)});
    r.untraced = "the trace would not fit in memory";
    CaseListFacts f = factsOf(p, &r);
    f.notice = "the device was restarted";
    CaseList list = caseList(f);
    EXPECT_EQ(list.untraced, "Not traced: the trace would not fit in memory.");
    EXPECT_EQ(list.notice, "the device was restarted");
    EXPECT_TRUE(list.error.empty());
}

// The runs at other subgroup sizes: one passing with cases carried from a smaller size, an
// emulated one failing on a hidden case, one that could not run, and sizes still due.
TEST(CaseListTest, CarriedAndEmulatedSubgroupSizes) {
    Puzzle p = load("tests/data/hidden/01-shift");
    CheckReport r = done({passing(0)});
    SubgroupSizeRun four, sixteen, thirtyTwo;
    four.lanes = 4;
    four.error = Error{ErrorKind::Device, "no CPU device", {}, 0};
    sixteen.lanes = 16;
    sixteen.casesRun = 4;
    sixteen.carried.push_back({0, 8});
    thirtyTwo.lanes = 32;
    thirtyTwo.casesRun = 4;
    thirtyTwo.failures.push_back({2, ""}); // a hidden case keeps no detail
    thirtyTwo.failures.push_back({3, "result[0]: expected 15, got 5"});
    r.otherSizes = {four, sixteen, thirtyTwo};
    CaseListFacts f = factsOf(p, &r);
    EXPECT_FALSE(subgroupSizesRun(f)) << "not shown until the check is current and done";
    f.beside = &r;
    f.sizeWords = {{"4 lanes", ""},
                   {"16 lanes", "case 1 as with 8 lanes (a workgroup is one subgroup at both "
                                "sizes)"},
                   {"32 lanes (emulated)", ""}};
    f.sizesDue = "64 lanes (emulated)";
    f.sizeVerdict = "right with 16 lanes, wrong with 32: does the kernel assume a subgroup size?";
    std::optional<BesideRun> run = subgroupSizesRun(f);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->title, "Other subgroup sizes");
    EXPECT_EQ(run->probe, "subgroup sizes");
    ASSERT_EQ(run->lines.size(), 5u);
    EXPECT_EQ(run->lines[0].text, "4 lanes: not checked (no CPU device)");
    EXPECT_EQ(run->lines[0].tone, Tone::Warn);
    EXPECT_EQ(run->lines[1].text, "\xE2\x9C\x93 16 lanes: all 4 pass; case 1 as with 8 lanes (a "
                                  "workgroup is one subgroup at both sizes)");
    EXPECT_EQ(run->lines[1].tone, Tone::Pass);
    EXPECT_EQ(run->lines[2].text,
              "\xE2\x9C\x97 32 lanes (emulated): 2 of 4 fail; case 3: hidden by your teacher");
    EXPECT_EQ(run->lines[2].tone, Tone::Fail);
    EXPECT_EQ(run->lines[3].text, "checking with 64 lanes (emulated)\xE2\x80\xA6");
    EXPECT_EQ(run->lines[3].tone, Tone::Dim);
    EXPECT_EQ(run->lines[4].text, f.sizeVerdict);
    EXPECT_EQ(run->lines[4].tone, Tone::Fail);
    ASSERT_TRUE(run->fact);
    EXPECT_EQ(*run->fact, run->lines[0].text + "\n" + run->lines[1].text + "\n" +
                              run->lines[2].text + "\n" + f.sizeVerdict)
        << "what is still due is no fact";
    CaseList list = caseList(f);
    ASSERT_EQ(list.beside.size(), 1u);
    EXPECT_EQ(list.beside[0].title, "Other subgroup sizes");
    r.otherSizes.clear();
    f.sizeWords.clear();
    f.sizesDue.clear();
    EXPECT_FALSE(subgroupSizesRun(f)) << "no run and none due";

    // A size whose cases could not run (the worker crashed twice) is not judged, not wrong; the
    // error's message names its case.
    SubgroupSizeRun crashed;
    crashed.lanes = 16;
    crashed.casesRun = 4;
    crashed.failures.push_back({0, "case 1 the worker process running the kernel crashed", true});
    r.otherSizes = {crashed};
    f.sizeWords = {{"16 lanes", ""}};
    f.sizeVerdict.clear();
    std::optional<BesideRun> notRun = subgroupSizesRun(f);
    ASSERT_TRUE(notRun);
    ASSERT_EQ(notRun->lines.size(), 1u);
    EXPECT_EQ(notRun->lines[0].text,
              "16 lanes: 1 of 4 could not run; case 1 the worker process running the kernel "
              "crashed");
    EXPECT_EQ(notRun->lines[0].tone, Tone::Warn);
}

TEST(CaseListTest, AtomicsInReverseLaneOrder) {
    Puzzle p = load("puzzles/01-map");
    CheckReport r = done({passing(0)});
    CaseListFacts f = factsOf(p, &r);
    f.beside = &r;
    EXPECT_FALSE(atomicOrderRun(f));
    f.atomicOrderDue = true;
    std::optional<BesideRun> due = atomicOrderRun(f);
    ASSERT_TRUE(due);
    EXPECT_EQ(due->title, "Atomics in another order");
    EXPECT_EQ(due->tooltip, "A kernel with atomics is also run with every subgroup's lanes doing "
                            "each atomic last lane first: devices order them as they like. Right "
                            "in one order and wrong in another, its result depends on the order.");
    ASSERT_EQ(due->lines.size(), 1u);
    EXPECT_EQ(due->lines[0].text, "checking with atomics in reverse lane order\xE2\x80\xA6");
    EXPECT_FALSE(due->fact);
    f.atomicOrderDue = false;
    r.reversed = ReversedOrderRun{};
    r.reversed->casesRun = 8;
    std::optional<BesideRun> right = atomicOrderRun(f);
    ASSERT_TRUE(right);
    EXPECT_EQ(right->lines[0].text, "\xE2\x9C\x93 in reverse lane order: all 8 pass");
    EXPECT_EQ(right->lines[0].tone, Tone::Pass);
    EXPECT_EQ(right->fact, right->lines[0].text);
    r.reversed->failures.push_back({0, "result[1]: expected 2, got 3"});
    std::optional<BesideRun> wrong = atomicOrderRun(f);
    ASSERT_TRUE(wrong);
    ASSERT_EQ(wrong->lines.size(), 2u);
    EXPECT_EQ(wrong->lines[0].text, "\xE2\x9C\x97 in reverse lane order: 1 of 8 fail; case 1: "
                                    "result[1]: expected 2, got 3");
    EXPECT_EQ(wrong->lines[1].tone, Tone::Fail);
    EXPECT_EQ(wrong->fact, wrong->lines[0].text + "\n" + wrong->lines[1].text);
    r.reversed->error = Error{ErrorKind::Device, "the device was lost", {}, 0};
    EXPECT_EQ(atomicOrderRun(f)->lines[0].text, "not checked (the device was lost)");
}

TEST(CaseListTest, AGeneratedCaseThatFailsCanBeKept) {
    Puzzle p = load("puzzles/01-map");
    CheckReport r = done({passing(0)});
    CaseListFacts f = factsOf(p, &r);
    f.beside = &r;
    f.searchDue = true;
    EXPECT_EQ(caseSearchRun(f)->lines[0].text, "searching generated cases\xE2\x80\xA6");
    EXPECT_EQ(caseSearchRun(f)->tooltip,
              "The puzzle generates cases like one of its own at other sizes and workgroup sizes, "
              "and shrinks one that fails to a small case you can keep and step through.");
    EXPECT_FALSE(caseSearchRun(f)->fact) << "nothing for the probe while due";
    f.searchDue = false;
    r.search = CaseSearchRun{};
    r.search->casesRun = 40;
    EXPECT_EQ(caseSearchRun(f)->lines[0].text, "\xE2\x9C\x93 all 40 pass");
    EXPECT_FALSE(caseSearchRun(f)->keep);
    FoundCase found;
    found.templateCase = 6;
    found.n = 3;
    found.workgroupSize = {2, 1, 1};
    found.detail = "result[2]: expected 14, got unwritten";
    found.inputs = {{"a", "6, -3, 4"}};
    r.search->found = found;
    std::optional<BesideRun> run = caseSearchRun(f);
    ASSERT_TRUE(run);
    ASSERT_EQ(run->lines.size(), 2u);
    EXPECT_EQ(run->lines[0].text, "\xE2\x9C\x97 like case 7, N = 3, workgroup (2): result[2]: "
                                  "expected 14, got unwritten");
    EXPECT_EQ(run->lines[1].text, "a = 6, -3, 4");
    EXPECT_EQ(run->lines[1].tone, Tone::Dim);
    EXPECT_EQ(run->fact, run->lines[0].text + "\na = 6, -3, 4");
    ASSERT_TRUE(run->keep);
    EXPECT_EQ(run->keep->templateCase, 6u);
    EXPECT_EQ(run->keep->inputs, found.inputs);
    EXPECT_EQ(run->keep->workgroupSize, dimsListText(found.workgroupSize));
    r.search->found->inputs.clear(); // too large to print: nothing to keep
    EXPECT_FALSE(caseSearchRun(f)->keep);
}

} // namespace
} // namespace vkp::views
