#include "cli/grade_command.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "base/os.h"
#include "base/text_file.h"
#include "cli/commands.h"
#include "cli/grade_report.h"
#include "cli/terminal_text.h"
#include "gpu/device_runner.h"
#include "session/json_text.h"
#include "session/user_state.h"

namespace fs = std::filesystem;

namespace vkp::cli {
namespace {

Error usageError(const std::string& message) {
    return Error{ErrorKind::Usage, message};
}

// An output file's folder must exist before anything is graded: a typo found after a class was
// graded would cost the whole run.
std::optional<Error> checkOutput(const Args& a, const char* option,
                                 std::optional<std::string>& to) {
    to = a.value(option);
    if (!to) return std::nullopt;
    fs::path parent = os::toPath(*to).parent_path();
    std::error_code ec;
    if (to->empty() || fs::is_directory(os::toPath(*to), ec))
        return usageError("--" + std::string(option) + " needs a file name, not '" + *to + "'");
    if (!parent.empty() && !fs::is_directory(parent, ec))
        return usageError("--" + std::string(option) + " " + *to + ": there is no folder '" +
                          os::pathText(parent) + "'");
    fs::path folder = parent.empty() ? os::toPath(".") : parent;
    if (!os::canWriteIn(os::pathText(folder)))
        return usageError("--" + std::string(option) + " " + *to + ": the folder '" +
                          os::pathText(folder) + "' cannot be written to");
    return std::nullopt;
}

// The same file whatever way it was written.
fs::path samePath(const std::string& p) {
    std::error_code ec;
    fs::path out = fs::weakly_canonical(fs::absolute(os::toPath(p), ec), ec);
    return ec ? fs::absolute(os::toPath(p)).lexically_normal() : out;
}

// Outputs go beside the class, never into it (a later grade would take a CSV for a submission,
// or the CSV would replace one), and two options never name one file.
std::optional<Error> checkOutputPlaces(const GradePlan& plan, const std::string& dir) {
    fs::path classDir = samePath(dir);
    std::vector<std::pair<const char*, fs::path>> outputs;
    for (auto [option, to] : {std::pair{"csv", &plan.csv}, std::pair{"json", &plan.json},
                              std::pair{"gradescope", &plan.gradescope}}) {
        if (!*to) continue;
        fs::path out = samePath(**to);
        auto rel = out.lexically_relative(classDir);
        if (!rel.empty() && *rel.begin() != "..")
            return usageError("--" + std::string(option) + " " + **to + " is inside '" + dir +
                              "', the folder being graded: write it beside the class");
        for (const auto& [other, path] : outputs)
            if (path == out)
                return usageError("--" + std::string(other) + " and --" + option +
                                  " name the same file, " + **to + "; give each its own");
        outputs.emplace_back(option, out);
    }
    return std::nullopt;
}

std::string names(const std::vector<Submission>& subs) {
    std::vector<std::string> n;
    for (size_t i = 0; i < subs.size() && i < 3; ++i)
        n.push_back(subs[i].name);
    if (subs.size() > 3) n.push_back("...");
    return joined(n, ", ", ", ");
}

// The whole class's progress on stderr: a bar redrawn in place on a terminal, else a line per
// submission.
class Progress {
  public:
    Progress(const GradeStreams& s, size_t total) : m_s(s), m_total(total), m_line(s.rawErr) {}

    void starting(size_t index, const std::string& name) {
        std::string count = std::to_string(index + 1) + "/" + std::to_string(m_total);
        if (!m_line.on()) {
            m_s.err << m_s.style.dim("grading " + count + ": " + name) << "\n" << std::flush;
            return;
        }
        constexpr size_t kWidth = 24;
        size_t filled = m_total ? kWidth * index / m_total : 0;
        m_line.show("[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] " +
                    count + "  " + name);
    }
    void clear() { m_line.clear(); }

