// A teacher's authoring from the command line (issue 22): `vkpuzzles new` writes a puzzle that
// loads, whose solution passes and whose starter fails, in both layouts; a pack puzzle written
// with `each` and a new reference op checks end to end on the real device, through the worker.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;

// A fresh empty folder, removed at the end of the test.
class TempPack : public ::testing::Test {
  protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "vkp-authoring-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        m_dir = pattern;
    }
    void TearDown() override { fs::remove_all(m_dir); }
    std::string pack() const { return "'" + m_dir.string() + "'"; }
    fs::path m_dir;
};

class NewPuzzle : public TempPack, public ::testing::WithParamInterface<bool> {};

TEST_P(NewPuzzle, LoadsItsSolutionPassesAndItsStarterFails) {
    bool multiPass = GetParam();
    CliRun made =
        vkpuzzles("new reverse-double --dir " + pack() + (multiPass ? " --multi-pass" : ""));
    ASSERT_EQ(made.exit, 0) << made.out;
    EXPECT_TRUE(has(made.out, "Wrote " + (m_dir / "01-reverse-double").string())) << made.out;
    EXPECT_TRUE(has(made.out, "check reverse-double --solution")) << made.out;
    fs::path folder = m_dir / "01-reverse-double";
    EXPECT_TRUE(fs::exists(folder / "puzzle.toml"));
    EXPECT_EQ(fs::exists(folder / "solution" / "scale.comp"), multiPass);
    EXPECT_EQ(fs::exists(folder / "solution.comp"), !multiPass);

    CliRun solution =
        vkpuzzles("--puzzles " + pack() + " check reverse-double --solution --color never");
    EXPECT_EQ(solution.exit, 0) << solution.out;
    EXPECT_TRUE(has(solution.out, "4/4 cases pass") || has(solution.out, "4 of 4")) << solution.out;
    CliRun starter =
        vkpuzzles("--puzzles " + pack() + " check reverse-double --starter --color never");
    EXPECT_EQ(starter.exit, 1) << starter.out;

    // A second puzzle takes the next number.
    CliRun second = vkpuzzles("new another-one --dir " + pack());
    EXPECT_EQ(second.exit, 0) << second.out;
    EXPECT_TRUE(fs::exists(m_dir / "02-another-one" / "starter.comp"));
}

INSTANTIATE_TEST_SUITE_P(BothLayouts, NewPuzzle, ::testing::Values(false, true),
                         [](const auto& info) {
                             return info.param ? "MultiPass" : "SingleKernel";
                         });

TEST_F(TempPack, NewRefusesAnExistingPuzzleAndABadSlug) {
    ASSERT_EQ(vkpuzzles("new reverse-double --dir " + pack()).exit, 0);
    fs::path toml = m_dir / "01-reverse-double" / "puzzle.toml";
    auto before = fs::last_write_time(toml);
    CliRun again = vkpuzzles("new reverse-double --dir " + pack());
    EXPECT_EQ(again.exit, 2) << again.out;
    EXPECT_TRUE(has(again.out, "01-reverse-double' already exists")) << again.out;
    EXPECT_TRUE(has(again.out, "nothing was written")) << again.out;
    EXPECT_EQ(fs::last_write_time(toml), before);
    EXPECT_FALSE(fs::exists(m_dir / "02-reverse-double"));
    for (const char* slug : {"Reverse", "rev_double", "re v", "9lives", "a/b", "x-"}) {
        CliRun bad = vkpuzzles(std::string("new '") + slug + "' --dir " + pack());
        EXPECT_EQ(bad.exit, 2) << slug << ": " << bad.out;
        EXPECT_TRUE(has(bad.out, "is not a slug: use lower-case letters, digits and '-'"))
            << slug << ": " << bad.out;
    }
    CliRun noDir = vkpuzzles("new fine --dir " + pack() + "/missing");
    EXPECT_EQ(noDir.exit, 2) << noDir.out;
    EXPECT_TRUE(has(noDir.out, "is not a folder")) << noDir.out;
    CliRun noSlug = vkpuzzles("new --dir " + pack());
    EXPECT_EQ(noSlug.exit, 2) << noSlug.out;
    EXPECT_TRUE(has(noSlug.out, "give one slug")) << noSlug.out;
}

std::string authoringPack() {
    return "'" + test::sourceDir() + "/tests/data/authoring'";
}

TEST(AuthoringPack, EachAndHistogramCheckEndToEnd) {
    CliRun solution =
        vkpuzzles("--puzzles " + authoringPack() + " check histogram --solution --color never");
    EXPECT_EQ(solution.exit, 0) << solution.out;
    CliRun starter =
        vkpuzzles("--puzzles " + authoringPack() + " check histogram --starter --color never");
    EXPECT_EQ(starter.exit, 1) << starter.out;
    CliRun shown = vkpuzzles("--puzzles " + authoringPack() + " show histogram --color never");
    EXPECT_EQ(shown.exit, 0) << shown.out;
    EXPECT_TRUE(has(shown.out, "[10] each = (i * 7 + 3) % 8")) << shown.out;
    EXPECT_TRUE(has(shown.out, "histogram(a, bins = 8)")) << shown.out;
}

} // namespace
} // namespace vkp
