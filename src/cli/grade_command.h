// `vkpuzzles grade PUZZLE DIR` and `vkpuzzles grade --all DIR`: what they grade (read from the
// arguments before a device is opened, so a usage error costs nothing) and the grading itself;
// `--shard K/N` grades one share of the class, and `grade --merge FILES...` puts the shares'
// JSON files together into what one run over the class writes.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "base/args.h"
#include "classroom/grade.h"
#include "classroom/grade_shards.h"
#include "cli/style.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
class Compiler;
class DeviceRunner;
class SubgroupSizeDevices;
} // namespace vkp

namespace vkp::cli {

// The files a grade or a merge writes.
struct GradeOutputs {
    std::optional<std::string> csv;        // --csv FILE
    std::optional<std::string> json;       // --json FILE
    std::optional<std::string> gradescope; // --gradescope FILE (one submission only)
    std::optional<std::string> html;       // --html FILE: the class report
    // The results of one submission for the platform students hand in on (one submission only):
    std::optional<std::string> prairieLearn; // --prairielearn FILE
    std::optional<std::string> githubResult; // --github-result FILE
};

struct GradePlan {
    bool all = false;                     // --all: a submission is a student's folder
    std::vector<const Puzzle*> puzzles;   // the one puzzle, or every puzzle in scope with --all
    SubmissionSearch search;              // the submissions, sorted, and what was skipped
    GradeOutputs outputs;                 // the files to write
    std::optional<std::string> caseFiles; // --case-files DIR: a failing case per submission
    std::optional<ShareOfClass> share;    // --shard K/N: `search` holds that share of the class
};

// The puzzles, the submissions and the output files; a Usage error names what is wrong.
Result<GradePlan> planGrade(const Args& args, const PuzzleSet& set);

// `--shard K/N`: share K of N; a Usage error says what is wrong with `text`.
Result<Share> parseShard(const std::string& text);

struct MergePlan {
    std::vector<std::string> files; // the shares' JSON files, as given
    GradeOutputs outputs;
};
// `grade --merge FILES...`: the files exist and the outputs can be written.
Result<MergePlan> planMerge(const Args& args);

struct GradeStreams {
    std::ostream& out;    // a line per submission, the summary
    std::ostream& err;    // warnings, progress lines (filtered)
    std::ostream& rawErr; // the progress bar, when stderr is a terminal
    const Style& style;
};

// Grades every submission and writes the files; the exit status (0 once grading ran, 2 when a
// file cannot be written). `sizes`: also at other subgroup sizes (null: the device's own only).
int runGrade(const GradePlan& plan, const Compiler& compiler, DeviceRunner& runner,
             const CheckOptions& options, const GradeStreams& streams,
             SubgroupSizeDevices* sizes = nullptr);

// Reads the shares, merges them (refusing shares of different splits, classes or puzzles, and
// missing or repeated ones) and writes what one run over the whole class writes; the exit status.
int runMerge(const MergePlan& plan, const GradeStreams& streams);

} // namespace vkp::cli
