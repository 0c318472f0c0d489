#include "cli/grade_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/json_report.h"
#include "session/hidden_cases.h"

namespace vkp::cli {
namespace {

using nlohmann::json;

std::string caseLabel(const PuzzleGrade& p, const CaseGrade& c) {
    return p.puzzle->slug + " case " + std::to_string(c.index + 1);
}

std::string percentText(double part, double whole) {
    if (whole <= 0) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.0f%%)", 100.0 * part / whole);
    return buf;
}

// What a student may read of a failed case: a hidden case's failure without its data.
std::string studentOutput(const CaseGrade& c) {
    if (c.pass) return "pass";
    bool revealing = c.failure == FailureKind::Error || c.failure == FailureKind::Finding ||
                     c.failure == FailureKind::WrongValues ||
                     c.failure == FailureKind::Inconclusive;
    if (c.hidden && revealing)
        return std::string("fail: ") + failureKindName(c.failure) +
               " (a hidden case: its data is not shown)";
    return "fail: " + c.reason;
}

json caseJson(const CaseGrade& c) {
    return {{"index", c.index + 1},
            {"name", c.name},
            {"points", c.points},
            {"earned", c.earned},
            {"pass", c.pass},
            {"hidden", c.hidden},
            {"failure", c.pass ? json(nullptr) : json(failureKindName(c.failure))},
            {"reason", c.pass ? json(nullptr) : json(c.reason)}};
}

} // namespace

std::string pointsText(double points) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", points);
    std::string s = buf;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

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

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string gradeCsv(const std::vector<const Puzzle*>& puzzles,
                     const std::vector<SubmissionGrade>& grades) {
    std::string out = "name,score,max_score";
    for (const Puzzle* p : puzzles)
        for (size_t i = 0; i < p->cases.size(); ++i)
            out += "," + csvField(p->slug + " case " + std::to_string(i + 1));
    out += "\r\n";
    for (const SubmissionGrade& g : grades) {
        out += csvField(g.name) + "," + pointsText(g.score()) + "," + pointsText(g.maxScore());
        for (const PuzzleGrade& p : g.puzzles)
            for (const CaseGrade& c : p.cases)
                out += "," + pointsText(c.earned);
        out += "\r\n";
    }
    return out;
}

json gradeJson(const std::vector<const Puzzle*>& puzzles,
               const std::vector<SubmissionGrade>& grades, const std::string& device) {
    json subs = json::array();
    double sum = 0, max = 0;
    size_t full = 0;
    for (const SubmissionGrade& g : grades) {
        json perPuzzle = json::array(), cases = json::array();
        for (const PuzzleGrade& p : g.puzzles) {
            json pc = json::array();
            for (const CaseGrade& c : p.cases) {
                json one = caseJson(c);
                one["puzzle"] = p.puzzle->slug;
                cases.push_back(one);
                pc.push_back(caseJson(c));
            }
            perPuzzle.push_back({{"puzzle", p.puzzle->slug},
                                 {"path", p.path.empty() ? json(nullptr) : json(p.path)},
                                 {"files", p.files},
                                 {"handed_in", !p.path.empty()},
                                 {"score", p.score},
                                 {"max_score", p.maxScore},
                                 {"cases_passed", p.passed},
                                 {"reason", p.reason.empty() ? json(nullptr) : json(p.reason)}});
        }
        std::string reason = g.reason();
        subs.push_back({{"name", g.name},
                        {"files", g.files()},
                        {"score", g.score()},
                        {"max_score", g.maxScore()},
                        {"cases_passed", g.casesPassed()},
                        {"cases_total", g.casesTotal()},
                        {"reason", reason.empty() ? json(nullptr) : json(reason)},
                        {"puzzles", perPuzzle},
                        {"cases", cases}});
        sum += g.score();
        max = std::max(max, g.maxScore());
        full += g.fullMarks() ? 1 : 0;
    }
    json slugs = json::array();
    for (const Puzzle* p : puzzles)
        slugs.push_back(p->slug);
    return {{"version", kJsonVersion},
            {"device", device},
            {"puzzles", slugs},
            {"submissions", subs},
            {"summary",
             {{"submissions", grades.size()},
              {"mean", grades.empty() ? 0.0 : sum / grades.size()},
              {"max_score", max},
              {"full_marks", full}}}};
}

json gradescopeJson(const SubmissionGrade& g) {
    json tests = json::array();
    for (const PuzzleGrade& p : g.puzzles)
        for (const CaseGrade& c : p.cases) {
            std::string name =
                g.puzzles.size() > 1 ? caseLabel(p, c) : "case " + std::to_string(c.index + 1);
            // Students read this file: a hidden case keeps its name to the teacher, as in `show`.
            if (c.hidden)
                name += std::string(": ") + kHiddenCaseText;
            else if (!c.name.empty())
                name += ": " + c.name;
            tests.push_back({{"name", name},
                             {"score", c.earned},
                             {"max_score", c.points},
                             {"output", studentOutput(c)},
                             {"visibility", c.hidden ? "after_published" : "visible"}});
        }
    std::string output = pointsText(g.score()) + " of " + pointsText(g.maxScore()) + " points, " +
                         std::to_string(g.casesPassed()) + " of " + std::to_string(g.casesTotal()) +
                         " cases pass";
    return {{"score", g.score()}, {"output", output}, {"tests", tests}};
}

} // namespace vkp::cli
