// `vkpuzzles pack check DIR [--no-mutants]`: every puzzle of a pack (of puzzles/, or of one
// puzzle's folder) linted, its solution and starter checked and its solution's mutants run
// (classroom/pack_check.h), reported as text or JSON.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/os.h"
#include "classroom/pack_check.h"
#include "cli/command_context.h"
#include "cli/json_report.h"
#include "cli/terminal_text.h"

namespace fs = std::filesystem;

namespace vkp::cli {
namespace {

using nlohmann::json;

struct PackCheckArgs {
    std::string dir;        // a folder of puzzle folders, or one puzzle's folder
    bool json = false;      // --json
    bool mutants = true;    // false with --no-mutants
    uint64_t timeoutMs = 0; // per case
    // The official solutions also at other subgroup sizes (null: --own-subgroup-size).
    SubgroupSizeDevices* sizes = nullptr;
};

std::string percent(double rate) {
    char s[16];
    std::snprintf(s, sizeof s, "%.0f%%", std::floor(rate * 100));
    return s;
}

std::string seconds(double s) {
    char t[32];
    std::snprintf(t, sizeof t, "%.1f s", s);
    return t;
}

// "solution.comp:22", the file named relative to its puzzle folder.
std::string mutantPlace(const Puzzle& p, const MutantOutcome& m) {
    std::error_code ec;
    std::string rel = os::pathText(fs::relative(os::toPath(m.file), os::toPath(p.dir), ec));
    return (ec || rel.empty() ? m.file : rel) + ":" + std::to_string(m.mutant.line);
}

std::string mutantSummary(const PuzzleCheckOutcome& o) {
    size_t live = o.made() - o.count(MutantFateKind::Equivalent);
    std::string s = "mutants: " + std::to_string(o.count(MutantFateKind::Killed)) + " of " +
                    std::to_string(live) + " killed (" + percent(o.killRate()) + ")";
    if (size_t e = o.count(MutantFateKind::Equivalent))
        s += ", " + std::to_string(e) + " equivalent";
    if (size_t n = o.count(MutantFateKind::NotCompiling))
        s += ", " + std::to_string(n) + " not compiling";
    return s;
}

json whereJson(const SourceLocation& w) {
    return {{"file", w.file}, {"line", w.line}, {"column", w.column}};
}

json mutantJson(const MutantOutcome& m) {
    json j = {{"kernel", m.kernel},
              {"file", m.file},
              {"line", m.mutant.line},
              {"kind", mutationKindName(m.mutant.kind)},
              {"line_text", m.mutant.lineText},
              {"before", m.mutant.before},
              {"after", m.mutant.after},
              {"mutated_line", mutatedLine(m.mutant)},
              {"fate", mutantFateName(m.fate)},
              {"ms", m.ms}};
    if (m.fate == MutantFateKind::Killed || m.fate == MutantFateKind::NotCompiling)
        j["killed_by"] = m.killedBy;
    if (m.fate == MutantFateKind::Survived)
        j["advice"] = mutationAdvice(m.mutant.kind, m.mutant.line);
    if (m.fate == MutantFateKind::Equivalent) j["why"] = m.why;
    return j;
}

// The diagnostics of one severity, as {"message", "where"}.
json diagnosticsJson(const std::vector<Diagnostic>& list, SeverityKind severity) {
    json a = json::array();
    for (const Diagnostic& d : list)
        if (d.severity == severity)
            a.push_back({{"message", d.message}, {"where", whereJson(d.where())}});
    return a;
}

// Where the mutants' checks spent their time, summed over them.
json timingJson(const StageTimings& t) {
    return {
        {"compile", t.compileMs},      {"reflect", t.reflectMs},    {"instrument", t.instrumentMs},
        {"loop_guard", t.loopGuardMs}, {"pipelines", t.pipelineMs}, {"run", t.runMs},
        {"check", t.checkMs},          {"analysis", t.analysisMs},  {"trace_rerun", t.traceRerunMs},
        {"total", t.totalMs}};
}

json puzzleCheckJson(const PuzzleCheckOutcome& o) {
    const Puzzle& p = *o.puzzle;
    json errors = diagnosticsJson(o.lint, SeverityKind::Error);
    json warnings = diagnosticsJson(o.lint, SeverityKind::Warning);
    for (const Error& e : o.mutantsFileErrors)
        errors.push_back({{"message", e.message}, {"where", whereJson(e.where)}});
    for (const json& w : diagnosticsJson(o.unusedEquivalents, SeverityKind::Warning))
        warnings.push_back(w);
    json mutants = json::array();
    for (const MutantOutcome& m : o.mutants)
        mutants.push_back(mutantJson(m));
    return {{"puzzle", p.folder},
            {"slug", p.slug},
            {"pass", o.ok()},
            {"skipped", o.skipped.empty() ? json(nullptr) : json(o.skipped)},
            {"solution_problem", o.solutionProblem ? json(*o.solutionProblem) : json(nullptr)},
            {"starter_problem", o.starterProblem ? json(*o.starterProblem) : json(nullptr)},
            {"errors", errors},
            {"warnings", warnings},
            {"mutants_made", o.made()},
            {"killed", o.count(MutantFateKind::Killed)},
            {"survived", o.count(MutantFateKind::Survived)},
            {"equivalent", o.count(MutantFateKind::Equivalent)},
            {"not_compiling", o.count(MutantFateKind::NotCompiling)},
            {"kill_rate", o.killRate()},
            {"untraced_checks", o.untracedChecks},
            {"traced_checks", o.tracedChecks},
            {"mutant_timing_ms", timingJson(o.mutantTiming)},
            {"seconds", o.seconds},
            {"mutants", mutants}};
}

// A folder of puzzle folders, or one puzzle folder (it holds a puzzle.toml): that puzzle alone.
PuzzleSet loadPack(const std::string& dir) {
    std::error_code ec;
    if (!fs::exists(os::toPath(dir) / "puzzle.toml", ec)) return loadPuzzleSet(dir);
    PuzzleSet set;
    set.root = dir;
    auto one = loadPuzzle(dir);
    if (one)
        set.puzzles.push_back(std::move(*one));
    else
        set.errors.push_back(one.error());
    return set;
}

class PackReport {
  public:
    PackReport(const PackCheckArgs& a, const Compiler& c, DeviceRunner& r, std::ostream& out,
               std::ostream& err, std::ostream& rawErr, const Style& st)
        : m_a(a), m_compiler(c), m_runner(r), m_out(out), m_err(err), m_line(rawErr), m_st(st) {}

