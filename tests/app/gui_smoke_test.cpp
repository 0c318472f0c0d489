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

#include <stb_image.h>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using Outcome = test::CliRun;

Outcome shell(const std::string& cmd) { return test::runCommand(cmd + " 2>&1"); }

std::string binary() { return test::binaryPath(); }

struct Png {
    int width = 0, height = 0;
    std::vector<uint32_t> pixels; // 0xRRGGBB

    uint32_t at(int x, int y) const { return pixels[size_t(y) * width + x]; }
};

Png load(const std::string& path) {
    Png png;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &png.width, &png.height, &channels, 3);
    if (!data) return png;
    png.pixels.resize(size_t(png.width) * png.height);
    for (size_t i = 0; i < png.pixels.size(); ++i)
        png.pixels[i] = (uint32_t(data[3 * i]) << 16) | (uint32_t(data[3 * i + 1]) << 8) | data[3 * i + 2];
    stbi_image_free(data);
    return png;
}

// Pixels within a small distance of `colour` (text is anti-aliased).
size_t count(const Png& png, uint32_t colour, int tolerance = 24) {
    auto channel = [](uint32_t c, int shift) { return int((c >> shift) & 0xff); };
    size_t n = 0;
    for (uint32_t p : png.pixels) {
        int d = std::abs(channel(p, 16) - channel(colour, 16)) + std::abs(channel(p, 8) - channel(colour, 8)) + std::abs(channel(p, 0) - channel(colour, 0));
        n += d <= tolerance;
    }
    return n;
}

// Left edges of horizontal runs of `colour` at least `minRun` pixels long, over all rows: one per
// panel title strip.
std::set<int> runStarts(const Png& png, uint32_t colour, int minRun) {
    std::set<int> starts;
    for (int y = 0; y < png.height; ++y) {
        int run = 0;
        for (int x = 0; x <= png.width; ++x) {
            if (x < png.width && png.at(x, y) == colour) {
                ++run;
                continue;
            }
            if (run >= minRun) starts.insert((x - run) / 8); // 8-pixel buckets: the same strip on many rows
            run = 0;
        }
    }
    return starts;
}

class GuiSmokeTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_EQ(shell("command -v xvfb-run").exit, 0) << "xvfb-run is missing: install the xvfb and xauth packages (./build.sh does)";
        m_dir = fs::temp_directory_path() / ("vkp-gui-" + std::to_string(getpid()));
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    Outcome app(const std::string& args, const std::string& view = "") {
        std::string env = "XDG_DATA_HOME=" + (m_dir / "data").string() + " VKPUZZLES_EXPORT_DIR=" + (m_dir / "exports").string() + " ";
        if (!view.empty()) env += "VKPUZZLES_VIEW='" + view + "' ";
        return shell(env + "xvfb-run -a -s '-screen 0 1600x1000x24' " + binary() + " " + args);
    }
    fs::path m_dir;
};

constexpr uint32_t kDarkHeader = 0x2b2d33, kDarkFail = 0xf2555a, kDarkPass = 0x4cc38a, kLightHeader = 0xe4e6eb;

TEST_F(GuiSmokeTest, ScreenshotOfAPuzzleShowsTheRealApp) {
    std::string shot = (m_dir / "map.png").string();
    Outcome r = app("--screenshot " + shot + " --puzzle map --theme dark");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png png = load(shot);
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
                for (int x = tx * png.width / 4; x < (tx + 1) * png.width / 4; x += 2) tile.insert(png.at(x, y));
            busyTiles += tile.size() >= 20;
        }
    EXPECT_GE(busyTiles, 10) << "most of the window is drawn on";
    // Title strips of several panels (browser, editor, test cases, buffers, threads).
    EXPECT_GE(runStarts(png, kDarkHeader, 150).size(), 5u);
    // The starter kernel fails: the verdict's red is there, and the check ran (status and cases).
    EXPECT_GT(count(png, kDarkFail), 200u);
}

TEST_F(GuiSmokeTest, TheSolutionPassesAndTheLightThemeApplies) {
    std::string shot = (m_dir / "solved.png").string();
    std::string kernel = test::puzzleDir() + "/04-map-2d/solution.comp";
    Outcome r = app("--screenshot " + shot + " --puzzle map-2d --kernel " + kernel + " --theme light --size 1440x900");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png png = load(shot);
    ASSERT_EQ(png.width, 1440);
    ASSERT_EQ(png.height, 900);
    EXPECT_GE(runStarts(png, kLightHeader, 150).size(), 5u) << "light title strips";
    EXPECT_LT(count(png, kDarkHeader, 0), 100u) << "no dark theme left";
    EXPECT_GT(count(png, 0x16874f), 100u) << "the light theme's pass green (all cases pass)";
}

