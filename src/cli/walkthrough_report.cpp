#include "cli/walkthrough_report.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>

#include "base/os.h"
#include "base/source_text.h"
#include "check/dispatch_view.h"
#include "cli/trace_report.h"
#include "judge/walkthrough_steps.h"
#include "puzzle/kernel_sections.h"
#include "views/dispatch_model.h"
#include "views/lookback.h"

namespace vkp::cli {
namespace {

using nlohmann::json;
using views::lookbackModel;
using views::LookbackModel;
using views::lookbackText;

std::string groupName(const TraceLaunch& l, uint64_t group) {
    InvocationIds ids = invocationIds(l, group * l.invocationsPerGroup());
    if (l.workgroups[1] == 1 && l.workgroups[2] == 1) return std::to_string(ids.group[0]);
    std::string s = "(" + std::to_string(ids.group[0]) + ", " + std::to_string(ids.group[1]);
    return s + (l.workgroups[2] > 1 ? ", " + std::to_string(ids.group[2]) : "") + ")";
}

std::string fileName(const std::string& path) {
    return os::pathText(os::toPath(path).filename());
}

std::string cellLabel(const WalkthroughCell& c) {
    std::string s = c.variable;
    for (uint32_t i : c.index)
        s += "[" + std::to_string(i) + "]";
    return s;
}

// The buffer's contents the step shows: inputs as they started, outputs as the solution left them.
const BufferData* bufferContents(const CaseOutcome& c, int buffer) {
    if (buffer < 0) return nullptr;
    for (const BufferOutcome& o : c.outputs)
        if (o.buffer == size_t(buffer)) return &o.actual;
    return size_t(buffer) < c.inputs.size() ? &c.inputs[buffer] : nullptr;
}

// A buffer cell a step points at, as it is at that step: in a multi-pass case, after the step's
// dispatch (replayed from the traces of the dispatches up to it, views/dispatch_model.h), so a
// scratch buffer shows what the dispatch wrote, not what the case started with; in a
// single-pass case an input as given, an output as the solution left it, a scratch buffer as
// the case starts it (what the kernel wrote there is in the threads' accesses).
struct StepBuffer {
    const BufferData* data = nullptr;
    std::string note; // "(after this dispatch)", "(input)", ...
};
class StepBuffers {
  public:
    StepBuffers(const WalkthroughRun& run, const CaseOutcome& c, size_t dispatch)
        : m_run(run), m_c(c), m_dispatch(dispatch) {}
    StepBuffer of(int buffer) {
        if (buffer < 0 || size_t(buffer) >= m_run.puzzle.buffers.size()) return {};
        RoleKind role = m_run.puzzle.buffers[size_t(buffer)].role;
        if (role != RoleKind::Input && m_c.dispatches.size() > 1)
            if (const views::DispatchMemory* m = memory(); m && size_t(buffer) < m->after.size())
                return {&m->after[size_t(buffer)],
                        m->exact ? "(after this dispatch)"
                                 : "(after this dispatch, as far as the traces tell)"};
        const char* note = role == RoleKind::Input    ? "(input)"
                           : role == RoleKind::Output ? "(as the solution left it)"
                                                      : "(scratch, as the case starts it)";
        return {bufferContents(m_c, buffer), note};
    }

