#include "ui/main_view.h"

#include <cmath>
#include <algorithm>

#include "ui/fonts.h"
#include "ui/keys.h"
#include "ui/theme.h"
#include "ui/trace_view.h"
#include "ui/widgets.h"

namespace vkp::ui {
namespace {

// GLFW numbers printable keys by their ASCII character; the keypad keys have their own codes.
constexpr int kKeyEqual = '=', kKeyMinus = '-', kKeyZero = '0', kKeyF1 = 290, kKeyKpAdd = 334, kKeyKpSubtract = 333;

bool keyPressed(int key) { return glfwKeyPressed(key); }

void adjust(float& fraction, float deltaPx, float totalPx) {
    if (totalPx > 0) fraction = std::clamp(fraction + deltaPx / totalPx, 0.08f, 0.92f);
}

} // namespace

void MainView::handleShortcuts(Workbench& wb, ViewState& view) {
    ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && (keyPressed(kKeyEqual) || keyPressed(kKeyKpAdd))) view.fontBigger = true;
    if (io.KeyCtrl && (keyPressed(kKeyMinus) || keyPressed(kKeyKpSubtract))) view.fontSmaller = true;
    if (io.KeyCtrl && keyPressed(kKeyZero)) view.fontReset = true;
    if (keyPressed(kKeyF1)) view.showShortcuts = true;
    if (io.KeyCtrl && keyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))) wb.openPuzzle(wb.puzzleIndex() + 1);
    if (io.KeyCtrl && keyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))) wb.openPuzzle(wb.puzzleIndex() - 1);
    if (io.KeyCtrl && keyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) wb.session().recheck();
    if (io.KeyCtrl && keyPressed('Q')) view.quit = true;
    if (keyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)) && !ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) {
        view.selection.clear();
        view.focus.clear();
    }
    handleTimelineKeys(view);
}

// Alt with the arrows, Home and End steps the timeline, with PgUp and PgDn picks the dispatch
// (the editor leaves these keys alone).
void MainView::handleTimelineKeys(ViewState& view) {
    ImGuiIO& io = ImGui::GetIO();
    if (!io.KeyAlt || io.KeyCtrl) return;
    std::optional<TimelineMove> move;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) move = TimelineMove::PrevAccess;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) move = TimelineMove::NextAccess;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) move = TimelineMove::PrevRound;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) move = TimelineMove::NextRound;
    if (keyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) move = TimelineMove::Start;
    if (keyPressed(ImGui::GetKeyIndex(ImGuiKey_End))) move = TimelineMove::End;
    // Alt+PgUp / Alt+PgDn: the previous / next dispatch of a multi-pass case (Ctrl+PgUp / PgDn
    // are the puzzles).
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp))) view.dispatchStep = -1;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown))) view.dispatchStep = 1;
    if (!move) return;
    view.timelineMove = move;
    view.showMemoryTab = MemoryTab::Timeline;
}

void MainView::drawMenu(Workbench& wb, ViewState& view) {
    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("Puzzle")) {
        int n = static_cast<int>(wb.puzzles().puzzles.size());
        if (ImGui::MenuItem("Next puzzle", "Ctrl+PgDn", false, wb.puzzleIndex() + 1 < n)) wb.openPuzzle(wb.puzzleIndex() + 1);
        if (ImGui::MenuItem("Previous puzzle", "Ctrl+PgUp", false, wb.puzzleIndex() > 0)) wb.openPuzzle(wb.puzzleIndex() - 1);
        ImGui::Separator();
        if (ImGui::MenuItem("Check again now", "Ctrl+Enter")) wb.session().recheck();
        if (ImGui::MenuItem("Reset to starter", nullptr, false, wb.document().text() != wb.starterText())) wb.resetToStarter();
        if (ImGui::MenuItem("Restore the earlier text", nullptr, false, wb.draft().previous.has_value())) wb.restorePrevious();
        ImGui::Separator();
        if (ImGui::MenuItem("Show next hint")) {
            wb.revealNextHint();
            view.showTab = SideTab::Hints;
        }
        if (ImGui::MenuItem("Official solution")) view.showTab = SideTab::Solution;
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) view.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Edit")) {
        TextDocument& doc = wb.document();
        if (ImGui::MenuItem("Undo", "Ctrl+Z", false, doc.canUndo())) doc.undo();
        if (ImGui::MenuItem("Redo", "Ctrl+Y", false, doc.canRedo())) doc.redo();
        ImGui::Separator();
        if (ImGui::MenuItem("Cut", "Ctrl+X", false, doc.hasSelection())) ImGui::SetClipboardText(doc.cut().c_str());
        if (ImGui::MenuItem("Copy", "Ctrl+C", false, doc.hasSelection())) ImGui::SetClipboardText(doc.selectedText().c_str());
        if (ImGui::MenuItem("Paste", "Ctrl+V")) {
            if (const char* clip = ImGui::GetClipboardText()) doc.insert(clip);
        }
        if (ImGui::MenuItem("Select all", "Ctrl+A")) doc.selectAll();
        ImGui::Separator();
        if (ImGui::MenuItem("Toggle comment", "Ctrl+/")) doc.toggleComment();
        if (ImGui::MenuItem("Indent", "Tab")) doc.indent();
        if (ImGui::MenuItem("Unindent", "Shift+Tab")) doc.unindent();
        ImGui::EndMenu();
    }
    drawViewMenu(wb, view);
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keyboard shortcuts", "F1")) view.showShortcuts = true;
        if (ImGui::MenuItem("About vkpuzzles")) view.showAbout = true;
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();
}

