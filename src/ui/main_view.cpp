#include "ui/main_view.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/os.h"
#include "panels/hidden_case_panel.h"
#include "ui/menu_items.h"
#include "views/trace_view.h"
#include "widgets/fonts.h"
#include "widgets/keys.h"
#include "widgets/layout_probe.h"
#include "widgets/theme.h"
#include "widgets/view_export.h"
#include "widgets/widgets.h"

namespace vkp::ui {

using namespace views; // the windowless models of the trace this file draws
namespace {

void adjust(float& fraction, float deltaPx, float totalPx) {
    if (totalPx > 0) fraction = std::clamp(fraction + deltaPx / totalPx, 0.08f, 0.92f);
}

} // namespace

// The learner's submission: the editor's kernel as SLUG.comp, or a multi-pass puzzle's kernels
// as SLUG/NAME.comp (what `vkpuzzles grade` reads); where it went is said in the message strip.
void MainView::exportKernel(Workbench& wb) {
    const Puzzle* p = wb.puzzle();
    if (!p) return;
    auto written = wb.exportKernel(exportDirectory(wb.dataDir(), "Documents"));
    if (!written) {
        wb.messages().push_back("Your submission could not be exported: " +
                                written.error().message);
        return;
    }
    std::string files = os::shellWord(*written); // what `check` takes: the file, or each kernel's
    if (p->multiPass()) {
        files.clear();
        for (const KernelDecl& k : p->kernels)
            files += (files.empty() ? "" : " ") + os::shellWord(*written + "/" + k.name + ".comp");
    }
    wb.messages().push_back(
        std::string("Your submission was saved as ") +
        (p->multiPass() ? "the folder " + *written + " (one NAME.comp per kernel)" : *written) +
        ": hand in " + (p->multiPass() ? "that folder" : "that file") +
        ". To check it from a terminal: " + p->command("check", files));
}

void MainView::drawMenu(Workbench& wb, ViewState& view) {
    if (!ImGui::BeginMenuBar()) return;
    m_caseFiles.drawMenu(wb, view);
    bool own = wb.caseFile() == nullptr; // the learner's text is in the editor, not a case file's
    if (beginMenu("Puzzle")) {
        int n = static_cast<int>(wb.puzzles().puzzles.size());
        if (menuItem("Next puzzle", "Ctrl+PgDn", false, wb.puzzleIndex() + 1 < n))
            wb.requestPuzzle(wb.puzzleIndex() + 1);
        if (menuItem("Previous puzzle", "Ctrl+PgUp", false, wb.puzzleIndex() > 0))
            wb.requestPuzzle(wb.puzzleIndex() - 1);
        ImGui::Separator();
        if (menuItem("Check again now", "Ctrl+Enter", false, own)) wb.session().recheck();
        if (menuItem("Reset to starter", nullptr, false,
                     own && wb.document().text() != wb.starterText()))
            wb.resetToStarter();
        if (menuItem("Restore the earlier text", nullptr, false,
                     own && wb.draft().previous.has_value()))
            wb.restorePrevious();
        if (menuItem("Export submission\xE2\x80\xA6", "Ctrl+Shift+S", false, own)) exportKernel(wb);
        ImGui::Separator();
        if (menuItem("Show next hint")) {
            wb.revealNextHint();
            view.showTab = SideTab::Hints;
        }
        if (menuItem("Official solution")) view.showTab = SideTab::Solution;
        ImGui::Separator();
        if (menuItem("Quit", "Ctrl+Q")) view.quit = true;
        endMenu();
    }
    if (beginMenu("Edit")) {
        text::TextDocument& doc = wb.document();
        if (menuItem("Undo", "Ctrl+Z", false, own && doc.canUndo())) doc.undo();
        if (menuItem("Redo", "Ctrl+Y", false, own && doc.canRedo())) doc.redo();
        ImGui::Separator();
        if (menuItem("Cut", "Ctrl+X", false, own && doc.hasSelection()))
            ImGui::SetClipboardText(doc.cut().c_str());
        if (menuItem("Copy", "Ctrl+C", false, doc.hasSelection()))
            ImGui::SetClipboardText(doc.selectedText().c_str());
        if (menuItem("Paste", "Ctrl+V", false, own)) {
            if (const char* clip = ImGui::GetClipboardText()) doc.insert(clip);
        }
        if (menuItem("Select all", "Ctrl+A")) doc.selectAll();
        ImGui::Separator();
        CodeEditor& editor = m_editor.codeEditor();
        if (menuItem("Find...", "Ctrl+F")) editor.openFind(doc);
        if (menuItem("Find next", "F3")) editor.findNext(doc, true);
        if (menuItem("Find previous", "Shift+F3")) editor.findNext(doc, false);
        ImGui::Separator();
        if (menuItem("Toggle comment", "Ctrl+/", false, own)) doc.toggleComment();
        if (menuItem("Indent", "Tab", false, own)) doc.indent();
        if (menuItem("Unindent", "Shift+Tab", false, own)) doc.unindent();
        endMenu();
    }
    drawViewMenu(wb, view);
    if (beginMenu("Help")) {
        if (menuItem("Keyboard shortcuts", "F1")) view.showShortcuts = true;
        if (menuItem("About vkpuzzles")) view.showAbout = true;
        endMenu();
    }
    if (wb.settings().presenter) drawPresenterHint(view);
    ImGui::EndMenuBar();
}

// Presenter mode's keys, right of the menus: the folded panels are one key away.
void MainView::drawPresenterHint(const ViewState& view) {
    std::string hint = "F6 puzzles \xC2\xB7 F7 tabs \xC2\xB7 F8 cases \xC2\xB7 PgDn/PgUp ";
    hint += view.walkthroughActive ? "step" : "round";
    hint += " \xC2\xB7 F5 leave";
    float x = ImGui::GetCursorPosX() + ImGui::GetFontSize();
    float room = ImGui::GetWindowContentRegionMax().x - x;
    std::string shown = ellipsize(hint, room);
    float w = ImGui::CalcTextSize(shown.c_str()).x;
    ImGui::SetCursorPosX(std::max(x, ImGui::GetWindowContentRegionMax().x - w));
    dimText(shown);
    layout::item("presenterHint");
    if (shown != hint) itemTooltip(hint);
}

void MainView::drawViewMenu(Workbench& wb, ViewState& view) {
    if (!beginMenu("View")) return;
    if (menuItem("Dark theme", nullptr, currentTheme() == ThemeKind::Dark) &&
        currentTheme() != ThemeKind::Dark)
        view.toggleTheme = true;
    if (menuItem("Light theme", nullptr, currentTheme() == ThemeKind::Light) &&
        currentTheme() != ThemeKind::Light)
        view.toggleTheme = true;
    if (menuItem("High-contrast theme", nullptr, currentTheme() == ThemeKind::HighContrast))
        view.toggleHighContrast = true;
    ImGui::Separator();
    bool presenter = wb.settings().presenter;
    if (menuItem("Presenter mode", "F5", presenter)) togglePresenter(wb);
    if (menuItem("Puzzle list", "F6", m_folds.browser, presenter))
        m_folds.browser = !m_folds.browser;
    if (menuItem("Statement and tabs", "F7", m_folds.side, presenter)) m_folds.side = !m_folds.side;
    if (menuItem("Test cases", "F8", m_folds.cases, presenter)) m_folds.cases = !m_folds.cases;
    ImGui::Separator();
    if (menuItem("Larger text", "Ctrl+=")) view.fontBigger = true;
    if (menuItem("Smaller text", "Ctrl+-")) view.fontSmaller = true;
    if (menuItem("Normal text size", "Ctrl+0")) view.fontReset = true;
    if (menuItem("Fullscreen", "F11", m_fullscreen)) view.toggleFullscreen = true;
    if (menuItem(m_maximised ? "Show all panels" : "Maximise the panel under the pointer",
                 m_maximised ? "Ctrl+M / Esc" : "Ctrl+M", m_maximised.has_value(),
                 m_maximised.has_value()))
        m_maximised.reset();
    ImGui::Separator();
    Settings& s = wb.settings();
    if (menuItem("Legends", nullptr, s.showLegends))
        s.showLegends = !s.showLegends, wb.saveSettings();
    if (menuItem("Explanations (?)", nullptr, s.showExplanations))
        s.showExplanations = !s.showExplanations, wb.saveSettings();
    ImGui::Separator();
    if (menuItem("Buffers", nullptr, m_memory.current() == MemoryTab::Buffers))
        view.showMemoryTab = MemoryTab::Buffers;
    if (menuItem("Timeline", "Alt+arrows", m_memory.current() == MemoryTab::Timeline))
        view.showMemoryTab = MemoryTab::Timeline;
    if (menuItem("Watches", "F9 watches a line", m_memory.current() == MemoryTab::Watches))
        view.showMemoryTab = MemoryTab::Watches;
    if (menuItem("Console (printf)", nullptr, m_memory.current() == MemoryTab::Console))
        view.showMemoryTab = MemoryTab::Console;
    bool lookback = wb.puzzle() && wb.puzzle()->lookback;
    if (lookback && menuItem("Look-back", nullptr, m_memory.current() == MemoryTab::Lookback))
        view.showMemoryTab = MemoryTab::Lookback;
    if (beginMenu("Save as PNG")) {
        static const char* kViews[][2] = {
            {"buffers", "The buffers"},     {"timeline", "The timeline"},
            {"watches", "The watch table"}, {"lookback", "The look-back"},
            {"grid", "The thread grid"},    {"window", "The whole window"}};
        for (auto& v : kViews)
            if ((lookback || std::string(v[0]) != "lookback") && menuItem(v[1])) {
                std::string name = v[0];
                if (name == "buffers") view.showMemoryTab = MemoryTab::Buffers;
                if (name == "timeline") view.showMemoryTab = MemoryTab::Timeline;
                if (name == "watches") view.showMemoryTab = MemoryTab::Watches;
                if (name == "lookback") view.showMemoryTab = MemoryTab::Lookback;
                view.exportRequest = ExportRequest{name, 3};
            }
        endMenu();
    }
    ImGui::Separator();
    if (menuItem("Clear the selection", "Esc", false, !view.selection.empty()))
        view.selection.clear(), view.focus.clear();
    if (menuItem("Reset the layout")) view.resetLayout = true;
    if (menuItem("Device")) view.showTab = SideTab::Device;
    endMenu();
}

void MainView::drawMessages(Workbench& wb) {
    auto& messages = wb.messages();
    if (messages.empty()) return;
    const Palette& pal = palette();
    ImGui::PushStyleColor(ImGuiCol_ChildBg,
                          ImGui::ColorConvertU32ToFloat4(withAlpha(pal.warn, 0.22f)));
    float h = ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y;
    ImGui::BeginChild("messages", ImVec2(0, h), false, ImGuiWindowFlags_NoScrollbar);
    ImGui::SetCursorPos(
        ImVec2(ImGui::GetStyle().WindowPadding.x, (h - ImGui::GetFrameHeight()) * 0.5f));
    ImGui::AlignTextToFramePadding();
    colouredText(pal.warn, "\xE2\x9A\xA0");
    ImGui::SameLine();
    std::string more =
        messages.size() > 1 ? "  (+" + std::to_string(messages.size() - 1) + " more)" : "";
    float button = ImGui::CalcTextSize("Dismiss").x + ImGui::GetStyle().FramePadding.x * 2 +
                   ImGui::GetFontSize();
    float room = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - button -
                 ImGui::CalcTextSize(more.c_str()).x - ImGui::GetFontSize();
    ImGui::TextUnformatted((ellipsize(messages.front(), room) + more).c_str());
    layout::fact("message", messages.front());
    itemTooltip(messages.front());
    ImGui::SameLine(ImGui::GetWindowWidth() - button);
    if (ImGui::Button("Dismiss")) messages.erase(messages.begin());
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

void MainView::startWalkthrough(Workbench& wb, ViewState& view, size_t step) {
    view.showTab = SideTab::Solution;
    m_solution.startWalkthrough(wb, view, step);
}

void MainView::drawSide(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 size,
                        const FrameInfo& info) {
    const Puzzle* p = wb.puzzle();
    beginPanel("side", nullptr, size);
    // Presenter mode's walkthrough has the top row to itself, and on a short projector every row
    // counts: the tab bar is folded away while it plays (End the walkthrough brings it back, on
    // the Solution tab, where the walkthrough was started).
    if (wb.settings().presenter && view.walkthroughActive) {
        layout::fact("sideTab", "solution");
        ImGui::BeginChild("walkthroughbody", ImVec2(0, 0), false);
        m_solution.draw(wb, view, sc, ImGui::GetContentRegionAvail());
        ImGui::EndChild();
        return endPanel();
    }
    PuzzleProgress pr = p ? wb.progress(*p) : PuzzleProgress{};
    std::string hints =
        "Hints " + std::to_string(pr.hintsRevealed) + "/" + std::to_string(p ? p->hints.size() : 0);
    // Labels elided to the column's width (the tooltip has them whole), never cut by the tab bar.
    const std::vector<std::string> full{"Statement", hints, "Solution", "Device", "Efficiency"};
    std::vector<std::string> shown = fitTabLabels(full);
    // Five tabs on a narrow column (large text): tighter tabs leave each label a letter or more.
    ImVec2 tabPadding = ImGui::GetStyle().FramePadding;
    if (shown != full) {
        tabPadding.x = std::round(tabPadding.x * 0.5f);
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, tabPadding);
        shown = fitTabLabels(full);
        ImGui::PopStyleVar();
    }
    if (ImGui::BeginTabBar("sidetabs")) {
        auto tab = [&](SideTab which, const char* id) {
            size_t i = static_cast<size_t>(which);
            ImGuiTabItemFlags flags = view.showTab == which ? ImGuiTabItemFlags_SetSelected : 0;
            ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, tabPadding);
            bool open = ImGui::BeginTabItem((shown[i] + "###" + id).c_str(), nullptr, flags);
            ImGui::PopStyleVar();
            elidedItem(std::string("tab/") + id, shown[i], full[i]);
            if (open) layout::fact("sideTab", id);
            return open;
        };
        auto body = [&](auto&& fn) {
            ImGui::BeginChild("tabbody", ImVec2(0, 0), false);
            fn(ImGui::GetContentRegionAvail());
            ImGui::EndChild();
            ImGui::EndTabItem();
        };
        if (tab(SideTab::Statement, "statement"))
            body([&](ImVec2 s) { m_statement.draw(wb, view, s); });
        if (tab(SideTab::Hints, "hints")) body([&](ImVec2 s) { m_hints.draw(wb, view, s); });
        if (tab(SideTab::Solution, "solution"))
            body([&](ImVec2 s) { m_solution.draw(wb, view, sc, s); });
        if (tab(SideTab::Device, "device"))
            body([&](ImVec2 s) { m_device.draw(wb, view, s, info.uiDevice); });
        if (tab(SideTab::Efficiency, "efficiency"))
            body([&](ImVec2 s) { m_efficiency.draw(view, sc, s); });
        ImGui::EndTabBar();
    }
    view.showTab.reset();
    endPanel();
}

