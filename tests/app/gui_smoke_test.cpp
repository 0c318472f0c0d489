// The desktop app end to end under Xvfb: it starts on a puzzle, runs the checks, and saves a
// screenshot read back from its swapchain; the PNG must show the real app (right size, not blank,
// the panels drawn, the verdict's colours). CI has no display: xvfb-run provides one, and a
// machine without xvfb-run fails this test rather than skipping it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>

#include "png_pixels.h"
#include "support/cli_run.h"
#include "support/test_env.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using Outcome = test::CliRun;

Outcome shell(const std::string& cmd) {
    return test::runCommand(cmd + " 2>&1");
}

std::string binary() {
    return test::binaryPath();
}

// The app with these arguments under xvfb-run, with the app's own exit status: xvfb-run returns
// its own when its cleanup fails ("problem while cleaning up temporary directory", seen once on a
// loaded CI machine after the app had exited as expected).
Outcome underXvfb(const std::string& env, const std::string& args) {
    Outcome r = shell(env +
                      "xvfb-run -a -s '-screen 0 1600x1000x24' sh -c '\"$0\" \"$@\"; echo "
                      "\"[app exit $?]\"' " +
                      binary() + " " + args);
    size_t at = r.out.rfind("[app exit ");
    if (at != std::string::npos) r.exit = std::atoi(r.out.c_str() + at + 10);
    return r;
}

using namespace test; // Png, loadPng, countNear, runStarts, the theme colours

class GuiSmokeTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(shell("command -v xvfb-run").exit, 0)
            << "xvfb-run is missing: install the xvfb and xauth packages (./build.sh does)";
        m_dir = fs::temp_directory_path() / ("vkp-gui-" + std::to_string(getpid()));
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    Outcome app(const std::string& args, const std::string& view = "") {
        std::string env = "XDG_DATA_HOME=" + (m_dir / "data").string() +
                          " VKPUZZLES_EXPORT_DIR=" + (m_dir / "exports").string() + " ";
        if (!view.empty()) env += "VKPUZZLES_VIEW='" + view + "' ";
        return underXvfb(env, args);
    }
    fs::path m_dir;
};

TEST_F(GuiSmokeTest, ScreenshotOfAPuzzleShowsTheRealApp) {
    std::string shot = (m_dir / "map.png").string();
    Outcome r = app("--screenshot " + shot + " --puzzle map --theme dark");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png png = loadPng(shot);
    ASSERT_EQ(png.width, 1280) << r.out;
    ASSERT_EQ(png.height, 800);
    std::set<uint32_t> colours(png.pixels.begin(), png.pixels.end());
    EXPECT_GT(colours.size(), 300u) << "text and panels make many colours; a blank frame has one";
    // Every part of the window has something drawn in it (3 rows x 4 columns of tiles).
    int busyTiles = 0;
    for (int ty = 0; ty < 3; ++ty)
        for (int tx = 0; tx < 4; ++tx) {
            std::set<uint32_t> tile;
            for (int y = ty * png.height / 3; y < (ty + 1) * png.height / 3; y += 2)
                for (int x = tx * png.width / 4; x < (tx + 1) * png.width / 4; x += 2)
                    tile.insert(png.at(x, y));
            busyTiles += tile.size() >= 20;
        }
    EXPECT_GE(busyTiles, 10) << "most of the window is drawn on";
    // Title strips of several panels (browser, editor, test cases, buffers, threads).
    EXPECT_GE(runStarts(png, kDarkHeader, 150).size(), 5u);
    // The starter kernel fails: the verdict's red is there, and the check ran (status and cases).
    EXPECT_GT(countNear(png, kDarkFail), 200u);
}

TEST_F(GuiSmokeTest, TheSolutionPassesAndTheLightThemeApplies) {
    std::string shot = (m_dir / "solved.png").string();
    std::string kernel = test::puzzleDir() + "/04-map-2d/solution.comp";
    Outcome r = app("--screenshot " + shot + " --puzzle map-2d --kernel " + kernel +
                    " --theme light --size 1440x900");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png png = loadPng(shot);
    ASSERT_EQ(png.width, 1440);
    ASSERT_EQ(png.height, 900);
    EXPECT_GE(runStarts(png, kLightHeader, 150).size(), 5u) << "light title strips";
    EXPECT_LT(countNear(png, kDarkHeader, 0), 100u) << "no dark theme left";
    EXPECT_GT(countNear(png, 0x16874f), 100u) << "the light theme's pass green (all cases pass)";
}

