// The efficiency limits of [limits] (global_efficiency, bank_conflicts, divergent_requests,
// global_atomics_per_workgroup) judged on a case's EfficiencyReport: a finding per broken limit,
// naming the line, the figure, the limit and the cause. The check adds them to the case's
// analysis (judge/trace_analysis.h), so a kernel with the right values still fails.
#pragma once

#include <vector>

#include "judge/efficiency.h"
#include "judge/finding.h"
#include "puzzle/puzzle.h"

namespace vkp {

// `limits`: the case's own values (judge/statement_rules.h caseChecks). With records dropped
// (trace.dropped) only the atomics count is judged: what part of a trace shows of it is a lower
// bound, while a request missing some lanes' records would look divergent or better coalesced.
std::vector<Finding> efficiencyFindings(const Trace& trace, const EfficiencyReport& report,
                                        const Limits& limits);

} // namespace vkp
