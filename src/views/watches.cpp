#include "views/watches.h"

#include <algorithm>

#include "trace/forced_schedule.h"
#include "views/thread_map.h"
#include "views/trace_model.h"
#include "views/trace_view.h"

namespace vkp::views {
namespace {

// (kind, variable) of an access: what must repeat for a run to be periodic.
uint64_t signature(const TraceEvent& e) {
    return (uint64_t(e.kind) << 32) | e.variable;
}

// The shortest p such that the run is p-periodic (the last repeat may be cut short, as when a
// loop ran out of budget).
size_t shortestPeriod(const std::vector<TraceEvent>& events, std::span<const uint32_t> run) {
    size_t n = run.size();
    for (size_t p = 1; p < n; ++p) {
        bool periodic = true;
        for (size_t i = p; i < n && periodic; ++i)
            periodic = signature(events[run[i]]) == signature(events[run[i - p]]);
        if (periodic) return p;
    }
    return n;
}

std::string formatValue(const Trace& trace, const TraceEvent& e) {
    if (e.variable < trace.variables.size() && trace.variables[e.variable].decl.elementType) {
        BufferData one{*trace.variables[e.variable].decl.elementType, Shape{{1}}, {e.value}};
        return one.format(0);
    }
    return std::to_string(e.value);
}

std::string cellName(const Trace& trace, const TraceEvent& e) {
    return e.variable < trace.variables.size() ? traceCellName(trace, e.variable, e.index) : "?";
}

} // namespace

std::span<const uint32_t> WatchRow::execution(size_t k) const {
    if (k >= starts.size()) return {};
    size_t end = k + 1 < starts.size() ? starts[k + 1] : events.size();
    return std::span<const uint32_t>(events).subspan(starts[k], end - starts[k]);
}

WatchTable buildWatchTable(const Trace& trace, uint32_t line) {
    WatchTable t;
    t.line = line;
    WatchRow row;
    for (uint64_t inv = 0; inv < trace.threads.size(); ++inv) {
        const auto& events = trace.threads[inv];
        row.invocation = inv;
        row.events.clear();
        row.starts.clear();
        size_t runStart = 0;
        // A run of accesses on the line ends at another line's access: cut it into executions.
        auto flush = [&] {
            std::span<const uint32_t> run = std::span<const uint32_t>(row.events).subspan(runStart);
            if (run.empty()) return;
            size_t p = shortestPeriod(events, run);
            for (size_t i = 0; i < run.size(); i += p)
                row.starts.push_back(static_cast<uint32_t>(runStart + i));
            runStart = row.events.size();
        };
        for (uint32_t k = 0; k < events.size(); ++k) {
            const TraceEvent& e = events[k];
            if (!isAccess(e)) continue; // barriers and budget records do not break a run
            if (e.line != line) {
                flush();
                continue;
            }
            row.events.push_back(k);
            if (std::find(t.variables.begin(), t.variables.end(), e.variable) == t.variables.end())
                t.variables.push_back(e.variable);
        }
        flush();
        if (row.starts.empty()) continue;
        t.events += row.events.size();
        t.maxExecutions = std::max(t.maxExecutions, row.starts.size());
        t.rows.push_back(row);
    }
    return t;
}

std::string watchCellText(const Trace& trace, uint64_t inv, std::span<const uint32_t> events,
                          WatchTextKind kind, int variable) {
    std::string out;
    if (inv >= trace.threads.size()) return out;
    for (uint32_t k : events) {
        if (k >= trace.threads[inv].size()) continue;
        const TraceEvent& e = trace.threads[inv][k];
        if (variable >= 0 && e.variable != static_cast<uint32_t>(variable)) continue;
        std::string piece;
        std::string value = formatValue(trace, e);
        const char* op = e.kind == TraceEventKind::Write    ? "\xE2\x86\x90"
                         : e.kind == TraceEventKind::Atomic ? "\xE2\x9F\xB3"
                                                            : "=";
        switch (kind) {
        case WatchTextKind::Cells:
            piece = cellName(trace, e) + (e.kind == TraceEventKind::Read ? "" : op);
            break;
        case WatchTextKind::CellsAndValues:
            piece = cellName(trace, e) +
                    (e.kind == TraceEventKind::Read ? op : std::string(" ") + op + " ") + value;
            break;
        case WatchTextKind::Values:
            piece = (e.kind == TraceEventKind::Read ? "" : op) + value;
            break;
        }
        out += (out.empty() ? "" : " ") + piece;
    }
    return out;
}

void toggleWatchedLine(std::vector<uint32_t>& lines, uint32_t line) {
    auto it = std::lower_bound(lines.begin(), lines.end(), line);
    if (it != lines.end() && *it == line)
        lines.erase(it);
    else
        lines.insert(it, line);
}

uint32_t watchedLineShown(const std::vector<uint32_t>& lines, uint32_t shown) {
    if (!lines.empty() && std::find(lines.begin(), lines.end(), shown) == lines.end())
        return lines.front();
    return shown;
}

std::vector<size_t> watchRowsShown(const WatchTable& table, const Trace& trace,
                                   std::optional<uint64_t> selected, bool groupOnly) {
    std::vector<size_t> rows;
    uint32_t per = std::max(1u, trace.launch.invocationsPerGroup());
    for (size_t i = 0; i < table.rows.size(); ++i)
        if (!groupOnly || !selected || table.rows[i].invocation / per == *selected / per)
            rows.push_back(i);
    return rows;
}

size_t watchColumns(const WatchTable& table, size_t maxColumns) {
    return std::min(table.maxExecutions, maxColumns);
}

std::string watchColumnsNote(const WatchTable& table, size_t maxColumns) {
    if (table.maxExecutions <= maxColumns) return "";
    return "the first " + std::to_string(maxColumns) + " of " +
           std::to_string(table.maxExecutions) + " executions are shown";
}

std::string watchColumnTitle(size_t execution) {
    return ordinal(execution + 1);
}

std::string watchSummary(const WatchTable& table) {
    std::string runs = table.maxExecutions == 1
                           ? "once each"
                           : "up to " + std::to_string(table.maxExecutions) + " times each";
    std::string threads =
        table.rows.size() == 1 ? "1 thread" : std::to_string(table.rows.size()) + " threads";
    return threads + " ran it, " + runs + " (" + std::to_string(table.events) +
           (table.events == 1 ? " access)" : " accesses)");
}

std::string watchCellTooltip(const Trace& trace, const TestCase& launch, const WatchRow& row,
                             size_t execution, uint32_t line) {
    return "thread " + idText(launch, globalIdOf(launch, row.invocation)) + ", " +
           watchColumnTitle(execution) + " time on line " + std::to_string(line) + ":\n" +
           watchCellText(trace, row.invocation, row.execution(execution),
                         WatchTextKind::CellsAndValues);
}

std::string watchVariableName(const Trace& trace, int variable) {
    if (variable < 0 || static_cast<size_t>(variable) >= trace.variables.size())
        return "every array";
    return trace.variables[variable].decl.name;
}

WatchEmpty watchEmptyNote(const Puzzle& p, const std::vector<uint32_t>& lineOffsets, uint32_t line,
                          const std::vector<DispatchEntry>& entries, const DispatchEntry* shown) {
    WatchEmpty out;
    auto kernel = kernelOfLine(p, lineOffsets, line);
    if (shown && p.kernels.size() > 1 && kernel && *kernel != shown->kernel) {
        out.text = "Line " + std::to_string(line) + " is in the kernel " + p.kernels[*kernel].name +
                   "; the dispatch on show runs " + p.kernels[shown->kernel].name +
                   ". Pick a dispatch of " + p.kernels[*kernel].name +
                   " above (Alt+PgUp / Alt+PgDn).";
        for (size_t d = 0; d < entries.size(); ++d)
            if (entries[d].kernel == *kernel) {
                out.dispatch = d;
                out.button = "Show dispatch " + dispatchTitle(entries, d);
                break;
            }
        return out;
    }
    out.text = "No thread made a memory access on line " + std::to_string(line) +
               (shown ? " in this dispatch" : " in this case") +
               " (a line of arithmetic on local variables is not traced; watch the line that "
               "reads or writes the array).";
    return out;
}

} // namespace vkp::views
