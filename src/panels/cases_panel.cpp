#include "panels/cases_panel.h"

#include <algorithm>

#include "puzzle/own_case.h"
#include "puzzle/passes.h"
#include "session/hidden_cases.h"
#include "session/subgroup_sizes.h"
#include "views/dispatch_model.h"
#include "widgets/fonts.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

const CaseOutcome* outcomeOf(const CheckReport* r, size_t index) {
    if (!r) return nullptr;
    for (const CaseOutcome& c : r->cases)
        if (c.index == index) return &c;
    return nullptr;
}

// A case's line in the list: its icon, its words, their colour.
struct CaseBadge {
    std::string icon, text;
    ImU32 colour;
};

// "race on line 14", and for a multi-pass case "in scan_sums"; lines of the whole text.
std::string findingWhere(const Finding& f, const CaseOutcome& c,
                         const std::vector<uint32_t>& offsets) {
    size_t kernel = 0;
    std::string where;
    for (const DispatchTrace& dispatch : c.dispatches)
        if (dispatch.analysis == c.analysis) {
            kernel = dispatch.kernel;
            where = " in " + dispatch.label;
            break;
        }
    uint32_t line = wholeTextLine(offsets, kernel, f.line);
    return std::string(findingKindName(f.kind)) + (line ? " on line " + std::to_string(line) : "") +
           where;
}

CaseBadge badgeOf(const CheckReport* r, const CaseOutcome* c, const Puzzle& p,
                  const std::vector<uint32_t>& offsets, bool checking) {
    const Palette& pal = palette();
    if (!r) return {"\xE2\x80\xA6", "not checked yet", pal.dimText};
    if (!r->compiled() && r->error && r->error->kind == ErrorKind::Device)
        return {"\xE2\x80\x93", "not run: the device lacks what the kernel enables", pal.dimText};
    if (!r->compiled())
        return {"\xE2\x80\x93", "not run: the kernel does not compile", pal.dimText};
    if (hasErrors(r->diagnostics))
        return {"\xE2\x80\x93", "not run: see the messages under the editor", pal.dimText};
    if (!c && checking) return {"\xE2\x80\xA6", "checking\xE2\x80\xA6", pal.dimText};
    if (!c)
        return {"\xE2\x80\x93", r->error ? "not run: " + r->error->message : "not run",
                pal.dimText};
    if (c->error) return {"\xE2\x9C\x97", c->error->message, pal.fail};
    const Finding* finding = nullptr;
    if (c->analysis)
        for (const Finding& f : c->analysis->findings)
            if (f.failsCase && !finding) finding = &f;
    if (!c->runFindings.empty())
        finding = &c->runFindings.front(); // untraced: a loop ran out of budget
    std::string traced = finding ? findingWhere(*finding, *c, offsets) : "";
    bool unchecked = std::any_of(c->outputs.begin(), c->outputs.end(),
                                 [](const BufferOutcome& b) { return !b.checked; });
    if (c->pass && unchecked)
        return {"\xE2\x80\xA2",
                "ran; no expected output to check (this puzzle writes its expected values by hand)",
                pal.warn};
    if (c->pass) return {"\xE2\x9C\x93", "pass", pal.pass};
    if (c->inconclusive)
        return {"?",
                "inconclusive: " +
                    (finding ? finding->message : std::string("the trace did not fit")),
                pal.warn};
    if (c->outputsMatch && finding)
        return {"\xE2\x9C\x97", "right values, but " + traced, pal.fail};
    std::string what;
    for (const BufferOutcome& b : c->outputs) {
        if (b.comparison.pass) continue;
        if (!what.empty()) what += "; ";
        what += p.buffers[b.buffer].name + ": " +
                (c->hidden ? std::string("wrong values") // how many would hint at the size
                           : std::to_string(b.comparison.mismatchCount) + " of " +
                                 std::to_string(b.expected.shape.count()) + " cells wrong");
    }
    if (finding) what += (what.empty() ? "" : "; ") + traced;
    return {"\xE2\x9C\x97", what.empty() ? "fail" : what, pal.fail};
}

// What the puzzle's author says about a recognised wrong answer ([[pitfalls]] `why`), and how a
// forced schedule held a workgroup (which is what exposed many look-back mistakes), as the CLI
// prints them under a failing case: empty when the case passed or there is neither.
std::string whyText(const CaseOutcome* c) {
    if (!c || c->pass) return "";
    std::string why;
    for (const std::string& note : c->notes)
        why += (why.empty() ? "" : " ") + note;
    if (!why.empty()) why = "why: " + why;
    for (const std::string& schedule : scheduleLines(*c))
        why += (why.empty() ? "" : " ") + schedule;
    return why;
}

} // namespace