    int run() {
        auto start = std::chrono::steady_clock::now();
        PuzzleSet set = loadPack(m_a.dir);
        bool pass = set.errors.empty();
        json puzzles = json::array(), loadErrors = json::array();
        if (!m_a.json)
            m_out << m_st.bold("pack check of " + m_a.dir)
                  << m_st.dim("  on " + m_runner.info().name) << "\n";
        for (const Error& e : set.errors) {
            loadErrors.push_back({{"message", e.message}, {"where", whereJson(e.where)}});
            if (!m_a.json) m_out << m_st.fail("load error: ") << e.str() << "\n";
        }
        json packWarnings = json::array(); // two folders with one slug, number or order
        for (const Error& w : set.warnings) {
            packWarnings.push_back({{"message", w.message}, {"where", whereJson(w.where)}});
            if (!m_a.json) m_out << m_st.warn("warning: ") << w.str() << "\n";
        }
        PackCheckOptions options{m_a.mutants, m_a.timeoutMs, m_a.sizes};
        for (const Puzzle& p : set.puzzles) {
            PuzzleCheckOutcome o = checkOne(p, options);
            pass = pass && o.ok();
            add(o);
            if (m_a.json)
                puzzles.push_back(puzzleCheckJson(o));
            else
                print(o);
            m_out.flush(); // a puzzle at a time, so a long run (CI) shows where it is
            if (m_runner.wedged()) break;
        }
        double total =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (m_a.json)
            m_out << jsonText({{"version", kJsonVersion},
                               {"device", m_runner.info().name},
                               {"dir", m_a.dir},
                               {"pass", pass},
                               {"load_errors", loadErrors},
                               {"warnings", packWarnings},
                               {"puzzles", puzzles},
                               {"kill_rate", rate()},
                               {"seconds", total}})
                  << "\n";
        else
            summary(set, pass, total);
        return pass ? 0 : 1;
    }

  private:
    PuzzleCheckOutcome checkOne(const Puzzle& p, const PackCheckOptions& options) {
        PackProgress progress;
        if (m_line.on() && !m_a.json)
            progress = [&](size_t done, size_t total) {
                m_line.show(p.slug + ": mutant " + std::to_string(done) + " of " +
                            std::to_string(total));
            };
        PuzzleCheckOutcome o = packCheckPuzzle(m_compiler, m_runner, p, options, progress);
        if (progress) m_line.clear();
        return o;
    }
    void add(const PuzzleCheckOutcome& o) {
        m_killed += o.count(MutantFateKind::Killed);
        m_live += o.made() - o.count(MutantFateKind::Equivalent);
        m_equivalent += o.count(MutantFateKind::Equivalent);
        m_survived += o.count(MutantFateKind::Survived);
        m_notCompiling += o.count(MutantFateKind::NotCompiling);
        m_ok += o.ok() && o.skipped.empty();
        m_skipped += !o.skipped.empty();
        ++m_checked;
    }
    double rate() const { return m_live ? double(m_killed) / double(m_live) : 1.0; }

