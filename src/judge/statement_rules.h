// The rules of a statement checked on a trace ([[rules]] in puzzle.toml, puzzle/puzzle.h): which
// apply to a case and with what bound, and the findings of those a kernel breaks.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "judge/finding.h"
#include "puzzle/puzzle.h"
#include "trace/trace.h"

namespace vkp {

// A rule as it applies to one case.
struct CaseRule {
    RuleDecl decl;
    uint64_t atMost = 0;            // at_most rules: the bound's value in this case (workgroup 0)
    std::vector<uint32_t> bindings; // the buffers named (atomic_writes_only, reads_together, `of`)
    // A bound per workgroup that names the workgroup (group_x...): the case's names, N and WG,
    // to evaluate it for each workgroup in turn.
    bool byGroup = false;
    std::map<std::string, uint64_t> names;
    uint64_t n = 0, wg = 1;
    // The bound for workgroup (x, y, z): atMost where it does not name the workgroup.
    uint64_t boundFor(uint32_t x, uint32_t y, uint32_t z) const;
};

// What a case's trace is judged against besides bounds and races: its per-thread limits and the
// rules that apply to it, with every expression evaluated for its N, WG and constants.
struct CaseChecks {
    Limits limits;
    std::vector<CaseRule> rules;
};

// A limit or bound that cannot be evaluated in the case (a learner's own case dividing by zero)
// is left out; the puzzle's own cases were evaluated when the file was loaded.
CaseChecks caseChecks(const Puzzle& puzzle, const TestCase& c);

// One finding per broken rule (FindingKind::Rule), quoting the rule's text.
std::vector<Finding> ruleFindings(const Trace& trace, const std::vector<CaseRule>& rules);

} // namespace vkp