void MainView::drawViewMenu(Workbench& wb, ViewState& view) {
    if (!ImGui::BeginMenu("View")) return;
    if (ImGui::MenuItem("Dark theme", nullptr, currentTheme() == ThemeKind::Dark) && currentTheme() != ThemeKind::Dark) view.toggleTheme = true;
    if (ImGui::MenuItem("Light theme", nullptr, currentTheme() == ThemeKind::Light) && currentTheme() != ThemeKind::Light) view.toggleTheme = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Larger text", "Ctrl+=")) view.fontBigger = true;
    if (ImGui::MenuItem("Smaller text", "Ctrl+-")) view.fontSmaller = true;
    if (ImGui::MenuItem("Normal text size", "Ctrl+0")) view.fontReset = true;
    ImGui::Separator();
    Settings& s = wb.settings();
    if (ImGui::MenuItem("Legends", nullptr, s.showLegends)) s.showLegends = !s.showLegends, wb.saveSettings();
    if (ImGui::MenuItem("Explanations (?)", nullptr, s.showExplanations)) s.showExplanations = !s.showExplanations, wb.saveSettings();
    ImGui::Separator();
    if (ImGui::MenuItem("Buffers", nullptr, m_memory.current() == MemoryTab::Buffers)) view.showMemoryTab = MemoryTab::Buffers;
    if (ImGui::MenuItem("Timeline", "Alt+arrows", m_memory.current() == MemoryTab::Timeline)) view.showMemoryTab = MemoryTab::Timeline;
    if (ImGui::MenuItem("Watches", "F9 watches a line", m_memory.current() == MemoryTab::Watches)) view.showMemoryTab = MemoryTab::Watches;
    if (ImGui::BeginMenu("Save as PNG")) {
        static const char* kViews[][2] = {{"buffers", "The buffers"}, {"timeline", "The timeline"}, {"watches", "The watch table"}, {"grid", "The thread grid"}};
        for (auto& v : kViews)
            if (ImGui::MenuItem(v[1])) {
                std::string name = v[0];
                if (name == "buffers") view.showMemoryTab = MemoryTab::Buffers;
                if (name == "timeline") view.showMemoryTab = MemoryTab::Timeline;
                if (name == "watches") view.showMemoryTab = MemoryTab::Watches;
                view.exportRequest = ExportRequest{name, 3};
            }
        ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Clear the selection", "Esc", false, !view.selection.empty())) view.selection.clear(), view.focus.clear();
    if (ImGui::MenuItem("Reset the layout")) view.resetLayout = true;
    if (ImGui::MenuItem("Device")) view.showTab = SideTab::Device;
    ImGui::EndMenu();
}

void MainView::drawMessages(Workbench& wb) {
    auto& messages = wb.messages();
    if (messages.empty()) return;
    const Palette& pal = palette();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::ColorConvertU32ToFloat4(withAlpha(pal.warn, 0.22f)));
    float h = ImGui::GetFrameHeight() + ImGui::GetStyle().WindowPadding.y;
    ImGui::BeginChild("messages", ImVec2(0, h), false, ImGuiWindowFlags_NoScrollbar);
    ImGui::SetCursorPos(ImVec2(ImGui::GetStyle().WindowPadding.x, (h - ImGui::GetFrameHeight()) * 0.5f));
    ImGui::AlignTextToFramePadding();
    colouredText(pal.warn, "\xE2\x9A\xA0");
    ImGui::SameLine();
    std::string more = messages.size() > 1 ? "  (+" + std::to_string(messages.size() - 1) + " more)" : "";
    float button = ImGui::CalcTextSize("Dismiss").x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetFontSize();
    float room = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - button - ImGui::CalcTextSize(more.c_str()).x - ImGui::GetFontSize();
    ImGui::TextUnformatted((ellipsize(messages.front(), room) + more).c_str());
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

void MainView::drawSide(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 size, const FrameInfo& info) {
    const Puzzle* p = wb.puzzle();
    beginPanel("side", nullptr, size);
    if (ImGui::BeginTabBar("sidetabs")) {
        auto tab = [&](SideTab which, const std::string& label) {
            ImGuiTabItemFlags flags = view.showTab == which ? ImGuiTabItemFlags_SetSelected : 0;
            return ImGui::BeginTabItem(label.c_str(), nullptr, flags);
        };
        PuzzleProgress pr = p ? wb.progress(*p) : PuzzleProgress{};
        std::string hints = "Hints " + std::to_string(pr.hintsRevealed) + "/" + std::to_string(p ? p->hints.size() : 0) + "###hints";
        auto body = [&](auto&& fn) {
            ImGui::BeginChild("tabbody", ImVec2(0, 0), false);
            fn(ImGui::GetContentRegionAvail());
            ImGui::EndChild();
            ImGui::EndTabItem();
        };
        if (tab(SideTab::Statement, "Statement###statement")) body([&](ImVec2 s) { m_statement.draw(wb, view, s); });
        if (tab(SideTab::Hints, hints)) body([&](ImVec2 s) { m_hints.draw(wb, view, s); });
        if (tab(SideTab::Solution, "Solution###solution")) body([&](ImVec2 s) { m_solution.draw(wb, view, sc, s); });
        if (tab(SideTab::Device, "Device###device")) body([&](ImVec2 s) { m_device.draw(wb, view, s, info.uiDevice); });
        ImGui::EndTabBar();
    }
    view.showTab.reset();
    endPanel();
}

void MainView::drawPanels(Workbench& wb, ViewState& view, const ShownCase& sc, ImVec2 origin, ImVec2 size, const FrameInfo& info) {
    LayoutSettings& l = wb.settings().layout;
    float split = std::max(5.0f, std::round(ImGui::GetFontSize() * 0.4f));
    float topH = std::round((size.y - split) * l.topHeight), bottomH = size.y - split - topH;
    float browserW = std::round((size.x - 2 * split) * l.browserWidth);
    float restW = size.x - browserW - 2 * split;
    float statementW = std::round(restW * l.statementWidth), editorW = restW - statementW;
    float casesW = std::round((size.x - 2 * split) * l.casesWidth);
    float rest2 = size.x - casesW - 2 * split;
    float buffersW = std::round(rest2 * l.buffersWidth), threadsW = rest2 - buffersW;

    ImGui::SetCursorScreenPos(origin);
    m_browser.draw(wb, view, ImVec2(browserW, topH));
    ImGui::SetCursorScreenPos(ImVec2(origin.x + browserW + split, origin.y));
    drawSide(wb, view, sc, ImVec2(statementW, topH), info);
    ImGui::SetCursorScreenPos(ImVec2(origin.x + browserW + statementW + 2 * split, origin.y));
    m_editor.draw(wb, view, sc, ImVec2(editorW, topH));
    float y2 = origin.y + topH + split;
    ImGui::SetCursorScreenPos(ImVec2(origin.x, y2));
    m_cases.draw(wb, view, ImVec2(casesW, bottomH));
    ImGui::SetCursorScreenPos(ImVec2(origin.x + casesW + split, y2));
    m_memory.draw(wb, view, sc, ImVec2(buffersW, bottomH));
    view.viewRects["memory"] = {origin.x + casesW + split, y2, origin.x + casesW + split + buffersW, y2 + bottomH};
    ImGui::SetCursorScreenPos(ImVec2(origin.x + casesW + buffersW + 2 * split, y2));
    m_threads.draw(wb, view, sc, ImVec2(threadsW, bottomH));
    view.viewRects["threads"] = {origin.x + casesW + buffersW + 2 * split, y2, origin.x + size.x, y2 + bottomH};

    // Dividers, drawn last so they sit on top of the panels' edges.
    float d;
    bool dragging = false;
    if ((d = splitter("##s-browser", true, ImVec2(origin.x + browserW, origin.y), ImVec2(split, topH)))) adjust(l.browserWidth, d, size.x - 2 * split);
    dragging |= ImGui::IsItemActive();
    if ((d = splitter("##s-statement", true, ImVec2(origin.x + browserW + split + statementW, origin.y), ImVec2(split, topH)))) adjust(l.statementWidth, d, restW);
    dragging |= ImGui::IsItemActive();
    if ((d = splitter("##s-rows", false, ImVec2(origin.x, origin.y + topH), ImVec2(size.x, split)))) adjust(l.topHeight, d, size.y - split);
    dragging |= ImGui::IsItemActive();
    if ((d = splitter("##s-cases", true, ImVec2(origin.x + casesW, y2), ImVec2(split, bottomH)))) adjust(l.casesWidth, d, size.x - 2 * split);
    dragging |= ImGui::IsItemActive();
    if ((d = splitter("##s-buffers", true, ImVec2(origin.x + casesW + split + buffersW, y2), ImVec2(split, bottomH)))) adjust(l.buffersWidth, d, rest2);
    dragging |= ImGui::IsItemActive();
    if (m_layoutDragged && !dragging) wb.saveSettings(); // remember the layout once the drag ends
    m_layoutDragged = dragging;
}

void MainView::drawShortcuts(ViewState& view) {
    if (view.showShortcuts) ImGui::OpenPopup("Keyboard shortcuts");
    view.showShortcuts = false;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("Keyboard shortcuts", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    static const char* rows[][2] = {
        {"Ctrl+Z / Ctrl+Y", "undo / redo (also Ctrl+Shift+Z)"},
        {"Ctrl+X / C / V", "cut, copy, paste"},
        {"Ctrl+A", "select all"},
        {"Tab / Shift+Tab", "indent / unindent (the selected lines)"},
        {"Ctrl+/", "comment or uncomment lines"},
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
        {"Esc", "clear the selected thread and cell"},
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
    if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

void MainView::drawAbout(Workbench& wb, ViewState& view, const FrameInfo& info) {
    if (view.showAbout) ImGui::OpenPopup("About vkpuzzles");
    view.showAbout = false;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("About vkpuzzles", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::PushFont(fonts().title);
    ImGui::TextUnformatted(("vkpuzzles " + info.version).c_str());
    ImGui::PopFont();
    ImGui::TextUnformatted("Learn GPU programming by solving puzzles with real Vulkan compute kernels.");
    dimText("Puzzles: " + wb.puzzles().root);
    dimText("Your drafts and progress: " + (wb.persistent() ? wb.dataDir() : std::string("not saved in this mode")));
    dimText("Window drawn by: " + info.uiDevice);
    dimText("Fonts: " + info.fontSource);
    dimText("The same checks from a terminal: vkpuzzles --help");
    if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// A dispatch picked (picker, keys, --pass) of another kernel of a multi-kernel puzzle scrolls the
// editor to that kernel's section, where its lines are marked (the cursor stays where it was).
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

void MainView::draw(Workbench& wb, ViewState& view, const FrameInfo& info) {
    view.hover = view.nextHover;
    view.nextHover = {};
    if (m_lastPuzzle != wb.puzzleIndex()) {
        if (m_lastPuzzle != -1) view.selectedCase = 0, view.hover = {}, view.selection.clear(), view.focus.clear(), view.walkthroughActive = false;
        m_lastPuzzle = wb.puzzleIndex();
    }
    setLegendOptions(wb.settings().showLegends, wb.settings().showExplanations);
    handleShortcuts(wb, view);
    ShownCase sc = shownCase(wb, view);
    followDispatch(view, sc);
    if (sc.testCase) view.selection.fitTo(*sc.puzzle, *sc.testCase, sc.trace());
    if (view.selection.thread != m_lastSelected) {
        m_lastSelected = view.selection.thread;
        if (sc.testCase && view.selection.thread) {
            const TestCase& tc = *sc.testCase;
            uint64_t per = uint64_t(tc.workgroupSize[0]) * tc.workgroupSize[1] * tc.workgroupSize[2];
            view.timelineWorkgroup = invocationIndex(tc, *view.selection.thread) / std::max<uint64_t>(1, per);
        }
    }
    ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(std::round(ImGui::GetFontSize() * 0.4f), std::round(ImGui::GetFontSize() * 0.3f)));
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                             ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0, 0, 0, 0)); // the frame is cleared to this colour already
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
    ImGui::End();
    if (view.resetLayout) {
        wb.settings().layout = LayoutSettings{};
        wb.saveSettings();
        view.resetLayout = false;
    }
}

} // namespace vkp::ui
