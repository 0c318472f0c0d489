#include "gradebook/class_report_html.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "base/args.h"
#include "base/os.h"
#include "classroom/class_summary.h"
#include "gradebook/grade_files.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

// Names listed in full beside a kind of failure; the rest fold under "and N more".
constexpr size_t kNamesShown = 12;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string percent(double part, double whole) {
    if (whole <= 0) return "";
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * part / whole);
    return buf;
}

// A kind of failure's colour: the common ones fixed, so that a race is purple on every page.
std::string categoryColour(const std::string& category) {
    static const std::map<std::string, std::string> fixed = {
        {"wrong values", "#e07b39"},
        {"does not compile", "#a8324a"},
        {"race", "#7b4bb5"},
        {"race between workgroups", "#9c6ad6"},
        {"out of bounds", "#d1495b"},
        {"timeout", "#3d5a80"},
        {"endless loop?", "#5c7aa3"},
        {"subgroup size", "#2a9d8f"},
        {"not handed in", "#9aa0a6"},
        {"unreadable or empty", "#c4c4c4"},
        {"crashed the worker", "#6d597a"},
        {"inconclusive", "#b8b08d"},
        {"interface mismatch", "#8d6e63"},
        {"uninitialised read", "#c77dff"},
    };
    if (auto it = fixed.find(category); it != fixed.end()) return it->second;
    if (category.rfind("over a limit", 0) == 0) return "#d4a72c";
    static const char* const other[] = {"#6a994e", "#bc6c25", "#577590", "#b5838d", "#43aa8b"};
    size_t h = 0;
    for (unsigned char c : category)
        h = h * 31 + c;
    return other[h % 5];
}

// The fraction of the points a score is, as a cell's background: red to green.
std::string scoreColour(double score, double max) {
    double f = max > 0 ? std::clamp(score / max, 0.0, 1.0) : 1.0;
    char buf[48];
    std::snprintf(buf, sizeof buf, "hsl(%.0f,60%%,%.0f%%)", f * 120, 86 - 6 * f);
    return buf;
}

// A histogram bar's colour: the same hues as scoreColour, stronger.
std::string barColour(double score, double max) {
    double f = max > 0 ? std::clamp(score / max, 0.0, 1.0) : 1.0;
    char buf[48];
    std::snprintf(buf, sizeof buf, "hsl(%.0f,55%%,62%%)", f * 120);
    return buf;
}

