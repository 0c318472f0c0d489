#include "judge/walkthrough_steps.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "base/os.h"
#include "base/source_text.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

// Collects one diagnostic per problem, each pointing at the step's table.
class Validator {
  public:
    Validator(const Walkthrough& w, const Puzzle& p, const WalkthroughCaseSubjects& cases,
              bool untraced = false)
        : m_walkthrough(w), m_puzzle(p), m_cases(cases), m_untraced(untraced) {}

    std::vector<Diagnostic> run() {
        for (size_t i = 0; i < m_walkthrough.steps.size(); ++i) {
            const WalkthroughStep& s = m_walkthrough.steps[i];
            size_t c = stepCase(m_walkthrough, s);
            auto subjects = m_cases.find(c);
            if (subjects == m_cases.end()) {
                add(s, i, "case " + std::to_string(c + 1) + " was not traced");
                continue;
            }
            size_t d = s.focus.dispatch;
            const std::vector<WalkthroughSubject>& all = subjects->second;
            if (d >= all.size() || (!all[d].trace && !m_untraced)) {
                add(s, i,
                    "dispatch " + std::to_string(d + 1) + " has no trace (the case ran " +
                        std::to_string(all.size()) + " dispatches)");
                continue;
            }
            m_subject = &all[d];
            const std::string& source = m_subject->source;
            m_lineCount = static_cast<uint32_t>(std::count(source.begin(), source.end(), '\n') +
                                                (source.empty() || source.back() == '\n' ? 0 : 1));
            step(i, s);
        }
        return std::move(m_out);
    }

  private:
    void add(const WalkthroughStep& s, size_t i, const std::string& message,
             SeverityKind sev = SeverityKind::Error) {
        m_out.push_back({s.where.file, s.where.line, s.where.column, sev,
                         "step " + std::to_string(i + 1) + " (" + s.title + "): " + message});
    }
    bool blank(uint32_t line) const {
        return sourceLine(source(), static_cast<int>(line)).find_first_not_of(" \t\r") ==
               std::string::npos;
    }
    const std::string& source() const { return m_subject->source; }
    const Trace& trace() const { return *m_subject->trace; }
    const std::string& solutionName() const { return m_subject->file; }

    void step(size_t i, const WalkthroughStep& s) {
        const WalkthroughFocus& f = s.focus;
        std::set<uint32_t> focused(f.lines.begin(), f.lines.end());
        for (uint32_t l : f.lines) {
            if (l > m_lineCount)
                add(s, i,
                    "line " + std::to_string(l) + " is past the end of " + solutionName() + " (" +
                        std::to_string(m_lineCount) + " lines)");
            // A blank line inside a run of lines is fine; one at its edge means the lines moved.
            else if (blank(l) && !(focused.count(l - 1) && focused.count(l + 1)))
                add(s, i,
                    "line " + std::to_string(l) + " of " + solutionName() +
                        " is blank (has the solution changed?)");
        }
        if (!m_subject->trace) { // an untraced solution: its steps can point at lines only
            if (f.workgroup || !f.threads.empty() || f.round || !f.cells.empty() || f.lookback)
                add(s, i,
                    "names threads, a workgroup, a round or cells, or a view, which only a "
                    "trace shows, and the official solution runs untraced (it uses cooperative "
                    "matrices): point at lines");
            return;
        }
        if (f.lookback && m_puzzle.lookback &&
            std::none_of(trace().variables.begin(), trace().variables.end(),
                         [&](const TraceVariableInfo& v) {
                             return !v.decl.shared && v.puzzleBuffer >= 0 &&
                                    size_t(v.puzzleBuffer) == m_puzzle.lookback->status;
                         }))
            add(s, i,
                "view = \"lookback\", but dispatch " + std::to_string(f.dispatch + 1) +
                    " does not use '" + m_puzzle.buffers[m_puzzle.lookback->status].name +
                    "', the look-back's status words");
        if (f.workgroup && !workgroupIndex(trace().launch, *f.workgroup))
            add(s, i,
                "workgroup " + idText(*f.workgroup) + " is outside the launch (" +
                    countText(trace().launch.workgroups) + " workgroups)");
        bool threadsInside = true;
        for (const auto& th : f.threads)
            if (!invocationOfGlobalId(trace().launch, th)) {
                threadsInside = false;
                add(s, i,
                    "thread " + idText(th) + " is outside the launch (" + countText(globalSize()) +
                        " threads)");
            }
        if (f.workgroup && threadsInside)
            for (const auto& th : f.threads)
                if (*invocationOfGlobalId(trace().launch, th) /
                        trace().launch.invocationsPerGroup() !=
                    workgroupIndex(trace().launch, *f.workgroup).value_or(~0ull))
                    add(s, i,
                        "thread " + idText(th) + " is not in workgroup " + idText(*f.workgroup),
                        SeverityKind::Warning);
        if (f.round && (!f.workgroup || workgroupIndex(trace().launch, *f.workgroup)) &&
            threadsInside)
            roundCheck(s, i);
        for (const WalkthroughCell& c : f.cells)
            cellCheck(s, i, c);
        if (threadsInside) linesTouched(s, i);
    }
    std::array<uint32_t, 3> globalSize() const {
        std::array<uint32_t, 3> g{};
        for (int d = 0; d < 3; ++d)
            g[d] = trace().launch.workgroupSize[d] * trace().launch.workgroups[d];
        return g;
    }
    // "8" or "4 x 6": a launch's extent, trailing 1s dropped.
    static std::string countText(const std::array<uint32_t, 3>& v) {
        int dims = v[2] > 1 ? 3 : v[1] > 1 ? 2 : 1;
        std::string s = std::to_string(v[0]);
        for (int d = 1; d < dims; ++d)
            s += " x " + std::to_string(v[d]);
        return s;
    }
    static std::string idText(const std::array<uint32_t, 3>& v) {
        std::string s = "(" + std::to_string(v[0]);
        if (v[1] || v[2]) s += ", " + std::to_string(v[1]);
        if (v[2]) s += ", " + std::to_string(v[2]);
        return s + ")";
    }

