#include "classroom/grade.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "base/os.h"
#include "base/text_file.h"
#include "check/atomic_order.h"
#include "check/case_search.h"
#include "check/hidden_cases.h"
#include "check/kernel_text.h"
#include "check/subgroup_sizes.h"
#include "gpu/device_runner.h"
#include "judge/trace_analysis.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

// Dot files, and the folder of resource forks that macOS puts in a zip of the class's work.
bool hiddenName(const fs::path& p) {
    std::string n = os::pathText(p.filename());
    return n.empty() || n[0] == '.' || n == "__MACOSX";
}

// The entries of a folder, sorted by name; a Usage error when it is no folder.
Result<std::vector<fs::path>> folderEntries(const std::string& dir) {
    std::error_code ec;
    fs::path folder = os::toPath(dir);
    if (!fs::exists(folder, ec)) return Error{ErrorKind::Usage, "there is no folder '" + dir + "'"};
    if (!fs::is_directory(folder, ec))
        return Error{ErrorKind::Usage, "'" + dir + "' is not a folder"};
    std::vector<fs::path> out;
    fs::directory_iterator it(folder, ec), end;
    if (ec) return Error{ErrorKind::Usage, "cannot read the folder '" + dir + "': " + ec.message()};
    for (; it != end; it.increment(ec)) {
        if (ec)
            return Error{ErrorKind::Usage, "cannot read the folder '" + dir + "': " + ec.message()};
        if (!hiddenName(it->path())) out.push_back(it->path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool isFolder(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}
bool isKernelFile(const fs::path& p) {
    std::error_code ec;
    return p.extension() == ".comp" && fs::exists(p, ec) && !fs::is_directory(p, ec);
}

void sortSubmissions(std::vector<Submission>& s) {
    std::stable_sort(s.begin(), s.end(), [](const Submission& a, const Submission& b) {
        return a.name != b.name ? a.name < b.name : a.paths < b.paths;
    });
}

// The export number of `entry` as a submission of `slug`: 1 for SLUG.comp or SLUG/, N for
// SLUG-N.comp or SLUG-N/ (N >= 2, the app's later exports), 0 when it is none.
int exportNumber(const fs::path& entry, const std::string& slug) {
    std::string name = os::pathText(entry.filename());
    bool folder = isFolder(entry);
    if (!folder) {
        if (!isKernelFile(entry)) return 0;
        name = os::pathText(entry.stem());
    }
    if (name == slug) return 1;
    if (name.size() <= slug.size() + 1 || name.compare(0, slug.size() + 1, slug + "-") != 0)
        return 0;
    std::string digits = name.substr(slug.size() + 1);
    if (digits.size() > 3 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return 0;
    int n = std::stoi(digits);
    return n >= 2 ? n : 0;
}

std::string cellText(const BufferData& b, uint64_t i) {
    if (b.shape.dims.size() == 2 && b.shape.cols())
        return "[" + std::to_string(i / b.shape.cols()) + "][" +
               std::to_string(i % b.shape.cols()) + "]";
    return "[" + std::to_string(i) + "]";
}

const Finding* firstFailing(const TraceAnalysis* a) {
    if (!a) return nullptr;
    for (const Finding& f : a->findings)
        if (f.failsCase) return &f;
    return nullptr;
}

// Why a case that ran did not pass: the case's error, a finding that fails it, or its outputs.
void explainCase(const Puzzle& puzzle, const CaseOutcome& c, CaseGrade& g) {
    auto set = [&](FailureKind kind, std::string reason, std::string cause = "") {
        g.failure = kind;
        g.reason = std::move(reason);
        g.cause = std::move(cause);
    };
    if (c.error) return set(FailureKind::Error, c.error->message, errorKindName(c.error->kind));
    const Finding* f = c.dispatches.empty() ? firstFailing(c.analysis.get()) : nullptr;
    std::string where;
    for (const DispatchTrace& dispatch : c.dispatches)
        if (!f && (f = firstFailing(dispatch.analysis.get()))) where = dispatch.label + ": ";
    if (!f && !c.runFindings.empty()) f = &c.runFindings.front();
    if (f && verdictOf(c) == Verdict::Inconclusive)
        return set(FailureKind::Inconclusive, "inconclusive: " + where + f->message,
                   findingKindName(f->kind));
    if (f)
        return set(FailureKind::Finding, where + findingKindName(f->kind) + ": " + f->message,
                   findingKindName(f->kind));
    for (const BufferOutcome& o : c.outputs) {
        if (o.comparison.pass) continue;
        const std::string& name = puzzle.buffers[o.buffer].name;
        std::string reason = name + ": " + std::to_string(o.comparison.mismatchCount) + " of " +
                             std::to_string(o.expected.shape.count()) + " cells wrong";
        if (!o.comparison.mismatches.empty()) {
            uint64_t i = o.comparison.mismatches.front().index;
            reason += " (" + name + cellText(o.expected, i) + ": " +
                      expectedGotText(o.expected, o.actual, i) + ")";
        }
        return set(FailureKind::WrongValues, reason);
    }
    set(FailureKind::Error, "failed");
}

// Why no case ran, when the whole check stopped before the cases: its first error diagnostic
// (file name and line), or its error.
std::optional<std::pair<FailureKind, std::string>> checkFailure(const CheckReport& r) {
    for (const Diagnostic& d : r.diagnostics) {
        if (d.severity != SeverityKind::Error) continue;
        std::string where = os::pathText(os::toPath(d.file).filename());
        if (d.line > 0) where += ":" + std::to_string(d.line);
        if (!r.compiled())
            return std::pair{FailureKind::Compile, "does not compile: " + where + ": " + d.message};
        return std::pair{FailureKind::Interface, where + ": " + d.message};
    }
    if (r.error) return std::pair{FailureKind::Error, r.error->message};
    return std::nullopt;
}

void total(PuzzleGrade& g) {
    g.score = g.maxScore = 0;
    g.passed = 0;
    g.reason.clear();
    for (const CaseGrade& c : g.cases) {
        g.score += c.earned;
        g.maxScore += c.points;
        g.passed += c.pass ? 1 : 0;
        if (c.pass || !g.reason.empty()) continue;
        bool numbered = c.reason.rfind("case ", 0) == 0;
        g.reason = numbered ? c.reason : "case " + std::to_string(c.index + 1) + ": " + c.reason;
    }
}

std::vector<CaseGrade> emptyCases(const Puzzle& puzzle) {
    std::vector<CaseGrade> out;
    for (size_t i = 0; i < puzzle.cases.size(); ++i) {
        const TestCase& tc = puzzle.cases[i];
        CaseGrade c;
        c.index = i;
        c.name = tc.name;
        c.points = tc.points;
        c.hidden = tc.hidden;
        out.push_back(std::move(c));
    }
    return out;
}

// A folder submission's kernel files: one per kernel of the puzzle, by name (a single-kernel
// puzzle: the folder's one .comp file, whatever its name).
Result<std::vector<KernelSource>> readFolder(const Puzzle& puzzle, const fs::path& dir) {
    auto entries = folderEntries(os::pathText(dir));
    if (!entries) return entries.error();
    std::vector<fs::path> comps;
    for (const fs::path& e : *entries)
        if (isKernelFile(e)) comps.push_back(e);
    std::vector<KernelSource> out;
    if (puzzle.kernels.size() <= 1) {
        std::string name = puzzle.kernels.empty() ? "kernel" : puzzle.kernels[0].name;
        if (comps.size() != 1)
            return Error{ErrorKind::Usage, "the folder holds " + std::to_string(comps.size()) +
                                               " .comp files; a submission of " + puzzle.slug +
                                               " is one kernel file"};
        comps = {comps[0]};
        auto text = readTextFile(os::pathText(comps[0]));
        if (!text) return text.error();
        out.push_back({name, *text, os::pathText(comps[0])});
        return out;
    }
    for (const KernelDecl& k : puzzle.kernels) {
        fs::path file = dir / os::toPath(k.name + ".comp");
        if (!isKernelFile(file)) {
            std::string names;
            for (const KernelDecl& d : puzzle.kernels)
                names += (names.empty() ? "" : ", ") + d.name + ".comp";
            return Error{ErrorKind::Usage, "the folder has no " + k.name + ".comp (" + puzzle.slug +
                                               " takes one file per kernel: " + names + ")"};
        }
        auto text = readTextFile(os::pathText(file));
        if (!text) return text.error();
        out.push_back({k.name, *text, os::pathText(file)});
    }
    return out;
}

bool blank(const std::string& text) {
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

} // namespace

const char* failureKindName(FailureKind kind) {
    switch (kind) {
    case FailureKind::None:
        return "";
    case FailureKind::NotHandedIn:
        return "not handed in";
    case FailureKind::Unreadable:
        return "unreadable";
    case FailureKind::Compile:
        return "compile error";
    case FailureKind::Interface:
        return "interface";
    case FailureKind::Error:
        return "error";
    case FailureKind::Finding:
        return "finding";
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

std::optional<FailureKind> failureKindNamed(const std::string& name) {
    for (FailureKind k : {FailureKind::None, FailureKind::NotHandedIn, FailureKind::Unreadable,
                          FailureKind::Compile, FailureKind::Interface, FailureKind::Error,
                          FailureKind::Finding, FailureKind::WrongValues, FailureKind::Inconclusive,
                          FailureKind::SubgroupSize, FailureKind::AtomicOrder, FailureKind::Search})
        if (name == failureKindName(k)) return k;
    return std::nullopt;
}

Result<SubmissionSearch> findSubmissions(const std::string& dir) {
    auto entries = folderEntries(dir);
    if (!entries) return entries.error();
    SubmissionSearch out;
    for (const fs::path& e : *entries) {
        if (isFolder(e))
            out.submissions.push_back({os::pathText(e.filename()), {os::pathText(e)}});
        else if (isKernelFile(e))
            out.submissions.push_back({os::pathText(e.stem()), {os::pathText(e)}});
        else
            out.warnings.push_back("skipped " + os::pathText(e) +
                                   ": neither a .comp file nor a folder");
    }
    if (out.submissions.empty())
        return Error{ErrorKind::Usage,
                     "'" + dir + "' holds no submission (no .comp file and no folder)"};
    // alice.comp beside alice/: two submissions of one name would be two rows nobody can tell
    // apart; each is named by its entry, and the teacher told.
    for (Submission& a : out.submissions)
        for (Submission& b : out.submissions)
            if (&a != &b && a.name == b.name && !a.paths.empty() && !b.paths.empty() &&
                os::pathText(os::toPath(a.paths[0]).filename()) != a.name) {
                std::string file = os::pathText(os::toPath(a.paths[0]).filename());
                out.warnings.push_back("both " + file + " and " + b.name + "/ are " + a.name +
                                       "'s: each is graded, as " + file + " and " + b.name + "/");
                a.name = file;
                b.name += "/";
            }
    sortSubmissions(out.submissions);
    return out;
}

Result<SubmissionSearch> findClassSubmissions(const std::vector<const Puzzle*>& puzzles,
                                              const std::string& dir) {
    auto students = folderEntries(dir);
    if (!students) return students.error();
    SubmissionSearch out;
    for (const fs::path& s : *students) {
        if (!isFolder(s)) {
            out.warnings.push_back("skipped " + os::pathText(s) +
                                   ": with --all, the folder holds one folder per student");
            continue;
        }
        auto entries = folderEntries(os::pathText(s));
        if (!entries) return entries.error();
        Submission sub{os::pathText(s.filename()), std::vector<std::string>(puzzles.size())};
        std::vector<int> best(puzzles.size(), 0);
        for (const fs::path& e : *entries) {
            bool matched = false;
            for (size_t k = 0; k < puzzles.size(); ++k) {
                int n = exportNumber(e, puzzles[k]->slug);
                if (!n) continue;
                matched = true;
                if (n == best[k]) // SLUG.comp beside SLUG/: say which one is graded
                    out.warnings.push_back(
                        os::pathText(s.filename()) + ": both " +
                        os::pathText(os::toPath(sub.paths[k]).filename()) + " and " +
                        os::pathText(e.filename()) + " are " + puzzles[k]->slug + "; " +
                        os::pathText(os::toPath(sub.paths[k]).filename()) + " is graded");
                if (n > best[k]) best[k] = n, sub.paths[k] = os::pathText(e);
            }
            if (!matched && (isFolder(e) || isKernelFile(e)))
                out.warnings.push_back("skipped " + os::pathText(e) +
                                       ": its name is no puzzle's slug (SLUG.comp or SLUG/)");
        }
        out.submissions.push_back(std::move(sub));
    }
    if (out.submissions.empty())
        return Error{ErrorKind::Usage, "'" + dir +
                                           "' holds no student folder (with --all: one folder per "
                                           "student, each holding SLUG.comp or SLUG/ per puzzle)"};
    sortSubmissions(out.submissions);
    return out;
}

double SubmissionGrade::score() const {
    double s = 0;
    for (const PuzzleGrade& p : puzzles)
        s += p.score;
    return s;
}
bool SubmissionGrade::fullMarks() const {
    return maxScore() > 0 ? score() >= maxScore() : casesPassed() == casesTotal();
}

double SubmissionGrade::maxScore() const {
    double s = 0;
    for (const PuzzleGrade& p : puzzles)
        s += p.maxScore;
    return s;
}
size_t SubmissionGrade::casesPassed() const {
    size_t n = 0;
    for (const PuzzleGrade& p : puzzles)
        n += p.passed;
    return n;
}
size_t SubmissionGrade::casesTotal() const {
    size_t n = 0;
    for (const PuzzleGrade& p : puzzles)
        n += p.cases.size();
    return n;
}
std::vector<std::string> SubmissionGrade::files() const {
    std::vector<std::string> out;
    for (const PuzzleGrade& p : puzzles)
        out.insert(out.end(), p.files.begin(), p.files.end());
    return out;
}
std::string SubmissionGrade::reason() const {
    for (const PuzzleGrade& p : puzzles)
        if (!p.reason.empty())
            return puzzles.size() > 1 ? p.puzzle->slug + ": " + p.reason : p.reason;
    return "";
}

PuzzleGrade failedGrade(const Puzzle& puzzle, FailureKind failure, const std::string& reason) {
    PuzzleGrade g;
    g.puzzle = &puzzle;
    g.cases = emptyCases(puzzle);
    for (CaseGrade& c : g.cases) {
        c.failure = failure;
        c.reason = reason;
    }
    total(g);
    g.reason = reason; // the same for every case: not numbered
    return g;
}

PuzzleGrade scoreReport(const Puzzle& puzzle, const CheckReport& report) {
    std::string cause = report.error ? errorKindName(report.error->kind) : "";
    if (auto stopped = checkFailure(report); stopped && report.cases.empty()) {
        PuzzleGrade g = failedGrade(puzzle, stopped->first, stopped->second);
        if (stopped->first == FailureKind::Error)
            for (CaseGrade& c : g.cases)
                c.cause = cause;
        return g;
    }
    PuzzleGrade g;
    g.puzzle = &puzzle;
    g.cases = emptyCases(puzzle);
    for (CaseGrade& c : g.cases) {
        c.failure = FailureKind::Error;
        c.reason = report.error ? report.error->message : "not run";
        c.cause = cause;
    }
    for (const CaseOutcome& o : report.cases) {
        if (o.index >= g.cases.size()) continue;
        CaseGrade& c = g.cases[o.index];
        c.pass = o.pass && !hasErrors(report.diagnostics);
        c.earned = c.pass ? c.points : 0;
        c.failure = FailureKind::None;
        c.reason.clear();
        c.cause.clear();
        if (!c.pass) explainCase(puzzle, o, c);
    }
    for (const SubgroupSizeRun& s : report.otherSizes)
        for (const CaseFailure& f : s.failures) {
            if (f.index >= g.cases.size() || !g.cases[f.index].pass) continue;
            CaseGrade& c = g.cases[f.index];
            c.pass = false;
            c.earned = 0;
            c.failure = FailureKind::SubgroupSize;
            c.cause.clear();
            c.reason = "right with " + std::to_string(report.lanes) + " lanes, " +
                       (f.error ? "could not run with " : "wrong with ") + sizeName(s.lanes) +
                       (f.detail.empty() || caseHidden(puzzle, f.index) ? "" : ": " + f.detail);
        }
    if (report.reversed)
        for (const CaseFailure& f : report.reversed->failures) {
            if (f.index >= g.cases.size() || !g.cases[f.index].pass) continue;
            CaseGrade& c = g.cases[f.index];
            c.pass = false;
            c.earned = 0;
            c.failure = FailureKind::AtomicOrder;
            c.cause.clear();
            c.reason = "right as the device ordered its atomics, wrong with them in reverse "
                       "lane order" +
                       (f.detail.empty() || caseHidden(puzzle, f.index) ? "" : ": " + f.detail);
        }
    if (report.search && report.search->found) {
        const FoundCase& f = *report.search->found;
        if (f.templateCase < g.cases.size() && g.cases[f.templateCase].pass) {
            CaseGrade& c = g.cases[f.templateCase];
            c.pass = false;
            c.earned = 0;
            c.failure = FailureKind::Search;
            c.cause.clear();
            c.reason =
                "right on the case, wrong on one generated like it: N = " + std::to_string(f.n) +
                ", workgroup " + dimsText(f.workgroupSize) + ": " + f.detail;
        }
    }
    total(g);
    return g;
}

PuzzleGrade gradeSubmission(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                            const std::string& path, const CheckOptions& options,
                            SubgroupSizeDevices* sizes) {
    PuzzleGrade g;
    // The check at the device's own subgroup size, then at the others where it uses subgroups.
    auto score = [&](const std::vector<KernelSource>& sources, CheckReport r) {
        if (sizes && !runner.wedged())
            checkOtherSubgroupSizes(compiler, *sizes, puzzle, sources, options, r);
        if (!runner.wedged()) checkReversedOrder(compiler, runner, puzzle, sources, options, r);
        // One seed for the whole class, fixed: every student's kernel meets the same generated
        // cases, and a grade run again gives the same grade.
        if (!runner.wedged()) searchCases(compiler, runner, puzzle, sources, options, 1, r);
        return scoreReport(puzzle, r);
    };
    if (isFolder(os::toPath(path))) {
        auto sources = readFolder(puzzle, os::toPath(path));
        auto empty = sources ? std::find_if(sources->begin(), sources->end(),
                                            [](const KernelSource& s) { return blank(s.text); })
                             : std::vector<KernelSource>::iterator{};
        if (!sources) {
            g = failedGrade(puzzle, FailureKind::Unreadable, sources.error().message);
        } else if (empty != sources->end()) {
            g = failedGrade(puzzle, FailureKind::Unreadable,
                            os::pathText(os::toPath(empty->file).filename()) + " is empty");
            g.files.push_back(empty->file);
        } else {
            g = score(*sources, checkProgram(compiler, runner, puzzle, *sources, options));
            for (const KernelSource& s : *sources)
                g.files.push_back(s.file);
        }
    } else {
        auto text = readTextFile(path);
        auto sources = text ? kernelTextSources(puzzle, *text, path)
                            : Result<std::vector<KernelSource>>(text.error());
        if (!text)
            g = failedGrade(puzzle, FailureKind::Unreadable, text.error().message);
        else if (blank(*text))
            g = failedGrade(puzzle, FailureKind::Unreadable, "the file is empty");
        else
            g = score(sources ? *sources : std::vector<KernelSource>{},
                      checkKernelText(compiler, runner, puzzle, *text, path, options));
        if (text) g.files.push_back(path);
    }
    g.path = path;
    return g;
}

Result<CaseFile> failingCaseFile(const Compiler& compiler, DeviceRunner& runner,
                                 const PuzzleGrade& grade, const CheckOptions& options) {
    const Puzzle& puzzle = *grade.puzzle;
    // A case that failed here when it ran (one that failed only at another subgroup size
    // passes on this device: its run would show nothing wrong).
    auto ran = [](FailureKind k) {
        return k == FailureKind::WrongValues || k == FailureKind::Finding ||
               k == FailureKind::Inconclusive || k == FailureKind::Error;
    };
    auto c = std::find_if(grade.cases.begin(), grade.cases.end(),
                          [&](const CaseGrade& g) { return !g.pass && ran(g.failure); });
    if (c == grade.cases.end())
        return Error{ErrorKind::Usage, grade.passed == grade.cases.size()
                                           ? "every case passed"
                                           : "no case ran: " + grade.reason};
    Result<std::vector<KernelSource>> sources = Error{};
    std::string text;
    if (isFolder(os::toPath(grade.path))) {
        sources = readFolder(puzzle, os::toPath(grade.path));
    } else {
        auto read = readTextFile(grade.path);
        if (!read) return read.error();
        text = *read;
        sources = kernelTextSources(puzzle, text, grade.path);
    }
    if (!sources) return sources.error();
    if (text.empty()) { // a folder: its kernels joined, as the app's editor holds them
        std::vector<std::string> texts;
        for (const KernelSource& s : *sources)
            texts.push_back(s.text);
        text = joinKernelTexts(puzzle, texts);
    }
    CheckOptions traced = options;
    traced.trace = true;
    traced.onlyCase = c->index;
    CheckReport r = checkProgram(compiler, runner, puzzle, *sources, traced);
    return makeCaseFile(puzzle, r, c->index, text, runner.info());
}

std::vector<SubmissionGrade> gradeClass(const Compiler& compiler, DeviceRunner& runner,
                                        const std::vector<const Puzzle*>& puzzles,
                                        const std::vector<Submission>& submissions,
                                        const CheckOptions& options, const GradeProgress& progress,
                                        SubgroupSizeDevices* sizes) {
    std::vector<SubmissionGrade> out;
    for (size_t i = 0; i < submissions.size(); ++i) {
        const Submission& s = submissions[i];
        if (progress.starting) progress.starting(i, s);
        SubmissionGrade g{s.name, {}};
        for (size_t k = 0; k < puzzles.size(); ++k) {
            const std::string path = k < s.paths.size() ? s.paths[k] : std::string();
            g.puzzles.push_back(
                path.empty()
                    ? failedGrade(*puzzles[k], FailureKind::NotHandedIn, "not handed in")
                    : gradeSubmission(compiler, runner, *puzzles[k], path, options, sizes));
        }
        out.push_back(std::move(g));
        if (progress.done) progress.done(i, out.back());
    }
    return out;
}

} // namespace vkp
