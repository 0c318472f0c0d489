// `vkpuzzles run --input a=1,2,3 --workgroups X --workgroup-size X --set NAME=VALUE`: the
// learner's own case as the command line gives it (puzzle/own_case.h builds it).
#pragma once

#include "base/args.h"
#include "base/result.h"
#include "puzzle/own_case.h"

namespace vkp::cli {

// Whether any option of a learner's own case is given.
bool hasOwnCase(const Args& args);

// The options as a spec, starting from case `templateCase` (0-based). A malformed NAME=VALUE is a
// Usage error naming the option.
Result<OwnCaseSpec> ownCaseSpec(const Args& args, size_t templateCase);

// A field of the spec as the command line names it: "--input a", "--workgroups", "--set SIZE".
std::string cliFieldName(OwnCaseField field, const std::string& name);

// A copy of `p` with the options' case appended (its last case), starting from case
// `templateCase` (0-based); the error names the option that is wrong.
Result<Puzzle> withOwnCase(const Args& args, const Puzzle& p, size_t templateCase);

} // namespace vkp::cli