    // A round happened in a workgroup when one of its threads recorded an event in it.
    void roundCheck(const WalkthroughStep& s, size_t i) {
        uint64_t g = focusedWorkgroup(s.focus, trace().launch);
        uint32_t per = trace().launch.invocationsPerGroup();
        uint32_t last = 0;
        bool any = false;
        for (uint64_t inv = g * per; inv < (g + 1) * per && inv < trace().threads.size(); ++inv)
            for (const TraceEvent& e : trace().threads[inv]) {
                last = std::max(last, e.round);
                any = true;
            }
        if (!any)
            return add(s, i,
                       "round " + std::to_string(*s.focus.round) + ": workgroup " +
                           std::to_string(g) + " recorded nothing");
        if (*s.focus.round > last)
            add(s, i,
                "round " + std::to_string(*s.focus.round) + " did not happen in workgroup " +
                    std::to_string(g) + " (its rounds are 0 to " + std::to_string(last) + ")");
    }
    void cellCheck(const WalkthroughStep& s, size_t i, const WalkthroughCell& c) {
        auto v = tracedVariable(trace(), c.variable);
        if (!v) {
            std::string names;
            for (const TraceVariableInfo& info : trace().variables)
                names += (names.empty() ? "" : ", ") + info.decl.name;
            return add(s, i,
                       "cell of '" + c.variable +
                           "': the solution has no traced array of that name (it has: " + names +
                           ")");
        }
        const TraceVariableInfo& info = trace().variables[*v];
        if (c.index.size() == 2 && info.dims.size() != 2)
            return add(s, i, "'" + c.variable + "' is one-dimensional; name its cell as [i]");
        if (!flatCellIndex(info, c.index)) {
            std::string shape = info.dims.size() == 2 ? std::to_string(info.dims[0]) + " x " +
                                                            std::to_string(info.dims[1])
                                                      : std::to_string(info.length);
            add(s, i,
                "cell " + c.variable + cellText(c.index) + " lies outside '" + c.variable + "' (" +
                    shape + " in this case)");
        }
    }
    static std::string cellText(const std::vector<uint32_t>& index) {
        std::string s;
        for (uint32_t x : index)
            s += "[" + std::to_string(x) + "]";
        return s;
    }
    // Drift check: when a step names threads and lines, one of those threads should have touched
    // memory on one of those lines (a load, a store or a barrier), or the lines have moved.
    void linesTouched(const WalkthroughStep& s, size_t i) {
        const WalkthroughFocus& f = s.focus;
        if (f.threads.empty() || f.lines.empty()) return;
        std::set<uint32_t> lines(f.lines.begin(), f.lines.end());
        for (const auto& th : f.threads) {
            auto inv = invocationOfGlobalId(trace().launch, th);
            for (const TraceEvent& e : trace().threads[*inv])
                if (lines.count(e.line)) return;
        }
        add(s, i,
            "none of its threads touched memory or a barrier on its lines; do the lines still "
            "point at the right code?",
            SeverityKind::Warning);
    }

    const Walkthrough& m_walkthrough;
    const Puzzle& m_puzzle;
    const WalkthroughCaseSubjects& m_cases;        // per case, per dispatch
    const WalkthroughSubject* m_subject = nullptr; // the step's
    bool m_untraced = false; // the solution runs untraced: subjects have no trace
    uint32_t m_lineCount = 0;
    std::vector<Diagnostic> m_out;
};

} // namespace
std::vector<Diagnostic> validateWalkthrough(const Walkthrough& w, const Puzzle& puzzle,
                                            const WalkthroughCaseSubjects& cases) {
    return Validator(w, puzzle, cases).run();
}

