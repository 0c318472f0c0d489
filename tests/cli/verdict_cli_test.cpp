// Verdicts that tell the truth, end to end: a case whose trace overflowed is re-run with a trace
// large enough, so what came after its first 1024 records is judged; one whose trace cannot fit
// at all is inconclusive, never a pass; a subgroup exchange is no race. Real lavapipe, real worker.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;
using test::vkpuzzlesStdout;

std::string traced(const std::string& name) {
    return test::sourceDir() + "/tests/data/traced/" + name;
}

TEST(CliVerdictTest, WhatComesAfterAFullTraceIsStillJudged) {
    CliRun r =
        vkpuzzles("check map " + traced("map-reads-thrice-after-loop.comp") + " --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "read limit: thread")) << r.out;
    EXPECT_TRUE(has(r.out, "makes 3 global reads; the puzzle allows 1 per thread")) << r.out;
    EXPECT_FALSE(has(r.out, "did not fit")) << r.out; // the re-run held every record
}

TEST(CliVerdictTest, ATraceThatCannotFitIsInconclusiveAndSaysWhatToDo) {
    CliRun r =
        vkpuzzles("check map " + traced("map-trace-too-long.comp") + " --case 1 --color never");
    EXPECT_EQ(r.exit, 1) << r.out;
    EXPECT_TRUE(has(r.out, "INCONCLUSIVE")) << r.out;
    EXPECT_TRUE(has(r.out, "the trace of case 1 did not fit (2860003 records per thread needed, "))
        << r.out;
    EXPECT_TRUE(has(r.out, "--no-trace")) << r.out;
    EXPECT_TRUE(has(r.out, "0 of 1 case")) << r.out;
    CliRun json =
        vkpuzzlesStdout("check map " + traced("map-trace-too-long.comp") + " --case 1 --json");
    auto doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc["pass"], false);
    const auto& c = doc["cases"][0];
    EXPECT_EQ(c["pass"], false);
    EXPECT_EQ(c["inconclusive"], true);
    EXPECT_EQ(c["outputs_match"], true);
    bool why = false;
    for (const auto& f : c["findings"])
        why |= f["kind"] == "trace incomplete" && f["fails_case"] == true;
    EXPECT_TRUE(why) << json.out;
    // Untraced, the outputs alone are checked: they are right.
    CliRun plain = vkpuzzles("check map " + traced("map-trace-too-long.comp") +
                             " --case 1 --no-trace --color never");
    EXPECT_EQ(plain.exit, 0) << plain.out;
}

TEST(CliVerdictTest, ASubgroupExchangeIsNoRaceButAcrossSubgroupsItIs) {
    CliRun within =
        vkpuzzles("check guards " + traced("guards-subgroup-exchange.comp") + " --color never");
    EXPECT_EQ(within.exit, 0) << within.out;
    EXPECT_FALSE(has(within.out, "race:")) << within.out;
    CliRun across = vkpuzzles("check guards " + traced("guards-subgroup-exchange-across.comp") +
                              " --color never");
    EXPECT_EQ(across.exit, 1) << across.out;
    EXPECT_TRUE(has(across.out, "race: swap[")) << across.out;
}

} // namespace
} // namespace vkp
