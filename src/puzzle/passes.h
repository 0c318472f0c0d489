// Multi-pass puzzles: turning a case into
// the exact sequence of dispatches it runs (repetitions unrolled, push values and swapped
// bindings resolved).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "puzzle/expr.h"
#include "puzzle/puzzle.h"

namespace vkp {

inline constexpr uint32_t kMaxDispatchesPerCase = 256;

// One dispatch of a case, everything evaluated.
struct CaseDispatch {
    size_t pass = 0;   // index into Puzzle::passes (0 for a single-pass puzzle)
    size_t kernel = 0; // index into Puzzle::kernels
    uint32_t repetition = 0, repetitions = 1;
    uint32_t lap = 0, laps = 1; // [laps]: which run of the whole list of passes
    std::array<uint32_t, 3> workgroups{1, 1, 1};
    std::vector<std::pair<std::string, uint32_t>> push; // member -> value
    // Per Puzzle::buffers index b: the buffer whose memory sits at b's binding during this
    // dispatch (b itself unless a swap moved it).
    std::vector<size_t> bufferAt;

    // "scan_tiles", "step (3 of 10)", "count (lap 2 of 8)", "step (3 of 10, lap 2 of 8)"
    std::string label(const Puzzle& puzzle) const;
};

// What pass `pass` (of kernel `kernel`) is called: its label, else its kernel's name.
std::string passLabel(const Puzzle& puzzle, size_t pass, size_t kernel);

// The dispatches of a case, in order; a single-pass puzzle gives one. Errors (a workgroup count
// of 0, too many dispatches) name the pass.
Result<std::vector<CaseDispatch>> caseDispatches(const Puzzle& puzzle, size_t caseIndex);
// The same for a case built elsewhere (a benchmark's larger N), on a device that may allow more
// workgroups per dimension than the 65535 every Vulkan device has.
Result<std::vector<CaseDispatch>> caseDispatches(const Puzzle& puzzle, const TestCase& c,
                                                 uint64_t maxWorkgroups = 65535);
// Where each output's final contents are: per Puzzle::buffers, the buffer whose memory is at its
// binding after the last dispatch.
std::vector<size_t> finalBufferAt(const Puzzle& puzzle,
                                  const std::vector<CaseDispatch>& dispatches);
// `rows` and `cols` in a case's expressions: its first input's rows and columns (a 1-D input is
// one row of N), so that a 2-D puzzle's constants and workgroup counts can follow its data, and
// `vkpuzzles bench` can scale them. A constant of the same name keeps its own value.
void addShapeNames(const Puzzle& puzzle, const TestCase& c, std::map<std::string, uint64_t>& names);
bool isShapeName(const std::string& name);
// Evaluates the shapes written as expressions (DataSpec::shapeExprs) from the first input's
// shape. The error says which buffer and why (a size out of bounds, a division by zero).
Status evaluateShapeExprs(const Puzzle& puzzle, TestCase& c);
// Every pair of buffers some pass or [laps] swaps (both buffers of each).
std::vector<bool> swappedBuffers(const Puzzle& puzzle);
// The expression names a case defines: its constants, rows and cols, i for a repetition and
// lap (and round, its old name) for a lap.
std::map<std::string, uint64_t> caseNames(const Puzzle& puzzle, const TestCase& c,
                                          uint64_t repetition, uint64_t lap = 0);
ExprVars caseVars(const Puzzle& puzzle, const TestCase& c,
                  const std::map<std::string, uint64_t>& names);

} // namespace vkp
