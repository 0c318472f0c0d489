#include "cli/grade_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vkp::cli {
namespace {

std::string percentText(double part, double whole) {
    if (whole <= 0) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.0f%%)", 100.0 * part / whole);
    return buf;
}

} // namespace

std::string gradeLine(const SubmissionGrade& g, size_t nameWidth, const Style& st) {
    std::string name =
        g.name + std::string(nameWidth > g.name.size() ? nameWidth - g.name.size() : 0, ' ');
    std::string score = pointsText(g.score()) + "/" + pointsText(g.maxScore());
    bool full = g.fullMarks();
    char cases[64];
    std::snprintf(cases, sizeof cases, "%zu/%zu cases", g.casesPassed(), g.casesTotal());
    std::string line = name + "  " + (full ? st.pass(score) : st.fail(score)) +
                       std::string(score.size() < 7 ? 7 - score.size() : 0, ' ') + "  " + cases;
    std::string reason = g.reason();
    if (!reason.empty()) line += "  " + st.dim(reason);
    return line;
}

std::string gradeSummary(const std::vector<SubmissionGrade>& grades, const std::string& noun,
                         const Style& st) {
    double sum = 0, max = 0;
    size_t full = 0;
    for (const SubmissionGrade& g : grades) {
        sum += g.score();
        max = std::max(max, g.maxScore());
        full += g.fullMarks() ? 1 : 0;
    }
    double mean = grades.empty() ? 0 : sum / grades.size();
    std::string n = std::to_string(grades.size()) + " " + noun + (grades.size() == 1 ? "" : "s");
    return st.bold(n) + ": mean " + pointsText(mean) + " of " + pointsText(max) +
           percentText(mean, max) + ", " + std::to_string(full) + " with full marks";
}

} // namespace vkp::cli
