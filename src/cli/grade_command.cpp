#include "cli/grade_command.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <map>

#include "base/os.h"
#include "base/text_file.h"
#include "cli/command_context.h"
#include "cli/grade_report.h"
#include "cli/terminal_text.h"
#include "gpu/device_runner.h"
#include "gradebook/class_report_html.h"
#include "puzzle/device_needs.h"
#include "store/user_state.h"

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

// Every output a grade or a merge writes, with its option's name.
std::vector<std::pair<const char*, std::optional<std::string>*>> outputList(GradeOutputs& o) {
    return {{"csv", &o.csv},
            {"json", &o.json},
            {"gradescope", &o.gradescope},
            {"html", &o.html},
            {"prairielearn", &o.prairieLearn},
            {"github-result", &o.githubResult}};
}

// The outputs that hold the results of one submission, for the platform it was handed in on;
// the first asked for, or nullptr.
const char* oneSubmissionOutput(const GradeOutputs& o) {
    if (o.gradescope) return "gradescope";
    if (o.prairieLearn) return "prairielearn";
    if (o.githubResult) return "github-result";
    return nullptr;
}

std::string platformOf(const char* option) {
    std::string o = option;
    return o == "gradescope"     ? "Gradescope"
           : o == "prairielearn" ? "PrairieLearn"
                                 : "GitHub Classroom";
}

std::optional<Error> readOutputs(const Args& a, GradeOutputs& outputs) {
    for (auto [option, to] : outputList(outputs))
        if (auto e = checkOutput(a, option, *to)) return e;
    return std::nullopt;
}

