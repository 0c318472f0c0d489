#include "gradebook/grade_files.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/os.h"
#include "check/hidden_cases.h"
#include "classroom/class_summary.h"
#include "report/json_text.h"

namespace vkp {
namespace {

using nlohmann::json;

std::string caseLabel(const PuzzleGrade& p, const CaseGrade& c) {
    return p.puzzle->slug + " case " + std::to_string(c.index + 1);
}

json orNull(const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
}

json caseJson(const CaseGrade& c) {
    return {{"index", c.index + 1},
            {"name", c.name},
            {"points", c.points},
            {"earned", c.earned},
            {"pass", c.pass},
            {"hidden", c.hidden},
            {"failure", c.pass ? json(nullptr) : json(failureKindName(c.failure))},
            {"reason", c.pass ? json(nullptr) : json(c.reason)},
            {"cause", c.pass ? json(nullptr) : orNull(c.cause)}};
}

json puzzleSetJson(const GradedClass& graded) {
    json set = json::array();
    for (size_t k = 0; k < graded.puzzles.size(); ++k) {
        const Puzzle& p = *graded.puzzles[k];
        json cases = json::array();
        for (const TestCase& c : p.cases)
            cases.push_back({{"name", c.name}, {"points", c.points}, {"hidden", c.hidden}});
        set.push_back(
            {{"slug", p.slug},
             {"title", p.title},
             {"fingerprint", k < graded.fingerprints.size() ? graded.fingerprints[k] : ""},
             {"cases", cases}});
    }
    return set;
}

// A case as students see it named: "case N: NAME", "SLUG case N: NAME" among several puzzles; a
// hidden case's name is the teacher's, as in `show`.
std::string studentCaseLabel(const SubmissionGrade& g, const PuzzleGrade& p, const CaseGrade& c) {
    std::string label =
        g.puzzles.size() > 1 ? caseLabel(p, c) : "case " + std::to_string(c.index + 1);
    if (c.hidden) return label + ": " + kHiddenCaseText;
    return c.name.empty() ? label : label + ": " + c.name;
}

std::string scoreText(const SubmissionGrade& g) {
    return pointsText(g.score()) + " of " + pointsText(g.maxScore()) + " points, " +
           std::to_string(g.casesPassed()) + " of " + std::to_string(g.casesTotal()) +
           " cases pass";
}

// At most `longest` bytes of `text`, never cut inside a UTF-8 character.
std::string clipped(const std::string& text, size_t longest) {
    if (text.size() <= longest) return text;
    size_t cut = longest;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return text.substr(0, cut) + "...";
}

// Whether nothing of the submission ran because of its files: every case of every puzzle lost
// for one of the file's reasons.
bool onlyFileFailures(const SubmissionGrade& g) {
    for (const PuzzleGrade& p : g.puzzles)
        for (const CaseGrade& c : p.cases)
            if (c.failure != FailureKind::NotHandedIn && c.failure != FailureKind::Unreadable &&
                c.failure != FailureKind::Compile && c.failure != FailureKind::Interface)
                return false;
    return !g.puzzles.empty();
}

json prairieLearnDocument(const SubmissionGrade& g, size_t longest) {
    json tests = json::array();
    for (const PuzzleGrade& p : g.puzzles)
        for (const CaseGrade& c : p.cases)
            tests.push_back({{"name", studentCaseLabel(g, p, c)},
                             {"points", c.earned},
                             {"max_points", c.points},
                             {"message", c.pass ? "pass" : clipped(shownReason(c), longest)}});
    double max = g.maxScore();
    double score = max > 0 ? g.score() / max : (g.fullMarks() ? 1.0 : 0.0);
    json doc = {{"gradable", true},
                {"score", score},
                {"message", clipped(scoreText(g), longest)},
                {"tests", tests}};
    if (!onlyFileFailures(g)) return doc;
    json errors = json::array();
    for (const PuzzleGrade& p : g.puzzles)
        errors.push_back(
            clipped((g.puzzles.size() > 1 ? p.puzzle->slug + ": " : "") + shownReason(p), longest));
    doc["gradable"] = false;
    doc["score"] = 0.0;
    doc["format_errors"] = errors;
    doc["message"] = "not graded (no attempt counted): " + errors[0].get<std::string>();
    return doc;
}

// Reading back: a field that is missing or of the wrong type throws, and readGradeJson turns
// that into an error naming the file.
struct BadFile : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const json& field(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key))
        throw BadFile(std::string("no \"") + key + "\" where one was expected");
    return j.at(key);
}
std::string text(const json& j, const char* key) {
    const json& v = field(j, key);
    return v.is_null() ? "" : v.get<std::string>();
}

