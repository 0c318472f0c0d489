// Headless models behind the panels: the solution diff, thread ids and cell links, statement
// blocks, the browser's search.
#include <gtest/gtest.h>

#include "core/puzzle_loader.h"
#include "support/test_env.h"
#include "ui/browser_panel.h"
#include "ui/line_diff.h"
#include "ui/statement_panel.h"
#include "ui/thread_map.h"
#include "ui/trace_view.h"

#include <set>

namespace vkp::ui {
namespace {

TEST(LineDiffTest, ShowsWhatDiffersLineByLine) {
    auto d = diffLines("a\nb\nc\n", "a\nB\nc\nd\n");
    ASSERT_EQ(d.size(), 5u);
    EXPECT_EQ(d[0].kind, DiffKind::Same);
    EXPECT_EQ(d[1].kind, DiffKind::Removed);
    EXPECT_EQ(d[1].text, "b");
    EXPECT_EQ(d[2].kind, DiffKind::Added);
    EXPECT_EQ(d[2].text, "B");
    EXPECT_EQ(d[3].kind, DiffKind::Same);
    EXPECT_EQ(d[4].kind, DiffKind::Added);
    DiffStats s = diffStats(d);
    EXPECT_EQ(s.added, 2);
    EXPECT_EQ(s.removed, 1);
}

TEST(LineDiffTest, TrailingBlanksAreNotChanges) {
    auto d = diffLines("x;   \ny;\n", "x;\ny;\n");
    EXPECT_EQ(diffStats(d).added + diffStats(d).removed, 0);
}

TEST(LineDiffTest, EmptySides) {
    EXPECT_EQ(diffStats(diffLines("", "a\nb\n")).added, 2);
    EXPECT_EQ(diffStats(diffLines("a\n", "")).removed, 1);
    EXPECT_TRUE(diffLines("", "").empty());
}

TestCase launch(std::array<uint32_t, 3> size, std::array<uint32_t, 3> groups) {
    TestCase c;
    c.workgroupSize = size;
    c.workgroups = groups;
    return c;
}

TEST(ThreadMapTest, IdsOfAThreadIn2D) {
    TestCase c = launch({4, 2, 1}, {3, 2, 1});
    ThreadIds t = threadIds(c, {5, 3, 0}, 4);
    EXPECT_EQ(t.local, (Uvec3{1, 1, 0}));
    EXPECT_EQ(t.workgroup, (Uvec3{1, 1, 0}));
    EXPECT_EQ(t.localIndex, 5u);
    EXPECT_EQ(t.subgroup, 1u);
    EXPECT_EQ(t.lane, 1u);
    EXPECT_EQ(launchSize(c), (Uvec3{12, 4, 1}));
}

TEST(ThreadMapTest, CellsAndThreadsLinkByIndex) {
    TestCase c = launch({4, 4, 1}, {1, 1, 1});
    Shape matrix{{3, 3}};
    EXPECT_EQ(cellOfThread(matrix, {2, 1, 0}), 5u);   // row 1, column 2
    EXPECT_EQ(cellOfThread(matrix, {3, 0, 0}), std::nullopt); // a spare thread
    EXPECT_EQ(threadOfCell(matrix, 5, c), (Uvec3{2, 1, 0}));
    Shape vec{{6}};
    EXPECT_EQ(cellOfThread(vec, {4, 0, 0}), 4u);
    EXPECT_EQ(cellOfThread(vec, {4, 1, 0}), std::nullopt);
    TestCase small = launch({4, 1, 1}, {1, 1, 1});
    EXPECT_EQ(threadOfCell(vec, 5, small), std::nullopt) << "no thread reaches cell 5 of 6";
}

// Issue 18: Block sum drew the threads that write result[1..3] as grey "spare".
TEST(ThreadMapTest, SpareThreadsHaveNoElementOfAnyBuffer) {
    PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    auto find = [&](const std::string& slug) -> const Puzzle& {
        for (const Puzzle& p : set.puzzles)
            if (p.slug == slug) return p;
        throw std::runtime_error("no puzzle " + slug);
    };
    const Puzzle& blockSum = find("block-sum");
    const TestCase& c = blockSum.cases.at(2); // 3 workgroups of 16 threads, 40 elements
    ASSERT_EQ(c.workgroups[0] * c.workgroupSize[0], 48u);
    for (uint32_t w : {0u, 16u, 32u}) EXPECT_FALSE(isSpareThread(c, {w, 0, 0})) << "thread " << w << " writes result[" << w / 16 << "]";
    EXPECT_FALSE(isSpareThread(c, {39, 0, 0})) << "a[39] is its element";
    for (uint32_t t = 40; t < 48; ++t) EXPECT_TRUE(isSpareThread(c, {t, 0, 0})) << "past the 40 elements: " << t;
    const Puzzle& guards = find("guards");
    for (const TestCase& g : guards.cases) {
        uint64_t n = g.data.at(0)->shape.count(), threads = uint64_t(g.workgroups[0]) * g.workgroupSize[0];
        for (uint32_t t = 0; t < threads; ++t) EXPECT_EQ(isSpareThread(g, {t, 0, 0}), t >= n) << g.name << " thread " << t;
    }
}

TEST(StatementTest, BlocksFromTheText) {
    auto b = statementBlocks("First line\ncontinues.\n\n- a bullet\n  that wraps\n    code line\nEnd.\n");
    ASSERT_EQ(b.size(), 5u);
    EXPECT_EQ(b[0].kind, TextBlock::Kind::Paragraph);
    EXPECT_EQ(b[0].text, "First line continues.");
    EXPECT_EQ(b[1].kind, TextBlock::Kind::Blank);
    EXPECT_EQ(b[2].kind, TextBlock::Kind::Bullet);
    EXPECT_EQ(b[2].text, "a bullet that wraps");
    EXPECT_EQ(b[3].kind, TextBlock::Kind::Code);
    EXPECT_EQ(b[3].text, "code line");
    EXPECT_EQ(b[4].text, "End.");
    auto steps = statementBlocks("Task:\n1. copy\n2. add 10\n   and write\n");
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[1].label, "1.");
    EXPECT_EQ(steps[2].label, "2.");
    EXPECT_EQ(steps[2].text, "add 10 and write");
}

TEST(BrowserTest, SearchMatchesTitleSlugAndNumber) {
    PuzzleSet set = loadPuzzleSet(test::puzzleDir());
    auto p = set.find("matmul");
    ASSERT_TRUE(p.ok());
    EXPECT_TRUE(matchesSearch(**p, ""));
    EXPECT_TRUE(matchesSearch(**p, "MATRIX"));
    EXPECT_TRUE(matchesSearch(**p, "matmul"));
    EXPECT_TRUE(matchesSearch(**p, " 14 "));
    EXPECT_TRUE(matchesSearch(**p, "14-"));
    EXPECT_FALSE(matchesSearch(**p, "zip"));
    EXPECT_FALSE(matchesSearch(**p, "pooling"));
}

} // namespace
} // namespace vkp::ui

