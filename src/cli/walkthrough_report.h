// `vkpuzzles walkthrough`: an official solution's walkthrough played as text (or JSON), each
// step with its solution lines, the shared memory it points at and the focused threads' accesses.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "check/check.h"
#include "cli/style.h"
#include "puzzle/puzzle_loader.h"
#include "puzzle/walkthrough.h"

namespace vkp::cli {

// The puzzle's walkthrough; a NotFound error naming the puzzles that have one when it has none,
// the file's error (file:line:col) when it does not load.
Result<Walkthrough> walkthroughArg(const Puzzle& puzzle, const PuzzleSet& set);

// What a played walkthrough needs: the walkthrough, its puzzle, the solution's kernels (one per
// Puzzle::kernels entry), and the traced checks of the solution on the cases its steps show
// (walkthroughCases: the walkthrough's case, and any a step names), by 0-based case.
struct WalkthroughRun {
    const Puzzle& puzzle;
    const Walkthrough& walkthrough;
    const std::vector<KernelSource>& sources;
    const std::map<size_t, CheckReport>& reports;
};

// What one step shows: its dispatch's trace and analysis, and that dispatch's kernel's text.
struct StepSubject {
    const Trace* trace = nullptr;
    const TraceAnalysis* analysis = nullptr;
    const KernelSource* kernel = nullptr;
    std::string label; // the dispatch's label ("scatter (lap 1 of 8)"), "" for a single one
};
// All null when the dispatch has no trace.
StepSubject stepSubject(const WalkthroughRun& run, const CaseOutcome& c, size_t dispatch);

// A traced case (0-based), or an error saying why there is none (no trace, the solution failed
// to run).
Result<const CaseOutcome*> walkthroughCase(const WalkthroughRun& run, size_t caseIndex);

// Columns for wrapped text: the terminal's width, else $COLUMNS, else 80 (kept within 40..160).
int terminalWidth();
// `text` wrapped to `width` columns, each line indented by `indent` spaces; blank lines and lines
// that start with spaces (pictures, code) are kept as written.
std::string wrapText(const std::string& text, int width, int indent);

// Every step, or only step `onlyStep` (1-based) when given.
// Every case the steps show must have been traced (walkthroughCase succeeds for each).
void printWalkthrough(std::ostream& os, const WalkthroughRun& run, std::optional<size_t> onlyStep,
                      int width, const Style& st);
nlohmann::json walkthroughJson(const WalkthroughRun& run, std::optional<size_t> onlyStep);

// The steps' titles, texts and solution lines alone, where no trace can be had (`why`: the
// device lacks what the solution needs, or the trace does not follow it). `kernel`: the
// solution's text the steps' lines point into.
void printWalkthroughText(std::ostream& os, const Puzzle& puzzle, const Walkthrough& w,
                          const KernelSource& kernel, std::optional<size_t> onlyStep,
                          const std::string& why, int width, const Style& st);
nlohmann::json walkthroughTextJson(const Puzzle& puzzle, const Walkthrough& w,
                                   const KernelSource& kernel, std::optional<size_t> onlyStep,
                                   const std::string& why);

} // namespace vkp::cli