  private:
    const views::DispatchMemory* memory() {
        if (!m_used) {
            m_used = true;
            auto text = readKernelTexts(m_run.puzzle, /*solution=*/true);
            if (!text) return nullptr;
            m_cache.use(&m_run.puzzle, m_c.index, &m_c,
                        std::make_shared<const std::string>(std::move(*text)));
        }
        return m_cache.memory(m_dispatch);
    }
    const WalkthroughRun& m_run;
    const CaseOutcome& m_c;
    size_t m_dispatch;
    bool m_used = false;
    views::DispatchCache m_cache;
};

std::vector<uint32_t> sortedLines(const WalkthroughFocus& f) {
    std::set<uint32_t> s(f.lines.begin(), f.lines.end());
    return {s.begin(), s.end()};
}

void printLines(std::ostream& os, const WalkthroughStep& s, const std::string& source,
                const Style& st) {
    uint32_t previous = 0;
    for (uint32_t l : sortedLines(s.focus)) {
        if (previous && l > previous + 1) os << st.dim("       ...") << "\n";
        os << st.dim(std::string(6 - std::min<size_t>(6, std::to_string(l).size()), ' ') +
                     std::to_string(l) + " | ")
           << sourceLine(source, static_cast<int>(l)) << "\n";
        previous = l;
    }
}

// Cells per line for a 1D array: a power of two that fits the width, so rows start at round
// indices.
size_t cellsPerLine(size_t cellWidth, size_t label, int width) {
    size_t fit =
        (static_cast<size_t>(width) > label + 8 ? static_cast<size_t>(width) - label - 8 : 0) /
        (cellWidth + 2);
    size_t n = 4;
    while (n * 2 <= fit && n < 32)
        n *= 2;
    return n;
}

// One shared array as rows of cells: 2D arrays a row per line, 1D arrays as many cells per line
// as fit. Focused cells are bracketed (and bold in colour), unwritten ones are dots; a long tail
// of unwritten cells is summarised in one line.
std::vector<std::string> sharedCells(const Trace& t, const SharedSnapshot& snap, size_t v) {
    std::vector<std::string> cells;
    for (size_t i = 0; i < snap.values[v].size(); ++i)
        cells.push_back(
            snap.written[v][i] ? valueText(t, static_cast<uint32_t>(v), snap.values[v][i]) : ".");
    return cells;
}

void printSharedArray(std::ostream& os, const Trace& t, const WalkthroughStepState& state, size_t v,
                      size_t cellWidth, int width, const Style& st) {
    const SharedSnapshot& snap = *state.shared;
    const TraceVariableInfo& info = t.variables[v];
    std::vector<std::string> cells = sharedCells(t, snap, v);
    size_t used = 0;
    for (size_t i = 0; i < cells.size(); ++i)
        if (snap.written[v][i] || state.highlighted(v, i)) used = i + 1;
    std::optional<GridShape> shape = sharedGrid(info, cells.size());
    bool grid = shape.has_value();
    size_t label = info.decl.name.size() + 4;
    size_t perLine = grid ? shape->cols : cellsPerLine(cellWidth, label, width);
    size_t shown = grid || cells.size() - used <= perLine
                       ? cells.size()
                       : (used + perLine - 1) / perLine * perLine;
    for (size_t start = 0; start < shown; start += perLine) {
        std::string head = start == 0 ? info.decl.name : "";
        std::string where = grid                     ? "[" + std::to_string(start / perLine) + "]"
                            : cells.size() > perLine ? std::to_string(start) + ":"
                                                     : "";
        os << "  " << std::left << std::setw(static_cast<int>(label - 2)) << head << std::right
           << std::setw(5) << where;
        for (size_t i = start; i < std::min(shown, start + perLine); ++i) {
            std::string pad(cellWidth - cells[i].size() + 1, ' ');
            os << pad
               << (state.highlighted(v, i) ? st.bold("[" + cells[i] + "]") : " " + cells[i] + " ");
        }
        os << "\n";
    }
    if (shown < cells.size())
        os << "  " << std::string(label + 3, ' ')
           << st.dim("cells " + std::to_string(shown) + " to " + std::to_string(cells.size() - 1) +
                     " never written")
           << "\n";
}

void printShared(std::ostream& os, const Trace& t, const WalkthroughStepState& state, int width,
                 const Style& st) {
    if (!state.shared) return;
    os << st.bold("shared memory of workgroup " + groupName(t.launch, state.workgroup) +
                  " after round " + std::to_string(*state.round))
       << st.dim("  (. never written, [x] in focus)") << "\n";
    // One cell width for all arrays, so that arrays indexed alike line up.
    size_t cellWidth = 1;
    for (size_t v = 0; v < t.variables.size(); ++v)
        if (t.variables[v].decl.shared && v < state.shared->values.size())
            for (const std::string& c : sharedCells(t, *state.shared, v))
                cellWidth = std::max(cellWidth, c.size());
    for (size_t v = 0; v < t.variables.size(); ++v)
        if (t.variables[v].decl.shared && v < state.shared->values.size())
            printSharedArray(os, t, state, v, cellWidth, width, st);
}

void printBufferCells(std::ostream& os, const WalkthroughRun& run, const CaseOutcome& c,
                      const Trace& t, const WalkthroughStep& s, const Style& st) {
    bool header = false;
    StepBuffers buffers(run, c, s.focus.dispatch);
    for (const WalkthroughCell& cell : s.focus.cells) {
        auto v = tracedVariable(t, cell.variable);
        if (!v || t.variables[*v].decl.shared) continue;
        auto flat = flatCellIndex(t.variables[*v], cell.index);
        StepBuffer b = buffers.of(t.variables[*v].puzzleBuffer);
        if (!flat || !b.data || *flat >= b.data->shape.count()) continue;
        if (!header) os << st.bold("buffer cells") << "\n";
        header = true;
        os << "  " << std::left << std::setw(14) << cellLabel(cell) << std::right << " = "
           << b.data->format(*flat) << st.dim("   " + b.note) << "\n";
    }
}

// The case a step shows, traced (printWalkthrough's caller made sure of it).
const CaseOutcome& stepOutcome(const WalkthroughRun& run, const WalkthroughStep& s) {
    return **walkthroughCase(run, stepCase(run.walkthrough, s));
}

// "case 3 (8 tiles of ...), under its forced schedule": a step's case where it is not the
// walkthrough's.
std::string otherCaseText(const WalkthroughRun& run, size_t caseIndex) {
    const TestCase& tc = run.puzzle.cases[caseIndex];
    return "case " + std::to_string(caseIndex + 1) + (tc.name.empty() ? "" : " (" + tc.name + ")") +
           (run.puzzle.scheduleFor(caseIndex) ? ", traced under its forced schedule" : ", traced");
}

// The look-back of the step's dispatch as text (views/lookback.h): a strip per tile, then what
// each tile's workgroup did.
void printLookback(std::ostream& os, const WalkthroughRun& run, const CaseOutcome& c,
                   const Trace& t, int width, const Style& st) {
    LookbackModel m = lookbackModel(run.puzzle, run.puzzle.cases[c.index], t);
    std::vector<std::string> lines = lookbackText(m, 0, std::max(20, width - 14));
    for (size_t i = 0; i < lines.size(); ++i)
        os << (i == 0 ? st.bold(lines[i]) : lines[i]) << "\n";
}

void printStep(std::ostream& os, const WalkthroughRun& run, size_t i, int width, const Style& st) {
    const WalkthroughStep& s = run.walkthrough.steps[i];
    const CaseOutcome& c = stepOutcome(run, s);
    StepSubject sub = stepSubject(run, c, s.focus.dispatch);
    const Trace& t = *sub.trace;
    WalkthroughStepState state = resolveStep(s.focus, t, *sub.analysis);
    os << st.bold("Step " + std::to_string(i + 1) + "/" +
                  std::to_string(run.walkthrough.steps.size()) + ": " + s.title)
       << "\n";
    if (!sub.label.empty())
        os << st.dim("  dispatch " + std::to_string(s.focus.dispatch + 1) + " of " +
                     std::to_string(c.dispatches.size()) + ": " + sub.label + ", " +
                     fileName(sub.kernel->file))
           << "\n";
    if (stepCase(run.walkthrough, s) != run.walkthrough.caseIndex)
        os << st.dim("  " + otherCaseText(run, c.index)) << "\n";
    os << wrapText(s.text, width, 2);
    if (!s.focus.lines.empty()) {
        os << "\n";
        printLines(os, s, sub.kernel->text, st);
    }
    os << "\n";
    if (s.focus.lookback) printLookback(os, run, c, t, width, st);
    printShared(os, t, state, width, st);
    for (uint64_t inv : state.invocations)
        printThread(os, t, inv, st, s.focus.round);
    printBufferCells(os, run, c, t, s, st);
}

std::vector<size_t> stepsToShow(const Walkthrough& w, std::optional<size_t> only) {
    if (only) return {*only - 1};
    std::vector<size_t> all(w.steps.size());
    for (size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    return all;
}

json valueJson(std::optional<ElementKind> type, uint32_t word) {
    return fromWord(type.value_or(ElementKind::Uint), word);
}

json sharedJson(const Trace& t, const WalkthroughStepState& state) {
    json out = json::array();
    if (!state.shared) return out;
    for (size_t v = 0; v < t.variables.size() && v < state.shared->values.size(); ++v) {
        if (!t.variables[v].decl.shared) continue;
        json values = json::array();
        for (size_t i = 0; i < state.shared->values[v].size(); ++i)
            values.push_back(
                state.shared->written[v][i]
                    ? valueJson(t.variables[v].decl.elementType, state.shared->values[v][i])
                    : json(nullptr));
        out.push_back({{"name", t.variables[v].decl.name},
                       {"dims", t.variables[v].dims},
                       {"values", values}});
    }
    return out;
}

json cellsJson(const WalkthroughRun& run, const CaseOutcome& c, const Trace& t,
               const WalkthroughStep& s, const WalkthroughStepState& state) {
    json out = json::array();
    StepBuffers buffers(run, c, s.focus.dispatch);
    for (const WalkthroughCell& cell : s.focus.cells) {
        json j{{"variable", cell.variable}, {"index", cell.index}, {"value", nullptr}};
        auto v = tracedVariable(t, cell.variable);
        auto flat = v ? flatCellIndex(t.variables[*v], cell.index) : std::nullopt;
        if (flat) {
            j["flat"] = *flat;
            j["shared"] = t.variables[*v].decl.shared;
            if (t.variables[*v].decl.shared && state.shared && state.shared->written[*v][*flat])
                j["value"] =
                    valueJson(t.variables[*v].decl.elementType, state.shared->values[*v][*flat]);
            const BufferData* data = buffers.of(t.variables[*v].puzzleBuffer).data;
            if (!t.variables[*v].decl.shared && data && *flat < data->shape.count())
                j["value"] = data->get(*flat);
        }
        out.push_back(j);
    }
    return out;
}

json stepJson(const WalkthroughRun& run, size_t i) {
    const WalkthroughStep& s = run.walkthrough.steps[i];
    const CaseOutcome& c = stepOutcome(run, s);
    StepSubject sub = stepSubject(run, c, s.focus.dispatch);
    const Trace& t = *sub.trace;
    WalkthroughStepState state = resolveStep(s.focus, t, *sub.analysis);
    json lines = json::array();
    for (uint32_t l : sortedLines(s.focus))
        lines.push_back({{"line", l}, {"text", sourceLine(sub.kernel->text, static_cast<int>(l))}});
    json threads = json::array();
    for (uint64_t inv : state.invocations) {
        json events = json::array();
        for (const TraceEvent& e : t.threads[inv])
            if (!s.focus.round || e.round == *s.focus.round) events.push_back(eventJson(t, e, inv));
        threads.push_back({{"invocation", inv},
                           {"global_id", invocationIds(t.launch, inv).global},
                           {"events", events}});
    }
    InvocationIds group = invocationIds(t.launch, state.workgroup * t.launch.invocationsPerGroup());
    json lookback = nullptr;
    if (s.focus.lookback)
        lookback = lookbackText(lookbackModel(run.puzzle, run.puzzle.cases[c.index], t), 0, 60);
    return {{"number", i + 1},
            {"title", s.title},
            {"text", s.text},
            {"case", c.index + 1},
            {"lookback", lookback},
            {"dispatch",
             {{"index", s.focus.dispatch + 1},
              {"label", sub.label.empty() ? sub.kernel->name : sub.label},
              {"file", fileName(sub.kernel->file)}}},
            {"lines", lines},
            {"round", state.round ? json(*state.round) : json(nullptr)},
            {"workgroup", {{"index", state.workgroup}, {"id", group.group}}},
            {"shared", sharedJson(t, state)},
            {"threads", threads},
            {"cells", cellsJson(run, c, t, s, state)}};
}

} // namespace

StepSubject stepSubject(const WalkthroughRun& run, const CaseOutcome& c, size_t dispatch) {
    DispatchView view = dispatchView(c, dispatch);
    if (!view.trace || view.kernel >= run.sources.size()) return StepSubject{};
    return {view.trace, view.analysis, &run.sources[view.kernel], view.label};
}

Result<Walkthrough> walkthroughArg(const Puzzle& puzzle, const PuzzleSet& set) {
    auto w = loadWalkthrough(puzzle);
    if (!w) return w.error();
    if (*w) return std::move(**w);
    std::string names;
    for (const Puzzle& q : set.puzzles)
        if (hasWalkthrough(q)) names += (names.empty() ? "" : ", ") + q.slug;
    return Error{ErrorKind::NotFound, puzzle.slug + " has no walkthrough yet; puzzles with one: " +
                                          (names.empty() ? "none" : names)};
}

Result<const CaseOutcome*> walkthroughCase(const WalkthroughRun& run, size_t caseIndex) {
    auto found = run.reports.find(caseIndex);
    if (found == run.reports.end())
        return Error{ErrorKind::Internal,
                     "the official solution was not run on case " + std::to_string(caseIndex + 1)};
    const CheckReport& report = found->second;
    if (report.error) return *report.error;
    if (!report.compiled())
        return Error{ErrorKind::Internal,
                     "the official solution does not compile",
                     {run.puzzle.solutionPath}};
    if (report.cases.empty() || report.cases.front().error) {
        std::string why =
            report.cases.empty() ? "it did not run" : report.cases.front().error->message;
        return Error{ErrorKind::Internal, "the official solution could not be traced on case " +
                                              std::to_string(caseIndex + 1) + ": " + why};
    }
    const CaseOutcome& c = report.cases.front();
    if (!c.trace || !c.analysis)
        return Error{ErrorKind::Internal, "the official solution ran without a trace"};
    return &c;
}

int terminalWidth() {
    int w = os::terminalColumns(os::Stream::Out);
    if (!w) w = std::atoi(os::environmentVariable("COLUMNS").c_str());
    if (!w) w = 80;
    return std::clamp(w, 40, 160);
}

std::string wrapText(const std::string& text, int width, int indent) {
    std::string out, pad(static_cast<size_t>(indent), ' '), current;
    size_t limit = static_cast<size_t>(std::max(20, width - indent));
    auto flush = [&] {
        if (!current.empty()) out += pad + current + "\n";
        current.clear();
    };
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == ' ') { // a paragraph break, or a picture kept as written
            flush();
            out += (line.empty() ? "" : pad + line) + "\n";
            continue;
        }
        std::istringstream words(line);
        std::string word;
        while (words >> word) {
            if (!current.empty() && current.size() + 1 + word.size() > limit) flush();
            current += (current.empty() ? "" : " ") + word;
        }
    }
    flush();
    return out;
}