namespace vkp::ui {
namespace {

TEST(TraceViewTest, InvocationNumbersRoundTrip) {
    TestCase c;
    c.workgroupSize = {2, 3, 1};
    c.workgroups = {3, 2, 2};
    Uvec3 n = launchSize(c);
    uint64_t expected = 0;
    std::set<uint64_t> seen;
    for (uint32_t z = 0; z < n[2]; ++z)
        for (uint32_t y = 0; y < n[1]; ++y)
            for (uint32_t x = 0; x < n[0]; ++x) {
                uint64_t inv = invocationIndex(c, {x, y, z});
                EXPECT_EQ(globalIdOf(c, inv), (Uvec3{x, y, z}));
                seen.insert(inv);
                ++expected;
            }
    EXPECT_EQ(seen.size(), expected);
    EXPECT_EQ(*seen.rbegin(), expected - 1) << "invocations are numbered 0..n-1";
}

TEST(TraceViewTest, CellsAThreadTouchedAndThreadsThatTouchedACell) {
    Trace t;
    TraceVariableInfo a, cache, result;
    a.decl.name = "a";
    a.decl.elementType = ElementKind::Float;
    a.puzzleBuffer = 0;
    cache.decl.name = "cache";
    cache.decl.shared = true;
    result.decl.name = "result";
    result.decl.elementType = ElementKind::Float;
    result.puzzleBuffer = 1;
    t.variables = {a, cache, result};
    auto ev = [](TraceEventKind k, uint32_t var, uint32_t index, float value, uint32_t line) {
        TraceEvent e;
        e.kind = k;
        e.variable = var;
        e.index = index;
        e.value = toWord(ElementKind::Float, value);
        e.line = line;
        return e;
    };
    t.threads = {
        {ev(TraceEventKind::Read, 0, 0, 3, 14), ev(TraceEventKind::Write, 1, 0, 3, 14), ev(TraceEventKind::Write, 2, 0, 13, 16)},
        {ev(TraceEventKind::Read, 0, 1, 4, 14), ev(TraceEventKind::Read, 0, 0, 3, 15), ev(TraceEventKind::Write, 2, 1, 17, 16)},
    };
    auto cells = cellsAccessed(t, 1);
    ASSERT_EQ(cells.size(), 3u) << "shared memory is not a buffer cell";
    EXPECT_EQ(cells[0].buffer, 0);
    EXPECT_EQ(cells[0].index, 1u);
    EXPECT_TRUE(cells[0].read);
    EXPECT_FALSE(cells[0].written);
    EXPECT_TRUE(cells[2].written);
    auto readers = threadsAccessing(t, 0, 0);
    ASSERT_EQ(readers.size(), 2u);
    EXPECT_EQ(readers[0].first, 0u);
    EXPECT_EQ(readers[1].first, 1u);
    EXPECT_EQ(threadsAccessing(t, 1, 1).size(), 1u);
    EXPECT_EQ(eventText(t, t.threads[0][2]), "line 16  write  result[0] = 13");
    EXPECT_EQ(eventText(t, t.threads[0][0]), "line 14  read   a[0] = 3");
}

TEST(TraceViewTest, ThreadsNamedByFailingFindings) {
    TraceAnalysis a;
    a.findings.push_back({FindingKind::SharedRace, "race", 16, {6, 7}});
    Finding warning{FindingKind::TraceOverflow, "partial", 0, {9}};
    warning.failsCase = false;
    a.findings.push_back(warning);
    EXPECT_EQ(threadsInFindings(a), (std::set<uint64_t>{6, 7}));
}

} // namespace
} // namespace vkp::ui
