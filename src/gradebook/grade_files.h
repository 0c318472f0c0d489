// The files `vkpuzzles grade` writes of a graded class: the CSV, the JSON (docs/json-output.md),
// which `grade --merge` also reads back to put a class's shares together, and Gradescope's
// results.json. The HTML class report is class_report_html.h.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "classroom/grade_shards.h"

namespace vkp {

std::string pointsText(double points); // "3", "2.5", "0.33"

// One row per submission: name, score, max_score, then the points each case earned (header
// "SLUG case N"); RFC 4180: CRLF line ends, a field with a comma, quote or line break quoted.
std::string gradeCsv(const GradedClass& graded);
std::string csvField(const std::string& text);

// The JSON document of a class, a share of it (with what merging needs: the share, the class
// it is a share of, the puzzles and their cases) or the shares merged.
nlohmann::json gradeJson(const GradedClass& graded);
// A document gradeJson wrote, read back: its puzzles rebuilt from it (slug, title, cases' names,
// points and hidden). A Usage error names `file` and what is wrong with it.
Result<GradedClass> readGradeJson(const std::string& text, const std::string& file);

// Gradescope's autograder results.json for one submission: a test per case; a hidden case's test
// is "after_published" and its output never shows the case's data.
nlohmann::json gradescopeJson(const SubmissionGrade& g);

} // namespace vkp