CaseGrade readCase(const json& j) {
    CaseGrade c;
    size_t index = field(j, "index").get<size_t>();
    if (index == 0) throw BadFile("a case numbered 0");
    c.index = index - 1;
    c.name = text(j, "name");
    c.points = field(j, "points").get<double>();
    c.earned = field(j, "earned").get<double>();
    c.pass = field(j, "pass").get<bool>();
    c.hidden = field(j, "hidden").get<bool>();
    c.reason = text(j, "reason");
    c.cause = text(j, "cause");
    auto kind = failureKindNamed(text(j, "failure"));
    if (!kind)
        throw BadFile("a case's failure \"" + text(j, "failure") + "\" is no kind of failure");
    c.failure = *kind;
    return c;
}

std::shared_ptr<Puzzle> readPuzzle(const json& j) {
    auto p = std::make_shared<Puzzle>();
    p->slug = text(j, "slug");
    p->title = text(j, "title");
    for (const json& c : field(j, "cases")) {
        TestCase tc;
        tc.name = text(c, "name");
        tc.points = field(c, "points").get<double>();
        tc.hidden = field(c, "hidden").get<bool>();
        p->cases.push_back(std::move(tc));
    }
    return p;
}

SubmissionGrade readSubmission(const json& j, const GradedClass& graded) {
    SubmissionGrade g;
    g.name = text(j, "name");
    const json& puzzles = field(j, "puzzles");
    if (puzzles.size() != graded.puzzles.size())
        throw BadFile(g.name + " has " + std::to_string(puzzles.size()) + " puzzles, not " +
                      std::to_string(graded.puzzles.size()));
    for (size_t k = 0; k < puzzles.size(); ++k) {
        const json& pj = puzzles[k];
        PuzzleGrade p;
        p.puzzle = graded.puzzles[k];
        if (text(pj, "puzzle") != p.puzzle->slug)
            throw BadFile(g.name + "'s puzzle " + std::to_string(k + 1) + " is " +
                          text(pj, "puzzle") + ", not " + p.puzzle->slug);
        p.path = text(pj, "path");
        p.files = field(pj, "files").get<std::vector<std::string>>();
        p.score = field(pj, "score").get<double>();
        p.maxScore = field(pj, "max_score").get<double>();
        p.passed = field(pj, "cases_passed").get<size_t>();
        p.reason = text(pj, "reason");
        p.caseFile = text(pj, "case_file");
        g.puzzles.push_back(std::move(p));
    }
    for (const json& cj : field(j, "cases")) {
        std::string slug = text(cj, "puzzle");
        auto it = std::find_if(g.puzzles.begin(), g.puzzles.end(),
                               [&](const PuzzleGrade& p) { return p.puzzle->slug == slug; });
        if (it == g.puzzles.end()) throw BadFile(g.name + " has a case of " + slug);
        it->cases.push_back(readCase(cj));
    }
    for (const PuzzleGrade& p : g.puzzles)
        if (p.cases.size() != p.puzzle->cases.size())
            throw BadFile(g.name + " has " + std::to_string(p.cases.size()) + " cases of " +
                          p.puzzle->slug + ", not " + std::to_string(p.puzzle->cases.size()));
    return g;
}