// The side panel's width with its five tab labels whole (presenter mode never elides them).
float MainView::sideTabsWidth(Workbench& wb) const {
    const Puzzle* p = wb.puzzle();
    std::string hints = "Hints " + std::to_string(p ? wb.progress(*p).hintsRevealed : 0) + "/" +
                        std::to_string(p ? p->hints.size() : 0);
    const ImGuiStyle& st = ImGui::GetStyle();
    float w = 2 * st.WindowPadding.x + ImGui::GetFontSize();
    for (const std::string& label : {std::string("Statement"), hints, std::string("Solution"),
                                     std::string("Device"), std::string("Efficiency")})
        w += ImGui::CalcTextSize(label.c_str()).x + 2 * st.FramePadding.x + st.ItemInnerSpacing.x;
    return w;
}

void MainView::drawPanel(PanelKind kind, Workbench& wb, ViewState& view, const ShownCase& sc,
                         const PanelBox& box, const FrameInfo& info) {
    if (box.empty()) return;
    ImGui::SetCursorScreenPos(ImVec2(box.x0, box.y0));
    ImVec2 size(box.width(), box.height());
    switch (kind) {
    case PanelKind::Browser:
        m_browser.draw(wb, view, size);
        break;
    case PanelKind::Side:
        drawSide(wb, view, sc, size, info);
        break;
    case PanelKind::Editor:
        m_editor.draw(wb, view, sc, size);
        break;
    case PanelKind::Cases:
        m_cases.draw(wb, view, size);
        break;
    case PanelKind::Memory: // a hidden case: a notice, none of its data
        if (shownCaseHidden(sc))
            drawHiddenCasePanel("buffers", "Memory", sc, size);
        else
            m_memory.draw(wb, view, sc, size);
        break;
    case PanelKind::Threads:
        if (shownCaseHidden(sc))
            drawHiddenCasePanel("threads", "Threads", sc, size);
        else
            m_threads.draw(wb, view, sc, size);
        break;
    }
    if (kind == PanelKind::Memory) view.viewRects["memory"] = {box.x0, box.y0, box.x1, box.y1};
    if (kind == PanelKind::Threads) view.viewRects["threads"] = {box.x0, box.y0, box.x1, box.y1};
    layout::rect("panel/" + std::string(panelName(kind)), ImVec2(box.x0, box.y0),
                 ImVec2(box.x1, box.y1));
}