TEST_F(GuiSmokeTest, EveryTabAndALargerTextSizeRender) {
    for (const char* tab : {"hints", "solution", "device"}) {
        std::string shot = (m_dir / (std::string(tab) + ".png")).string();
        Outcome r = app(std::string("--screenshot ") + shot + " --puzzle matmul --reveal --tab " +
                        tab + " --font-scale 1.4");
        ASSERT_EQ(r.exit, 0) << tab << "\n" << r.out;
        Png png = loadPng(shot);
        EXPECT_EQ(png.width, 1280) << tab;
        EXPECT_GE(runStarts(png, kDarkHeader, 150).size(), 4u) << tab;
    }
}

// The timeline of matmul's case 5 at the end of round 2 with thread (1, 2) selected: the tiles
// the round wrote are highlighted, the current access ringed; the view is also saved as a PNG.
TEST_F(GuiSmokeTest, TheTimelineShowsARoundAndItsViewIsSavedAsPng) {
    std::string shot = (m_dir / "timeline.png").string();
    std::string kernel = test::puzzleDir() + "/14-matmul/solution.comp";
    Outcome r = app("--screenshot " + shot + " --puzzle matmul --case 5 --kernel " + kernel +
                        " --thread 1,2 --tab timeline --size 1600x1000",
                    "round=2;export=timeline");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png png = loadPng(shot);
    ASSERT_EQ(png.width, 1600) << r.out;
    EXPECT_GT(countNear(png, kDarkChanged, 6), 300u)
        << "the cells round 2 wrote (the tiles) are highlighted";
    EXPECT_GT(countNear(png, kDarkStep, 12), 20u) << "the current access is ringed";
    EXPECT_GT(countNear(png, kDarkAccent, 12), 100u) << "the selected thread";
    fs::path exported = m_dir / "exports" / "matmul-timeline.png";
    ASSERT_TRUE(fs::exists(exported)) << r.out;
    EXPECT_NE(r.out.find("matmul-timeline.png"), std::string::npos) << "the path is printed";
    Png view = loadPng(exported.string());
    EXPECT_GT(view.width, 300);
    EXPECT_LT(view.width, 1000) << "the panel, not the window";
    EXPECT_GT(view.height, 200);
    EXPECT_GT(countNear(view, kDarkChanged, 6), 300u) << "the export holds the timeline";
}

TEST_F(GuiSmokeTest, AWatchedLineGivesATableAndTheGridCanBeSaved) {
    std::string shot = (m_dir / "watches.png").string();
    std::string kernel = test::puzzleDir() + "/14-matmul/solution.comp";
    Outcome r = app("--screenshot " + shot + " --puzzle matmul --case 5 --kernel " + kernel +
                        " --tab watches",
                    "watch=52;export=grid");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png grid = loadPng((m_dir / "exports" / "matmul-grid.png").string());
    EXPECT_GT(grid.width, 200) << r.out;
    Png png = loadPng(shot);
    std::set<uint32_t> colours(png.pixels.begin(), png.pixels.end());
    EXPECT_GT(colours.size(), 300u);
    EXPECT_GT(countNear(png, 0x82aaff, 10), 30u)
        << "the watched line's source, in the function colour";
}

// Step 3 of matmul's walkthrough: the official solution runs aside, its lines, threads and cells
// are marked in the focus colour; the learner's starter still fails (it was not replaced).
TEST_F(GuiSmokeTest, AWalkthroughStepDrivesTheViews) {
    std::string shot = (m_dir / "walkthrough.png").string();
    Outcome r = app("--screenshot " + shot + " --puzzle matmul --size 1600x1000", "walkthrough=3");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png png = loadPng(shot);
    ASSERT_EQ(png.width, 1600);
    EXPECT_GT(countNear(png, kDarkFocus, 10), 150u) << "the step's lines, threads and cells";
    EXPECT_GT(countNear(png, kDarkFail), 200u)
        << "the learner's own kernel (the starter) still fails";
}

// A multi-pass case, its kernels loaded from the solution folder: --dispatch picks the dispatch the
// views show, and the thread grid has that dispatch's workgroups (scan-blocks case 1: scan_sums
// runs one workgroup of 4 threads, add_offsets three).
TEST_F(GuiSmokeTest, PassPicksTheDispatchOfAMultiPassCase) {
    std::string kernels = test::puzzleDir() + "/17-scan-blocks/solution";
    size_t threads[2] = {0, 0};
    for (int pass : {2, 3}) {
        std::string shot = (m_dir / ("blocks" + std::to_string(pass) + ".png")).string();
        Outcome r =
            app("--screenshot " + shot + " --puzzle scan-blocks --case 1 --kernel " + kernels +
                    " --dispatch " + std::to_string(pass) + " --tab timeline --size 1600x1000",
                "export=grid");
        ASSERT_EQ(r.exit, 0) << r.out;
        Png png = loadPng(shot);
        EXPECT_GT(countNear(png, kDarkPass), 100u)
            << "the solution passes: the kernels were joined from the folder\n"
            << r.out;
        Png grid = loadPng((m_dir / "exports" / "scan-blocks-grid.png").string());
        ASSERT_GT(grid.width, 200) << r.out;
        threads[pass - 2] = countNear(grid, 0x35506e, 6); // threads of even subgroups
    }
    EXPECT_GT(threads[0], 200u) << "scan_sums' 4 threads";
    EXPECT_GT(threads[1], threads[0] * 5 / 2) << "add_offsets' 12 threads in 3 workgroups";
}