std::string launchText(const TestCase& c) {
    uint64_t n = c.threadCount();
    return dimsText(c.workgroupSize) + " \xC3\x97 " + dimsText(c.workgroups) + " = " +
           std::to_string(n) + (n == 1 ? " thread" : " threads");
}

std::string caseLaunchText(const Puzzle& p, size_t caseIndex) {
    const TestCase& c = p.cases.at(caseIndex);
    if (c.hidden) return kHiddenCaseText;
    if (!p.multiPass()) return launchText(c);
    auto dispatches = caseDispatches(p, caseIndex);
    if (!dispatches) return dimsText(c.workgroupSize) + " per workgroup";
    std::string groups;
    for (size_t d = 0; d < dispatches->size() && d < 3; ++d)
        groups += (d ? ", " : "") + dimsText((*dispatches)[d].workgroups);
    if (dispatches->size() > 3) groups += ", \xE2\x80\xA6";
    size_t n = dispatches->size();
    return dimsText(c.workgroupSize) + " \xC3\x97 " + groups + " in " + std::to_string(n) +
           (n == 1 ? " dispatch" : " dispatches");
}

// One case of the list: its badge, name, launch and constants, what it came to, and the author's
// explanation of a recognised wrong answer (whole when selected); a click selects it.
void CasesPanel::drawCase(Workbench& wb, ViewState& view, const Puzzle& p, const CheckReport* r,
                          size_t i, bool checking) {
    const Palette& pal = palette();
    float pad = ImGui::GetFontSize() * 0.3f, line = ImGui::GetTextLineHeight();
    const TestCase& tc = p.cases[i];
    CaseBadge v = badgeOf(r, outcomeOf(r, i), p, m_offsets, checking);
    if (wb.caseFile() && !outcomeOf(r, i))
        v = {"\xE2\x80\x93", "not in this case file", pal.dimText};
    ImGui::PushID(static_cast<int>(i));
    ImVec2 pos = ImGui::GetCursorScreenPos();
    float width = ImGui::GetContentRegionAvail().x;
    float h = line * 3 + ImGui::GetStyle().ItemSpacing.y * 2;
    // The author's explanation of a recognised wrong answer: whole under the selected case,
    // one line (the rest in the tooltip) under the others.
    std::string why = whyText(outcomeOf(r, i));
    bool selected = view.selectedCase == static_cast<int>(i);
    float textX = pad + ImGui::GetFontSize() * 1.3f,
          wrap = std::max(ImGui::GetFontSize() * 4, width - textX - pad);
    if (!why.empty() && !selected) why = ellipsize(why, wrap);
    float whyH = why.empty() ? 0 : ImGui::CalcTextSize(why.c_str(), nullptr, false, wrap).y;
    h += whyH;
    if (ImGui::Selectable("##case", view.selectedCase == static_cast<int>(i), 0, ImVec2(0, h)))
        view.selectedCase = static_cast<int>(i);
    layout::item("case/" + std::to_string(i + 1));
    layout::fact("case/" + std::to_string(i + 1), (tc.own ? "own: " : "") + v.text);
    if (view.selectedCase == static_cast<int>(i) && m_scrolledTo != view.selectedCase) {
        ImGui::SetScrollHereY(0.5f); // keep the selected case in view (also when chosen elsewhere)
        m_scrolledTo = view.selectedCase;
    }
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec4 clip(pos.x, pos.y, pos.x + width, pos.y + h);
    float x = pos.x + pad, y = pos.y + ImGui::GetStyle().ItemSpacing.y * 0.5f;
    dl->AddText(fonts().bold, fonts().bold->FontSize, ImVec2(x, y), v.colour, v.icon.c_str());
    float x2 = x + ImGui::GetFontSize() * 1.3f;
    std::string head = "Case " + std::to_string(i + 1) +
                       (tc.hidden         ? " (hidden)"
                        : tc.name.empty() ? ""
                                          : ": " + tc.name);
    // Lines too long for the panel end in an ellipsis (the tooltip has them whole), never cut
    // mid-value ("SHARED_SIZE =" without its value read as a bug).
    float room = x + width - pad - x2;
    dl->AddText(fonts().bold, fonts().bold->FontSize, ImVec2(x2, y), pal.text,
                ellipsize(head, room, fonts().bold, fonts().bold->FontSize).c_str(), nullptr, 0,
                &clip);
    std::string launch = caseLaunchText(p, i);
    std::string k = constantsText(p, tc);
    float monoSize = fonts().small->FontSize * 1.1f;
    auto fits = [&](const std::string& text) {
        return fonts().mono->CalcTextSizeA(monoSize, FLT_MAX, 0, text.c_str()).x <= room;
    };
    if (!k.empty()) {
        // The constants' values matter more than the thread count, which the shape already
        // tells.
        std::string shortLaunch =
            p.multiPass() ? launch
                          : dimsText(tc.workgroupSize) + " \xC3\x97 " + dimsText(tc.workgroups);
        launch = fits(launch + ", " + k) ? launch + ", " + k : shortLaunch + ", " + k;
    }
    dl->AddText(fonts().mono, monoSize, ImVec2(x2, y + line), pal.dimText,
                ellipsize(launch, room, fonts().mono, monoSize).c_str(), nullptr, 0, &clip);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x2, y + line * 2), v.colour,
                ellipsize(v.text, room).c_str(), nullptr, 0, &clip);
    if (!why.empty()) {
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x2, y + line * 3), pal.warn,
                    why.c_str(), nullptr, wrap, &clip);
        layout::rect("why/" + std::to_string(i + 1), ImVec2(x2, y + line * 3),
                     ImVec2(x2 + wrap, y + line * 3 + whyH));
    }
    if (hovered) drawCaseTooltip(p, r, i, head, k, v.text, v.colour);
    ImGui::PopID();
}

