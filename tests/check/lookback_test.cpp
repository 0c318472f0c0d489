// The look-back model (views/lookback.h) on real traces, made by a real check on the test device
// (lavapipe on CI): scan-decoupled's official solution on the statement's example and under the
// forced schedule that holds tile 1 back (its successors take the fallback), and two wrong
// kernels of tests/data/schedule under that schedule: a fallback that sums the wrong tile, and a
// look-back that waits without a bound until the loop budget stops it.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "check/check.h"
#include "puzzle/kernel_sections.h"
#include "support/engines.h"
#include "views/lookback.h"

namespace vkp::views {
namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Traced {
    CheckReport report;
    LookbackModel model;
    const CaseOutcome& outcome() const { return report.cases.front(); }
};

// One traced case (0-based) of scan-decoupled with `path`'s kernel (empty: the official one).
Traced traced(size_t caseIndex, std::string path = "") {
    const Puzzle& p = test::puzzleNamed("scan-decoupled");
    if (path.empty()) path = p.solutionPath;
    CheckOptions o;
    o.trace = true;
    o.onlyCase = caseIndex;
    Traced t{
        checkKernel(test::engines().compiler, *test::engines().gpu, p, readFile(path), path, o),
        {}};
    EXPECT_EQ(t.report.cases.size(), 1u) << (t.report.error ? t.report.error->message : "");
    if (t.report.cases.size() == 1 && t.outcome().trace)
        t.model = lookbackModel(p, p.cases[caseIndex], *t.outcome().trace);
    return t;
}

std::string problems(const LookbackModel& m) {
    std::string s;
    for (const LookbackTile& t : m.tiles)
        for (const std::string& p : t.problems)
            s += "tile " + std::to_string(t.tile) + ": " + p + "\n";
    return s;
}

std::string text(const LookbackModel& m) {
    std::string s;
    for (const std::string& l : lookbackText(m))
        s += l + "\n";
    return s;
}

// The ticket a workgroup's thread 0 took, read straight from the trace: the value its atomic on
// `counter` found.
std::optional<uint32_t> ticketInTrace(const Trace& t, uint64_t group) {
    uint64_t first = group * t.launch.invocationsPerGroup();
    for (const TraceEvent& e : t.threads[first])
        if (e.kind == TraceEventKind::Atomic && t.variables[e.variable].decl.name == "counter")
            return e.value;
    return std::nullopt;
}

TEST(LookbackTest, TheOfficialSolutionOnTheStatementsExample) {
    ASSERT_TRUE(test::engines().gpu);
    Traced t = traced(0); // a = 0..19, tiles of 8: sums 28, 92, 70
    ASSERT_TRUE(t.outcome().pass);
    const LookbackModel& m = t.model;
    ASSERT_TRUE(m.ok()) << m.unavailable;
    ASSERT_EQ(m.tiles.size(), 3u);
    EXPECT_EQ(problems(m), "");
    for (const LookbackTile& tile : m.tiles) {
        ASSERT_TRUE(tile.workgroup) << tile.tile;
        EXPECT_EQ(ticketInTrace(*t.outcome().trace, *tile.workgroup), tile.tile);
        if (tile.tile > 0) EXPECT_GT(tile.ticketColumn, m.tiles[tile.tile - 1].ticketColumn);
    }
    const uint32_t aggregates[] = {28, 92, 70}, prefixes[] = {28, 120, 190};
    for (uint32_t k = 0; k < 3; ++k) {
        const LookbackPublish* prefix = m.lastPublish(k, 0, LookbackFlag::Prefix);
        ASSERT_TRUE(prefix) << k;
        EXPECT_EQ(prefix->word.value, prefixes[k]);
        EXPECT_EQ(prefix->workgroup, *m.tiles[k].workgroup);
        if (k == 0) continue;
        const LookbackPublish* aggregate = m.lastPublish(k, 0, LookbackFlag::Aggregate);
        ASSERT_TRUE(aggregate) << k;
        EXPECT_EQ(aggregate->word.value, aggregates[k]);
        EXPECT_LT(aggregate->column, prefix->column);
        // Its walk ended at a PREFIX and took no fallback: nothing here was slow enough.
        ASSERT_FALSE(m.tiles[k].polls.empty()) << k;
        const LookbackPoll& last = m.polls[m.tiles[k].polls.back()];
        EXPECT_TRUE(last.prefixAt) << k;
        EXPECT_LT(last.column, prefix->column);
        for (size_t i : m.tiles[k].polls)
            EXPECT_FALSE(m.polls[i].fallback) << k;
    }
    std::string s = text(m);
    EXPECT_NE(s.find("published AGGREGATE 92 = 1073741916"), std::string::npos) << s;
    EXPECT_NE(s.find("published PREFIX 190 = 2147483838"), std::string::npos) << s;
}

TEST(LookbackTest, TheForcedScheduleShowsTheFallback) {
    ASSERT_TRUE(test::engines().gpu);
    Traced t = traced(2); // 8 tiles of 128; the workgroup of tile 1 held before it publishes
    ASSERT_TRUE(t.outcome().pass);
    ASSERT_EQ(t.outcome().schedules.size(), 1u);
    ASSERT_TRUE(t.outcome().schedules[0].forced()) << t.outcome().scheduleTexts[0];
    const LookbackModel& m = t.model;
    ASSERT_EQ(m.tiles.size(), 8u);
    EXPECT_EQ(problems(m), "") << "the official solution's sums are right under the schedule";
    // Tile 2 waited on tile 1 for MAX_SPINS = 256 polls, then fell back.
    uint32_t waited = 0;
    bool fellBack = false;
    for (size_t i : m.tiles[2].polls) {
        const LookbackPoll& p = m.polls[i];
        if (p.waitedOn == 1u) waited += p.count;
        fellBack = fellBack || (p.fallback && p.waitedOn == 1u);
    }
    EXPECT_EQ(waited, 256u) << text(m);
    EXPECT_TRUE(fellBack) << text(m);
    // Every read that found tile 1 not ready came before its first write, and the time axis says
    // so: tile 1's AGGREGATE comes after all of them.
    const LookbackPublish* aggregate = m.lastPublish(1, 0, LookbackFlag::Aggregate);
    ASSERT_TRUE(aggregate);
    for (const LookbackPoll& p : m.polls)
        for (const auto& [tile, w] : p.seen)
            if (tile == 1 && w.flag == LookbackFlag::NotReady)
                EXPECT_LT(p.column, aggregate->column);
    EXPECT_NE(text(m).find("gives up on tile 1 and sums it itself (fallback)"), std::string::npos);
}

std::string wrongKernel(const std::string& name) {
    return test::sourceDir() + "/tests/data/schedule/" + name;
}

// The fallback sums tile 0 where tile 1 was silent: tile 2's PREFIX has tile 0 twice and tile 1
// not at all, and the model names both.
TEST(LookbackTest, AFallbackThatSumsTheWrongTileIsNamed) {
    ASSERT_TRUE(test::engines().gpu);
    Traced t = traced(2, wrongKernel("schedule-fallback-off-by-one-tile.comp"));
    ASSERT_FALSE(t.outcome().pass);
    const LookbackModel& m = t.model;
    ASSERT_TRUE(m.ok()) << m.unavailable;
    std::string p = problems(m);
    EXPECT_NE(p.find("tile 2: published PREFIX 1703, but the aggregates of tiles 0 to 2 add up to "
                     "1694: as if tile 0's 567 were added in place of tile 1's 558"),
              std::string::npos)
        << p;
    // The tiles after it built on its PREFIX: they carry its error, and are not told apart as
    // errors of their own.
    for (uint32_t k = 3; k < 8; ++k) {
        EXPECT_TRUE(m.tiles[k].problems.empty()) << k << ": " << m.tiles[k].problems.front();
        EXPECT_EQ(m.tiles[k].carriesFrom, 2u) << k;
    }
}

// A look-back without a bound waits on the held tile until the loop budget stops it: the model
// says so, whatever the trace's slots could keep of its polls.
TEST(LookbackTest, AWaitWithoutEndIsStoppedByTheLoopBudget) {
    ASSERT_TRUE(test::engines().gpu);
    Traced t = traced(2, wrongKernel("schedule-unbounded-spin.comp"));
    ASSERT_FALSE(t.outcome().pass);
    const LookbackModel& m = t.model;
    ASSERT_TRUE(m.ok()) << m.unavailable;
    ASSERT_GE(m.tiles.size(), 3u);
    std::string p = problems(m);
    EXPECT_NE(p.find("tile 2: its look-back was stopped by the loop budget, waiting on tile 1"),
              std::string::npos)
        << p;
    for (size_t i : m.tiles[2].polls)
        EXPECT_FALSE(m.polls[i].fallback) << "stopped, not given up";
}

// The same model on another puzzle's declaration: radix-sort-onesweep publishes one word per digit
// of each tile (16 with 4-bit digits), and round r's words come after the earlier rounds' in
// `status`. Its histogram dispatch does not use `status` at all.
TEST(LookbackTest, ARadixSortsWordPerDigitInEveryRound) {
    ASSERT_TRUE(test::engines().gpu);
    const Puzzle& p = test::puzzleNamed("radix-sort-onesweep");
    auto sources = readKernelSources(p, true);
    ASSERT_TRUE(sources) << sources.error().message;
    CheckOptions o;
    o.trace = true;
    o.onlyCase = 1; // 40 keys, 4-bit digits: 3 tiles of 16, 8 rounds
    CheckReport r = checkProgram(test::engines().compiler, *test::engines().gpu, p, *sources, o);
    ASSERT_EQ(r.cases.size(), 1u) << (r.error ? r.error->message : "");
    const CaseOutcome& c = r.cases[0];
    ASSERT_TRUE(c.pass);
    ASSERT_GE(c.dispatches.size(), 3u);
    EXPECT_FALSE(lookbackModel(p, p.cases[1], *c.dispatches[0].trace).ok()) << "the histogram";
    for (size_t d : {size_t(1), size_t(2), c.dispatches.size() - 1}) {
        LookbackModel m = lookbackModel(p, p.cases[1], *c.dispatches[d].trace);
        ASSERT_TRUE(m.ok()) << c.dispatches[d].label << ": " << m.unavailable;
        EXPECT_EQ(m.wordsPerTile, 16u);
        ASSERT_EQ(m.tiles.size(), 3u) << c.dispatches[d].label << "\n" << text(m);
        EXPECT_EQ(problems(m), "") << c.dispatches[d].label;
        for (const LookbackTile& t : m.tiles) {
            ASSERT_TRUE(t.workgroup) << c.dispatches[d].label << ", tile " << t.tile;
            EXPECT_EQ(ticketInTrace(*c.dispatches[d].trace, *t.workgroup), t.tile);
            for (uint32_t digit = 0; digit < 16; ++digit)
                EXPECT_TRUE(m.lastPublish(t.tile, digit, LookbackFlag::Prefix))
                    << c.dispatches[d].label << ", tile " << t.tile << ", digit " << digit;
        }
        // The last tile looked back on every digit's word.
        std::set<uint32_t> slots;
        for (size_t i : m.tiles[2].polls)
            slots.insert(m.polls[i].slot);
        EXPECT_EQ(slots.size(), 16u) << c.dispatches[d].label;
    }
}

} // namespace
} // namespace vkp::views
