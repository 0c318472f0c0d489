// Whole-array and whole-vector copies judged end to end (real lavapipe, real worker): a copy of
// shared cells nobody wrote, and a copy racing with a write, fail with a finding on the copy's
// line even when the outputs are right; the same copies made after barriers pass.
#include <gtest/gtest.h>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;

std::string traced(const std::string& name) {
    return test::sourceDir() + "/tests/data/traced/" + name;
}

TEST(CliCompositeTest, CopyingNeverWrittenCellsFailsThoughTheOutputIsRight) {
    CliRun r =
        vkpuzzles("check block-sum " + traced("composite-block-sum-copies-unwritten-cells.comp") +
                  " --case 1 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "the outputs are right, but what the threads did is not")) << r.out;
    EXPECT_TRUE(has(r.out, "uninitialised read: thread 0 reads cache[8] (line 22) in barrier "
                           "round 1, but no thread wrote that cell before (and 7 more like it)"))
        << r.out;
}

TEST(CliCompositeTest, AWholeCopyRacingWithAWriteIsARaceOnTheCopysLine) {
    CliRun r = vkpuzzles("check block-sum " + traced("composite-block-sum-copy-then-write.comp") +
                         " --case 3 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "race: cache[")) << r.out;
    EXPECT_TRUE(has(r.out, "(line 29) while thread")) << r.out;
    EXPECT_TRUE(has(r.out, "reads it (line 23)")) << r.out;
    EXPECT_FALSE(has(r.out, "uninitialised read")) << r.out; // a workgroup of 16 writes every cell
}

// The kernel's cache holds 16 cells: every case of block-sum but the benchmark's (workgroups of
// 256), each checked alone.
TEST(CliCompositeTest, WholeCopiesAfterBarriersPass) {
    for (int c = 1; c <= 7; ++c) {
        CliRun r = vkpuzzles("check block-sum " + traced("composite-block-sum-whole-copies.comp") +
                             " --case " + std::to_string(c) + " --color never");
        EXPECT_EQ(r.exit, 0) << r.out;
        EXPECT_TRUE(has(r.out, "  case " + std::to_string(c) + "  ")) << r.out;
        EXPECT_TRUE(has(r.out, "1 of 1 case pass")) << r.out;
        EXPECT_FALSE(has(r.out, "race:")) << r.out;
        EXPECT_FALSE(has(r.out, "uninitialised read")) << r.out;
    }
}

} // namespace
} // namespace vkp