    void print(const PuzzleCheckOutcome& o) {
        const Puzzle& p = *o.puzzle;
        char head[96];
        std::snprintf(head, sizeof head, "%3d  %-22s ", p.number, p.slug.c_str());
        m_out << head
              << (!o.ok()             ? m_st.fail("FAIL")
                  : o.skipped.empty() ? m_st.pass("ok  ")
                                      : m_st.warn("skip"))
              << "  ";
        m_out << (m_a.mutants && !o.solutionProblem && o.skipped.empty() ? mutantSummary(o) : "")
              << m_st.dim("  " + seconds(o.seconds)) << "\n";
        std::string in = "       ";
        if (!o.skipped.empty()) m_out << in << m_st.dim("not run: " + o.skipped) << "\n";
        if (o.solutionProblem) m_out << in << m_st.fail("error: ") << *o.solutionProblem << "\n";
        if (o.starterProblem) m_out << in << m_st.fail("error: ") << *o.starterProblem << "\n";
        for (const Error& e : o.mutantsFileErrors)
            m_out << in << m_st.fail("error: ") << e.str() << "\n";
        for (const Diagnostic& d : o.lint)
            m_out << in
                  << (d.severity == SeverityKind::Error ? m_st.fail("error: ")
                                                        : m_st.warn("warning: "))
                  << d.where().str() << ": " << d.message << "\n";
        for (const Diagnostic& d : o.unusedEquivalents)
            m_out << in << m_st.warn("warning: ") << d.where().str() << ": " << d.message << "\n";
        for (const MutantOutcome& m : o.mutants) {
            if (m.fate != MutantFateKind::Survived) continue;
            m_out << in << m_st.fail("survived: ") << mutantPlace(p, m) << "  "
                  << mutationChangeText(m.mutant)
                  << m_st.dim("  [" + std::string(mutationKindName(m.mutant.kind)) + "]") << "\n"
                  << in << "  " << m.mutant.lineText << "\n"
                  << in << "  " << m_st.dim("-> ") << mutatedLine(m.mutant) << "\n"
                  << in << "  " << mutationAdvice(m.mutant.kind, m.mutant.line) << "\n";
            if (sharesItsChange(o, m))
                m_out << in << "  "
                      << m_st.dim("(the same change is made elsewhere on this line: to list this "
                                  "one in mutants.toml, add mutated = \"" +
                                  mutatedLine(m.mutant) + "\")")
                      << "\n";
        }
    }
    // Whether another mutant of the puzzle makes the same change on the same line.
    static bool sharesItsChange(const PuzzleCheckOutcome& o, const MutantOutcome& m) {
        return std::any_of(o.mutants.begin(), o.mutants.end(), [&](const MutantOutcome& n) {
            return &n != &m && n.kernel == m.kernel && n.mutant.line == m.mutant.line &&
                   n.mutant.kind == m.mutant.kind && n.mutant.before == m.mutant.before &&
                   n.mutant.after == m.mutant.after;
        });
    }
    void summary(const PuzzleSet& set, bool pass, double total) {
        m_out << m_checked << (m_checked == 1 ? " puzzle" : " puzzles") << " checked, " << m_ok
              << " ok";
        if (m_skipped)
            m_out << ", " << m_skipped << " not run (the device lacks what "
                  << (m_skipped == 1 ? "it needs" : "they need") << ")";
        if (!set.errors.empty()) m_out << ", " << set.errors.size() << " did not load";
        if (m_a.mutants)
            m_out << "; mutants: " << m_killed << " of " << m_live << " killed (" << percent(rate())
                  << "), " << m_survived << " survived, " << m_equivalent << " equivalent, "
                  << m_notCompiling << " not compiling";
        m_out << m_st.dim("; " + seconds(total)) << "\n"
              << (pass ? m_st.pass("pack check passes") : m_st.fail("pack check fails")) << "\n";
        if (m_survived)
            m_out << m_st.dim("A mutant no case can kill goes in the puzzle folder's mutants.toml "
                              "with why (docs/puzzle-format.md, \"Pack check\").")
                  << "\n";
    }

    const PackCheckArgs& m_a;
    const Compiler& m_compiler;
    DeviceRunner& m_runner;
    std::ostream& m_out;
    std::ostream& m_err;
    ProgressLine m_line; // the mutant count, in place on a terminal
    const Style& m_st;
    size_t m_killed = 0, m_live = 0, m_equivalent = 0, m_survived = 0, m_notCompiling = 0;
    size_t m_ok = 0, m_checked = 0, m_skipped = 0;
};

} // namespace

// The exit status: 0 when every puzzle loads and passes the check (warnings aside), else 1.
// stderr unfiltered (rawErr) redraws the mutant count in place on a terminal (not with --json).
int packCommand(CommandContext& ctx) {
    const Args& a = ctx.args;
    if (a.positionals.size() != 2 || a.positionals[0] != "check")
        return ctx.usage("use `vkpuzzles pack check DIR`, DIR a folder of puzzle folders or one "
                         "puzzle's folder");
    std::string dir = a.positionals[1];
    std::error_code ec;
    if (!fs::is_directory(os::toPath(dir), ec))
        return ctx.usage("pack check: '" + dir + "' is not a folder");
    if (auto s = ctx.startEngines(); !s) return ctx.report(s.error());
    ctx.openSizes();
    PackCheckArgs args{dir, ctx.json(), !a.has("no-mutants"), ctx.options.timeoutMs,
                       ctx.sizes.get()};
    return PackReport(args, ctx.compiler, *ctx.runner, ctx.out, ctx.err, ctx.rawErr, ctx.style)
        .run();
}

} // namespace vkp::cli
