#include "panels/inspector_panel.h"

#include <algorithm>

#include "base/source_text.h"
#include "panels/buffers_panel.h"
#include "trace/debug_printf.h"
#include "views/trace_view.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

std::string limitText(const char* what, uint32_t n, const std::optional<uint32_t>& limit) {
    return std::string(what) + " " + std::to_string(n) +
           (limit ? " / " + std::to_string(*limit) : "");
}

std::string valueOf(const Trace& trace, const TraceEvent& e) {
    if (e.variable < trace.variables.size() && trace.variables[e.variable].decl.elementType) {
        BufferData one{*trace.variables[e.variable].decl.elementType, Shape{{1}}, {e.value}};
        return one.format(0);
    }
    return std::to_string(e.value);
}

} // namespace

// The access's request (its site, the lanes of its modelled subgroup) stays coloured in the
// buffers views after the click.
void pickAccessRequest(ViewState& view, const ShownCase& sc, uint64_t inv, size_t event) {
    const TraceAnalysis* a = sc.analysis();
    if (!a || !sc.trace()) return;
    view.request = requestOfAccess(*sc.trace(), a->efficiency.model, inv, event);
    view.requestGeneration = view.traces.generation();
}

void showLine(ViewState& view, const ShownCase& sc, uint32_t line) {
    if (line == 0) return;
    if (sc.official)
        view.focus.lines = {line};
    else
        view.jumpTo = std::make_pair(static_cast<int>(line), 0);
}