void MainView::drawPanels(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 origin,
                          ImVec2 size, const FrameInfo& info) {
    float split = std::max(5.0f, std::round(ImGui::GetFontSize() * 0.4f));
    PanelBox area{origin.x, origin.y, origin.x + size.x, origin.y + size.y};
    float font = ImGui::GetFontSize();
    if (m_maximised)
        m_arranged = maximisePanel(*m_maximised, area);
    else if (wb.settings().presenter) {
        // A walkthrough's top row grows by what its step text lacked last frame (its panel
        // measures it), so that the whole text stands beside the code on a short projector.
        float wanted = 0;
        const PanelBox top = m_arranged[PanelKind::Side];
        if (view.walkthroughActive && !top.empty())
            wanted = top.height() + view.walkthroughTextLack;
        m_arranged = arrangePresenter(m_folds, view.walkthroughActive, area, split, font,
                                      sideTabsWidth(wb), wanted);
        if (view.walkthroughActive && m_arranged[PanelKind::Side].height() != top.height())
            view.layoutSettling = true;
        view.walkthroughRowRoom =
            presenterTopMost(area, split, font) - m_arranged[PanelKind::Side].height();
    } else
        m_arranged = arrangePanels(wb.settings().layout, area, split, font);
    setPanelHint(m_maximised ? "Ctrl+M or Esc: back to all panels"
                             : "Ctrl+M with the pointer over a panel: maximise it");
    for (size_t i = 0; i < kPanelCount; ++i)
        drawPanel(static_cast<PanelKind>(i), wb, view, sc, m_arranged.panels[i], info);
    setPanelHint("");
    if (!m_maximised && !wb.settings().presenter) drawDividers(wb, m_arranged, area, split);
}

