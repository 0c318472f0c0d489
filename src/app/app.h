// The desktop app's entry point: a window with the panels, the live loop behind it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vkp::app {

// Extra view state for scripted runs (screenshots, frame times, tests), from VKPUZZLES_VIEW:
// "watch=52,37;round=1;workgroup=2;cell=tileA[1][0];export=timeline;walkthrough=3;edits=0".
struct ViewScript {
    std::vector<uint32_t> watch;             // watched lines
    std::optional<uint32_t> round;           // the timeline at the end of this barrier round
    std::optional<uint32_t> workgroup;       // the timeline's workgroup (flat index)
    std::optional<uint32_t> walkthroughStep; // play the walkthrough from this step (1-based)
    std::string cell;                        // select a cell: NAME[i] or NAME[row][col]
    std::string exportView;                  // save this view as a PNG with the screenshot
    bool edits = true; // --frame-stats edits the kernel every 0.4 s ("edits=0": a still trace)
    std::optional<float> top;     // the top row's share of the height (layout, not saved)
    std::optional<uint32_t> line; // the editor goes to this line
};

struct AppOptions {
    std::vector<std::string> packs; // --puzzles DIR (repeatable): packs beside the built-in puzzles
    std::string puzzle;             // open this puzzle (name, slug or number)
    std::string kernel;             // load this kernel file into the editor
    std::string device;             // device selector for checks ("" = saved or best)
    std::string caseFile;           // `open FILE`: show this case file, read-only
    std::string screenshot;         // render until the checks finish, save this PNG, exit
    int frames = 0;                 // exit after this many frames (0: when the window closes)
    bool frameStats = false;        // print frame times at exit; edits the kernel now and then
    int width = 0, height = 0;      // window size (0: saved, or 1280 x 800)
    std::string theme;              // "dark" | "light" | "high-contrast" ("" = saved)
    float fontScale = 0;            // text size (0 = saved)
    std::string
        tab; // statement | hints | solution | device | buffers | timeline | watches | walkthrough
    std::optional<std::array<uint32_t, 3>> thread; // --thread X,Y[,Z]: select this thread
    ViewScript script;                             // VKPUZZLES_VIEW
    int caseNumber = 0;                            // 1-based test case to select (0 = the first)
    int dispatch =
        0; // 1-based dispatch of a multi-pass case to show (0 = the default), as `trace --dispatch`
    std::optional<std::pair<float, float>> hover; // pretend the pointer is here (screenshots)
    bool reveal = false;    // reveal every hint and the solution (screenshots, in memory)
    bool presenter = false; // start in presenter mode (F5), e.g. for a projector's screenshots
    bool inProcess = false; // run kernels in this process, not in the isolated worker
    std::string version;
};

// Runs the app; the exit status follows the CLI's (0 ok, 1 failure, 2 no display / bad usage).
int runApp(const AppOptions& options);

} // namespace vkp::app
