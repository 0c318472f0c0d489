// The Test cases panel's model, headless: what the list says of each case of the open puzzle
// (its badge: a mark, the verdict in words and their tone; its title, launch and constants; the
// author's explanation of a recognised wrong answer; its tooltip), the panel's heading and
// buttons, and the runs beside the check under the list (other subgroup sizes, atomics in reverse
// lane order, generated cases), all from a check report and what the workbench holds. The panel
// only lays these texts out and draws them.
//
// views know no session: the words that are the session's (a subgroup size's name, the cases a
// size carries, the subgroup-size verdict, what stands for a hidden case's data, the counts of
// the puzzle file's cases) come in with the facts, worded by the session's own functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "puzzle/own_case.h"
#include "puzzle/puzzle.h"
#include "report/check_report.h"

namespace vkp::views {

// How a text is coloured: the panel maps each tone to its palette's colour (a table in this
// order).
enum class Tone { Dim, Pass, Warn, Fail };

// A case's mark in the list: what its verdict, or the lack of one, comes to (badgeIcon's and
// badgeTone's tables follow this order).
enum class BadgeKind {
    Waiting,      // not checked yet, or its check is under way
    NotRun,       // the kernel does not compile, the device lacks a feature, not in a case file
    Pass,         // it passed
    Unchecked,    // it ran, with no expected output to check it against
    Inconclusive, // its trace did not fit
    Fail,         // wrong values, a finding, or an error
};
const char* badgeIcon(BadgeKind kind); // "✓", "✗", "?", "•", "–", "…"
Tone badgeTone(BadgeKind kind);

struct CaseBadge {
    BadgeKind kind = BadgeKind::Waiting;
    std::string text; // "pass", "result: 3 of 8 cells wrong; race on line 14", "not run: ..."
};

// One case's line in the list and its tooltip.
struct CaseRow {
    size_t index = 0; // 0-based, in Puzzle::cases
    CaseBadge badge;
    std::string title; // "Case 3: 10 elements", "Case 3 (hidden)"
    // Its launch and constants ("(4) × (3) = 12 threads, COUNT = 10"), and the same without the
    // thread count, which the shape already tells, for a line too narrow for the whole
    // ("(4) × (3), COUNT = 10"; the same as `launch` without constants, or multi-pass).
    std::string launch, shortLaunch;
    std::string constants; // "COUNT = 10" (empty: none, or hidden)
    // A failing case: the author's explanation of a recognised wrong answer and what its forced
    // schedules did ("why: ... forced schedule: ..."; empty: neither).
    std::string why;
    std::vector<std::string> schedules; // otherwise its forced schedules (the tooltip's)
    // The tooltip's line on the launch: "workgroup size (4), workgroups (3)", a multi-pass case's
    // dispatches, or why a hidden case shows none.
    std::string tooltipLaunch;
    std::string probe; // what the layout probe records of it: "pass", "own: pass"
    bool own = false, hidden = false;
};

// A line of a run beside the check.
struct BesideLine {
    std::string text;
    Tone tone = Tone::Dim;
};

// A run beside the check, under the list: its heading (its tooltip says what the run is), its
// lines, and what the layout probe records of it.
struct BesideRun {
    std::string title, tooltip;
    std::string probe; // the layout probe's name: "subgroup sizes", "atomic order", "case search"
    std::vector<BesideLine> lines;
    std::optional<std::string> fact; // what the probe records (nullopt: nothing this frame)
    std::optional<OwnCaseSpec> keep; // a generated case that failed, to keep as the learner's own
};

// The words of one run at another subgroup size that are the session's (check/subgroup_sizes.h).
struct SizeRunWords {
    std::string name;    // sizeName: "32 lanes (emulated)"
    std::string carried; // carriedText: "case 8 as with 4 lanes (...)", "" for none
};

// What the panel reads from the workbench and its session, for the model.
struct CaseListFacts {
    const Puzzle* puzzle = nullptr; // the open puzzle (null: none)
    // The results on show: an open case file's, else the latest check's (null: none yet).
    const CheckReport* report = nullptr;
    // Per kernel, its lines' offset in the whole text the report checked (kernelLineOffsets).
    const std::vector<uint32_t>* lineOffsets = nullptr;
    bool current = false;               // the latest check is of the text in the editor
    bool checking = false;              // it is under way: `report` holds the cases decided so far
    bool besideDue = false;             // runs beside it are under way (its verdict may still turn)
    std::optional<size_t> caseFileCase; // a case file is open: the one case it holds (0-based)
    int selectedCase = 0;
    // The puzzle file's cases (never the learner's own) that passed, and whether all of them
    // passed and nothing beside failed (store/own_cases.h).
    size_t casesPassed = 0;
    bool solved = false;
    std::string nextPuzzle; // the next puzzle's display name (empty: this is the last)
    std::string hiddenText; // what stands for a hidden case's data (kHiddenCaseText)
    // The runs beside the latest check, once it is current and done (null: not shown).
    const CheckReport* beside = nullptr;
    std::vector<SizeRunWords> sizeWords; // per beside->otherSizes
    std::string sizesDue;                // lanesText of the sizes still running ("" none)
    std::string sizeVerdict;             // subgroupSizeVerdict ("" none)
    bool atomicOrderDue = false, searchDue = false;
    std::string notice; // the session's one-off news
};

struct CaseList {
    std::string info; // the heading's: "3 of 8 pass", "2 of 8 checked" (empty: none)
    Tone infoTone = Tone::Dim;
    std::string next;            // "Next puzzle: 2. Zip →" once solved (empty: no button)
    std::string caseFileNote;    // a case file: what it is, in place of the buttons (empty: none)
    size_t addCaseFrom = 0;      // the case "Add a case" starts from: the selected one
    bool addCaseBlocked = false; // that case is hidden: a learner's case never starts from one
    std::string addCaseTip;
    std::string stale;    // the results are of an earlier text (empty: they are not)
    std::string untraced; // why the cases ran untraced (empty: they did not)
    std::vector<CaseRow> rows;
    std::vector<BesideRun> beside; // in order: subgroup sizes, atomic order, generated cases
    std::string error;             // a device error that stopped the check before any case
    std::string notice;
};

// The list, from the facts (an empty list when there is no puzzle).
CaseList caseList(const CaseListFacts& facts);
// One case's badge and its line of the list.
CaseBadge caseBadge(const CaseListFacts& facts, size_t index);
CaseRow caseRow(const CaseListFacts& facts, size_t index);
// The runs beside the check, each nullopt where there is nothing to show (not run, not due).
std::optional<BesideRun> subgroupSizesRun(const CaseListFacts& facts);
std::optional<BesideRun> atomicOrderRun(const CaseListFacts& facts);
std::optional<BesideRun> caseSearchRun(const CaseListFacts& facts);

// The button under the list that removes the selected case when it is the learner's own:
// "Remove my case 1" (nullopt: the selection is no own case).
std::optional<std::string> ownCaseRemoval(const Puzzle& puzzle, int selectedCase);

std::string launchText(const TestCase& c); // "(4, 4) × (3, 3) = 144 threads"
// launchText, or for a multi-pass case its dispatches: "(4) × (3), (1), (3) in 3 dispatches";
// `hiddenText` for a hidden case.
std::string caseLaunchText(const Puzzle& p, size_t caseIndex, const std::string& hiddenText);

} // namespace vkp::views