// A path as a URL's path: bytes other than unreserved ones and '/' percent-encoded.
std::string urlPath(const std::string& path) {
    std::string out;
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            out += static_cast<char>(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

// The case file's link from the page: relative to the page's folder (the two move together),
// else an absolute file: URL.
std::string caseFileLink(const std::string& caseFile, const std::string& htmlFile) {
    std::error_code ec;
    fs::path target = fs::absolute(os::toPath(caseFile), ec).lexically_normal();
    fs::path from = fs::absolute(os::toPath(htmlFile), ec).parent_path().lexically_normal();
    fs::path rel = target.lexically_relative(from);
    std::string r = os::pathText(rel);
    std::replace(r.begin(), r.end(), '\\', '/');
    if (!rel.empty()) return urlPath(r);
    return "file://" + urlPath(os::pathText(target));
}

// "case 3" (from the file's name, NAME-SLUG-caseN.vkpcase), "SLUG case 3" with several puzzles.
std::string caseFileLabel(const PuzzleGrade& p, bool several) {
    std::string stem = os::pathText(os::toPath(p.caseFile).stem());
    size_t at = stem.rfind("-case");
    std::string label = at == std::string::npos ? "case file" : "case " + stem.substr(at + 5);
    return several ? p.puzzle->slug + " " + label : label;
}

std::string binLabel(const ScoreBin& b, bool last, bool whole) {
    if (b.from == b.to) return pointsText(b.from);
    double to = whole && !last ? b.to - 1 : b.to;
    return pointsText(b.from) + "\u2013" + pointsText(to);
}

// A histogram of `scores` out of `max`, as inline SVG.
std::string histogram(const std::vector<double>& scores, double max, const std::string& label) {
    std::vector<ScoreBin> bins = scoreBins(scores, max);
    bool whole = bins.size() > 1 && bins[0].from == bins[0].to;
    bool wholeRanges =
        !whole && bins.size() > 1 && std::floor(bins[1].from) == bins[1].from &&
        std::all_of(scores.begin(), scores.end(), [](double s) { return std::floor(s) == s; });
    size_t top = 1;
    for (const ScoreBin& b : bins)
        top = std::max(top, b.count);
    const double w = 460, h = 190, left = 8, right = 8, bottom = 34, head = 18;
    double slot = (w - left - right) / bins.size();
    double bar = std::max(2.0, slot * 0.78);
    std::string s = "<svg class=\"hist\" viewBox=\"0 0 " + num(w) + " " + num(h) +
                    "\" role=\"img\" aria-label=\"" + htmlEscape(label) + "\">";
    s += "<line x1=\"" + num(left) + "\" y1=\"" + num(h - bottom) + "\" x2=\"" + num(w - right) +
         "\" y2=\"" + num(h - bottom) + "\" class=\"axis\"/>";
    for (size_t i = 0; i < bins.size(); ++i) {
        const ScoreBin& b = bins[i];
        double height = (h - bottom - head) * b.count / top;
        double x = left + slot * i + (slot - bar) / 2;
        double y = h - bottom - height;
        bool last = i + 1 == bins.size();
        std::string range = binLabel(b, last, whole || wholeRanges);
        s += "<g><title>" + htmlEscape(range) + " points: " + std::to_string(b.count) + "</title>";
        s += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(bar) +
             "\" height=\"" + num(std::max(height, b.count ? 1.0 : 0.0)) + "\" fill=\"" +
             barColour(whole ? b.from : (b.from + b.to) / 2, max) + "\" stroke=\"#0002\"/>";
        if (b.count)
            s += "<text x=\"" + num(x + bar / 2) + "\" y=\"" + num(y - 4) + "\" class=\"count\">" +
                 std::to_string(b.count) + "</text>";
        s += "<text x=\"" + num(x + bar / 2) + "\" y=\"" + num(h - bottom + 14) +
             "\" class=\"tick\">" + htmlEscape(range) + "</text></g>";
    }
    s += "<text x=\"" + num(w / 2) + "\" y=\"" + num(h - 4) +
         "\" class=\"axis-label\">points (out of " + pointsText(max) + ")</text></svg>";
    return s;
}

// A horizontal bar split by kind of failure: `parts` of `whole`.
std::string stackedBar(const std::vector<std::pair<std::string, size_t>>& parts, size_t whole,
                       double width) {
    std::string s = "<svg class=\"bar\" width=\"" + num(width) + "\" height=\"14\" viewBox=\"0 0 " +
                    num(width) + " 14\"><rect width=\"" + num(width) +
                    "\" height=\"14\" class=\"track\"/>";
    double x = 0;
    for (const auto& [category, n] : parts) {
        double w = whole ? width * n / whole : 0;
        s += "<rect x=\"" + num(x) + "\" width=\"" + num(w) + "\" height=\"14\" fill=\"" +
             categoryColour(category) + "\"><title>" + htmlEscape(category) + ": " +
             std::to_string(n) + "</title></rect>";
        x += w;
    }
    return s + "</svg>";
}

std::string names(const std::vector<std::string>& students) {
    std::string s;
    for (size_t i = 0; i < students.size() && i < kNamesShown; ++i)
        s += (i ? ", " : "") + htmlEscape(students[i]);
    if (students.size() > kNamesShown) {
        s += " <details><summary>and " + std::to_string(students.size() - kNamesShown) +
             " more</summary>";
        for (size_t i = kNamesShown; i < students.size(); ++i)
            s += (i > kNamesShown ? ", " : "") + htmlEscape(students[i]);
        s += "</details>";
    }
    return s;
}

std::string caseTitle(const CaseSummary& c) {
    return "case " + std::to_string(c.index + 1);
}

std::string puzzleSection(const PuzzleSummary& p, size_t classSize, const std::string& noun) {
    const Puzzle& puzzle = *p.puzzle;
    std::string s = "<section class=\"puzzle\" id=\"puzzle-" + htmlEscape(puzzle.slug) + "\">";
    s += "<h2>" + htmlEscape(puzzle.title.empty() ? puzzle.slug : puzzle.title) +
         " <span class=\"slug\">" + htmlEscape(puzzle.slug) + "</span></h2>";
    s += "<p class=\"facts\">mean <b>" + pointsText(p.mean) + "</b> of " + pointsText(p.maxScore) +
         " points (" + percent(p.mean, p.maxScore) + ") &middot; <b>" +
         std::to_string(p.fullMarks) + "</b> of " + std::to_string(classSize) +
         " with full marks &middot; " + std::to_string(p.handedIn) + " handed in</p>";
    s += "<div class=\"row\"><div class=\"panel\"><h3>Scores</h3>" +
         histogram(p.scores, p.maxScore, puzzle.slug + ": scores") + "</div>";
    s += "<div class=\"panel grow\"><h3>What went wrong</h3>";
    if (p.categories.empty()) s += "<p class=\"none\">Every " + noun + " passed every case.</p>";
    size_t most = p.categories.empty() ? 1 : p.categories.front().students.size();
    s += "<ul class=\"cats\">";
    for (const CategoryCount& c : p.categories) {
        s += "<li><div class=\"cat-head\"><span class=\"swatch\" style=\"background:" +
             categoryColour(c.category) + "\"></span><b>" + htmlEscape(c.category) + "</b>";
        s += "<span class=\"cat-bar\"><i style=\"width:" +
             num(100.0 * c.students.size() / std::max<size_t>(most, 1)) +
             "%;background:" + categoryColour(c.category) + "\"></i></span>";
        s += "<span class=\"cat-count\">" + std::to_string(c.students.size()) + " " + noun +
             (c.students.size() == 1 ? "" : "s") + " &middot; " + std::to_string(c.cases) +
             (c.cases == 1 ? " case" : " cases") + "</span></div>";
        s += "<div class=\"names\">" + names(c.students) + "</div></li>";
    }
    s += "</ul></div></div>";
    s += "<h3>Cases</h3><table class=\"cases\"><thead><tr><th>case</th><th>name</th>"
         "<th class=\"n\">points</th><th>failed by</th><th "
         "class=\"n\">share</th></tr></thead><tbody>";
    std::map<std::string, size_t> rank; // the case bars in the order of "what went wrong"
    for (size_t i = 0; i < p.categories.size(); ++i)
        rank[p.categories[i].category] = i;
    for (CaseSummary c : p.cases) {
        std::stable_sort(
            c.byCategory.begin(), c.byCategory.end(),
            [&](const auto& a, const auto& b) { return rank[a.first] < rank[b.first]; });
        s += "<tr><td>" + caseTitle(c) + "</td><td>" +
             (c.hidden ? std::string("<span class=\"hidden\">hidden</span>") : htmlEscape(c.name)) +
             "</td><td class=\"n\">" + pointsText(c.points) + "</td><td>" +
             stackedBar(c.byCategory, classSize, 320) + "</td><td class=\"n\">" +
             percent(c.failed, classSize) + " <span class=\"of\">(" + std::to_string(c.failed) +
             " of " + std::to_string(classSize) + ")</span></td></tr>";
    }
    return s + "</tbody></table></section>";
}

std::string studentTable(const GradedClass& g, const std::string& htmlFile,
                         const std::string& noun) {
    bool several = g.puzzles.size() > 1;
    std::string s = "<section id=\"students\"><div class=\"table-head\"><h2>" +
                    std::string(g.students ? "Students" : "Submissions") +
                    "</h2><input id=\"find\" type=\"search\" placeholder=\"Find a " + noun +
                    "\" aria-label=\"Find a " + noun +
                    "\"><span class=\"hint\">click a heading "
                    "to sort</span></div>";
    s += "<table class=\"sortable students\"><thead><tr><th>name</th><th class=\"n\">score</th>";
    if (several)
        for (const Puzzle* p : g.puzzles)
            s += "<th class=\"n\">" + htmlEscape(p->slug) + "</th>";
    s += "<th class=\"n\">cases</th><th>why it lost points</th><th>case "
         "files</th></tr></thead><tbody>";
    for (size_t i = 0; i < g.grades.size(); ++i) {
        const SubmissionGrade& sg = g.grades[i];
        double score = sg.score(), max = sg.maxScore();
        s += "<tr data-i=\"" + std::to_string(i) + "\"><td class=\"name\" title=\"" +
             htmlEscape(sg.name) + "\">" + htmlEscape(sg.name) +
             "</td><td class=\"n score\" data-v=\"" + num(score) +
             "\" style=\"background:" + scoreColour(score, max) + "\">" + pointsText(score) +
             " / " + pointsText(max) + "</td>";
        if (several)
            for (const PuzzleGrade& p : sg.puzzles)
                s += "<td class=\"n\" data-v=\"" + num(p.score) +
                     "\" style=\"background:" + scoreColour(p.score, p.maxScore) + "\">" +
                     pointsText(p.score) + "</td>";
        s += "<td class=\"n\" data-v=\"" + std::to_string(sg.casesPassed()) + "\">" +
             std::to_string(sg.casesPassed()) + "/" + std::to_string(sg.casesTotal()) + "</td>";
        std::string why;
        for (const PuzzleGrade& p : sg.puzzles) {
            std::string r = shownReason(p);
            if (r.empty()) continue;
            why = several ? p.puzzle->slug + ": " + r : r;
            break;
        }
        s += "<td class=\"why\" title=\"" + htmlEscape(why) + "\">" + htmlEscape(why) +
             "</td><td class=\"files\">";
        for (const PuzzleGrade& p : sg.puzzles) {
            if (p.caseFile.empty()) continue;
            s += "<a href=\"" + htmlEscape(caseFileLink(p.caseFile, htmlFile)) +
                 "\" title=\"vkpuzzles open " + htmlEscape(p.caseFile) + "\">" +
                 htmlEscape(caseFileLabel(p, several)) + "</a> ";
        }
        s += "</td></tr>";
    }
    return s + "</tbody></table></section>";
}

const char* const kStyle = R"(
:root{--fg:#1d2330;--dim:#5d6675;--line:#e3e6eb;--bg:#f6f7f9;--panel:#fff;--accent:#3d5a80}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;
color:var(--fg);background:var(--bg)}
main{max-width:1240px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:0 0 6px}
h3{font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:var(--dim);margin:0 0 10px}
section > h3{margin-top:18px}
.sub,.facts,.hint,.of,.slug{color:var(--dim)}.slug{font-size:14px;font-weight:400;margin-left:6px}
.cards{display:flex;gap:14px;margin:18px 0}
.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:12px 16px;flex:1}
.card b{display:block;font-size:24px}.card span{color:var(--dim)}
.row{display:flex;gap:16px;align-items:stretch;flex-wrap:wrap}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:14px 16px;
flex:0 0 auto;min-width:0}
.panel.grow{flex:1 1 420px}
section{margin:28px 0}
section.puzzle{border-top:2px solid var(--line);padding-top:18px}
svg.hist{width:460px;height:190px;display:block}
svg .axis{stroke:#9aa0a6}svg .count{font-size:11px;text-anchor:middle;fill:var(--fg)}
svg .tick{font-size:10px;text-anchor:middle;fill:var(--dim)}
svg .axis-label{font-size:11px;text-anchor:middle;fill:var(--dim)}
svg.bar{vertical-align:middle}svg.bar .track{fill:#eef0f3}
ul.cats{list-style:none;margin:0;padding:0}
ul.cats li{padding:6px 0;border-bottom:1px solid var(--line)}ul.cats li:last-child{border:0}
.cat-head{display:grid;grid-template-columns:12px minmax(120px,210px) 1fr minmax(170px,auto);
align-items:center;gap:10px}
.swatch{width:12px;height:12px;border-radius:3px;flex:0 0 auto}
.cat-bar{height:8px;background:#eef0f3;border-radius:4px;overflow:hidden}
.cat-bar i{display:block;height:100%}
.cat-count{color:var(--dim);white-space:nowrap}
.names{color:var(--dim);font-size:13px;margin:2px 0 0 22px;overflow-wrap:anywhere}
details{display:inline}summary{cursor:pointer;color:var(--accent);display:inline}
table{border-collapse:collapse;background:var(--panel);border:1px solid var(--line);border-radius:8px}
th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}
th{font-size:12px;color:var(--dim);font-weight:600;background:#fafbfc}
td.n,th.n{text-align:right;white-space:nowrap}
table.cases{min-width:760px}
.hidden{font-style:italic;color:var(--dim)}
.table-head{display:flex;align-items:baseline;gap:14px;margin-bottom:8px}
#find{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px}
table.students{width:100%}
table.sortable th{cursor:pointer;user-select:none;position:sticky;top:0}
table.sortable th[aria-sort=ascending]::after{content:" \25B2"}
table.sortable th[aria-sort=descending]::after{content:" \25BC"}
td.name{font-weight:600;white-space:nowrap;max-width:220px;overflow:hidden;text-overflow:ellipsis}
td.why{color:var(--dim);max-width:420px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
td.files{min-width:150px}
td a{color:var(--accent);margin-right:8px;white-space:nowrap;display:inline-block}
.none{color:#2a7d4f}
footer{color:var(--dim);font-size:12px;margin-top:30px}
)";

const char* const kScript = R"(
for (const table of document.querySelectorAll('table.sortable')) {
  const heads = Array.from(table.tHead.rows[0].cells);
  heads.forEach((th, col) => {
    th.tabIndex = 0;
    const sort = () => {
      const asc = th.getAttribute('aria-sort') !== 'ascending';
      heads.forEach(h => h.removeAttribute('aria-sort'));
      th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
      const key = r => {
        const c = r.cells[col];
        return c.dataset.v !== undefined ? parseFloat(c.dataset.v) : c.textContent.toLowerCase();
      };
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const d = typeof x === 'number' ? x - y : x.localeCompare(y);
        return (asc ? d : -d) || a.dataset.i - b.dataset.i;
      });
      for (const r of rows) body.appendChild(r);
    };
    th.addEventListener('click', sort);
    th.addEventListener('keydown', e => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); }
    });
  });
}
const find = document.getElementById('find');
if (find) find.addEventListener('input', () => {
  const q = find.value.toLowerCase();
  for (const r of document.querySelectorAll('table.students tbody tr'))
    r.hidden = q !== '' && !r.cells[0].textContent.toLowerCase().includes(q);
});
)";

} // namespace