GradedClass readDocument(const json& doc) {
    if (field(doc, "version").get<int>() != kJsonVersion)
        throw BadFile("version " + field(doc, "version").dump() + ", not " +
                      std::to_string(kJsonVersion));
    if (!doc.contains("puzzle_set"))
        throw BadFile("no \"puzzle_set\": it was written by a vkpuzzles older than --shard; grade "
                      "the share again");
    GradedClass g;
    g.device = text(doc, "device");
    g.students = field(doc, "all").get<bool>();
    for (const json& pj : field(doc, "puzzle_set")) {
        auto p = readPuzzle(pj);
        g.puzzles.push_back(p.get());
        g.fingerprints.push_back(text(pj, "fingerprint"));
        g.ownPuzzles.push_back(std::move(p));
    }
    const json& shard = field(doc, "shard");
    if (!shard.is_null()) {
        ShareOfClass s;
        s.share.index = field(shard, "index").get<size_t>();
        s.share.count = field(shard, "count").get<size_t>();
        s.classSize = field(shard, "class_submissions").get<size_t>();
        s.classFingerprint = text(shard, "class_fingerprint");
        if (s.share.index < 1 || s.share.index > s.share.count)
            throw BadFile("share " + std::to_string(s.share.index) + " of " +
                          std::to_string(s.share.count));
        g.share = s;
    }
    for (const json& sj : field(doc, "submissions"))
        g.grades.push_back(readSubmission(sj, g));
    return g;
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

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string gradeCsv(const GradedClass& graded) {
    std::string out = "name,score,max_score";
    for (const Puzzle* p : graded.puzzles)
        for (size_t i = 0; i < p->cases.size(); ++i)
            out += "," + csvField(p->slug + " case " + std::to_string(i + 1));
    out += "\r\n";
    for (const SubmissionGrade& g : graded.grades) {
        out += csvField(g.name) + "," + pointsText(g.score()) + "," + pointsText(g.maxScore());
        for (const PuzzleGrade& p : g.puzzles)
            for (const CaseGrade& c : p.cases)
                out += "," + pointsText(c.earned);
        out += "\r\n";
    }
    return out;
}

json gradeJson(const GradedClass& graded) {
    json subs = json::array();
    double sum = 0, max = 0;
    size_t full = 0;
    for (const SubmissionGrade& g : graded.grades) {
        json perPuzzle = json::array(), cases = json::array();
        for (const PuzzleGrade& p : g.puzzles) {
            for (const CaseGrade& c : p.cases) {
                json one = caseJson(c);
                one["puzzle"] = p.puzzle->slug;
                cases.push_back(one);
            }
            perPuzzle.push_back({{"puzzle", p.puzzle->slug},
                                 {"path", orNull(p.path)},
                                 {"files", p.files},
                                 {"handed_in", !p.path.empty()},
                                 {"score", p.score},
                                 {"max_score", p.maxScore},
                                 {"cases_passed", p.passed},
                                 {"reason", orNull(p.reason)},
                                 {"case_file", orNull(p.caseFile)}});
        }
        subs.push_back({{"name", g.name},
                        {"files", g.files()},
                        {"score", g.score()},
                        {"max_score", g.maxScore()},
                        {"cases_passed", g.casesPassed()},
                        {"cases_total", g.casesTotal()},
                        {"reason", orNull(g.reason())},
                        {"puzzles", perPuzzle},
                        {"cases", cases}});
        sum += g.score();
        max = std::max(max, g.maxScore());
        full += g.fullMarks() ? 1 : 0;
    }
    json slugs = json::array();
    for (const Puzzle* p : graded.puzzles)
        slugs.push_back(p->slug);
    json shard = nullptr;
    if (graded.share)
        shard = {{"index", graded.share->share.index},
                 {"count", graded.share->share.count},
                 {"class_submissions", graded.share->classSize},
                 {"class_fingerprint", graded.share->classFingerprint}};
    size_t n = graded.grades.size();
    return {{"version", kJsonVersion},
            {"device", graded.device},
            {"puzzles", slugs},
            {"all", graded.students},
            {"puzzle_set", puzzleSetJson(graded)},
            {"shard", shard},
            {"submissions", subs},
            {"summary",
             {{"submissions", n},
              {"mean", n == 0 ? 0.0 : sum / n},
              {"max_score", max},
              {"full_marks", full}}}};
}

Result<GradedClass> readGradeJson(const std::string& text, const std::string& file) {
    auto bad = [&](const std::string& why) {
        return Error{ErrorKind::Usage, file + " is not a `vkpuzzles grade --json` file: " + why};
    };
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) return bad("it does not parse as JSON");
    try {
        return readDocument(doc);
    } catch (const BadFile& e) {
        return bad(e.what());
    } catch (const json::exception& e) {
        return bad(e.what());
    }
}

json gradescopeJson(const SubmissionGrade& g) {
    json tests = json::array();
    for (const PuzzleGrade& p : g.puzzles)
        for (const CaseGrade& c : p.cases)
            tests.push_back({{"name", studentCaseLabel(g, p, c)},
                             {"score", c.earned},
                             {"max_score", c.points},
                             {"output", c.pass ? "pass" : "fail: " + shownReason(c)},
                             {"visibility", c.hidden ? "after_published" : "visible"}});
    return {{"score", g.score()}, {"output", scoreText(g)}, {"tests", tests}};
}

json prairieLearnJson(const SubmissionGrade& g) {
    // Each message cut to a length that keeps the whole under the limit: shorter again for a
    // submission of so many cases that the first length does not.
    json doc;
    for (size_t longest : {size_t(2000), size_t(200), size_t(40)}) {
        doc = prairieLearnDocument(g, longest);
        if (doc.dump().size() < kPrairieLearnMaxBytes) break;
    }
    return doc;
}

json githubResultJson(const SubmissionGrade& g) {
    json tests = json::array();
    for (const PuzzleGrade& p : g.puzzles)
        for (const CaseGrade& c : p.cases) {
            std::string label = studentCaseLabel(g, p, c);
            std::string reason = shownReason(c);
            std::string file;
            if (!p.files.empty()) file = os::pathText(os::toPath(p.files.front()).filename());
            // The reporter prints a failing test's name alone: the name says why.
            tests.push_back({{"name", c.pass ? label : label + " - failed: " + reason},
                             {"status", c.pass ? "pass" : "fail"},
                             {"score", c.earned},
                             {"message", c.pass ? "pass" : reason},
                             {"test_code", ""},
                             {"filename", file},
                             {"line_no", 0}});
        }
    return {{"version", 1},
            {"status", g.fullMarks() ? "pass" : "fail"},
            {"max_score", g.maxScore()},
            {"tests", tests}};
}

} // namespace vkp
