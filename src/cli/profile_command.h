// `vkpuzzles profile PUZZLE [KERNEL.comp... | --solution | --starter] [--case N] [--json]`: one
// case run traced, and the efficiency lens's per-line table (judge/efficiency.h) for each kernel:
// requests, active lanes, sectors touched and needed, bank ways, repeated reads, atomics per
// address, and the sentence that explains the costliest figure of each line.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "base/result.h"
#include "check/check.h"
#include "cli/style.h"
#include "puzzle/puzzle.h"

namespace vkp::cli {

// The case a profile runs, and why that one.
struct ProfileCase {
    size_t index = 0; // 0-based
    std::string why;  // "the case `vkpuzzles bench` scales", "asked for with --case"
};

// `requested`: --case N (1-based), 0 when not given. Without it: the puzzle's bench case (its
// bench_case, else the one derived from its cases: puzzle/bench_case.h), or the largest visible
// case when that one is hidden. A hidden case asked for is refused unless `revealHidden`.
Result<ProfileCase> profileCase(const Puzzle& p, uint64_t requested, bool revealHidden);

struct ProfileView {
    const Puzzle& puzzle;
    const CheckReport& report;
    const ProfileCase& chosen;
    const std::vector<KernelSource>& kernels;
};

void printProfile(std::ostream& os, const ProfileView& v, const Style& st);
nlohmann::json profileJson(const ProfileView& v); // documented in docs/json-output.md

} // namespace vkp::cli