// Dividers, drawn last so they sit on top of the panels' edges. A compact browser widens to a
// readable one as soon as its divider is dragged right.
void MainView::drawDividers(Workbench& wb, const PanelArrangement& a, PanelBox area, float split) {
    LayoutSettings& l = wb.settings().layout;
    float rowW = area.width() - 2 * split, restW = area.x1 - a[PanelKind::Side].x0 - split;
    float rest2 = area.x1 - a[PanelKind::Memory].x0 - split;
    float topH = a[PanelKind::Browser].height(), bottomH = a[PanelKind::Cases].height();
    float d;
    bool dragging = false;
    if ((d = splitter("##s-browser", true, ImVec2(a[PanelKind::Browser].x1, area.y0),
                      ImVec2(split, topH)))) {
        if (a.browserCompact && d > 0)
            l.browserWidth = std::max(l.browserWidth, a.browserExpandFraction);
        else
            adjust(l.browserWidth, d, rowW);
    }
    dragging |= ImGui::IsItemActive();
    if ((d = splitter("##s-statement", true, ImVec2(a[PanelKind::Side].x1, area.y0),
                      ImVec2(split, topH))))
        adjust(l.statementWidth, d, restW);
    dragging |= ImGui::IsItemActive();
    if ((d = splitter("##s-rows", false, ImVec2(area.x0, a[PanelKind::Browser].y1),
                      ImVec2(area.width(), split))))
        adjust(l.topHeight, d, area.height() - split);
    dragging |= ImGui::IsItemActive();
    if ((d = splitter("##s-cases", true, ImVec2(a[PanelKind::Cases].x1, a[PanelKind::Cases].y0),
                      ImVec2(split, bottomH))))
        adjust(l.casesWidth, d, rowW);
    dragging |= ImGui::IsItemActive();
    if ((d = splitter("##s-buffers", true, ImVec2(a[PanelKind::Memory].x1, a[PanelKind::Memory].y0),
                      ImVec2(split, bottomH))))
        adjust(l.buffersWidth, d, rest2);
    dragging |= ImGui::IsItemActive();
    if (m_layoutDragged && !dragging) wb.saveSettings(); // remember the layout once the drag ends
    m_layoutDragged = dragging;
}

