#include "check/hidden_cases.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

namespace vkp {
namespace {

// What the finding means, without the threads, cells and counts its own message names.
const char* findingMeaning(FindingKind kind) {
    switch (kind) {
    case FindingKind::SharedRace:
        return "two threads of a workgroup used the same shared cell between two barriers, "
               "one of them writing";
    case FindingKind::GlobalWriteConflict:
        return "two threads wrote the same cell of a buffer";
    case FindingKind::OutOfBounds:
        return "a thread used an index past the end of a buffer or shared array";
    case FindingKind::UninitialisedRead:
        return "a thread read a shared cell that nothing had written";
    case FindingKind::ReadLimit:
        return "a thread read global memory more often than the puzzle allows";
    case FindingKind::WriteLimit:
        return "a thread wrote global memory more often than the puzzle allows";
    case FindingKind::LoopBudget:
        return "a thread ran out of loop iterations";
    case FindingKind::DivergentBarrier:
        return "threads of a workgroup passed different numbers of barriers";
    case FindingKind::TraceOverflow:
        return "the trace could not hold all that the threads did";
    case FindingKind::Rule:
        return "a rule of the statement is broken";
    case FindingKind::Uncoalesced:
        return "neighbouring threads' global accesses were spread over more memory sectors than "
               "the puzzle allows";
    case FindingKind::BankConflict:
        return "threads of a subgroup hit one shared-memory bank more often than the puzzle allows";
    case FindingKind::Divergence:
        return "lanes of a subgroup sat idle more often than the puzzle allows";
    case FindingKind::GlobalAtomics:
        return "a workgroup made more atomic operations on buffers than the puzzle allows";
    case FindingKind::GlobalRace:
        return "a thread read a cell of a buffer that another workgroup wrote in the same "
               "dispatch";
    case FindingKind::UndefinedShuffle:
        return "a subgroup shuffle took its value from a lane that was not active";
    case FindingKind::InputWritten:
        return "the kernel changed one of its inputs, which are read-only";
    }
    return "something went wrong";
}

// An error of a hidden case, in words that name no size, thread or time.
Error hiddenError(const Error& e) {
    std::string message;
    switch (e.kind) {
    case ErrorKind::Timeout:
        message = "the case did not finish in time";
        break;
    case ErrorKind::DeviceLost:
        message = "the device was lost while the case ran";
        break;
    case ErrorKind::WorkerCrashed:
        message = "the worker process crashed while the case ran";
        break;
    default:
        message = "the case could not run";
        break;
    }
    return Error{e.kind, message + " (" + kHiddenCaseText + ")", {}, 0};
}

// Each failing finding once per kind, kernel and line: no thread, cell, round or count.
std::vector<Finding> hiddenFindings(const Puzzle& p, const CaseOutcome& c) {
    std::vector<std::pair<std::string, const Finding*>> all; // (kernel prefix, finding)
    auto prefix = [&](size_t kernel) {
        return p.multiPass() && kernel < p.kernels.size() ? p.kernels[kernel].name + ": "
                                                          : std::string();
    };
    if (c.analysis && c.dispatches.empty())
        for (const Finding& f : c.analysis->findings)
            all.emplace_back("", &f);
    for (const DispatchTrace& dispatch : c.dispatches)
        for (const Finding& f : dispatch.analysis->findings)
            all.emplace_back(prefix(dispatch.kernel), &f);
    for (const Finding& f : c.runFindings)
        all.emplace_back("", &f);
    std::vector<Finding> out;
    std::set<std::tuple<std::string, FindingKind, uint32_t>> seen;
    for (const auto& [kernel, f] : all) {
        if (!f->failsCase || !seen.insert({kernel, f->kind, f->line}).second) continue;
        Finding h;
        h.kind = f->kind;
        h.line = f->line;
        h.message = kernel + hiddenFindingText(f->kind, f->line);
        out.push_back(std::move(h));
    }
    return out;
}

} // namespace

std::string hiddenFindingText(FindingKind kind, uint32_t line) {
    return std::string(findingMeaning(kind)) +
           (line ? " (line " + std::to_string(line) + ")" : std::string());
}

bool caseHidden(const Puzzle& puzzle, size_t index) {
    return index < puzzle.cases.size() && puzzle.cases[index].hidden;
}

CaseOutcome hiddenCaseView(const Puzzle& puzzle, const CaseOutcome& c) {
    CaseOutcome h;
    h.index = c.index;
    h.pass = c.pass;
    h.inconclusive = c.inconclusive;
    h.hidden = true;
    if (c.error) h.error = hiddenError(*c.error);
    h.outputsMatch = c.outputsMatch;
    for (const BufferOutcome& o : c.outputs) {
        BufferOutcome b;
        b.buffer = o.buffer;
        b.checked = o.checked;
        b.comparison.pass = o.comparison.pass;
        b.comparison.tolerance = o.comparison.tolerance;
        h.outputs.push_back(std::move(b));
    }
    // Findings travel as an untraced run's do (runFindings): there is no trace to name.
    h.runFindings = hiddenFindings(puzzle, c);
    h.notes = c.notes; // the puzzle's own words for a known wrong answer, the same in every case
    return h;
}

void hideHiddenCases(SubgroupSizeRun& run, const Puzzle& puzzle) {
    for (CaseFailure& f : run.failures)
        if (caseHidden(puzzle, f.index)) f.detail.clear();
}

void hideHiddenCases(CheckReport& report, const Puzzle& puzzle) {
    for (CaseOutcome& c : report.cases)
        if (caseHidden(puzzle, c.index) && !c.hidden) c = hiddenCaseView(puzzle, c);
    for (SubgroupSizeRun& s : report.otherSizes)
        hideHiddenCases(s, puzzle);
    for (CasesRunBeside* beside :
         {static_cast<CasesRunBeside*>(report.fresh ? &*report.fresh : nullptr),
          static_cast<CasesRunBeside*>(report.reversed ? &*report.reversed : nullptr)})
        if (beside)
            for (CaseFailure& f : beside->failures)
                if (caseHidden(puzzle, f.index)) f.detail.clear();
    // An error that stopped the whole check names a case first ("case 3: workgroup size (2048) is
    // over ..."): about a hidden case, only that it is over a limit of the device is left.
    if (!report.error) return;
    for (size_t i = 0; i < puzzle.cases.size(); ++i) {
        std::string name = "case " + std::to_string(i + 1);
        const std::string& m = report.error->message;
        if (!puzzle.cases[i].hidden || m.rfind(name, 0) != 0 || m.size() <= name.size() ||
            (m[name.size()] != ':' && m[name.size()] != ' '))
            continue;
        report.error->message = name + " (" + kHiddenCaseText +
                                ") cannot run on this device: it is over one of its limits";
        report.error->where = {};
    }
}

} // namespace vkp
