// Walkthroughs: an official solution played as annotated steps (walkthrough.toml beside
// puzzle.toml), each pointing at solution lines, a barrier round, a workgroup, threads and cells:
// the file and its model. Checking it against a traced run and playing it: walkthrough_steps.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/result.h"
#include "puzzle/puzzle.h"

namespace vkp {

struct WalkthroughCell {         // a cell to highlight: a puzzle buffer or a shared array
    std::string variable;        // "result", "a", or a shared array's name, e.g. "tile"
    std::vector<uint32_t> index; // [i] or [row, col]; flattened row-major by the consumer
};

struct WalkthroughFocus {            // what a step points at; every part optional
    std::optional<size_t> caseIndex; // 0-based: the case it shows (`case = K`; default: the
                                     // walkthrough's), traced under its forced schedule if any
    bool lookback = false;           // `view = "lookback"`: the Look-back view of the trace
    size_t dispatch = 0;             // 0-based: the case's dispatch it shows (rounds and
                                     // repetitions counted; `dispatch = K` is 1-based)
    std::vector<uint32_t> lines;     // 1-based lines of that dispatch's kernel's official solution
    std::optional<uint32_t> round;   // barrier round, as TraceEvent::round and
                                     // SharedSnapshot::round: state at the end of it
    std::optional<std::array<uint32_t, 3>> workgroup; // whose shared memory / timeline
    std::vector<std::array<uint32_t, 3>> threads;     // global invocation ids to select
    std::vector<WalkthroughCell> cells;
};

struct WalkthroughStep {
    std::string title; // short, e.g. "Load the tile"
    std::string text;  // a paragraph or two, plain text
    WalkthroughFocus focus;
    SourceLocation where; // the [[steps]] table in walkthrough.toml
};

struct Walkthrough {
    std::string file; // path of walkthrough.toml
    std::string title;
    size_t caseIndex = 0; // 0-based: the test case the walkthrough runs on
    std::vector<WalkthroughStep> steps;
};

// The case a step shows: its own `case`, else the walkthrough's.
size_t stepCase(const Walkthrough& w, const WalkthroughStep& step);
// Every case some step shows, the walkthrough's first.
std::vector<size_t> walkthroughCases(const Walkthrough& w);

// The file name looked for in a puzzle's folder.
inline constexpr const char* kWalkthroughFile = "walkthrough.toml";

// Whether the puzzle's folder holds a walkthrough.toml (not whether it loads).
bool hasWalkthrough(const Puzzle& puzzle);

// puzzle.dir + "/walkthrough.toml"; std::nullopt when the puzzle has none; errors file:line:col.
Result<std::optional<Walkthrough>> loadWalkthrough(const Puzzle& puzzle);

// The same from TOML text (tests); `file` names it in messages. Checks the case number
// against the puzzle's cases and the shape of every field, not the trace.
Result<Walkthrough> parseWalkthrough(const std::string& text, const std::string& file,
                                     const Puzzle& puzzle);

} // namespace vkp