void MainView::drawShortcuts(ViewState& view) {
    if (view.showShortcuts) ImGui::OpenPopup("Keyboard shortcuts");
    view.showShortcuts = false;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("Keyboard shortcuts", nullptr, ImGuiWindowFlags_AlwaysAutoResize))
        return;
    static const char* rows[][2] = {
        {"Ctrl+Z / Ctrl+Y", "undo / redo (also Ctrl+Shift+Z)"},
        {"Ctrl+X / C / V", "cut, copy, paste"},
        {"Ctrl+A", "select all"},
        {"Tab / Shift+Tab", "indent / unindent (the selected lines)"},
        {"Ctrl+/", "comment or uncomment lines"},
        {"Ctrl+Shift+S", "export your submission (SLUG.comp, or a folder SLUG/ of NAME.comp)"},
        {"Ctrl+O", "open a case file (.vkpcase; or drop one on the window)"},
        {"Ctrl+F / F3 / Shift+F3", "find in the kernel / next / previous match"},
        {"Ctrl+Left / Right", "move by words (with Shift: select)"},
        {"Home / End", "start of the code / end of the line"},
        {"Ctrl+Enter", "check again now"},
        {"Ctrl+PgDn / PgUp", "next / previous puzzle"},
        {"Ctrl+= / Ctrl+- / Ctrl+0", "larger / smaller / normal text"},
        {"Ctrl+Q", "quit (your work is saved)"},
        {"Alt+Left / Right", "timeline: one access back / on"},
        {"Alt+Up / Down", "timeline: one barrier round back / on"},
        {"Alt+Home / End", "timeline: start / end"},
        {"Alt+PgUp / PgDn", "multi-pass case: the previous / next dispatch"},
        {"F9", "watch the cursor's line (or right-click a line)"},
        {"F11", "fullscreen on this monitor / back"},
        {"F5", "presenter mode: the projection layout at 200% / back (also Esc)"},
        {"F6 / F7 / F8", "presenter mode: the puzzle list / statement and tabs / test cases"},
        {"PgDn / PgUp", "the walkthrough's next / previous step, else the timeline's next / "
                        "previous round (outside the editor; in presenter mode everywhere)"},
        {"Ctrl+M", "maximise the panel under the pointer / back"},
        {"Esc", "close a menu, then the find bar, then the maximised panel, then clear the "
                "selected thread and cell"},
        {"F1", "this list"},
    };
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
        for (auto& r : rows) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::PushFont(fonts().mono);
            ImGui::TextUnformatted(r[0]);
            ImGui::PopFont();
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(r[1]);
        }
        ImGui::EndTable();
    }
    dimText("The kernel is checked by itself a moment after you stop typing.");
    if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
        ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void MainView::drawAbout(Workbench& wb, ViewState& view, const FrameInfo& info) {
    if (view.showAbout) ImGui::OpenPopup("About vkpuzzles");
    view.showAbout = false;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("About vkpuzzles", nullptr, ImGuiWindowFlags_AlwaysAutoResize))
        return;
    ImGui::PushFont(fonts().title);
    ImGui::TextUnformatted(("vkpuzzles " + info.version).c_str());
    ImGui::PopFont();
    ImGui::TextUnformatted(
        "Learn GPU programming by solving puzzles with real Vulkan compute kernels.");
    dimText("Puzzles: " + wb.puzzles().root);
    dimText("Your drafts and progress: " +
            (wb.persistent() ? wb.dataDir() : std::string("not saved in this mode")));
    dimText("Window drawn by: " + info.uiDevice);
    dimText("Fonts: " + info.fontSource);
    dimText("The same checks from a terminal: vkpuzzles --help");
    if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
        ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// A dispatch picked (picker, keys, --dispatch) of another kernel of a multi-kernel puzzle scrolls
