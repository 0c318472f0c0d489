// Case files from the command line: `export` writes one case of a traced check (by default the
// first that fails) and `open --print` shows it as `trace` showed the run, on a machine that needs
// neither the puzzle's pack nor a device; a damaged file, a kernel file or a hidden case is refused
// with a message that says what and where.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

namespace fs = std::filesystem;
using test::has;
using test::vkpuzzles;

class CaseFileCli : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() /
                ("vkp-case-file-cli-" + std::to_string(getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    std::string path(const std::string& name) const { return (m_dir / name).string(); }
    // Everything after the first line (which says what ran, and where).
    static std::string body(const std::string& text) { return text.substr(text.find('\n') + 1); }
    fs::path m_dir;
};

TEST_F(CaseFileCli, OpenPrintsWhatTraceShowedOfTheRun) {
    std::string file = path("race.vkpcase");
    auto exported =
        vkpuzzles("--color never export missing-barrier --starter --case 1 --out " + file);
    ASSERT_EQ(exported.exit, 0) << exported.out;
    EXPECT_TRUE(has(exported.out, "wrote " + file)) << exported.out;
    EXPECT_TRUE(has(exported.out, "vkpuzzles open " + file)) << exported.out;
    auto traced = vkpuzzles("--color never trace missing-barrier --starter --case 1");
    auto opened = vkpuzzles("--color never open " + file + " --print");
    EXPECT_EQ(opened.exit, traced.exit) << "the verdict's exit status";
    EXPECT_EQ(body(opened.out), body(traced.out));
    EXPECT_TRUE(has(opened.out.substr(0, opened.out.find('\n')), "case file " + file))
        << opened.out;
    EXPECT_TRUE(has(opened.out, "race")) << "the starter's race is in the file:\n" << opened.out;

    auto json = vkpuzzles("open " + file + " --json", false);
    auto j = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << json.out;
    EXPECT_TRUE(j.contains("trace"));
    EXPECT_FALSE(j["device"].get<std::string>().empty());
}

TEST_F(CaseFileCli, ByDefaultTheFirstFailingCaseUnderAFreeName) {
    for (int run = 0; run < 2; ++run) {
        auto r = test::runCommand("cd " + m_dir.string() + " && " + test::binaryPath() +
                                  " --color never export shared --starter 2>&1");
        ASSERT_EQ(r.exit, 0) << r.out;
    }
    EXPECT_TRUE(fs::exists(m_dir / "shared-case1.vkpcase"));
    EXPECT_TRUE(fs::exists(m_dir / "shared-case1-2.vkpcase")) << "the first one is kept";
    auto solved = test::runCommand("cd " + m_dir.string() + " && " + test::binaryPath() +
                                   " --color never export shared --solution 2>&1");
    ASSERT_EQ(solved.exit, 0) << solved.out;
    EXPECT_TRUE(has(solved.out, "case 1, pass")) << "nothing fails: the first case\n" << solved.out;
}

TEST_F(CaseFileCli, APacksPuzzleTravelsInTheFile) {
    std::string pack = test::sourceDir() + "/tests/data/hidden";
    std::string file = path("pack.vkpcase");
    auto exported = vkpuzzles("--color never --puzzles " + pack + " export hidden-shift " + pack +
                              "/kernels/wrong-values.comp --out " + file);
    ASSERT_EQ(exported.exit, 0) << exported.out;
    auto opened = vkpuzzles("--color never open " + file + " --print");
    EXPECT_TRUE(has(opened.out, "Shift")) << "opened without the pack:\n" << opened.out;
    EXPECT_TRUE(has(opened.out, "outputs wrong")) << opened.out;
    auto hidden = vkpuzzles("--color never --puzzles " + pack + " export hidden-shift " + pack +
                            "/kernels/wrong-values.comp --case 3 --out " + path("h.vkpcase"));
    EXPECT_EQ(hidden.exit, 2) << hidden.out;
    EXPECT_TRUE(has(hidden.out, "hidden")) << hidden.out;
    EXPECT_FALSE(fs::exists(path("h.vkpcase")));
}

TEST_F(CaseFileCli, ADamagedFileOrAnotherKindOfFileIsRefused) {
    std::string file = path("whole.vkpcase");
    ASSERT_EQ(vkpuzzles("export map --starter --out " + file).exit, 0);
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(path("cut.vkpcase"), std::ios::binary) << bytes.substr(0, bytes.size() - 100);
    auto cut = vkpuzzles("open " + path("cut.vkpcase") + " --print");
    EXPECT_NE(cut.exit, 0);
    EXPECT_TRUE(has(cut.out, "cut.vkpcase is damaged: it was cut short")) << cut.out;
    auto kernel = vkpuzzles("open " + test::sourceDir() + "/puzzles/01-map/starter.comp --print");
    EXPECT_NE(kernel.exit, 0);
    EXPECT_TRUE(has(kernel.out, "starter.comp is not a vkpuzzles case file")) << kernel.out;
    auto none = vkpuzzles("open --print");
    EXPECT_EQ(none.exit, 2);
    EXPECT_TRUE(has(none.out, "open needs a case file")) << none.out;
    // The app refuses it the same way, before any window opens.
    auto app = test::runCommand("DISPLAY= WAYLAND_DISPLAY= " + test::binaryPath() + " open " +
                                path("cut.vkpcase") + " 2>&1");
    EXPECT_NE(app.exit, 0);
    EXPECT_TRUE(has(app.out, "cut.vkpcase is damaged")) << app.out;
}

} // namespace
} // namespace vkp