TEST_F(GuiSmokeTest, EveryTabAndALargerTextSizeRender) {
    for (const char* tab : {"hints", "solution", "device"}) {
        std::string shot = (m_dir / (std::string(tab) + ".png")).string();
        Outcome r = app(std::string("--screenshot ") + shot + " --puzzle matmul --reveal --tab " + tab + " --font-scale 1.4");
        ASSERT_EQ(r.exit, 0) << tab << "\n" << r.out;
        Png png = load(shot);
        EXPECT_EQ(png.width, 1280) << tab;
        EXPECT_GE(runStarts(png, kDarkHeader, 150).size(), 4u) << tab;
    }
}

constexpr uint32_t kDarkChanged = 0x6b5414, kDarkStep = 0xffe08a, kDarkFocus = 0xff8ad8, kDarkAccent = 0x5aa2ff;

// The timeline of matmul's case 5 at the end of round 2 with thread (1, 2) selected: the tiles
// the round wrote are highlighted, the current access ringed; the view is also saved as a PNG.
TEST_F(GuiSmokeTest, TheTimelineShowsARoundAndItsViewIsSavedAsPng) {
    std::string shot = (m_dir / "timeline.png").string();
    std::string kernel = test::puzzleDir() + "/14-matmul/solution.comp";
    Outcome r = app("--screenshot " + shot + " --puzzle matmul --case 5 --kernel " + kernel + " --thread 1,2 --tab timeline --size 1600x1000",
                    "round=2;export=timeline");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png png = load(shot);
    ASSERT_EQ(png.width, 1600) << r.out;
    EXPECT_GT(count(png, kDarkChanged, 6), 300u) << "the cells round 2 wrote (the tiles) are highlighted";
    EXPECT_GT(count(png, kDarkStep, 12), 20u) << "the current access is ringed";
    EXPECT_GT(count(png, kDarkAccent, 12), 100u) << "the selected thread";
    fs::path exported = m_dir / "exports" / "matmul-timeline.png";
    ASSERT_TRUE(fs::exists(exported)) << r.out;
    EXPECT_NE(r.out.find("matmul-timeline.png"), std::string::npos) << "the path is printed";
    Png view = load(exported.string());
    EXPECT_GT(view.width, 300);
    EXPECT_LT(view.width, 1000) << "the panel, not the window";
    EXPECT_GT(view.height, 200);
    EXPECT_GT(count(view, kDarkChanged, 6), 300u) << "the export holds the timeline";
}

TEST_F(GuiSmokeTest, AWatchedLineGivesATableAndTheGridCanBeSaved) {
    std::string shot = (m_dir / "watches.png").string();
    std::string kernel = test::puzzleDir() + "/14-matmul/solution.comp";
    Outcome r = app("--screenshot " + shot + " --puzzle matmul --case 5 --kernel " + kernel + " --tab watches", "watch=52;export=grid");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png grid = load((m_dir / "exports" / "matmul-grid.png").string());
    EXPECT_GT(grid.width, 200) << r.out;
    Png png = load(shot);
    std::set<uint32_t> colours(png.pixels.begin(), png.pixels.end());
    EXPECT_GT(colours.size(), 300u);
    EXPECT_GT(count(png, 0x82aaff, 10), 30u) << "the watched line's source, in the function colour";
}

// Step 3 of matmul's walkthrough: the official solution runs aside, its lines, threads and cells
// are marked in the focus colour; the learner's starter still fails (it was not replaced).
TEST_F(GuiSmokeTest, AWalkthroughStepDrivesTheViews) {
    std::string shot = (m_dir / "walkthrough.png").string();
    Outcome r = app("--screenshot " + shot + " --puzzle matmul --size 1600x1000", "walkthrough=3");
    ASSERT_EQ(r.exit, 0) << r.out;
    Png png = load(shot);
    ASSERT_EQ(png.width, 1600);
    EXPECT_GT(count(png, kDarkFocus, 10), 150u) << "the step's lines, threads and cells";
    EXPECT_GT(count(png, kDarkFail), 200u) << "the learner's own kernel (the starter) still fails";
}