TEST_F(GuiSmokeTest, BadPassValuesAreUsageErrors) {
    for (const char* args : {"--dispatch 0", "--dispatch x"}) {
        Outcome r = shell("env -u DISPLAY " + binary() + " --puzzle scan-blocks " + args);
        EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
        EXPECT_NE(r.out.find("--dispatch needs"), std::string::npos) << args << "\n" << r.out;
    }
    Outcome single =
        app("--screenshot " + (m_dir / "x.png").string() + " --puzzle map --dispatch 2");
    EXPECT_EQ(single.exit, 2) << single.out;
    EXPECT_NE(
        single.out.find("--dispatch is for multi-pass puzzles; map runs one dispatch per case"),
        std::string::npos)
        << single.out;
    Outcome past = app("--screenshot " + (m_dir / "x.png").string() +
                       " --puzzle scan-blocks --case 1 --dispatch 4");
    EXPECT_EQ(past.exit, 2) << past.out;
    EXPECT_NE(past.out.find("case 1 of scan-blocks runs 3 dispatches (--dispatch 1 to 3)"),
              std::string::npos)
        << past.out;
    EXPECT_FALSE(fs::exists(m_dir / "x.png"));
}

TEST_F(GuiSmokeTest, BadViewScriptsAreUsageErrors) {
    for (const char* view : {"round=x", "watch=0", "export=everything", "colour=red"}) {
        Outcome r = shell(std::string("env -u DISPLAY VKPUZZLES_VIEW='") + view + "' " + binary());
        EXPECT_EQ(r.exit, 2) << view << "\n" << r.out;
        EXPECT_NE(r.out.find("VKPUZZLES_VIEW"), std::string::npos) << view << "\n" << r.out;
    }
    Outcome r = shell("env -u DISPLAY " + binary() + " --thread 1,x");
    EXPECT_EQ(r.exit, 2) << r.out;
}

TEST_F(GuiSmokeTest, NoDisplayIsAOneLineExplanation) {
    Outcome r = shell("env -u DISPLAY -u WAYLAND_DISPLAY " + binary());
    EXPECT_EQ(r.exit, 2);
    EXPECT_NE(r.out.find("no display"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("vkpuzzles --help"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

// No Vulkan driver at all (the loader finds no ICD): the app says so, and does not suggest the
// command line, which needs a driver too.
TEST_F(GuiSmokeTest, NoVulkanDriverIsNamedAsSuch) {
    Outcome r = app("--frames 2 --puzzle map", "");
    ASSERT_EQ(r.exit, 0) << r.out; // the same command with a driver opens the app
    Outcome none = underXvfb("VK_DRIVER_FILES=/nonexistent/icd.json "
                             "VK_ICD_FILENAMES=/nonexistent/icd.json XDG_DATA_HOME=" +
                                 (m_dir / "data").string() + " ",
                             "--frames 2 --puzzle map");
    EXPECT_EQ(none.exit, 2) << none.out;
    EXPECT_NE(none.out.find("no Vulkan driver is installed (install your GPU's driver, or install "
                            "mesa-vulkan-drivers"),
              std::string::npos)
        << none.out;
    EXPECT_EQ(none.out.find("command line works"), std::string::npos) << none.out;
}

TEST_F(GuiSmokeTest, BadAppOptionsAreUsageErrors) {
    for (const char* args :
         {"--size 10x10", "--theme pink", "--font-scale 9", "--tab nope", "--hover x"}) {
        Outcome r = shell("env -u DISPLAY " + binary() + " " + args);
        EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
        EXPECT_NE(r.out.find("--help"), std::string::npos) << args;
    }
}

TEST_F(GuiSmokeTest, FrameStatsAreReported) {
    Outcome r = app("--puzzle matmul --frames 60 --frame-stats");
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_NE(r.out.find("median"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("worst"), std::string::npos) << r.out;
}

} // namespace
} // namespace vkp