  private:
    const GradeStreams& m_s;
    size_t m_total;
    ProgressLine m_line;
};

std::string header(const GradePlan& plan, const std::string& device) {
    size_t n = plan.search.submissions.size();
    if (plan.puzzles.size() == 1) {
        const Puzzle& p = *plan.puzzles[0];
        double points = 0;
        for (const TestCase& c : p.cases)
            points += c.points;
        return "grading " + std::to_string(n) + (n == 1 ? " submission" : " submissions") + " of " +
               p.slug + " (" + std::to_string(p.cases.size()) + " cases, " + pointsText(points) +
               " points) on " + device;
    }
    std::vector<std::string> slugs;
    for (const Puzzle* p : plan.puzzles)
        slugs.push_back(p->slug);
    return "grading " + std::to_string(n) + (n == 1 ? " student" : " students") + " on " +
           std::to_string(slugs.size()) + " puzzles (" + joined(slugs, ", ", " and ") + ") on " +
           device;
}

} // namespace

Result<GradePlan> planGrade(const Args& a, const PuzzleSet& set) {
    GradePlan plan;
    bool all = plan.all = a.has("all");
    size_t wanted = all ? 1 : 2;
    if (a.positionals.size() != wanted)
        return usageError(all ? "name the class folder: `vkpuzzles grade --all DIR` (one folder "
                                "per student)"
                              : "name a puzzle and the folder of submissions: `vkpuzzles grade "
                                "PUZZLE DIR`, or `vkpuzzles grade --all DIR`");
    if (all) {
        plan.puzzles = set.inScope();
        // A student's SLUG.comp must name one puzzle.
        for (size_t i = 0; i < plan.puzzles.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if (plan.puzzles[i]->slug == plan.puzzles[j]->slug)
                    return usageError("two puzzles have the slug '" + plan.puzzles[i]->slug +
                                      "' (" + plan.puzzles[j]->folder + " and " +
                                      plan.puzzles[i]->folder + "): a student's " +
                                      plan.puzzles[i]->slug +
                                      ".comp cannot say which; give each its own slug");
    } else {
        auto p = set.find(a.positionals[0]);
        if (!p) return p.error();
        plan.puzzles = {*p};
    }
    for (auto [option, to] : {std::pair{"csv", &plan.csv}, std::pair{"json", &plan.json},
                              std::pair{"gradescope", &plan.gradescope}})
        if (auto e = checkOutput(a, option, *to)) return *e;
    const std::string& dir = a.positionals.back();
    if (auto e = checkOutputPlaces(plan, dir)) return *e;
    if (auto folder = a.value("case-files")) {
        fs::path out = samePath(*folder), rel = out.lexically_relative(samePath(dir));
        if (!rel.empty() && *rel.begin() != "..")
            return usageError("--case-files " + *folder + " is inside '" + dir +
                              "', the folder being graded: write them beside the class");
        plan.caseFiles = *folder;
    }
    auto found = all ? findClassSubmissions(plan.puzzles, dir) : findSubmissions(dir);
    if (!found) return found.error();
    plan.search = std::move(*found);
    size_t n = plan.search.submissions.size();
    if (plan.gradescope && n > 1)
        return usageError("--gradescope writes the results.json of one submission (Gradescope "
                          "runs the autograder once per student), and '" +
                          dir + "' holds " + std::to_string(n) + ": " +
                          names(plan.search.submissions) +
                          "; grade one at a time, or use --csv or --json for a class");
    return plan;
}

int runGrade(const GradePlan& plan, const Compiler& compiler, DeviceRunner& runner,
             const CheckOptions& options, const GradeStreams& s, SubgroupSizeDevices* sizes) {
    for (const std::string& w : plan.search.warnings)
        s.err << s.style.warn("warning: ") << w << "\n";
    s.out << s.style.bold(header(plan, runner.info().name)) << "\n" << std::flush;
    size_t width = 0;
    for (const Submission& sub : plan.search.submissions)
        width = std::max(width, sub.name.size());
    Progress progress(s, plan.search.submissions.size());
    GradeProgress hooks;
    hooks.starting = [&](size_t i, const Submission& sub) { progress.starting(i, sub.name); };
    size_t caseFiles = 0;
    hooks.done = [&](size_t i, const SubmissionGrade& g) {
        progress.clear();
        s.out << "  " << gradeLine(g, width, s.style) << "\n" << std::flush;
        if (!plan.caseFiles) return;
        // The first failing case of each puzzle, traced again, for the teacher to open.
        for (const PuzzleGrade& pg : g.puzzles) {
            if (pg.passed == pg.cases.size()) continue;
            progress.starting(i, g.name + ": a case file of " + pg.puzzle->slug);
            auto file = failingCaseFile(compiler, runner, pg, options);
            progress.clear();
            if (!file) continue; // none ran: the line above says why
            std::string path = os::pathText(os::toPath(*plan.caseFiles) /
                                            os::toPath(g.name + "-" + pg.puzzle->slug + "-case" +
                                                       std::to_string(file->caseIndex() + 1) +
                                                       kCaseFileExtension));
            if (Status w = writeCaseFile(path, *file); !w)
                s.err << "vkpuzzles: " << w.error().message << "\n";
            else
                ++caseFiles;
        }
    };
    std::vector<SubmissionGrade> grades =
        gradeClass(compiler, runner, plan.puzzles, plan.search.submissions, options, hooks, sizes);
    progress.clear();
    s.out << gradeSummary(grades, plan.all ? "student" : "submission", s.style) << "\n"
          << std::flush;
    if (plan.caseFiles)
        s.out << "case files: " << caseFiles << " (a failing case of each submission that ran) in "
              << *plan.caseFiles << s.style.dim("; open one with vkpuzzles open FILE") << "\n";
    int code = kExitPass;
    auto write = [&](const std::optional<std::string>& to, const std::string& text) {
        if (!to) return;
        if (Status w = writeFileAtomically(*to, text); !w) {
            s.err << "vkpuzzles: " << w.error().message << "\n"; // it names the file
            code = kExitUsage;
        }
    };
    write(plan.csv, gradeCsv(plan.puzzles, grades));
    write(plan.json, jsonText(gradeJson(plan.puzzles, grades, runner.info().name)) + "\n");
    if (!grades.empty()) write(plan.gradescope, jsonText(gradescopeJson(grades.front())) + "\n");
    return code;
}

} // namespace vkp::cli
