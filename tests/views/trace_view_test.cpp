// What a trace says about one thread or one buffer cell: invocation numbers, cells touched, the
// threads findings name, an event as text.
#include <gtest/gtest.h>

#include <set>

#include "views/thread_map.h"
#include "views/trace_view.h"

namespace vkp::views {
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
        {ev(TraceEventKind::Read, 0, 0, 3, 14), ev(TraceEventKind::Write, 1, 0, 3, 14),
         ev(TraceEventKind::Write, 2, 0, 13, 16)},
        {ev(TraceEventKind::Read, 0, 1, 4, 14), ev(TraceEventKind::Read, 0, 0, 3, 15),
         ev(TraceEventKind::Write, 2, 1, 17, 16)},
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
} // namespace vkp::views
