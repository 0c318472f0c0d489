// Grading a class: each student's submission of a puzzle is found in a folder, checked as `check`
// checks a kernel (traced, in the worker), and scored: a case earns its `points` when it passes.
// A submission is what the app's "Export kernel" writes: `NAME.comp` (a multi-pass puzzle's
// kernels in `//// kernel NAME` sections) or a folder holding one `KERNEL.comp` per kernel.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "check/check.h"
#include "puzzle/puzzle.h"
#include "report/case_file.h"

namespace vkp {

class Compiler;
class DeviceRunner;
class SubgroupSizeDevices;

// One student's work: per graded puzzle, the file or folder handed in.
struct Submission {
    std::string name;               // the student: the file's stem or the folder's name
    std::vector<std::string> paths; // one per puzzle graded, in order; empty: not handed in
};

struct SubmissionSearch {
    std::vector<Submission> submissions; // sorted by name, then path
    std::vector<std::string> warnings;   // entries that were skipped, and why
};

// `grade PUZZLE DIR`: every `.comp` file and every folder in `dir` is one submission of the one
// puzzle. A Usage error when `dir` is no folder or holds no submission.
Result<SubmissionSearch> findSubmissions(const std::string& dir);
// `grade --all DIR`: one folder per student, holding `SLUG.comp` or `SLUG/` per puzzle; of a
// second export (`SLUG-2.comp`, `SLUG-3/`), the highest-numbered one is graded.
Result<SubmissionSearch> findClassSubmissions(const std::vector<const Puzzle*>& puzzles,
                                              const std::string& dir);

// Why a case earned nothing, in one word or two (JSON "failure").
enum class FailureKind {
    None,         // it passed
    NotHandedIn,  // no file or folder for this puzzle
    Unreadable,   // the file could not be read, is empty, or a kernel file is missing
    Compile,      // a compile error, or the compiler crashed on it
    Interface,    // the kernel's buffers or constants do not match the puzzle
    Error,        // the check or the case could not run: a timeout, a lost device, a crash
    Finding,      // the trace found a race, an out-of-bounds access, an endless loop, a rule...
    WrongValues,  // the outputs are wrong
    Inconclusive, // the trace could not hold what the threads did
    SubgroupSize, // right with the device's subgroup size, wrong with another (it assumes one)
    AtomicOrder,  // right as the device ordered its atomics, wrong in reverse (it depends on it)
    Search,       // right on the case, wrong on one its puzzle's [[search]] generated like it
};
const char* failureKindName(FailureKind kind); // "not handed in", "compile error", ...
// The kind failureKindName names `name` (a grade JSON file read back); nullopt for none.
std::optional<FailureKind> failureKindNamed(const std::string& name);

struct CaseGrade {
    size_t index = 0;  // 0-based case index in the puzzle
    std::string name;  // TestCase::name
    double points = 1; // TestCase::points
    double earned = 0; // points when it passed, else 0
    bool pass = false;
    bool hidden = false;                     // TestCase::hidden
    FailureKind failure = FailureKind::None; // why it failed
    std::string reason;                      // the same in a sentence (teachers see it all)
    // Finer than `failure`: the finding's kind for a finding or an inconclusive case ("race",
    // "out of bounds", "read limit"...), the error's for an error ("timeout", "worker-crashed"...);
    // "" otherwise.
    std::string cause;
};

struct PuzzleGrade {
    const Puzzle* puzzle = nullptr;
    std::string path;               // the file or folder graded; empty: not handed in
    std::vector<std::string> files; // the kernel files read
    std::vector<CaseGrade> cases;   // one per case of the puzzle
    double score = 0;
    double maxScore = 0;  // the sum of the cases' points
    size_t passed = 0;    // cases passed
    std::string reason;   // why it lost points: the first failing case's reason ("" when none)
    std::string caseFile; // the case file `grade --case-files` wrote of it, as written ("": none)
};

struct SubmissionGrade {
    std::string name;                 // the student
    std::vector<PuzzleGrade> puzzles; // one per puzzle graded

    double score() const;
    double maxScore() const;
    // Every point there is, and every case passed where no case is worth a point.
    bool fullMarks() const;
    size_t casesPassed() const;
    size_t casesTotal() const;
    std::vector<std::string> files() const;
    std::string reason() const; // the first puzzle's reason, "SLUG: " before it when several
};

// One check's cases scored (the check of a submission that was read).
PuzzleGrade scoreReport(const Puzzle& puzzle, const CheckReport& report);
// Every case of `puzzle` failed for one reason (not handed in, unreadable).
PuzzleGrade failedGrade(const Puzzle& puzzle, FailureKind failure, const std::string& reason);

// Reads the submission at `path` (a file or a folder) and checks it; with `sizes`, also at other
// subgroup sizes (check/subgroup_sizes.h), where a case that fails loses its points.
PuzzleGrade gradeSubmission(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                            const std::string& path, const CheckOptions& options,
                            SubgroupSizeDevices* sizes = nullptr);

struct GradeProgress {
    std::function<void(size_t index, const Submission&)> starting;  // before each submission
    std::function<void(size_t index, const SubmissionGrade&)> done; // after it
};

// The first case a graded submission failed when it ran on this device (wrong values, a finding,
// an endless loop...; not one wrong only at another subgroup size), checked again traced, as a case
// file the teacher opens to see what the student's kernel did (`grade --case-files`). An error says
// why there is none: every case passed, or none ran (not handed in, unreadable, does not compile).
Result<CaseFile> failingCaseFile(const Compiler& compiler, DeviceRunner& runner,
                                 const PuzzleGrade& grade, const CheckOptions& options);

// Every submission in order, each puzzle of it checked alone: what one does (a compiler crash,
// an endless loop, a lost device) costs that one only.
std::vector<SubmissionGrade> gradeClass(const Compiler& compiler, DeviceRunner& runner,
                                        const std::vector<const Puzzle*>& puzzles,
                                        const std::vector<Submission>& submissions,
                                        const CheckOptions& options,
                                        const GradeProgress& progress = {},
                                        SubgroupSizeDevices* sizes = nullptr);

} // namespace vkp