// The case's tooltip: its name, launch, constants and verdict whole, and why, or its schedule.
void CasesPanel::drawCaseTooltip(const Puzzle& p, const CheckReport* r, size_t i,
                                 const std::string& head, const std::string& k,
                                 const std::string& verdict, ImU32 colour) {
    const Palette& pal = palette();
    const TestCase& tc = p.cases[i];
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(head.c_str());
    if (tc.hidden)
        dimText("Your teacher hid this case's data: you see whether it passes, and how "
                "it fails, not its inputs or launch.");
    else if (p.multiPass())
        dimText("workgroup size " + dimsText(tc.workgroupSize) + "; " + caseLaunchText(p, i));
    else
        dimText("workgroup size " + dimsText(tc.workgroupSize) + ", workgroups " +
                dimsText(tc.workgroups));
    if (!k.empty()) dimText(k);
    colouredText(colour, verdict);
    if (std::string full = whyText(outcomeOf(r, i)); !full.empty())
        colouredText(pal.warn, full);
    else if (const CaseOutcome* c = outcomeOf(r, i)) // a passing case's schedule
        for (const std::string& schedule : scheduleLines(*c))
            dimText(schedule);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void CasesPanel::draw(Workbench& wb, ViewState& view, ImVec2 size) {
    const Puzzle* p = wb.puzzle();
    const LiveSnapshot& s = wb.snapshot();
    const CheckReport* r = wb.report();
    std::string info;
    ImU32 infoColour = 0;
    // A check under way: the report holds the cases decided so far (LiveSnapshot::report).
    bool checking = r && s.current() && s.status == LiveStatusKind::Running;
    if (p && checking) {
        info =
            std::to_string(r->cases.size()) + " of " + std::to_string(p->cases.size()) + " checked";
        infoColour = palette().dimText;
    } else if (const OpenedCaseFile* f = wb.caseFile()) {
        info = "case file: case " + std::to_string(f->file.caseIndex() + 1) + " only";
        infoColour = palette().dimText;
    } else if (p && r && r->compiled() && !hasErrors(r->diagnostics)) {
        info = std::to_string(puzzleCasesPassed(*r, *p)) + " of " +
               std::to_string(p->puzzleCaseCount()) + " pass"; // own cases never count
        infoColour = puzzleCasesPass(*r, *p) ? palette().pass : palette().fail;
    }
    beginPanel("cases", "Test cases", size, info, infoColour);
    if (!p) return endPanel();
    const Palette& pal = palette();
    // All cases pass: on to the next puzzle (above the list, which scrolls to the selected case).
    if (r && s.current() && !s.besideDue() && puzzleCasesPass(*r, *p) &&
        wb.puzzleIndex() + 1 < static_cast<int>(wb.puzzles().puzzles.size())) {
        const Puzzle& next = wb.puzzles().puzzles[wb.puzzleIndex() + 1];
        if (ImGui::Button(("Next puzzle: " + next.displayName() + " \xE2\x86\x92").c_str()))
            wb.requestPuzzle(wb.puzzleIndex() + 1);
        layout::item("button/Next puzzle");
        itemTooltip("Ctrl+PgDn");
    }
    drawActions(wb, view);
    ImGui::BeginChild("caselist", ImVec2(0, 0), false);
    if (!s.current() && r) {
        dimText("(results of an earlier version; checking\xE2\x80\xA6)");
    }
    if (r && !r->untraced.empty()) {
        ImGui::PushTextWrapPos(0);
        dimText("Not traced: " + r->untraced + ".");
        ImGui::PopTextWrapPos();
    }
    std::shared_ptr<const std::string> source = wb.reportSource();
    if (source != m_offsetsFor) {
        m_offsetsFor = source;
        m_offsets = source ? kernelLineOffsets(*p, *source) : std::vector<uint32_t>{};
    }
    for (size_t i = 0; i < p->cases.size(); ++i)
        drawCase(wb, view, *p, r, i, checking);
    drawOwnCaseRemove(wb, view);
    if (s.current() && !checking) drawSubgroupSizes(*p, s);
    if (s.current() && !checking) drawAtomicOrder(s);
    if (s.current() && !checking) drawCaseSearch(wb, view, s);
    if (r && r->error && r->cases.empty() && r->compiled()) {
        ImGui::PushTextWrapPos(0);
        colouredText(pal.fail, r->error->message);
        ImGui::PopTextWrapPos();
    }
    if (!s.notice.empty()) {
        ImGui::PushTextWrapPos(0);
        colouredText(pal.warn, s.notice);
        ImGui::PopTextWrapPos();
    }
    ImGui::EndChild();
    endPanel();
    m_form.draw(wb, view);
    m_bench.drawWindow(wb);
}

namespace {

// The heading of a run beside the check under the case list (its tooltip says what the run is),
// and the wrapping its lines take; the caller pops the wrap.
void besideHeading(const char* title, const char* tooltip) {
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    itemTooltip(tooltip);
}

} // namespace

void CasesPanel::drawSubgroupSizes(const Puzzle& p, const LiveSnapshot& s) {
    const CheckReport& r = *s.report;
    if (r.otherSizes.empty() && s.sizesDue.empty()) return;
    const Palette& pal = palette();
    besideHeading("Other subgroup sizes",
                  "A kernel that uses subgroups is also run on lavapipe with other numbers of "
                  "lanes: GPUs have 8, 16, 32 or 64 (32 and 64 are emulated on lavapipe's 16). "
                  "Right with one and wrong with another, it assumes a subgroup size.");
    std::string facts;
    for (const SubgroupSizeRun& run : r.otherSizes) {
        std::string head = sizeName(run.lanes) + ": ";
        std::string text;
        ImU32 colour = pal.pass;
        if (run.error) {
            text = head + "not checked (" + run.error->message + ")";
            colour = pal.warn;
        } else if (run.pass()) {
            text = "\xE2\x9C\x93 " + head + "all " + std::to_string(run.casesRun) + " pass";
            if (std::string carried = carriedText(run); !carried.empty()) text += "; " + carried;
        } else {
            const CaseFailure& f = run.failures.front();
            text = "\xE2\x9C\x97 " + head + std::to_string(run.failures.size()) + " of " +
                   std::to_string(run.casesRun) + " fail; case " + std::to_string(f.index + 1) +
                   ": " + (f.detail.empty() ? std::string(kHiddenCaseText) : f.detail);
            colour = pal.fail;
        }
        colouredText(colour, text);
        facts += (facts.empty() ? "" : "\n") + text;
    }
    if (!s.sizesDue.empty()) dimText("checking with " + lanesText(s.sizesDue) + "\xE2\x80\xA6");
    if (std::string verdict = subgroupSizeVerdict(p, r); !verdict.empty()) {
        colouredText(pal.fail, verdict);
        facts += "\n" + verdict;
    }
    layout::fact("subgroup sizes", facts);
    ImGui::PopTextWrapPos();
}

void CasesPanel::drawAtomicOrder(const LiveSnapshot& s) {
    const CheckReport& r = *s.report;
    if (!r.reversed && !s.atomicOrderDue) return;
    const Palette& pal = palette();
    besideHeading("Atomics in another order",
                  "A kernel with atomics is also run with every subgroup's lanes doing each atomic "
                  "last lane first: devices order them as they like. Right in one order and wrong "
                  "in another, its result depends on the order.");
    std::string text;
    if (s.atomicOrderDue) {
        dimText("checking with atomics in reverse lane order\xE2\x80\xA6");
    } else if (r.reversed->error) {
        text = "not checked (" + r.reversed->error->message + ")";
        colouredText(pal.warn, text);
    } else if (r.reversed->pass()) {
        text = "\xE2\x9C\x93 in reverse lane order: all " + std::to_string(r.reversed->casesRun) +
               " pass";
        colouredText(pal.pass, text);
    } else {
        const CaseFailure& f = r.reversed->failures.front();
        text =
            "\xE2\x9C\x97 in reverse lane order: " + std::to_string(r.reversed->failures.size()) +
            " of " + std::to_string(r.reversed->casesRun) + " fail; case " +
            std::to_string(f.index + 1) + ": " +
            (f.detail.empty() ? std::string(kHiddenCaseText) : f.detail);
        colouredText(pal.fail, text);
        std::string why = "the result depends on the order in which a subgroup's lanes do their "
                          "atomics, which no device promises";
        colouredText(pal.fail, why);
        text += "\n" + why;
    }
    if (!text.empty()) layout::fact("atomic order", text);
    ImGui::PopTextWrapPos();
}

void CasesPanel::drawCaseSearch(Workbench& wb, ViewState& view, const LiveSnapshot& s) {
    const CheckReport& r = *s.report;
    if (!r.search && !s.searchDue) return;
    const Palette& pal = palette();
    besideHeading("Generated cases",
                  "The puzzle generates cases like one of its own at other sizes and workgroup "
                  "sizes, and shrinks one that fails to a small case you can keep and step "
                  "through.");
    std::string text;
    if (s.searchDue) {
        dimText("searching generated cases\xE2\x80\xA6");
    } else if (r.search->error) {
        text = "not checked (" + r.search->error->message + ")";
        colouredText(pal.warn, text);
    } else if (!r.search->found) {
        text = "\xE2\x9C\x93 all " + std::to_string(r.search->casesRun) + " pass";
        colouredText(pal.pass, text);
    } else {
        const FoundCase& f = *r.search->found;
        text = "\xE2\x9C\x97 like case " + std::to_string(f.templateCase + 1) +
               ", N = " + std::to_string(f.n) + ", workgroup " + dimsText(f.workgroupSize) + ": " +
               f.detail;
        colouredText(pal.fail, text);
        for (const auto& [name, values] : f.inputs) {
            dimText(name + " = " + values);
            text += "\n" + name + " = " + values;
        }
        if (!f.inputs.empty()) {
            if (ImGui::SmallButton("Keep it as my case")) {
                OwnCaseSpec spec;
                spec.templateCase = f.templateCase;
                spec.inputs = f.inputs;
                spec.workgroupSize = dimsListText(f.workgroupSize);
                if (auto added = wb.addOwnCase(spec)) view.selectedCase = static_cast<int>(*added);
            }
            layout::item("button/Keep it as my case");
        }
    }
    if (!text.empty()) layout::fact("case search", text);
    ImGui::PopTextWrapPos();
}

void CasesPanel::drawActions(Workbench& wb, ViewState& view) {
    const Puzzle* p = wb.puzzle();
    if (wb.caseFile()) {
        ImGui::PushTextWrapPos(0);
        dimText("A case file: the run as it was recorded; nothing runs.");
        return ImGui::PopTextWrapPos();
    }
    size_t shown = std::min<size_t>(std::max(0, view.selectedCase), p->cases.size() - 1);
    // A case of your own shows all its data: it never starts from a hidden case.
    bool hidden = caseHidden(*p, shown);
    ImGui::BeginDisabled(hidden);
    if (ImGui::SmallButton("Add a case\xE2\x80\xA6")) m_form.open(*p, shown);
    ImGui::EndDisabled();
    layout::item("button/Add a case");
    itemTooltip(hidden ? "The selected case is hidden by your teacher: select a visible case to "
                         "start a case of your own from."
                       : "Run your kernel on inputs you choose (starting from the selected "
                         "case); checked against the puzzle's reference op where it has one. "
                         "Your cases never count towards solving.");
    m_bench.drawButton(wb); // its own line: the panel is narrow
}

void CasesPanel::drawOwnCaseRemove(Workbench& wb, ViewState& view) {
    const Puzzle* p = wb.puzzle();
    if (view.selectedCase < 0 || view.selectedCase >= static_cast<int>(p->cases.size()) ||
        !p->cases[view.selectedCase].own)
        return;
    if (ImGui::SmallButton(("Remove " + p->cases[view.selectedCase].name.substr(
                                            0, p->cases[view.selectedCase].name.find(" (from")))
                               .c_str())) {
        wb.removeOwnCase(static_cast<size_t>(view.selectedCase));
        view.selectedCase -= 1; // the case above it (the list changes before the next frame)
    }
    layout::item("button/Remove own case");
}

} // namespace vkp::ui