// the editor to that kernel's section, where its lines are marked (the cursor stays where it was).
void MainView::followDispatch(ViewState& view, const ShownCase& sc) {
    if (!sc.entry || sc.official || sc.puzzle->kernels.size() <= 1) {
        m_lastKernel.reset();
        return;
    }
    size_t k = sc.entry->kernel;
    // The default dispatch, or a line asked for (a finding, a script), leaves the editor alone.
    if (!view.pickedDispatch || view.jumpTo) {
        m_lastKernel = k;
        return;
    }
    if (m_lastKernel == k) return;
    const std::vector<uint32_t>& offsets = view.dispatches.lineOffsets();
    if (k >= offsets.size() || offsets[k] == 0) return; // no text has run yet: again next frame
    m_lastKernel = k;
    view.scrollEditorTo = static_cast<int>(offsets[k]);
}

// Another puzzle opened (between frames, see Workbench::requestPuzzle): no view keeps a case, a
// thread, a cell, a dispatch or anything derived from the old puzzle's run. The first frame keeps
// the state a script set up (--case, --thread, a walkthrough).
void MainView::forgetPuzzle(ViewState& view) {
    view.forgetPuzzle();
    m_cases.forgetPuzzle();
    m_memory.forgetPuzzle();
    m_threads.forgetPuzzle();
    m_solution.forgetPuzzle();
    m_lastSelected.reset();
    m_lastKernel.reset();
}