// A multi-pass case, its kernels loaded from the solution folder: --pass picks the dispatch the
// views show, and the thread grid has that dispatch's workgroups (scan-blocks case 1: scan_sums
// runs one workgroup of 4 threads, add_offsets three).
TEST_F(GuiSmokeTest, PassPicksTheDispatchOfAMultiPassCase) {
    std::string kernels = test::puzzleDir() + "/17-scan-blocks/solution";
    size_t threads[2] = {0, 0};
    for (int pass : {2, 3}) {
        std::string shot = (m_dir / ("blocks" + std::to_string(pass) + ".png")).string();
        Outcome r = app("--screenshot " + shot + " --puzzle scan-blocks --case 1 --kernel " + kernels + " --pass " + std::to_string(pass) +
                            " --tab timeline --size 1600x1000",
                        "export=grid");
        ASSERT_EQ(r.exit, 0) << r.out;
        Png png = load(shot);
        EXPECT_GT(count(png, kDarkPass), 100u) << "the solution passes: the kernels were joined from the folder";
        Png grid = load((m_dir / "exports" / "scan-blocks-grid.png").string());
        ASSERT_GT(grid.width, 200) << r.out;
        threads[pass - 2] = count(grid, 0x35506e, 6); // threads of even subgroups
    }
    EXPECT_GT(threads[0], 200u) << "scan_sums' 4 threads";
    EXPECT_GT(threads[1], threads[0] * 5 / 2) << "add_offsets' 12 threads in 3 workgroups";
}

TEST_F(GuiSmokeTest, BadPassValuesAreUsageErrors) {
    for (const char* args : {"--pass 0", "--pass x"}) {
        Outcome r = shell("env -u DISPLAY " + binary() + " --puzzle scan-blocks " + args);
        EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
        EXPECT_NE(r.out.find("--pass needs"), std::string::npos) << args << "\n" << r.out;
    }
    Outcome single = app("--screenshot " + (m_dir / "x.png").string() + " --puzzle map --pass 2");
    EXPECT_EQ(single.exit, 2) << single.out;
    EXPECT_NE(single.out.find("--pass is for multi-pass puzzles; map runs one dispatch per case"), std::string::npos) << single.out;
    Outcome past = app("--screenshot " + (m_dir / "x.png").string() + " --puzzle scan-blocks --case 1 --pass 4");
    EXPECT_EQ(past.exit, 2) << past.out;
    EXPECT_NE(past.out.find("case 1 of scan-blocks runs 3 dispatches (--pass 1 to 3)"), std::string::npos) << past.out;
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
    Outcome none = shell("VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json XDG_DATA_HOME=" + (m_dir / "data").string() +
                         " xvfb-run -a -s '-screen 0 1600x1000x24' " + binary() + " --frames 2 --puzzle map");
    EXPECT_EQ(none.exit, 2) << none.out;
    EXPECT_NE(none.out.find("no Vulkan driver is installed (install mesa-vulkan-drivers"), std::string::npos) << none.out;
    EXPECT_EQ(none.out.find("command line works"), std::string::npos) << none.out;
}

TEST_F(GuiSmokeTest, BadAppOptionsAreUsageErrors) {
    for (const char* args : {"--size 10x10", "--theme pink", "--font-scale 9", "--tab nope", "--hover x"}) {
        Outcome r = shell("env -u DISPLAY " + binary() + " " + args);
        EXPECT_EQ(r.exit, 2) << args << "\n" << r.out;
        EXPECT_NE(r.out.find("--help"), std::string::npos) << args;
    }
}

// A learner's session with real key presses (xdotool): type the missing line into the starter,
// the live loop checks it, the puzzle is marked solved, Ctrl+Q saves and quits.
TEST_F(GuiSmokeTest, TypingSolvesAPuzzleAndTheDraftIsSaved) {
    ASSERT_EQ(shell("command -v xdotool").exit, 0) << "xdotool is missing: install the xdotool package (./build.sh does)";
    fs::path data = m_dir / "data";
    fs::path script = m_dir / "session.sh";
    std::ofstream(script) << "set -e\n"
                         << binary() << " --puzzle map --size 1280x800 &\n"
                         << "app=$!\n"
                         << "xdotool search --sync --name 'Map' >/dev/null\n"
                         << "sleep 2\n"
                         // The editor has the keyboard: to line 10 ("// Your code here"), then a new line.
                         << "xdotool key --delay 60 ctrl+End Up Up End Return\n"
                         << "xdotool type --delay 40 'if (i < uint(a.length())) result[i] = a[i] + 10.0;'\n"
                         << "for t in $(seq 1 120); do grep -q '\"solved\": true' " << (data / "vkpuzzles/progress.json").string()
                         << " 2>/dev/null && break; sleep 0.5; done\n"
                         << "xdotool key ctrl+q\n"
                         << "wait $app\n";
    Outcome run = shell("XDG_DATA_HOME=" + data.string() + " xvfb-run -a -s '-screen 0 1600x1000x24' bash " + script.string());
    ASSERT_EQ(run.exit, 0) << run.out;
    std::ifstream progress(data / "vkpuzzles/progress.json");
    std::string p((std::istreambuf_iterator<char>(progress)), std::istreambuf_iterator<char>());
    EXPECT_NE(p.find("\"solved\": true"), std::string::npos) << p;
    std::ifstream draft(data / "vkpuzzles/drafts/01-map.json");
    std::string d((std::istreambuf_iterator<char>(draft)), std::istreambuf_iterator<char>());
    EXPECT_NE(d.find("result[i] = a[i] + 10.0;"), std::string::npos) << d;
    EXPECT_NE(d.find("    // Your code here"), std::string::npos) << "the starter's lines are kept around the typed one\n" << d;
    std::ifstream settings(data / "vkpuzzles/settings.json");
    std::string st((std::istreambuf_iterator<char>(settings)), std::istreambuf_iterator<char>());
    EXPECT_NE(st.find("\"last_puzzle\": \"01-map\""), std::string::npos) << st;
}

