// `pack check` of one puzzle: the official solution passes every case, traced and untraced, with
// nothing for the trace to remark on; the starter fails every case (but ones expecting only zeros);
// the static lint (authoring/pack_lint.h), and mutation testing of the official solution: each
// mutant (authoring/mutants.h) is checked against the cases through checkProgram, like `check`.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "authoring/mutants.h"
#include "authoring/pack_lint.h"
#include "base/install_paths.h"
#include "base/result.h"
#include "check/check.h"
#include "puzzle/puzzle.h"

namespace vkp {

class Compiler;
class DeviceRunner;
class SubgroupSizeDevices;

enum class MutantFateKind {
    Killed,       // some case failed (values, a failing finding, a device error)
    Survived,     // every case passed, traced too
    NotCompiling, // does not compile (or no longer fits the puzzle's interface): not counted
    Equivalent,   // listed in mutants.toml: not run
};
const char* mutantFateName(MutantFateKind fate); // "killed", "survived", ...

struct MutantOutcome {
    std::string kernel; // Puzzle::kernels[k].name
    std::string file;   // the solution file it was made from
    Mutant mutant;
    MutantFateKind fate = MutantFateKind::Survived;
    std::string killedBy; // "case 3: values differ", "case 2 (traced): race"
    std::string why;      // Equivalent: the author's reason
    double ms = 0;        // what checking it took
};

struct PuzzleCheckOutcome {
    const Puzzle* puzzle = nullptr;
    // What is wrong with the official solution: it fails a case, its trace has a finding, it
    // compiles with a warning (PuzzleChecker::checkSolution).
    std::optional<std::string> solutionProblem;
    // What is wrong with the starter: it passes a case, does not run, or its trace has a hazard
    // of its own (PuzzleChecker::checkStarter).
    std::optional<std::string> starterProblem;
    // Why nothing of the puzzle ran: the device lacks what its official solution needs (it was
    // loaded and linted, and is neither failed nor ok). Empty: it ran.
    std::string skipped;
    std::vector<Diagnostic> lint;              // lintPuzzle's, and the walkthrough's findings
    std::vector<Error> mutantsFileErrors;      // mutants.toml that does not load (fails the check)
    std::vector<Diagnostic> unusedEquivalents; // warnings: entries of mutants.toml that match no
                                               // mutant, or repeat another
    std::vector<MutantOutcome> mutants;
    size_t untracedChecks = 0, tracedChecks = 0; // what the mutants cost, in checks
    StageTimings mutantTiming; // where the mutants' checks spent their time, summed
    double seconds = 0;

    size_t count(MutantFateKind fate) const;
    size_t made() const; // every mutant but those that do not compile (equivalents included)
    // killed / (made - equivalent); 1 when nothing is left to kill.
    double killRate() const;
    bool ok() const; // the solution passes, the starter fails, no survivor, no lint error
};

struct PackCheckOptions {
    bool mutants = true;    // false: the solution, starter and lint only
    uint64_t timeoutMs = 0; // per case; 0: the device's default
    // The official solution is also run at these devices' subgroup sizes, where it uses
    // subgroups, and must pass there too (null: the device's own size only).
    SubgroupSizeDevices* sizes = nullptr;
    // The folder of the puzzles that ship with vkpuzzles: a puzzle in it without a walkthrough
    // fails the check, a pack's is warned about (isBundledPuzzle).
    std::string bundledRoot = bundledPuzzleRoot();
};

// Whether the puzzle's folder is one of the puzzle folders in `bundledRoot` (the same folders on
// disk, however either path is spelled).
bool isBundledPuzzle(const Puzzle& puzzle, const std::string& bundledRoot);

// Called before each mutant's check (index, total) so a terminal can show progress.
using PackProgress = std::function<void(size_t done, size_t total)>;

PuzzleCheckOutcome packCheckPuzzle(const Compiler& compiler, DeviceRunner& runner,
                                   const Puzzle& puzzle, const PackCheckOptions& options,
                                   const PackProgress& progress = {});

// What the mutations need to know about a puzzle: its first case's sizes, constants and launch.
MutationContext mutationContext(const Puzzle& puzzle);

} // namespace vkp