std::string htmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string classReportHtml(const GradedClass& g, const std::string& htmlFile) {
    ClassSummary sum = summarizeClass(g.puzzles, g.grades);
    size_t n = g.grades.size();
    std::string noun = g.students ? "student" : "submission";
    std::vector<std::string> slugs;
    for (const Puzzle* p : g.puzzles)
        slugs.push_back(p->slug);
    std::string what =
        g.puzzles.size() == 1 ? g.puzzles[0]->slug : std::to_string(g.puzzles.size()) + " puzzles";
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
                    "<title>Class report: " +
                    htmlEscape(what) + "</title><style>" + kStyle + "</style></head><body><main>";
    s += "<header><h1>Class report: " + htmlEscape(what) + "</h1><p class=\"sub\">" +
         std::to_string(n) + " " + noun + (n == 1 ? "" : "s") + " graded on " +
         htmlEscape(joined(slugs, ", ", " and ")) + " &middot; on " + htmlEscape(g.device) +
         (g.share ? " &middot; share " + std::to_string(g.share->share.index) + " of " +
                        std::to_string(g.share->share.count) + " of a class of " +
                        std::to_string(g.share->classSize)
                  : "") +
         "</p></header>";
    s += "<div class=\"cards\"><div class=\"card\"><b>" + pointsText(sum.mean) + " / " +
         pointsText(sum.maxScore) + "</b><span>mean score (" + percent(sum.mean, sum.maxScore) +
         ")</span></div><div class=\"card\"><b>" + pointsText(sum.median) +
         "</b><span>median</span></div><div class=\"card\"><b>" + std::to_string(sum.fullMarks) +
         "</b><span>with full marks (" + percent(sum.fullMarks, n) + ")</span></div>";
    size_t none = 0;
    for (const SubmissionGrade& sg : g.grades)
        none += std::all_of(sg.puzzles.begin(), sg.puzzles.end(),
                            [](const PuzzleGrade& p) { return p.path.empty(); })
                    ? 1
                    : 0;
    s += "<div class=\"card\"><b>" + std::to_string(n - none) + "</b><span>handed something in" +
         "</span></div></div>";
    if (g.puzzles.size() > 1) {
        s += "<div class=\"row\"><div class=\"panel\"><h3>Total scores</h3>" +
             histogram(sum.totals, sum.maxScore, "total scores") +
             "</div><div class=\"panel grow\"><h3>Puzzles</h3><table><thead><tr><th>puzzle</th>"
             "<th class=\"n\">mean</th><th class=\"n\">full marks</th><th>most common "
             "problem</th></tr></thead><tbody>";
        for (const PuzzleSummary& p : sum.puzzles) {
            std::string top = p.categories.empty()
                                  ? std::string("&mdash;")
                                  : htmlEscape(p.categories.front().category) + " (" +
                                        std::to_string(p.categories.front().students.size()) + ")";
            s += "<tr><td><a href=\"#puzzle-" + htmlEscape(p.puzzle->slug) + "\">" +
                 htmlEscape(p.puzzle->slug) + "</a></td><td class=\"n\">" + pointsText(p.mean) +
                 " / " + pointsText(p.maxScore) + "</td><td class=\"n\">" +
                 std::to_string(p.fullMarks) + "</td><td>" + top + "</td></tr>";
        }
        s += "</tbody></table></div></div>";
    }
    for (const PuzzleSummary& p : sum.puzzles)
        s += puzzleSection(p, n, noun);
    s += studentTable(g, htmlFile, noun);
    s += "<footer>Written by vkpuzzles grade. A hidden case shows its number and the kind of "
         "failure only, never its name or data. Case files open with <code>vkpuzzles open "
         "FILE</code>.</footer></main><script>" +
         std::string(kScript) + "</script></body></html>\n";
    return s;
}

} // namespace vkp