std::vector<Diagnostic> validateWalkthrough(const Walkthrough& w, const Puzzle& puzzle,
                                            const std::vector<WalkthroughSubject>& subjects) {
    return validateWalkthrough(w, puzzle, WalkthroughCaseSubjects{{w.caseIndex, subjects}});
}

std::vector<Diagnostic> validateUntracedWalkthrough(const Walkthrough& w, const Puzzle& puzzle,
                                                    const std::string& solutionSource) {
    std::vector<WalkthroughSubject> one{
        {solutionSource, os::pathText(os::toPath(puzzle.solutionPath).filename()), nullptr}};
    WalkthroughCaseSubjects cases;
    for (size_t c : walkthroughCases(w))
        cases[c] = one;
    return Validator(w, puzzle, cases, /*untraced=*/true).run();
}

std::vector<Diagnostic> validateWalkthrough(const Walkthrough& w, const Puzzle& puzzle,
                                            const std::string& solutionSource, const Trace& trace) {
    std::vector<WalkthroughSubject> one{
        {solutionSource, os::pathText(os::toPath(puzzle.solutionPath).filename()), &trace}};
    return validateWalkthrough(w, puzzle, one);
}

std::optional<uint64_t> workgroupIndex(const TraceLaunch& l, const std::array<uint32_t, 3>& group) {
    for (int d = 0; d < 3; ++d)
        if (group[d] >= l.workgroups[d]) return std::nullopt;
    return group[0] + uint64_t(l.workgroups[0]) * (group[1] + uint64_t(l.workgroups[1]) * group[2]);
}

std::optional<uint64_t> invocationOfGlobalId(const TraceLaunch& l,
                                             const std::array<uint32_t, 3>& global) {
    for (int d = 0; d < 3; ++d)
        if (uint64_t(global[d]) >= uint64_t(l.workgroupSize[d]) * l.workgroups[d])
            return std::nullopt;
    return invocationIndex(l, global);
}

uint64_t focusedWorkgroup(const WalkthroughFocus& f, const TraceLaunch& l) {
    if (f.workgroup)
        if (auto g = workgroupIndex(l, *f.workgroup)) return *g;
    for (const auto& th : f.threads)
        if (auto inv = invocationOfGlobalId(l, th)) return *inv / l.invocationsPerGroup();
    return 0;
}

std::optional<size_t> tracedVariable(const Trace& t, const std::string& name) {
    for (size_t v = 0; v < t.variables.size(); ++v)
        if (t.variables[v].decl.name == name) return v;
    return std::nullopt;
}

std::optional<uint64_t> flatCellIndex(const TraceVariableInfo& v,
                                      const std::vector<uint32_t>& index) {
    if (index.size() == 1)
        return index[0] < v.length ? std::optional<uint64_t>(index[0]) : std::nullopt;
    if (index.size() != 2 || v.dims.size() != 2 || index[0] >= v.dims[0] || index[1] >= v.dims[1])
        return std::nullopt;
    uint64_t width = v.decl.shared ? v.decl.elementWidth : 1;
    return (uint64_t(index[0]) * v.dims[1] + index[1]) * width;
}

const SharedSnapshot* snapshotAt(const TraceAnalysis& a, uint64_t group, uint32_t round) {
    if (group >= a.rounds.size()) return nullptr;
    for (const SharedSnapshot& s : a.rounds[group])
        if (s.round == round) return &s;
    return nullptr;
}

bool WalkthroughStepState::highlighted(size_t variable, uint64_t flat) const {
    return std::any_of(cells.begin(), cells.end(), [&](const ResolvedCell& c) {
        return c.variable == variable && c.flat == flat;
    });
}

WalkthroughStepState resolveStep(const WalkthroughFocus& f, const Trace& t,
                                 const TraceAnalysis& a) {
    WalkthroughStepState s;
    s.workgroup = focusedWorkgroup(f, t.launch);
    for (const auto& th : f.threads)
        if (auto inv = invocationOfGlobalId(t.launch, th); inv && *inv < t.threads.size())
            s.invocations.push_back(*inv);
    bool sharedCell = false;
    for (const WalkthroughCell& c : f.cells) {
        auto v = tracedVariable(t, c.variable);
        auto flat = v ? flatCellIndex(t.variables[*v], c.index) : std::nullopt;
        if (!flat) continue;
        s.cells.push_back({*v, *flat});
        sharedCell = sharedCell || t.variables[*v].decl.shared;
    }
    s.round = f.round;
    if (!s.round && sharedCell && s.workgroup < a.rounds.size() && !a.rounds[s.workgroup].empty())
        s.round = a.rounds[s.workgroup].back().round;
    if (s.round) s.shared = snapshotAt(a, s.workgroup, *s.round);
    return s;
}

} // namespace vkp
