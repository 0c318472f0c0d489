// The class report page (gradebook/class_report_html.h): what it shows of a class, what it never
// shows (a hidden case's name and data), markup in a student's name kept as text, case files
// linked from where the page is, and nothing fetched from anywhere.
#include <gtest/gtest.h>

#include "gradebook/class_report_html.h"
#include "support/graded_class.h"

namespace vkp {
namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(ClassReportHtmlTest, ShowsTheClassAndKeepsAHiddenCasesDataOut) {
    GradedClass g = test::smallGradedClass();
    std::string html = classReportHtml(g, "/tmp/report/class.html");
    EXPECT_TRUE(has(html, "<title>Class report: offset</title>"));
    EXPECT_TRUE(has(html, "<svg class=\"hist\"")) << "the scores' distribution";
    EXPECT_TRUE(has(html, "<b>race</b>")) << "a kind of failure";
    EXPECT_TRUE(has(html, "<b>wrong values</b>"));
    EXPECT_TRUE(has(html, "4 threads, a = 0..3")) << "a visible case's name";
    EXPECT_TRUE(has(html, "<table class=\"sortable students\">"));
    // The hidden case: its number and kind of failure, never its name or values.
    EXPECT_TRUE(has(html, "case 3: wrong values (a hidden case: its data is not shown)"));
    EXPECT_FALSE(has(html, test::kHiddenData));
    EXPECT_FALSE(has(html, "expected 6"));
    EXPECT_FALSE(has(html, g.puzzles[0]->cases[2].name)) << "the hidden case's name";
}

TEST(ClassReportHtmlTest, AStudentsNameIsTextNotMarkup) {
    std::string html = classReportHtml(test::smallGradedClass(), "/tmp/report/class.html");
    EXPECT_FALSE(has(html, "<script>alert")) << "a name would have run as a script";
    EXPECT_TRUE(has(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    EXPECT_TRUE(has(html, "O&#39;Brien &amp; &quot;Jo&quot;"));
    EXPECT_EQ(htmlEscape("<a href=\"x\">'&'</a>"),
              "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    // The page's own script is the only one, and fetches nothing.
    size_t scripts = 0;
    for (size_t at = html.find("<script"); at != std::string::npos;
         at = html.find("<script", at + 1))
        ++scripts;
    EXPECT_EQ(scripts, 1u);
    for (const char* remote : {"http://", "https://", "src=", "@import", "url("})
        EXPECT_FALSE(has(html, remote)) << remote;
}

TEST(ClassReportHtmlTest, CaseFilesAreLinkedFromThePagesFolder) {
    GradedClass g = test::smallGradedClass();
    g.grades[2].puzzles[0].caseFile = "/srv/class/cases/O'Brien & \"Jo\"-offset-case1.vkpcase";
    std::string html = classReportHtml(g, "/srv/class/report.html");
    EXPECT_TRUE(has(html, "<a href=\"cases/O%27Brien%20%26%20%22Jo%22-offset-case1.vkpcase\""))
        << html.substr(html.find("case files"));
    EXPECT_TRUE(has(html, ">case 1</a>"));
    std::string above = classReportHtml(g, "/srv/reports/week3/report.html");
    EXPECT_TRUE(has(above, "href=\"../../class/cases/O%27Brien"));
}

} // namespace
} // namespace vkp
