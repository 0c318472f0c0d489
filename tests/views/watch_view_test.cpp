// What the Watches view shows of a watch table: its rows, columns, summary and tooltips, the line
// and array on show, and why a table is empty.
#include <gtest/gtest.h>

#include "support/trace_builder.h"
#include "views/watches.h"

namespace vkp::views {
namespace {

using test::TraceBuilder;

// Two workgroups of 2 threads; every thread reads a[i] on line 5, thread i i + 1 times.
TraceBuilder fourThreads() {
    TraceBuilder b({2, 1, 1}, {2, 1, 1});
    uint32_t a = b.buffer("a", 4);
    for (uint32_t t = 0; t < 4; ++t)
        for (uint32_t k = 0; k <= t; ++k) {
            b.read(t, a, t, 5, 10 + t);
            b.read(t, a, 0, 6, 10); // another line between: a new execution
        }
    return b;
}

TEST(WatchViewTest, TheRowsOfTheSelectedWorkgroup) {
    TraceBuilder b = fourThreads();
    WatchTable table = buildWatchTable(b.t, 5);
    ASSERT_EQ(table.rows.size(), 4u);
    EXPECT_EQ(watchRowsShown(table, b.t, std::nullopt, false), (std::vector<size_t>{0, 1, 2, 3}));
    EXPECT_EQ(watchRowsShown(table, b.t, 3, false), (std::vector<size_t>{0, 1, 2, 3}));
    EXPECT_EQ(watchRowsShown(table, b.t, 3, true), (std::vector<size_t>{2, 3}));
    EXPECT_EQ(watchRowsShown(table, b.t, std::nullopt, true), (std::vector<size_t>{0, 1, 2, 3}))
        << "no thread selected: every row";
}

TEST(WatchViewTest, ColumnsSummaryAndTooltips) {
    TraceBuilder b = fourThreads();
    WatchTable table = buildWatchTable(b.t, 5);
    EXPECT_EQ(table.maxExecutions, 4u);
    EXPECT_EQ(watchSummary(table), "4 threads ran it, up to 4 times each (10 accesses)");
    EXPECT_EQ(watchColumns(table, 63), 4u);
    EXPECT_EQ(watchColumnsNote(table, 63), "");
    EXPECT_EQ(watchColumns(table, 3), 3u);
    EXPECT_EQ(watchColumnsNote(table, 3), "the first 3 of 4 executions are shown");
    EXPECT_EQ(watchColumnTitle(0), "1st");
    EXPECT_EQ(watchColumnTitle(1), "2nd");
    EXPECT_EQ(watchColumnTitle(2), "3rd");
    EXPECT_EQ(watchColumnTitle(10), "11th");
    EXPECT_EQ(watchColumnTitle(21), "22nd");
    TestCase launch;
    launch.workgroupSize = {2, 1, 1};
    launch.workgroups = {2, 1, 1};
    EXPECT_EQ(watchCellTooltip(b.t, launch, table.rows[3], 2, 5),
              "thread (3), 3rd time on line 5:\na[3]=13");
    TraceBuilder one({1, 1, 1});
    one.read(0, one.buffer("a", 1), 0, 9);
    EXPECT_EQ(watchSummary(buildWatchTable(one.t, 9)), "1 thread ran it, once each (1 access)");
}

TEST(WatchViewTest, TheLineAndArrayOnShow) {
    EXPECT_EQ(watchedLineShown({}, 5), 5u) << "none watched";
    EXPECT_EQ(watchedLineShown({3, 7}, 7), 7u);
    EXPECT_EQ(watchedLineShown({3, 7}, 5), 3u) << "no longer watched: the first";
    TraceBuilder b({1, 1, 1});
    uint32_t tile = b.shared("tile", {2});
    b.buffer("a", 2);
    EXPECT_EQ(watchVariableName(b.t, -1), "every array");
    EXPECT_EQ(watchVariableName(b.t, static_cast<int>(tile)), "tile");
    EXPECT_EQ(watchVariableName(b.t, 99), "every array");
}

TEST(WatchViewTest, AnEmptyTableSaysWhereToLook) {
    Puzzle p;
    p.kernels.resize(2);
    p.kernels[0].name = "scan_tiles";
    p.kernels[1].name = "scan_sums";
    std::vector<DispatchEntry> entries(2);
    entries[0].label = "scan_tiles";
    entries[1].label = "scan_sums";
    entries[1].kernel = 1;
    std::vector<uint32_t> offsets{0, 40}; // scan_sums' section starts 40 lines down
    WatchEmpty other = watchEmptyNote(p, offsets, 45, entries, &entries[0]);
    EXPECT_EQ(other.text, "Line 45 is in the kernel scan_sums; the dispatch on show runs "
                          "scan_tiles. Pick a dispatch of scan_sums above (Alt+PgUp / "
                          "Alt+PgDn).");
    EXPECT_EQ(other.dispatch, 1u);
    EXPECT_EQ(other.button, "Show dispatch 2 of 2 \xC2\xB7 scan_sums");
    WatchEmpty here = watchEmptyNote(p, offsets, 12, entries, &entries[0]);
    EXPECT_EQ(here.text, "No thread made a memory access on line 12 in this dispatch (a line of "
                         "arithmetic on local variables is not traced; watch the line that reads "
                         "or writes the array).");
    EXPECT_FALSE(here.dispatch);
    Puzzle single;
    EXPECT_NE(watchEmptyNote(single, {}, 12, {}, nullptr).text.find("on line 12 in this case"),
              std::string::npos);
}

} // namespace
} // namespace vkp::views