void printWalkthrough(std::ostream& os, const WalkthroughRun& run, std::optional<size_t> onlyStep,
                      int width, const Style& st) {
    const TestCase& tc = run.puzzle.cases[run.walkthrough.caseIndex];
    os << st.bold(run.puzzle.displayName() + ": " + run.walkthrough.title) << "\n"
       << st.dim("  the official solution on case " +
                 std::to_string(run.walkthrough.caseIndex + 1) +
                 (tc.name.empty() ? "" : " (" + tc.name + ")") + ", traced")
       << "\n\n";
    bool first = true;
    for (size_t i : stepsToShow(run.walkthrough, onlyStep)) {
        if (!first) os << "\n";
        first = false;
        printStep(os, run, i, width, st);
    }
}

json walkthroughJson(const WalkthroughRun& run, std::optional<size_t> onlyStep) {
    json steps = json::array();
    for (size_t i : stepsToShow(run.walkthrough, onlyStep))
        steps.push_back(stepJson(run, i));
    return {{"puzzle", run.puzzle.slug},
            {"title", run.walkthrough.title},
            {"file", run.walkthrough.file},
            {"case", run.walkthrough.caseIndex + 1},
            {"step_count", run.walkthrough.steps.size()},
            {"steps", steps}};
}

void printWalkthroughText(std::ostream& os, const Puzzle& puzzle, const Walkthrough& w,
                          const KernelSource& kernel, std::optional<size_t> onlyStep,
                          const std::string& why, int width, const Style& st) {
    os << st.bold(puzzle.displayName() + ": " + w.title) << "\n"
       << wrapText("not run: " + why +
                       ". The steps, with the lines of the official solution "
                       "they point at:",
                   width, 2)
       << "\n";
    for (size_t i : stepsToShow(w, onlyStep)) {
        const WalkthroughStep& s = w.steps[i];
        os << st.bold("Step " + std::to_string(i + 1) + "/" + std::to_string(w.steps.size()) +
                      ": " + s.title)
           << "\n"
           << wrapText(s.text, width, 2);
        if (!s.focus.lines.empty()) {
            os << "\n";
            printLines(os, s, kernel.text, st);
        }
        os << "\n";
    }
}

json walkthroughTextJson(const Puzzle& puzzle, const Walkthrough& w, const KernelSource& kernel,
                         std::optional<size_t> onlyStep, const std::string& why) {
    json steps = json::array();
    for (size_t i : stepsToShow(w, onlyStep)) {
        const WalkthroughStep& s = w.steps[i];
        json lines = json::array();
        for (uint32_t l : sortedLines(s.focus))
            lines.push_back({{"line", l}, {"text", sourceLine(kernel.text, static_cast<int>(l))}});
        steps.push_back(
            {{"number", i + 1}, {"title", s.title}, {"text", s.text}, {"lines", lines}});
    }
    return {{"puzzle", puzzle.slug},
            {"title", w.title},
            {"file", w.file},
            {"case", w.caseIndex + 1},
            {"step_count", w.steps.size()},
            {"traced", false},
            {"not_run", why},
            {"steps", steps}};
}

} // namespace vkp::cli
