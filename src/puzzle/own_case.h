// A learner's own test case: one of the puzzle's cases as the template, with the inputs, the
// launch shape and the constants the learner gives as text (`vkpuzzles run --input`, the app's
// "Add a case" form). The result is the same TestCase the loader makes, marked `own`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "puzzle/puzzle.h"
#include "reference/buffer_data.h"

namespace vkp {

struct OwnCaseSpec {
    size_t templateCase = 0; // 0-based: sizes, constants and launch shape not given come from it
    // Buffer name -> its values: "1, 2, 3" (commas or spaces), rows of a 2D buffer separated by
    // ';' ("1 2; 3 4"), or a TOML table of the puzzle format ({ shape = [64], fill = "iota" }).
    std::vector<std::pair<std::string, std::string>> inputs;
    std::string workgroups;    // "X[,Y[,Z]]"; empty: the template's, re-evaluated for the new N
    std::string workgroupSize; // "X[,Y[,Z]]"; empty: the template's
    std::vector<std::pair<std::string, std::string>>
        constants; // NAME -> value; missing: the template's, re-evaluated
};

// The fields of a spec, for messages that say where the problem is.
enum class OwnCaseField { Input, Workgroups, WorkgroupSize, Constant, TemplateCase };
// Each front end names the fields its own way: the command line its options ("--input a",
// cli/own_case_args.h), the app its form's fields (store/own_cases.h).
using OwnCaseFieldNamer = std::function<std::string(OwnCaseField field, const std::string& name)>;

// Builds and validates the case. Sizes follow the given inputs where the puzzle writes them as
// expressions of N (workgroup counts, constants, scratch sizes); outputs computed by a reference
// op get their expected values from it; outputs written out by hand become Unchecked.
Result<TestCase> buildOwnCase(const Puzzle& puzzle, const OwnCaseSpec& spec,
                              const OwnCaseFieldNamer& name);

// Whether every output of the case has expected values (a reference op computes them).
bool ownCaseChecked(const TestCase& c);

// A buffer's contents as the form's text: "1, 2, 3", rows of a 2D buffer joined by "; ".
std::string valuesText(const BufferData& data, int dims);

// A case's data as the form's text: its values, or a fill as a TOML table
// ({ shape = [20000], fill = "random", seed = 1, min = 0, max = 9 }).
std::string dataSpecFormText(const DataSpec& d, const BufferData& materialised, int dims);

// "X,Y,Z" with trailing 1s dropped ("4,4", "6").
std::string dimsListText(const std::array<uint32_t, 3>& dims);

// The puzzle copied with the case appended (a learner's own case runs as the puzzle's last one).
Puzzle withCase(const Puzzle& puzzle, TestCase c);

} // namespace vkp
