// The editor's markers (compiler diagnostics and the shown case's findings, on the lines they
// name), and the widget drawn in a headless ImGui frame.
#include <gtest/gtest.h>

#include <string>

#include "editor/code_editor.h"
#include "widgets/fonts.h"
#include "widgets/theme.h"

namespace vkp::ui {
namespace {

TEST(EditorMarkersTest, FindingsMarkTheirLinesAsErrorsOrWarnings) {
    TraceAnalysis a;
    Finding race;
    race.kind = FindingKind::SharedRace;
    race.message = "cache[1] in barrier round 1: thread 1 writes it (line 13) while thread 0 reads "
                   "it (line 13)";
    race.line = 13;
    Finding overflow;
    overflow.kind = FindingKind::TraceOverflow;
    overflow.message = "12 trace records did not fit";
    overflow.line = 7;
    overflow.failsCase = false;
    Finding nowhere; // a finding that names no line gets no marker
    nowhere.kind = FindingKind::LoopBudget;
    nowhere.line = 0;
    a.findings = {race, overflow, nowhere};

    std::vector<EditorMarker> m = markersFrom(a);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].line, 13);
    EXPECT_EQ(m[0].column, 0);
    EXPECT_EQ(m[0].severity, SeverityKind::Error);
    EXPECT_EQ(m[0].label, "race");
    EXPECT_EQ(m[0].message, race.message);
    EXPECT_TRUE(m[0].finding);
    EXPECT_EQ(m[1].line, 7);
    EXPECT_EQ(m[1].severity, SeverityKind::Warning);
    EXPECT_EQ(m[1].label, "trace incomplete");
}

TEST(EditorMarkersTest, CompilerDiagnosticsAreNotFindings) {
    std::vector<Diagnostic> d = {
        {"k.comp", 8, 30, SeverityKind::Error, "missing ';' at the end of this line"},
        {"k.comp", 0, 0, SeverityKind::Error, "no line: shown under the editor only"}};
    std::vector<EditorMarker> m = markersFrom(d);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].line, 8);
    EXPECT_EQ(m[0].column, 30);
    EXPECT_TRUE(m[0].label.empty()); // the tooltip names the severity
    EXPECT_FALSE(m[0].finding);
}

// The widget in a real ImGui context without a window: frames are built, not shown.
class CodeEditorFrameTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(640, 400);
        applyTheme(ThemeKind::Dark, 1);
        buildFonts(1);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    }
    void TearDown() override { ImGui::DestroyContext(); }

    // A few frames of the editor filling the display (scroll requests land a frame later).
    void frames(CodeEditor& editor, text::TextDocument& doc, int n = 3) {
        for (int i = 0; i < n; ++i) {
            ImGui::GetIO().DeltaTime = 1.0f / 60;
            ImGui::NewFrame();
            ImGui::SetNextWindowPos(ImVec2(0, 0));
            ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
            ImGui::Begin("host", nullptr, ImGuiWindowFlags_NoDecoration);
            editor.draw("code", doc, {}, ImGui::GetContentRegionAvail());
            ImGui::End();
            ImGui::Render();
        }
    }
};

std::string numberedLines(int n, const std::string& prefix) {
    std::string s;
    for (int i = 1; i <= n; ++i)
        s += prefix + std::to_string(i) + ";\n";
    return s;
}

TEST_F(CodeEditorFrameTest, AnotherTextOpensAtLineOneColumnOne) {
    text::TextDocument doc(numberedLines(200, std::string(150, 'x') + " = "));
    CodeEditor editor;
    frames(editor, doc);
    editor.jumpTo(doc, 150, 160);
    frames(editor, doc);
    ASSERT_GT(editor.scroll().y, 0);
    ASSERT_GT(editor.scroll().x, 0);
    // A shorter text whose end the old scroll position would clamp to: line 1 half hidden.
    doc.setText(numberedLines(30, "layout = "));
    editor.resetView();
    frames(editor, doc);
    EXPECT_EQ(editor.scroll().x, 0);
    EXPECT_EQ(editor.scroll().y, 0);
}

TEST_F(CodeEditorFrameTest, TheFirstColumnStaysVisibleWhenTheCursorFits) {
    text::TextDocument doc(std::string(200, 'x') + ";\nlayout = 1;");
    CodeEditor editor;
    frames(editor, doc);
    editor.jumpTo(doc, 1, 201); // the end of the long line: scrolled right
    frames(editor, doc);
    ASSERT_GT(editor.scroll().x, 0);
    editor.jumpTo(doc, 2, 7); // "layout|": it fits without scrolling, so nothing is cut off
    frames(editor, doc);
    EXPECT_EQ(editor.scroll().x, 0);
    // After an edit too (the cursor moved by typing).
    editor.jumpTo(doc, 1, 201);
    frames(editor, doc);
    doc.moveDown(false);
    doc.moveHome(false);
    doc.typeChar('l');
    editor.jumpTo(doc, doc.cursor().line + 1, doc.cursor().column + 1);
    frames(editor, doc);
    EXPECT_EQ(editor.scroll().x, 0);
    EXPECT_EQ(doc.line(1), "llayout = 1;");
}

TEST_F(CodeEditorFrameTest, TheFindBarFindsFromTheSelectionAndCloses) {
    text::TextDocument doc("uint id = 0;\nid += 1;\nid += 2;");
    CodeEditor editor;
    doc.selectWordAt({1, 0}); // "id" on line 2
    editor.openFind(doc);
    EXPECT_TRUE(editor.findOpen());
    EXPECT_EQ(editor.findQuery(), "id");
    frames(editor, doc);
    EXPECT_EQ(editor.findSummary(doc), "2 of 3");
    editor.findNext(doc, true);
    EXPECT_EQ(editor.findSummary(doc), "3 of 3");
    editor.findNext(doc, true); // wraps
    EXPECT_EQ(editor.findSummary(doc), "1 of 3");
    editor.closeFind();
    EXPECT_FALSE(editor.findOpen());
    EXPECT_EQ(editor.findSummary(doc), "");
    EXPECT_EQ(doc.selectedText(), "id"); // the last match stays selected
}

// The efficiency badges: one per line that costs something, in the report's order.
TEST(EditorBadgesTest, LinesThatCostSomethingGetABadge) {
    EfficiencyReport r;
    r.lines.push_back(LineEfficiency{9,
                                     CostKind::Severe,
                                     "4.0x sectors",
                                     "4.0x the sectors needed: neighbouring threads read addresses "
                                     "128 bytes apart",
                                     96,
                                     {}});
    r.lines.push_back(LineEfficiency{14, CostKind::Minor, "2-way", "2-way bank conflict", 1, {}});
    r.lines.push_back(LineEfficiency{15, CostKind::None, "", "", 0, {}});
    std::vector<EditorBadge> b = badgesFrom(r);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0].line, 9u);
    EXPECT_EQ(b[0].cost, CostKind::Severe);
    EXPECT_EQ(b[0].text, "4.0x sectors");
    EXPECT_NE(b[0].sentence.find("128 bytes apart"), std::string::npos);
    EXPECT_EQ(b[1].text, "2-way");
    EXPECT_TRUE(badgesFrom(EfficiencyReport{}).empty());
}

} // namespace
} // namespace vkp::ui