void InspectorView::drawThread(ViewState& view, const ShownCase& sc, const Uvec3& g) {
    const Palette& pal = palette();
    const Trace& trace = *sc.trace();
    uint64_t inv = invocationIndex(*sc.testCase, g);
    ThreadIds ids = threadIds(*sc.testCase, g, 0);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(("thread " + idText(*sc.testCase, g)).c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    dimText("local " + idText(*sc.testCase, ids.local) + " of workgroup " +
            idText(*sc.testCase, ids.workgroup));
    if (const TraceAnalysis* a = sc.analysis()) {
        TrafficStatus t = trafficOf(*a, a->limits, inv); // this case's own limits
        colouredText(t.overReads() ? pal.fail : pal.text,
                     limitText("global reads", t.reads, t.readLimit));
        ImGui::SameLine(0, ImGui::GetFontSize());
        colouredText(t.overWrites() ? pal.fail : pal.text,
                     limitText("writes", t.writes, t.writeLimit));
        if (t.over()) {
            ImGui::SameLine(0, ImGui::GetFontSize());
            colouredText(pal.fail, "\xE2\x9C\x97 over the puzzle's limit");
        }
    }
    drawPrintf(trace, inv);
    const ThreadFootprint& fp = view.traces.footprint(inv);
    if (fp.accesses.empty()) return dimText("It read and wrote nothing.");
    if (!ImGui::BeginTable(
            "accesses", 4,
            ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit,
            ImVec2(0,
                   std::max(ImGui::GetContentRegionAvail().y * (view.selection.cell ? 0.55f : 1.0f),
                            ImGui::GetFontSize() * 4))))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn("line");
    ImGui::TableSetupColumn("round");
    ImGui::TableSetupColumn("access", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(fp.accesses.size()));
    ImGui::PushFont(fonts().mono);
    while (clip.Step())
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            const AccessEntry& a = fp.accesses[i];
            const TraceEvent& e = trace.threads[inv][a.event];
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushID(i);
            std::string order = a.order ? std::to_string(a.order) : "";
            if (ImGui::Selectable(order.c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
                showLine(view, sc, e.line);
                view.timelineWorkgroup = inv / std::max(1u, trace.launch.invocationsPerGroup());
                view.seekEvent = std::make_pair(inv, a.event);
                view.showMemoryTab = MemoryTab::Timeline;
                pickAccessRequest(view, sc, inv, a.event);
            }
            if (ImGui::IsItemHovered()) {
                view.nextHover.access = std::make_pair(inv, a.event);
                std::string code =
                    sc.source ? sourceLine(*sc.source, static_cast<int>(e.line)) : "";
                code.erase(0, std::min(code.size(), code.find_first_not_of(" \t")));
                ImGui::SetTooltip("line %u:  %s\nClick: the editor goes to the line, the timeline "
                                  "to this access.",
                                  e.line, code.c_str());
            }
            ImGui::PopID();
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(std::to_string(e.line).c_str());
            ImGui::TableSetColumnIndex(2);
            ImGui::TextUnformatted(std::to_string(e.round).c_str());
            ImGui::TableSetColumnIndex(3);
            std::string text = eventText(trace, e, inv);
            text =
                text.substr(std::min(text.size(), text.find("  ") + 2)); // the line has its column
            ImU32 c = e.kind == TraceEventKind::Write     ? pal.cellWritten
                      : e.kind == TraceEventKind::Read    ? pal.accent
                      : e.kind == TraceEventKind::Barrier ? pal.dimText
                                                          : pal.warn;
            colouredText(c, text);
        }
    ImGui::PopFont();
    ImGui::EndTable();
}

// The thread's debugPrintfEXT lines (all of them are in the Console tab too).
void InspectorView::drawPrintf(const Trace& trace, uint64_t inv) {
    std::vector<PrintfLine> lines = printfLines(trace, inv);
    uint32_t lost = printfDropped(trace, inv);
    layout::fact("inspectorPrintf", lines.empty() ? "" : lines.front().text);
    if (lines.empty() && !lost) return;
    const Palette& pal = palette();
    size_t shown = std::min<size_t>(lines.size(), kPrintfShown);
    ImGui::PushFont(fonts().mono);
    for (size_t i = 0; i < shown; ++i) {
        colouredText(pal.dimText, "printf " + std::to_string(lines[i].sourceLine) + ":");
        ImGui::SameLine();
        ImGui::TextUnformatted(lines[i].text.c_str());
    }
    ImGui::PopFont();
    std::string more;
    if (lines.size() > shown)
        more = std::to_string(lines.size() - shown) + " more lines in the Console tab";
    if (lost)
        more += (more.empty() ? "" : "; ") + std::to_string(lost) +
                " lines not recorded (at most " + std::to_string(kPrintfLinesPerThread) +
                " per thread)";
    if (!more.empty()) colouredText(lost ? pal.warn : pal.dimText, more);
}

void InspectorView::drawCell(ViewState& view, const ShownCase& sc, const CellRef& cell) {
    const Trace& trace = *sc.trace();
    const Palette& pal = palette();
    const auto& h = view.traces.cells().history(cell);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(cellText(&trace, *sc.puzzle, *sc.testCase, cell).c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    std::string where =
        cell.shared ? "shared, workgroup " + workgroupName(*sc.testCase, cell.workgroup) + ", "
                    : "";
    dimText(where + std::to_string(h.size()) + (h.size() == 1 ? " access by " : " accesses by ") +
            std::to_string(view.traces.cells().threads(cell).size()) + " threads, in order");
    if (h.empty()) return;
    if (!ImGui::BeginTable("history", 5,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                               ImGuiTableFlags_SizingFixedFit,
                           ImVec2(0, 0)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* c : {"#", "round", "thread", "line", "access"})
        ImGui::TableSetupColumn(c);
    ImGui::TableHeadersRow();
    ImGuiListClipper clip;
    clip.Begin(static_cast<int>(h.size()));
    ImGui::PushFont(fonts().mono);
    while (clip.Step())
        for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
            const CellTouch& t = h[i];
            Uvec3 g = globalIdOf(*sc.testCase, t.invocation);
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushID(i);
            if (ImGui::Selectable(std::to_string(i + 1).c_str(),
                                  view.selection.thread && *view.selection.thread == g,
                                  ImGuiSelectableFlags_SpanAllColumns)) {
                view.selection.thread = g;
                showLine(view, sc, t.line);
            }
            ImGui::PopID();
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(std::to_string(t.round).c_str());
            ImGui::TableSetColumnIndex(2);
            ImGui::TextUnformatted(idText(*sc.testCase, g).c_str());
            ImGui::TableSetColumnIndex(3);
            ImGui::TextUnformatted(std::to_string(t.line).c_str());
            ImGui::TableSetColumnIndex(4);
            TraceEvent e;
            e.kind = t.kind;
            e.variable = cell.shared
                             ? cell.array
                             : variableOfBuffer(trace, cell.array).value_or(kTraceVariableNone);
            e.value = t.value;
            const char* verb = t.kind == TraceEventKind::Read    ? "read "
                               : t.kind == TraceEventKind::Write ? "write "
                                                                 : "atomic, was ";
            colouredText(t.kind == TraceEventKind::Read ? pal.accent : pal.cellWritten,
                         verb + valueOf(trace, e));
        }
    ImGui::PopFont();
    ImGui::EndTable();
}

void InspectorView::draw(ViewState& view, const ShownCase& sc) {
    if (!sc.trace() || !sc.testCase) return;
    if (view.selection.thread) {
        ImGui::PushID("thread");
        drawThread(view, sc, *view.selection.thread);
        ImGui::PopID();
    }
    if (view.selection.cell) {
        if (view.selection.thread) ImGui::Separator();
        ImGui::PushID("cell");
        drawCell(view, sc, *view.selection.cell);
        ImGui::PopID();
    }
}

} // namespace vkp::ui
