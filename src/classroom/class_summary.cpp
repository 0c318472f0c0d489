#include "classroom/class_summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace vkp {
namespace {

// A reason that would show a hidden case's data: its values, a finding's threads and cells, an
// error's launch. Not handed in, unreadable, compile and interface reasons are about the file.
bool revealing(FailureKind k) {
    return k == FailureKind::Error || k == FailureKind::Finding || k == FailureKind::WrongValues ||
           k == FailureKind::Inconclusive;
}

// One reason for every case: the file, not a case, was what failed.
bool wholePuzzleFailure(const PuzzleGrade& p) {
    if (p.cases.empty()) return false;
    FailureKind k = p.cases.front().failure;
    return (k == FailureKind::NotHandedIn || k == FailureKind::Unreadable ||
            k == FailureKind::Compile || k == FailureKind::Interface) &&
           std::all_of(p.cases.begin(), p.cases.end(),
                       [&](const CaseGrade& c) { return c.failure == k; });
}

bool wholeNumbers(const std::vector<double>& v, double max) {
    return std::floor(max) == max &&
           std::all_of(v.begin(), v.end(), [](double x) { return std::floor(x) == x; });
}

} // namespace

std::string shownReason(const CaseGrade& c) {
    if (c.pass) return "";
    if (!c.hidden || !revealing(c.failure)) return c.reason;
    std::string kind = failureKindName(c.failure);
    if (!c.cause.empty() && c.failure != FailureKind::WrongValues) kind += ": " + c.cause;
    return kind + " (a hidden case: its data is not shown)";
}

std::string shownReason(const PuzzleGrade& p) {
    if (wholePuzzleFailure(p)) return p.cases.front().reason;
    for (const CaseGrade& c : p.cases) {
        if (c.pass) continue;
        std::string r = shownReason(c);
        return r.rfind("case ", 0) == 0 ? r : "case " + std::to_string(c.index + 1) + ": " + r;
    }
    return "";
}

std::string failureCategory(const CaseGrade& c) {
    switch (c.failure) {
    case FailureKind::None:
        return "";
    case FailureKind::NotHandedIn:
        return "not handed in";
    case FailureKind::Unreadable:
        return "unreadable or empty";
    case FailureKind::Compile:
        return "does not compile";
    case FailureKind::Interface:
        return "interface mismatch";
    case FailureKind::Error:
        if (c.cause == "timeout") return "timeout";
        if (c.cause == "worker-crashed") return "crashed the worker";
        if (c.cause == "device-lost") return "device lost";
        return "error";
    case FailureKind::Finding: {
        static const std::set<std::string> limits = {"read limit",  "write limit",
                                                     "uncoalesced", "bank conflict",
                                                     "divergence",  "global atomics"};
        if (c.cause.empty()) return "finding";
        return limits.count(c.cause) ? "over a limit: " + c.cause : c.cause;
    }
    case FailureKind::WrongValues:
        return "wrong values";
    case FailureKind::Inconclusive:
        return "inconclusive";
    case FailureKind::SubgroupSize:
        return "subgroup size";
    case FailureKind::AtomicOrder:
        return "atomic order";
    case FailureKind::Search:
        return "generated case";
    }
    return "";
}

ClassSummary summarizeClass(const std::vector<const Puzzle*>& puzzles,
                            const std::vector<SubmissionGrade>& grades) {
    ClassSummary out;
    for (size_t k = 0; k < puzzles.size(); ++k) {
        PuzzleSummary ps;
        ps.puzzle = puzzles[k];
        for (size_t i = 0; i < puzzles[k]->cases.size(); ++i) {
            const TestCase& tc = puzzles[k]->cases[i];
            ps.cases.push_back({i, tc.hidden ? "" : tc.name, tc.hidden, tc.points, 0, {}});
            ps.maxScore += tc.points;
        }
        std::map<std::string, CategoryCount> byCategory;
        std::vector<std::map<std::string, size_t>> caseCategories(ps.cases.size());
        for (const SubmissionGrade& g : grades) {
            if (k >= g.puzzles.size()) continue;
            const PuzzleGrade& p = g.puzzles[k];
            ps.scores.push_back(p.score);
            ps.handedIn += p.path.empty() ? 0 : 1;
            ps.fullMarks += p.passed == p.cases.size() ? 1 : 0;
            for (const CaseGrade& c : p.cases) {
                if (c.pass || c.index >= ps.cases.size()) continue;
                std::string cat = failureCategory(c);
                CategoryCount& cc = byCategory[cat];
                cc.category = cat;
                ++cc.cases;
                if (cc.students.empty() || cc.students.back() != g.name)
                    cc.students.push_back(g.name);
                ++ps.cases[c.index].failed;
                ++caseCategories[c.index][cat];
            }
        }
        for (auto& [name, cc] : byCategory)
            ps.categories.push_back(std::move(cc));
        std::stable_sort(ps.categories.begin(), ps.categories.end(),
                         [](const CategoryCount& a, const CategoryCount& b) {
                             return a.students.size() > b.students.size();
                         });
        for (size_t i = 0; i < ps.cases.size(); ++i) {
            auto& v = ps.cases[i].byCategory;
            v.assign(caseCategories[i].begin(), caseCategories[i].end());
            std::stable_sort(v.begin(), v.end(),
                             [](const auto& a, const auto& b) { return a.second > b.second; });
        }
        double sum = 0;
        for (double s : ps.scores)
            sum += s;
        ps.mean = ps.scores.empty() ? 0 : sum / ps.scores.size();
        out.maxScore += ps.maxScore;
        out.puzzles.push_back(std::move(ps));
    }
    double sum = 0;
    for (const SubmissionGrade& g : grades) {
        out.totals.push_back(g.score());
        sum += g.score();
        out.fullMarks += g.fullMarks() ? 1 : 0;
    }
    if (!grades.empty()) {
        out.mean = sum / grades.size();
        std::vector<double> sorted = out.totals;
        std::sort(sorted.begin(), sorted.end());
        size_t n = sorted.size();
        out.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
    return out;
}

std::vector<ScoreBin> scoreBins(const std::vector<double>& scores, double max) {
    if (max <= 0) return {{0, 0, scores.size()}};
    bool whole = wholeNumbers(scores, max);
    std::vector<ScoreBin> bins;
    if (whole && max <= 20) {
        for (int v = 0; v <= static_cast<int>(max); ++v)
            bins.push_back({double(v), double(v), 0});
        for (double s : scores)
            ++bins[static_cast<size_t>(std::clamp(s, 0.0, max))].count;
        return bins;
    }
    constexpr size_t kMaxBins = 10;
    double width = 0;
    for (double scale = whole ? 1 : 0.01; width == 0; scale *= 10)
        for (double step : {1.0, 2.0, 2.5, 5.0})
            if (!(whole && step == 2.5 && scale < 10) &&
                std::ceil(max / (step * scale)) <= kMaxBins) {
                width = step * scale;
                break;
            }
    size_t n = static_cast<size_t>(std::ceil(max / width));
    for (size_t b = 0; b < n; ++b)
        bins.push_back({width * b, b + 1 == n ? max : width * (b + 1), 0});
    for (double s : scores) {
        size_t b = static_cast<size_t>(std::clamp(s, 0.0, max) / width);
        ++bins[std::min(b, n - 1)].count;
    }
    return bins;
}

} // namespace vkp