// Outputs go beside the class, never into it (a later grade would take a CSV for a submission,
// or the CSV would replace one), and two options never name one file.
std::optional<Error> checkOutputPlaces(GradeOutputs outputs, const std::string& dir) {
    fs::path classDir = samePath(dir);
    std::vector<std::pair<const char*, fs::path>> seen;
    for (auto [option, to] : outputList(outputs)) {
        if (!*to) continue;
        fs::path out = samePath(**to);
        auto rel = out.lexically_relative(classDir);
        if (!dir.empty() && !rel.empty() && *rel.begin() != "..")
            return usageError("--" + std::string(option) + " " + **to + " is inside '" + dir +
                              "', the folder being graded: write it beside the class");
        for (const auto& [other, path] : seen)
            if (path == out)
                return usageError("--" + std::string(other) + " and --" + option +
                                  " name the same file, " + **to + "; give each its own");
        seen.emplace_back(option, out);
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

std::string shareText(const GradePlan& plan) {
    if (!plan.share) return "";
    return "share " + std::to_string(plan.share->share.index) + " of " +
           std::to_string(plan.share->share.count) + " (" +
           std::to_string(plan.search.submissions.size()) + " of the class's " +
           std::to_string(plan.share->classSize) + "): ";
}

std::string header(const GradePlan& plan, const std::string& device) {
    size_t n = plan.search.submissions.size();
    if (plan.puzzles.size() == 1) {
        const Puzzle& p = *plan.puzzles[0];
        double points = 0;
        for (const TestCase& c : p.cases)
            points += c.points;
        return "grading " + shareText(plan) + std::to_string(n) +
               (n == 1 ? " submission" : " submissions") + " of " + p.slug + " (" +
               std::to_string(p.cases.size()) + " cases, " + pointsText(points) + " points) on " +
               device;
    }
    std::vector<std::string> slugs;
    for (const Puzzle* p : plan.puzzles)
        slugs.push_back(p->slug);
    return "grading " + shareText(plan) + std::to_string(n) + (n == 1 ? " student" : " students") +
           " on " + std::to_string(slugs.size()) + " puzzles (" + joined(slugs, ", ", " and ") +
           ") on " + device;
}

// Writes every file asked for; the exit status (2 when one could not be written: its message
// names it).
int writeOutputs(const GradeOutputs& o, const GradedClass& graded, const GradeStreams& s) {
    int code = kExitPass;
    auto write = [&](const std::optional<std::string>& to, auto make) {
        if (!to) return;
        if (Status w = writeFileAtomically(*to, make()); !w) {
            s.err << "vkpuzzles: " << w.error().message << "\n"; // it names the file
            code = kExitUsage;
        }
    };
    write(o.csv, [&] { return gradeCsv(graded); });
    write(o.json, [&] { return jsonText(gradeJson(graded)) + "\n"; });
    if (!graded.grades.empty()) {
        const SubmissionGrade& one = graded.grades.front();
        write(o.gradescope, [&] { return jsonText(gradescopeJson(one)) + "\n"; });
        write(o.prairieLearn, [&] { return jsonText(prairieLearnJson(one)) + "\n"; });
        write(o.githubResult, [&] { return jsonText(githubResultJson(one)) + "\n"; });
    }
    write(o.html, [&] { return classReportHtml(graded, *o.html); });
    if (o.html && code == kExitPass)
        s.out << "class report: " << *o.html << s.style.dim("; open it in a browser") << "\n";
    return code;
}

void printGrades(const GradedClass& graded, const GradeStreams& s) {
    size_t width = 0;
    for (const SubmissionGrade& g : graded.grades)
        width = std::max(width, g.name.size());
    for (const SubmissionGrade& g : graded.grades)
        s.out << "  " << gradeLine(g, width, s.style) << "\n";
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
    if (auto e = readOutputs(a, plan.outputs)) return *e;
    const std::string& dir = a.positionals.back();
    if (auto e = checkOutputPlaces(plan.outputs, dir)) return *e;
    std::optional<Share> share;
    if (auto text = a.value("shard")) {
        auto parsed = parseShard(*text);
        if (!parsed) return parsed.error();
        share = *parsed;
        if (!plan.outputs.json)
            return usageError("--shard " + *text +
                              " grades one share of the class for `grade --merge` to put "
                              "together: write its results with --json FILE (share-" +
                              std::to_string(share->index) + ".json)");
        if (const char* one = oneSubmissionOutput(plan.outputs))
            return usageError("--" + std::string(one) +
                              " writes the results of one submission; --shard " + *text +
                              " splits a class: use one or the other");
    }
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
    if (share) {
        plan.share = ShareOfClass{*share, n, classFingerprint(plan.search.submissions)};
        plan.search.submissions = shareOf(plan.search.submissions, *share);
    }
    const char* one = oneSubmissionOutput(plan.outputs);
    if (one && n > 1)
        return usageError("--" + std::string(one) + " writes the results of one submission (" +
                          platformOf(one) + " grades one student at a time), and '" + dir +
                          "' holds " + std::to_string(n) + ": " + names(plan.search.submissions) +
                          "; grade one at a time, or use --csv or --json for a class");
    return plan;
}

int runGrade(const GradePlan& plan, const Compiler& compiler, DeviceRunner& runner,
             const CheckOptions& options, const GradeStreams& s, SubgroupSizeDevices* sizes) {
    for (const std::string& w : plan.search.warnings)
        s.err << s.style.warn("warning: ") << w << "\n";
    s.out << s.style.bold(header(plan, runner.info().name)) << "\n" << std::flush;
    if (plan.share && plan.search.submissions.empty())
        s.out << s.style.dim("this share holds none of the class's submissions; its files say so, "
                             "for grade --merge")
              << "\n";
    size_t width = 0;
    for (const Submission& sub : plan.search.submissions)
        width = std::max(width, sub.name.size());
    Progress progress(s, plan.search.submissions.size());
    GradeProgress hooks;
    hooks.starting = [&](size_t i, const Submission& sub) { progress.starting(i, sub.name); };
    std::map<std::pair<size_t, size_t>, std::string> caseFiles; // (submission, puzzle) -> file
    hooks.done = [&](size_t i, const SubmissionGrade& g) {
        progress.clear();
        s.out << "  " << gradeLine(g, width, s.style) << "\n" << std::flush;
        if (!plan.caseFiles) return;
        // The first failing case of each puzzle, traced again, for the teacher to open.
        for (size_t k = 0; k < g.puzzles.size(); ++k) {
            const PuzzleGrade& pg = g.puzzles[k];
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
                caseFiles[{i, k}] = path;
        }
    };
    GradedClass graded;
    graded.puzzles = plan.puzzles;
    for (const Puzzle* p : plan.puzzles)
        graded.fingerprints.push_back(puzzleFingerprint(*p));
    graded.device = runner.info().name;
    graded.share = plan.share;
    graded.students = plan.all;
    graded.grades =
        gradeClass(compiler, runner, plan.puzzles, plan.search.submissions, options, hooks, sizes);
    for (const auto& [at, path] : caseFiles)
        graded.grades[at.first].puzzles[at.second].caseFile = path;
    progress.clear();
    s.out << gradeSummary(graded.grades, plan.all ? "student" : "submission", s.style) << "\n"
          << std::flush;
    if (plan.caseFiles)
        s.out << "case files: " << caseFiles.size()
              << " (a failing case of each submission that ran) in " << *plan.caseFiles
              << s.style.dim("; open one with vkpuzzles open FILE") << "\n";
    return writeOutputs(plan.outputs, graded, s);
}

Result<Share> parseShard(const std::string& text) {
    constexpr size_t kMaxShares = 100000;
    auto number = [](std::string_view v, size_t& out) {
        auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
        return !v.empty() && ec == std::errc() && end == v.data() + v.size();
    };
    size_t slash = text.find('/');
    Share s;
    if (slash == std::string::npos || !number(std::string_view(text).substr(0, slash), s.index) ||
        !number(std::string_view(text).substr(slash + 1), s.count))
        return usageError("--shard needs K/N, share K of N of the class (--shard 2/5: the second "
                          "of five), not '" +
                          text + "'");
    if (s.count == 0 || s.count > kMaxShares)
        return usageError("--shard " + text + ": N must be 1.." + std::to_string(kMaxShares) +
                          ", the number of shares");
    if (s.index == 0 || s.index > s.count)
        return usageError("--shard " + text + ": K must be 1..N, here 1.." +
                          std::to_string(s.count) + " (the share this run grades)");
    return s;
}

Result<MergePlan> planMerge(const Args& a) {
    MergePlan plan;
    for (const char* option : {"shard", "all", "case-files", "own-subgroup-size", "timeout"})
        if (a.has(option) || a.value(option))
            return usageError("--" + std::string(option) +
                              " is for grading; `grade --merge` grades nothing, it puts graded "
                              "shares together");
    plan.files = a.positionals;
    if (plan.files.empty())
        return usageError("name the shares' JSON files: `vkpuzzles grade --merge share-1.json "
                          "share-2.json ... [--csv F] [--json F] [--html F]`");
    if (auto e = readOutputs(a, plan.outputs)) return *e;
    if (auto e = checkOutputPlaces(plan.outputs, "")) return *e;
    for (auto [option, to] : outputList(plan.outputs))
        for (const std::string& f : plan.files)
            if (*to && samePath(**to) == samePath(f))
                return usageError("--" + std::string(option) + " " + **to +
                                  " is a share being merged: write the class's files beside them");
    return plan;
}

int runMerge(const MergePlan& plan, const GradeStreams& s) {
    std::vector<GradedClass> shares;
    for (const std::string& f : plan.files) {
        auto text = readTextFile(f);
        auto share = text ? readGradeJson(*text, f) : Result<GradedClass>(text.error());
        if (!share) {
            s.err << "vkpuzzles: " << share.error().message << "\n";
            return kExitUsage;
        }
        shares.push_back(std::move(*share));
    }
    std::vector<std::string> warnings;
    auto merged = mergeShares(std::move(shares), plan.files, warnings);
    if (!merged) {
        s.err << "vkpuzzles: " << merged.error().message << "\n";
        return kExitUsage;
    }
    for (const std::string& w : warnings)
        s.err << s.style.warn("warning: ") << w << "\n";
    const char* one = oneSubmissionOutput(plan.outputs);
    if (one && merged->grades.size() != 1) {
        s.err << "vkpuzzles: --" << one << " writes the results of one submission, and the "
              << "shares hold " << merged->grades.size()
              << "; use --csv, --json or --html for a class\n";
        return kExitUsage;
    }
    std::vector<std::string> slugs;
    for (const Puzzle* p : merged->puzzles)
        slugs.push_back(p->slug);
    size_t n = merged->grades.size();
    std::string noun = merged->students ? "student" : "submission";
    s.out << s.style.bold("merged " + std::to_string(plan.files.size()) +
                          " shares: " + std::to_string(n) + " " + noun + (n == 1 ? "" : "s") +
                          " of " + joined(slugs, ", ", " and ") + " graded on " + merged->device)
          << "\n";
    printGrades(*merged, s);
    s.out << gradeSummary(merged->grades, noun, s.style) << "\n";
    return writeOutputs(plan.outputs, *merged, s);
}

// A class's submissions, each checked as `check` checks a kernel.
int gradeCommand(CommandContext& ctx) {
    GradeStreams streams{ctx.out, ctx.err, ctx.rawErr, ctx.style};
    if (ctx.args.has("merge")) { // the shares are graded already: no device
        auto merge = planMerge(ctx.args);
        return merge ? runMerge(*merge, streams) : ctx.report(merge.error());
    }
    auto plan = planGrade(ctx.args, ctx.set);
    if (!plan) return ctx.report(plan.error());
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    // A puzzle the device cannot run is not graded on it: every submission would score 0.
    std::vector<const Puzzle*> runnable;
    std::string notGraded;
    for (const Puzzle* p : plan->puzzles) {
        DeviceNeeds missing = missingOn(p->needs, ctx.runner->info());
        if (missing.empty())
            runnable.push_back(p);
        else
            notGraded += (notGraded.empty() ? "" : "; ") + p->slug + " needs " +
                         needsText(missing) + ", which " + ctx.runner->info().name + " lacks";
    }
    if (runnable.empty())
        return ctx.report(Error{ErrorKind::Device,
                                notGraded + ": graded here, every submission would score 0. Grade "
                                            "on a device that has it (--device D; vkpuzzles "
                                            "devices)"});
    if (!notGraded.empty())
        ctx.err << ctx.style.warn("not graded on this device: " + notGraded) << "\n";
    plan->puzzles = std::move(runnable);
    ctx.openSizes();
    return runGrade(*plan, ctx.compiler, *ctx.runner, ctx.options, streams, ctx.sizes.get());
}

} // namespace vkp::cli