// What tests wait for after an input (see layout_probe.h): the frame's puzzle, case, selection.
void MainView::probeFacts(Workbench& wb, const ViewState& view, const ShownCase& sc) {
    if (!layout::enabled()) return;
    if (const Puzzle* p = wb.puzzle()) layout::fact("puzzle", p->key());
    layout::fact("case", std::to_string(sc.index + 1));
    if (view.selection.thread) {
        const Uvec3& t = *view.selection.thread;
        layout::fact("thread", std::to_string(t[0]) + "," + std::to_string(t[1]) + "," +
                                   std::to_string(t[2]));
    }
    if (view.selection.cell) {
        const CellRef& c = *view.selection.cell;
        layout::fact("cell", std::string(c.shared ? "shared" : "buffer") + std::to_string(c.array) +
                                 "/" + std::to_string(c.index));
    }
    layout::fact("walkthrough", view.walkthroughActive ? "1" : "0");
    layout::fact("fontScale", std::to_string(static_cast<int>(
                                  std::lround(wb.settings().activeFontScale() * 100))));
    layout::fact("presenter", wb.settings().presenter ? "1" : "0");
    std::string unfolded;
    for (auto [open, name] : {std::pair{m_folds.browser, "browser"},
                              std::pair{m_folds.side, "side"}, std::pair{m_folds.cases, "cases"}})
        if (open) unfolded += (unfolded.empty() ? "" : ",") + std::string(name);
    layout::fact("presenterUnfolded", unfolded);
    layout::fact("theme", currentTheme() == ThemeKind::Dark    ? "dark"
                          : currentTheme() == ThemeKind::Light ? "light"
                                                               : "high_contrast");
    layout::fact("popup", ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId |
                                                          ImGuiPopupFlags_AnyPopupLevel)
                              ? "1"
                              : "0");
    layout::fact("status", std::string(liveStatusName(wb.snapshot().status)));
    layout::fact("statusLine", statusLine(wb.snapshot()));
    layout::fact("maximised", m_maximised ? std::string(panelName(*m_maximised)) : "");
    layout::fact("fullscreen", m_fullscreen ? "1" : "0");
    layout::fact("browserCompact", m_arranged.browserCompact ? "1" : "0");
    // The modifiers held as the app sees them, so a test holds Ctrl until it is seen, as a hand
    // does, before the key of a chord.
    ImGuiIO& io = ImGui::GetIO();
    std::string held;
    for (auto [down, name] : {std::pair{io.KeyCtrl, "ctrl"}, std::pair{io.KeyShift, "shift"},
                              std::pair{io.KeyAlt, "alt"}})
        if (down) held += (held.empty() ? "" : "+") + std::string(name);
    layout::fact("modifiers", held);
    ImVec2 ws = ImGui::GetMainViewport()->Size;
    layout::fact("windowSize",
                 std::to_string(std::lround(ws.x)) + "x" + std::to_string(std::lround(ws.y)));
}

