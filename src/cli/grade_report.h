// What `vkpuzzles grade` writes: a line per submission and a summary on the terminal, and the
// CSV, JSON (docs/json-output.md) and Gradescope results.json files.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "classroom/grade.h"
#include "cli/style.h"

namespace vkp::cli {

std::string pointsText(double points); // "3", "2.5", "0.33"

// "alice   3/5  3 of 4 cases  case 2: result: 1 of 8 cells wrong (...)"; `nameWidth` aligns.
std::string gradeLine(const SubmissionGrade& g, size_t nameWidth, const Style& st);
// "30 submissions: mean 3.4 of 5 (68%), 12 with full marks" (`noun`: "submission", "student").
std::string gradeSummary(const std::vector<SubmissionGrade>& grades, const std::string& noun,
                         const Style& st);

// One row per submission: name, score, max_score, then the points each case earned (header
// "SLUG case N"); RFC 4180: CRLF line ends, a field with a comma, quote or line break quoted.
std::string gradeCsv(const std::vector<const Puzzle*>& puzzles,
                     const std::vector<SubmissionGrade>& grades);
std::string csvField(const std::string& text);

nlohmann::json gradeJson(const std::vector<const Puzzle*>& puzzles,
                         const std::vector<SubmissionGrade>& grades, const std::string& device);

// Gradescope's autograder results.json for one submission: a test per case; a hidden case's test
// is "after_published" and its output never shows the case's data.
nlohmann::json gradescopeJson(const SubmissionGrade& g);

} // namespace vkp::cli
