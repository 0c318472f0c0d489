#include "check/atomic_order.h"

namespace vkp {

bool reversedOrderApplies(const CheckReport& report) {
    if (!report.usesAtomics || !report.compiled() || report.error || hasErrors(report.diagnostics))
        return false;
    for (const CaseOutcome& c : report.cases)
        if (!c.error) return true;
    return false;
}

void checkReversedOrder(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                        const std::vector<KernelSource>& sources, const CheckOptions& options,
                        CheckReport& report) {
    if (!reversedOrderApplies(report)) return;
    CheckOptions reversed = options;
    reversed.trace = false;
    reversed.reverseAtomics = true;
    reversed.onCase = nullptr;
    reversed.onlyCase.reset();
    reversed.someCases.clear();
    for (const CaseOutcome& c : report.cases)
        if (!c.error) reversed.someCases.push_back(c.index);
    CheckReport r = checkProgram(compiler, runner, puzzle, sources, reversed);
    ReversedOrderRun run;
    if (r.error) run.error = r.error;
    for (const CaseOutcome& c : r.cases) {
        ++run.casesRun;
        if (!c.pass) run.failures.push_back({c.index, caseFailureDetail(puzzle, c), bool(c.error)});
    }
    report.reversed = std::move(run);
}

} // namespace vkp
