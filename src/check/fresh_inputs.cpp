#include "check/fresh_inputs.h"

#include <random>

namespace vkp {

uint64_t freshSeed() {
    std::random_device entropy;
    // Small enough to read and type back (`--seed 48213`), large enough not to repeat soon.
    return (uint64_t(entropy()) << 32 | entropy()) % 1000000000ull;
}

namespace {

// A case drawn again: it has random inputs, and it ran to the end. One that never finished (or
// lost the device, or crashed the worker) has had its budget: fresh data would only wait it out
// again.
bool drawsAgain(const Puzzle& puzzle, const CaseOutcome& c) {
    return !c.error && c.index < puzzle.cases.size() && hasRandomInputs(puzzle.cases[c.index]);
}

} // namespace

bool freshInputsApply(const Puzzle& puzzle, const CheckReport& report) {
    if (!report.compiled() || report.error || hasErrors(report.diagnostics)) return false;
    for (const CaseOutcome& c : report.cases)
        if (drawsAgain(puzzle, c)) return true;
    return false;
}

void checkFreshInputs(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                      const std::vector<KernelSource>& sources, const CheckOptions& options,
                      uint64_t seed, CheckReport& report) {
    if (!freshInputsApply(puzzle, report)) return;
    Puzzle fresh = puzzle;
    CheckOptions plain = options;
    plain.trace = false;
    plain.onCase = nullptr;
    plain.onlyCase.reset();
    plain.someCases.clear();
    for (const CaseOutcome& c : report.cases)
        if (drawsAgain(puzzle, c)) {
            reseedRandomInputs(fresh.cases[c.index], seed);
            plain.someCases.push_back(c.index);
        }
    CheckReport r = checkProgram(compiler, runner, fresh, sources, plain);
    FreshInputsRun run;
    run.seed = seed;
    if (r.error) run.error = r.error;
    for (const CaseOutcome& c : r.cases) {
        ++run.casesRun;
        if (!c.pass) run.failures.push_back({c.index, caseFailureDetail(fresh, c), bool(c.error)});
    }
    report.fresh = std::move(run);
}

} // namespace vkp
