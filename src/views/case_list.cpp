#include "views/case_list.h"

#include <algorithm>

#include "base/diagnostic.h"
#include "puzzle/passes.h"
#include "views/dispatch_model.h"

namespace vkp::views {
namespace {

const CaseOutcome* outcomeOf(const CheckReport* r, size_t index) {
    if (!r) return nullptr;
    for (const CaseOutcome& c : r->cases)
        if (c.index == index) return &c;
    return nullptr;
}

// "race on line 14", and for a multi-pass case "in scan_sums"; lines of the whole text.
std::string findingWhere(const Finding& f, const CaseOutcome& c,
                         const std::vector<uint32_t>& offsets) {
    size_t kernel = 0;
    std::string where;
    for (const DispatchTrace& dispatch : c.dispatches)
        if (dispatch.analysis == c.analysis) {
            kernel = dispatch.kernel;
            where = " in " + dispatch.label;
            break;
        }
    uint32_t line = wholeTextLine(offsets, kernel, f.line);
    return std::string(findingKindName(f.kind)) + (line ? " on line " + std::to_string(line) : "") +
           where;
}

// Why a case has no verdict (nullopt: it has one, or it is being decided).
std::optional<CaseBadge> unrunBadge(const CheckReport* r, const CaseOutcome* c, bool checking) {
    if (!r) return CaseBadge{BadgeKind::Waiting, "not checked yet"};
    if (!r->compiled() && r->error && r->error->kind == ErrorKind::Device)
        return CaseBadge{BadgeKind::NotRun, "not run: the device lacks what the kernel enables"};
    if (!r->compiled()) return CaseBadge{BadgeKind::NotRun, "not run: the kernel does not compile"};
    if (hasErrors(r->diagnostics))
        return CaseBadge{BadgeKind::NotRun, "not run: see the messages under the editor"};
    if (!c && checking) return CaseBadge{BadgeKind::Waiting, "checking\xE2\x80\xA6"};
    if (!c)
        return CaseBadge{BadgeKind::NotRun, r->error ? "not run: " + r->error->message : "not run"};
    return std::nullopt;
}

// A failing case's outputs that differ ("result: 3 of 8 cells wrong"; a hidden case's without
// the counts, which would hint at its size), then its finding.
std::string failureText(const Puzzle& p, const CaseOutcome& c, const std::string& traced) {
    std::string what;
    for (const BufferOutcome& b : c.outputs) {
        if (b.comparison.pass) continue;
        if (!what.empty()) what += "; ";
        what += p.buffers[b.buffer].name + ": " +
                (c.hidden ? std::string("wrong values")
                          : std::to_string(b.comparison.mismatchCount) + " of " +
                                std::to_string(b.expected.shape.count()) + " cells wrong");
    }
    if (!traced.empty()) what += (what.empty() ? "" : "; ") + traced;
    return what.empty() ? "fail" : what;
}

CaseBadge verdictBadge(const Puzzle& p, const CheckReport* r, const CaseOutcome* c,
                       const std::vector<uint32_t>& offsets, bool checking) {
    if (auto unrun = unrunBadge(r, c, checking)) return *unrun;
    if (c->error) return {BadgeKind::Fail, c->error->message};
    const Finding* finding = nullptr;
    if (c->analysis)
        for (const Finding& f : c->analysis->findings)
            if (f.failsCase && !finding) finding = &f;
    if (!c->runFindings.empty())
        finding = &c->runFindings.front(); // untraced: a loop ran out of budget
    std::string traced = finding ? findingWhere(*finding, *c, offsets) : "";
    bool unchecked = std::any_of(c->outputs.begin(), c->outputs.end(),
                                 [](const BufferOutcome& b) { return !b.checked; });
    if (c->pass && unchecked)
        return {
            BadgeKind::Unchecked,
            "ran; no expected output to check (this puzzle writes its expected values by hand)"};
    if (c->pass) return {BadgeKind::Pass, "pass"};
    if (c->inconclusive)
        return {BadgeKind::Inconclusive,
                "inconclusive: " +
                    (finding ? finding->message : std::string("the trace did not fit"))};
    if (c->outputsMatch && finding) return {BadgeKind::Fail, "right values, but " + traced};
    return {BadgeKind::Fail, failureText(p, *c, traced)};
}

// What the puzzle's author says about a recognised wrong answer ([[pitfalls]] `why`), and how a
// forced schedule held a workgroup (which is what exposed many look-back mistakes), as the CLI
// prints them under a failing case: empty when the case passed or there is neither.
std::string whyText(const CaseOutcome* c) {
    if (!c || c->pass) return "";
    std::string why;
    for (const std::string& note : c->notes)
        why += (why.empty() ? "" : " ") + note;
    if (!why.empty()) why = "why: " + why;
    for (const std::string& schedule : scheduleLines(*c))
        why += (why.empty() ? "" : " ") + schedule;
    return why;
}

// A case that failed in a run beside the check: "case 3: result[2]: expected 5, got 4".
std::string besideFailure(const CaseFailure& f, const std::string& hiddenText) {
    if (f.error && !f.detail.empty()) return f.detail; // an error's message names its case
    return "case " + std::to_string(f.index + 1) + ": " +
           (f.detail.empty() ? hiddenText : f.detail);
}

// The words of a run beside the check: its heading, its tooltip, its probe's name, and its line
// while it is still due.
struct BesideWords {
    const char *title, *tooltip, *probe, *due;
};

constexpr BesideWords kAtomicOrder{
    "Atomics in another order",
    "A kernel with atomics is also run with every subgroup's lanes doing each atomic last lane "
    "first: devices order them as they like. Right in one order and wrong in another, its result "
    "depends on the order.",
    "atomic order", "checking with atomics in reverse lane order\xE2\x80\xA6"};
constexpr BesideWords kCaseSearch{
    "Generated cases",
    "The puzzle generates cases like one of its own at other sizes and workgroup sizes, and "
    "shrinks one that fails to a small case you can keep and step through.",
    "case search", "searching generated cases\xE2\x80\xA6"};

std::string joined(const std::vector<BesideLine>& lines) {
    std::string text;
    for (const BesideLine& line : lines)
        text += (text.empty() ? "" : "\n") + line.text;
    return text;
}

// A run beside the check: none while it has neither run nor is due; headed, with its one line
// while it is due (nothing for the probe yet) or when it could not run; else with the lines
// `verdict` adds, every one for the probe.
template <class Run, class Verdict>
std::optional<BesideRun> besideRun(const BesideWords& words, bool due,
                                   const std::optional<Run>& run, Verdict verdict) {
    if (!run && !due) return std::nullopt;
    BesideRun out{words.title, words.tooltip, words.probe};
    if (due) {
        out.lines.push_back({words.due, Tone::Dim});
        return out;
    }
    if (run->error)
        out.lines.push_back({"not checked (" + run->error->message + ")", Tone::Warn});
    else
        verdict(*run, out.lines, out.keep);
    out.fact = joined(out.lines);
    return out;
}

// The heading, the buttons above the list and the notes under the heading.
void describeHeading(const CaseListFacts& f, CaseList& list) {
    const Puzzle* p = f.puzzle;
    const CheckReport* r = f.report;
    if (p && f.checking) {
        list.info =
            std::to_string(r->cases.size()) + " of " + std::to_string(p->cases.size()) + " checked";
    } else if (f.caseFileCase) {
        list.info = "case file: case " + std::to_string(*f.caseFileCase + 1) + " only";
    } else if (p && r && r->compiled() && !hasErrors(r->diagnostics)) {
        list.info = std::to_string(f.casesPassed) + " of " + std::to_string(p->puzzleCaseCount()) +
                    " pass"; // own cases never count
        list.infoTone = f.solved ? Tone::Pass : Tone::Fail;
    }
    if (!p) return;
    if (r && f.current && !f.besideDue && f.solved && !f.nextPuzzle.empty())
        list.next = "Next puzzle: " + f.nextPuzzle + " \xE2\x86\x92";
    if (f.caseFileCase) {
        list.caseFileNote = "A case file: the run as it was recorded; nothing runs.";
    } else {
        list.addCaseFrom = std::min<size_t>(std::max(0, f.selectedCase), p->cases.size() - 1);
        // A case of your own shows all its data: it never starts from a hidden case.
        list.addCaseBlocked =
            list.addCaseFrom < p->cases.size() && p->cases[list.addCaseFrom].hidden;
        list.addCaseTip =
            list.addCaseBlocked
                ? "The selected case is hidden by your teacher: select a visible case to start a "
                  "case of your own from."
                : "Run your kernel on inputs you choose (starting from the selected case); "
                  "checked against the puzzle's reference op where it has one. Your cases never "
                  "count towards solving.";
    }
    if (!f.current && r) list.stale = "(results of an earlier version; checking\xE2\x80\xA6)";
    if (r && !r->untraced.empty()) list.untraced = "Not traced: " + r->untraced + ".";
}

} // namespace

const char* badgeIcon(BadgeKind kind) {
    // In BadgeKind's order: Waiting, NotRun, Pass, Unchecked, Inconclusive, Fail.
    static constexpr const char* kIcons[] = {
        "\xE2\x80\xA6", "\xE2\x80\x93", "\xE2\x9C\x93", "\xE2\x80\xA2", "?", "\xE2\x9C\x97"};
    return kIcons[static_cast<size_t>(kind)];
}

Tone badgeTone(BadgeKind kind) {
    static constexpr Tone kTones[] = {Tone::Dim,  Tone::Dim,  Tone::Pass,
                                      Tone::Warn, Tone::Warn, Tone::Fail};
    return kTones[static_cast<size_t>(kind)];
}

CaseBadge caseBadge(const CaseListFacts& f, size_t index) {
    static const std::vector<uint32_t> kNoOffsets;
    const CaseOutcome* c = outcomeOf(f.report, index);
    if (f.caseFileCase && !c) return {BadgeKind::NotRun, "not in this case file"};
    return verdictBadge(*f.puzzle, f.report, c, f.lineOffsets ? *f.lineOffsets : kNoOffsets,
                        f.checking);
}

CaseRow caseRow(const CaseListFacts& f, size_t index) {
    const Puzzle& p = *f.puzzle;
    const TestCase& tc = p.cases.at(index);
    CaseRow row;
    row.index = index;
    row.badge = caseBadge(f, index);
    row.own = tc.own;
    row.hidden = tc.hidden;
    row.title = "Case " + std::to_string(index + 1) +
                (tc.hidden         ? " (hidden)"
                 : tc.name.empty() ? ""
                                   : ": " + tc.name);
    std::string launch = caseLaunchText(p, index, f.hiddenText);
    row.constants = constantsText(p, tc);
    row.launch = row.shortLaunch = launch;
    if (!row.constants.empty()) {
        // The constants' values matter more than the thread count, which the shape already tells.
        std::string shortLaunch =
            p.multiPass() ? launch
                          : dimsText(tc.workgroupSize) + " \xC3\x97 " + dimsText(tc.workgroups);
        row.launch = launch + ", " + row.constants;
        row.shortLaunch = shortLaunch + ", " + row.constants;
    }
    const CaseOutcome* c = outcomeOf(f.report, index);
    row.why = whyText(c);
    if (row.why.empty() && c) row.schedules = scheduleLines(*c); // a passing case's schedule
    if (tc.hidden)
        row.tooltipLaunch = "Your teacher hid this case's data: you see whether it passes, and "
                            "how it fails, not its inputs or launch.";
    else if (p.multiPass())
        row.tooltipLaunch = "workgroup size " + dimsText(tc.workgroupSize) + "; " + launch;
    else
        row.tooltipLaunch = "workgroup size " + dimsText(tc.workgroupSize) + ", workgroups " +
                            dimsText(tc.workgroups);
    row.probe = (tc.own ? "own: " : "") + row.badge.text;
    return row;
}

std::optional<BesideRun> subgroupSizesRun(const CaseListFacts& f) {
    if (!f.beside || (f.beside->otherSizes.empty() && f.sizesDue.empty())) return std::nullopt;
    const std::vector<SubgroupSizeRun>& runs = f.beside->otherSizes;
    BesideRun out{"Other subgroup sizes",
                  "A kernel that uses subgroups is also run on lavapipe with other numbers of "
                  "lanes: GPUs have 8, 16, 32 or 64 (32 and 64 are emulated on lavapipe's 16). "
                  "Right with one and wrong with another, it assumes a subgroup size.",
                  "subgroup sizes"};
    std::string facts;
    for (size_t i = 0; i < runs.size(); ++i) {
        const SubgroupSizeRun& run = runs[i];
        SizeRunWords words = i < f.sizeWords.size() ? f.sizeWords[i] : SizeRunWords{};
        std::string head = words.name + ": ";
        BesideLine line{"", Tone::Pass};
        if (run.error) {
            line = {head + "not checked (" + run.error->message + ")", Tone::Warn};
        } else if (run.pass()) {
            line.text = "\xE2\x9C\x93 " + head + "all " + std::to_string(run.casesRun) + " pass";
            if (!words.carried.empty()) line.text += "; " + words.carried;
        } else if (std::all_of(run.failures.begin(), run.failures.end(),
                               [](const CaseFailure& c) { return c.error; })) {
            // No answer there to call wrong (the worker crashed twice...): not judged.
            line = {head + std::to_string(run.failures.size()) + " of " +
                        std::to_string(run.casesRun) + " could not run; " +
                        besideFailure(run.failures.front(), f.hiddenText),
                    Tone::Warn};
        } else {
            line = {"\xE2\x9C\x97 " + head + std::to_string(run.failures.size()) + " of " +
                        std::to_string(run.casesRun) + " fail; " +
                        besideFailure(run.failures.front(), f.hiddenText),
                    Tone::Fail};
        }
        out.lines.push_back(line);
        facts += (facts.empty() ? "" : "\n") + line.text;
    }
    if (!f.sizesDue.empty())
        out.lines.push_back({"checking with " + f.sizesDue + "\xE2\x80\xA6", Tone::Dim});
    if (!f.sizeVerdict.empty()) {
        out.lines.push_back({f.sizeVerdict, Tone::Fail});
        facts += "\n" + f.sizeVerdict;
    }
    out.fact = facts;
    return out;
}

std::optional<BesideRun> atomicOrderRun(const CaseListFacts& f) {
    if (!f.beside) return std::nullopt;
    auto verdict = [&](const ReversedOrderRun& run, std::vector<BesideLine>& lines,
                       std::optional<OwnCaseSpec>&) {
        if (run.pass()) {
            lines.push_back({"\xE2\x9C\x93 in reverse lane order: all " +
                                 std::to_string(run.casesRun) + " pass",
                             Tone::Pass});
            return;
        }
        lines.push_back(
            {"\xE2\x9C\x97 in reverse lane order: " + std::to_string(run.failures.size()) + " of " +
                 std::to_string(run.casesRun) + " fail; " +
                 besideFailure(run.failures.front(), f.hiddenText),
             Tone::Fail});
        lines.push_back({"the result depends on the order in which a subgroup's lanes do their "
                         "atomics, which no device promises",
                         Tone::Fail});
    };
    return besideRun(kAtomicOrder, f.atomicOrderDue, f.beside->reversed, verdict);
}

std::optional<BesideRun> caseSearchRun(const CaseListFacts& f) {
    if (!f.beside) return std::nullopt;
    auto verdict = [](const CaseSearchRun& run, std::vector<BesideLine>& lines,
                      std::optional<OwnCaseSpec>& keep) {
        if (!run.found) {
            lines.push_back(
                {"\xE2\x9C\x93 all " + std::to_string(run.casesRun) + " pass", Tone::Pass});
            return;
        }
        const FoundCase& found = *run.found;
        lines.push_back({"\xE2\x9C\x97 like case " + std::to_string(found.templateCase + 1) +
                             ", N = " + std::to_string(found.n) + ", workgroup " +
                             dimsText(found.workgroupSize) + ": " + found.detail,
                         Tone::Fail});
        for (const auto& [name, values] : found.inputs)
            lines.push_back({name + " = " + values, Tone::Dim});
        if (found.inputs.empty()) return; // too large to print: nothing to keep
        keep = OwnCaseSpec{};
        keep->templateCase = found.templateCase;
        keep->inputs = found.inputs;
        keep->workgroupSize = dimsListText(found.workgroupSize);
    };
    return besideRun(kCaseSearch, f.searchDue, f.beside->search, verdict);
}

CaseList caseList(const CaseListFacts& f) {
    CaseList list;
    describeHeading(f, list);
    if (!f.puzzle) return list;
    for (size_t i = 0; i < f.puzzle->cases.size(); ++i)
        list.rows.push_back(caseRow(f, i));
    for (auto run : {subgroupSizesRun(f), atomicOrderRun(f), caseSearchRun(f)})
        if (run) list.beside.push_back(std::move(*run));
    const CheckReport* r = f.report;
    if (r && r->error && r->cases.empty() && r->compiled()) list.error = r->error->message;
    list.notice = f.notice;
    return list;
}

std::optional<std::string> ownCaseRemoval(const Puzzle& p, int selected) {
    if (selected < 0 || selected >= static_cast<int>(p.cases.size()) || !p.cases[selected].own)
        return std::nullopt;
    const std::string& name = p.cases[selected].name;
    return "Remove " + name.substr(0, name.find(" (from"));
}

std::string launchText(const TestCase& c) {
    uint64_t n = c.threadCount();
    return dimsText(c.workgroupSize) + " \xC3\x97 " + dimsText(c.workgroups) + " = " +
           std::to_string(n) + (n == 1 ? " thread" : " threads");
}

std::string caseLaunchText(const Puzzle& p, size_t caseIndex, const std::string& hiddenText) {
    const TestCase& c = p.cases.at(caseIndex);
    if (c.hidden) return hiddenText;
    if (!p.multiPass()) return launchText(c);
    auto dispatches = caseDispatches(p, caseIndex);
    if (!dispatches) return dimsText(c.workgroupSize) + " per workgroup";
    std::string groups;
    for (size_t d = 0; d < dispatches->size() && d < 3; ++d)
        groups += (d ? ", " : "") + dimsText((*dispatches)[d].workgroups);
    if (dispatches->size() > 3) groups += ", \xE2\x80\xA6";
    size_t n = dispatches->size();
    return dimsText(c.workgroupSize) + " \xC3\x97 " + groups + " in " + std::to_string(n) +
           (n == 1 ? " dispatch" : " dispatches");
}

} // namespace vkp::views