void MainView::draw(Workbench& wb, ViewState& view, const FrameInfo& info) {
    if (m_shownPuzzle != wb.puzzleGeneration()) {
        if (m_shownPuzzle) forgetPuzzle(view);
        if (m_shownPuzzle) m_folds.browser = false; // presenter mode: the puzzle is picked
        m_shownPuzzle = wb.puzzleGeneration();
        // A case file opens on its case.
        if (const OpenedCaseFile* f = wb.caseFile())
            view.selectedCase = static_cast<int>(f->file.caseIndex());
    }
    setPresenterMode(wb.settings().presenter);
    view.hover = view.nextHover;
    view.nextHover = {};
    m_fullscreen = info.fullscreen;
    setLegendOptions(wb.settings().showLegends, wb.settings().showExplanations);
    handleShortcuts(wb, view);
    ShownCase sc = shownCase(wb, view);
    followDispatch(view, sc);
    if (sc.testCase) view.selection.fitTo(*sc.puzzle, *sc.testCase, sc.trace());
    resolveRequest(view, sc);
    if (view.selection.thread != m_lastSelected) {
        m_lastSelected = view.selection.thread;
        if (sc.testCase && view.selection.thread) {
            const TestCase& tc = *sc.testCase;
            uint64_t per =
                uint64_t(tc.workgroupSize[0]) * tc.workgroupSize[1] * tc.workgroupSize[2];
            view.timelineWorkgroup =
                invocationIndex(tc, *view.selection.thread) / std::max<uint64_t>(1, per);
        }
    }
    ImGuiViewport* vp = ImGui::GetMainViewport();
    view.viewRects["window"] = {vp->Pos.x, vp->Pos.y, vp->Pos.x + vp->Size.x,
                                vp->Pos.y + vp->Size.y};
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::PushStyleVar(
        ImGuiStyleVar_WindowPadding,
        ImVec2(std::round(ImGui::GetFontSize() * 0.4f), std::round(ImGui::GetFontSize() * 0.3f)));
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar |
                             ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::PushStyleColor(ImGuiCol_WindowBg,
                          ImVec4(0, 0, 0, 0)); // the frame is cleared to this colour already
    ImGui::Begin("vkpuzzles", nullptr, flags);
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();
    drawMenu(wb, view);
    drawMessages(wb);
    ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    float statusH = std::round(ImGui::GetFrameHeight() * 1.25f);
    float gap = std::round(ImGui::GetFontSize() * 0.3f);
    drawPanels(wb, view, sc, origin, ImVec2(avail.x, avail.y - statusH - gap), info);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + avail.y - statusH));
    m_status.draw(wb, view, ImVec2(avail.x, statusH), info.fontScale);
    drawShortcuts(view);
    drawAbout(wb, view, info);
    m_caseFiles.drawDialog(wb);
    ImGui::End();
    probeFacts(wb, view, sc);
    if (view.resetLayout) {
        wb.settings().layout = LayoutSettings{};
        wb.saveSettings();
        view.resetLayout = false;
    }
}

} // namespace vkp::ui
