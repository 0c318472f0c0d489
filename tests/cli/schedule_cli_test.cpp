// Forced schedules end to end (real worker, lavapipe): the case's text and --json say which
// workgroup was held and how the hold ended; a kernel that waits forever on the held workgroup
// fails; --no-schedule turns the holds off.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;
using test::vkpuzzlesStdout;

std::string mutant(const std::string& name) {
    return test::sourceDir() + "/tests/data/schedule/" + name;
}

TEST(CliScheduleTest, TheCaseSaysWhichWorkgroupWasHeld) {
    CliRun r = vkpuzzles("check scan-decoupled --solution --case 5 --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    // The schedule picks the workgroup by the element it writes (index = 1), so where it came in
    // the order of arrival depends on the machine: the text names its place and its id.
    EXPECT_TRUE(std::regex_search(r.out, std::regex("forced schedule: the [0-9]+(st|nd|rd|th) "
                                                    "workgroup to get there, workgroup \\([0-9]+, "
                                                    "0, 0\\)")))
        << r.out;
    EXPECT_TRUE(has(r.out, "whose first write was status[1], was held before its first write to "
                           "'status'"))
        << r.out;
}

TEST(CliScheduleTest, JsonGivesTheScheduleOfEachCase) {
    CliRun r = vkpuzzlesStdout("check scan-decoupled --solution --json");
    ASSERT_EQ(r.exit, 0) << r.out;
    auto j = nlohmann::json::parse(r.out);
    const auto& cases = j["cases"];
    ASSERT_EQ(cases.size(), 9u) << r.out;
    EXPECT_TRUE(cases[0]["schedules"].empty());
    EXPECT_TRUE(cases[6]["schedules"].empty());
    for (size_t i : {2u, 3u, 4u, 5u, 7u, 8u}) {
        const auto& s = cases[i]["schedules"];
        ASSERT_EQ(s.size(), 1u) << cases[i].dump();
        EXPECT_NE(s[0]["outcome"], "not_reached") << s[0].dump();
        EXPECT_EQ(s[0]["index"], 1) << s[0].dump();
        EXPECT_EQ(s[0]["hold"], i == 2 || i == 4 || i == 7 || i == 8 ? "before_first_write"
                                                                     : "after_first_write");
    }
}

TEST(CliScheduleTest, AnEndlessWaitOnTheHeldWorkgroupFails) {
    CliRun r = vkpuzzles("check scan-decoupled " + mutant("schedule-unbounded-spin.comp") +
                         " --case 5 --color never");
    EXPECT_TRUE(has(r.out, "forced schedule: ")) << r.out;
    // Caught on every run: however long the hold lasted, the other workgroups kept reading the
    // held tile's status as it was before its first write (the text says how many reads).
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "from then on the other workgroups read status[1] as it was before"))
        << r.out;
    // When the loop budget stops the waiting thread while the workgroup is still held, the
    // finding quotes the statement's rule.
    if (has(r.out, "endless loop?: "))
        EXPECT_TRUE(has(r.out, "The rule: Waiting forever is not allowed.")) << r.out;
}

TEST(CliScheduleTest, NoScheduleTurnsTheHoldsOff) {
    CliRun r = vkpuzzles("check scan-decoupled --solution --case 5 --no-schedule --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_FALSE(has(r.out, "forced schedule")) << r.out;
}

} // namespace
} // namespace vkp
