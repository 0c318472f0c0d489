// A graded class summed up for the teacher's class report (`grade --html`): per puzzle how the
// scores spread, which kinds of failure cost the class most and who is behind each, and per case
// how many failed it. A report like this is shown to a class, so nothing in it carries a hidden
// case's data: its failures are reduced to their kind, as the student sees them.
#pragma once

#include <string>
#include <vector>

#include "classroom/grade.h"

namespace vkp {

// What anyone may read of a failed case: its reason, or for a hidden case whose reason would
// show its data (its values, a finding's threads, an error), the kind of failure only.
std::string shownReason(const CaseGrade& c);
// Why a puzzle lost points, as anyone may read it: the first failing case's shownReason, "case N:"
// before it unless every case failed for one reason (not handed in, does not compile); "" when
// it lost none.
std::string shownReason(const PuzzleGrade& p);

// The kind of failure a report groups a failed case under: "does not compile", "race", "out of
// bounds", "over a limit: read limit", "timeout", "wrong values", "subgroup size", "not handed
// in"...; "" when it passed.
std::string failureCategory(const CaseGrade& c);

// The students who failed a puzzle in one way.
struct CategoryCount {
    std::string category;              // failureCategory
    std::vector<std::string> students; // in the class's order, each once
    size_t cases = 0;                  // the cases failed this way, over every student
};

struct CaseSummary {
    size_t index = 0; // 0-based
    std::string name; // "" for a hidden case (its name is the teacher's)
    bool hidden = false;
    double points = 0;
    size_t failed = 0;                                      // submissions that failed it
    std::vector<std::pair<std::string, size_t>> byCategory; // the failures' categories, most first
};

struct PuzzleSummary {
    const Puzzle* puzzle = nullptr;
    double maxScore = 0;
    std::vector<double> scores; // one per submission, in the class's order
    double mean = 0;
    size_t fullMarks = 0;
    size_t handedIn = 0;
    std::vector<CategoryCount> categories; // most students first, then by name
    std::vector<CaseSummary> cases;
};

struct ClassSummary {
    std::vector<PuzzleSummary> puzzles;
    std::vector<double> totals; // each submission's score over every puzzle
    double maxScore = 0;
    double mean = 0;
    double median = 0;
    size_t fullMarks = 0;
};

ClassSummary summarizeClass(const std::vector<const Puzzle*>& puzzles,
                            const std::vector<SubmissionGrade>& grades);

// Scores from 0 to `max` counted in bins for a histogram: one per score when every score is a
// whole number and `max` is at most 20 (from == to), else at most 10 bins of a round width
// (1, 2, 2.5 or 5 times a power of ten; whole numbers when the scores are), the last one
// holding `max`.
struct ScoreBin {
    double from = 0, to = 0; // from <= score < to; the last bin: from <= score <= to
    size_t count = 0;
};
std::vector<ScoreBin> scoreBins(const std::vector<double>& scores, double max);

} // namespace vkp
