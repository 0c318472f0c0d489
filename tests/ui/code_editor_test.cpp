// The editor's markers: compiler diagnostics and the shown case's findings, on the lines they name.
#include <gtest/gtest.h>

#include "ui/code_editor.h"

namespace vkp::ui {
namespace {

TEST(EditorMarkersTest, FindingsMarkTheirLinesAsErrorsOrWarnings) {
    TraceAnalysis a;
    Finding race;
    race.kind = FindingKind::SharedRace;
    race.message = "cache[1] in barrier round 1: thread 1 writes it (line 13) while thread 0 reads it (line 13)";
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
    std::vector<Diagnostic> d = {{"k.comp", 8, 30, SeverityKind::Error, "missing ';' at the end of this line"},
                                 {"k.comp", 0, 0, SeverityKind::Error, "no line: shown under the editor only"}};
    std::vector<EditorMarker> m = markersFrom(d);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].line, 8);
    EXPECT_EQ(m[0].column, 30);
    EXPECT_TRUE(m[0].label.empty()); // the tooltip names the severity
    EXPECT_FALSE(m[0].finding);
}

} // namespace
} // namespace vkp::ui