// Real input on the debugging views (xdotool, the default 1280x800 layout): click a thread in
// the grid, Alt+Home then Alt+Down (the timeline to the end of round 0), right-click the memory
// panel and save the view, click a line in the editor and press F9 (watched, and remembered).
TEST_F(GuiSmokeTest, MouseAndKeysDriveTheDebuggingViews) {
    ASSERT_EQ(shell("command -v xdotool").exit, 0) << "xdotool is missing: install the xdotool package (./build.sh does)";
    fs::path data = m_dir / "data", exports = m_dir / "exports";
    fs::path script = m_dir / "debug.sh";
    std::ofstream(script) << "set -e\n"
                         << binary() << " --puzzle matmul --case 5 --kernel " << test::puzzleDir() << "/14-matmul/solution.comp --size 1280x800 --tab timeline &\n"
                         << "app=$!\n"
                         << "xdotool search --sync --name 'Matrix' >/dev/null\n"
                         << "for t in $(seq 1 60); do grep -q '\"solved\": true' " << (data / "vkpuzzles/progress.json").string()
                         << " 2>/dev/null && break; sleep 0.25; done\n"
                         << "sleep 0.3\n"
                         << "xdotool mousemove 828 630 click 1\nsleep 0.3\n"
                         << "xdotool key alt+Home\nsleep 0.2\nxdotool key alt+Down\nsleep 0.3\n"
                         << "xdotool mousemove 560 700 click 3\nsleep 0.3\nxdotool mousemove 600 712 click 1\n"
                         << "for t in $(seq 1 40); do ls " << (exports / "matmul-timeline.png").string() << " >/dev/null 2>&1 && break; sleep 0.1; done\n"
                         << "xdotool mousemove 900 323 click 1\nsleep 0.2\nxdotool key F9\nsleep 0.3\n"
                         << "xdotool key ctrl+q\n"
                         << "wait $app\n";
    Outcome run = shell("XDG_DATA_HOME=" + data.string() + " VKPUZZLES_EXPORT_DIR=" + exports.string() +
                        " xvfb-run -a -s '-screen 0 1600x1000x24' bash " + script.string());
    ASSERT_EQ(run.exit, 0) << run.out;
    Png view = load((exports / "matmul-timeline.png").string());
    ASSERT_GT(view.width, 300) << "right-click > Save this view as PNG\n" << run.out;
    EXPECT_GT(count(view, kDarkChanged, 6), 300u) << "the timeline at the end of round 0: the tiles it wrote";
    EXPECT_GT(count(view, kDarkAccent, 12), 20u) << "the clicked thread is selected";
    std::ifstream progress(data / "vkpuzzles/progress.json");
    std::string p((std::istreambuf_iterator<char>(progress)), std::istreambuf_iterator<char>());
    EXPECT_NE(p.find("\"watched_lines\": ["), std::string::npos) << "F9 watched the line\n" << p;
    EXPECT_EQ(p.find("\"watched_lines\": []"), std::string::npos) << p;
}

TEST_F(GuiSmokeTest, FrameStatsAreReported) {
    Outcome r = app("--puzzle matmul --frames 60 --frame-stats");
    ASSERT_EQ(r.exit, 0) << r.out;
    EXPECT_NE(r.out.find("median"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("worst"), std::string::npos) << r.out;
}

} // namespace
} // namespace vkp
