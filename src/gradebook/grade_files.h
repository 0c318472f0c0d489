// The files `vkpuzzles grade` writes of a graded class: the CSV, the JSON (docs/json-output.md),
// which `grade --merge` also reads back to put a class's shares together, and the results of one
// submission in the formats of the platforms students hand in on (docs/graders.md): Gradescope's
// and PrairieLearn's results.json, GitHub Classroom's runner result. The HTML class report is
// class_report_html.h.
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

// Students read the three below: a hidden case is named `case N: hidden by your teacher` and its
// failure is given by its kind only (shownReason), never with the case's name, sizes or values.

// PrairieLearn's external grader results.json for one submission: `score` from 0 to 1, a
// `message`, a test per case with `points`, `max_points` and a `message`. `gradable` is false
// when no case could run because of the file itself (not handed in, unreadable or empty, does not
// compile, its buffers do not match the puzzle): PrairieLearn then counts no attempt, and
// `format_errors` says why. The document stays under PrairieLearn's limit of 1 MB (long
// messages are cut).
nlohmann::json prairieLearnJson(const SubmissionGrade& g);
inline constexpr size_t kPrairieLearnMaxBytes = 1000000;

// The result of one GitHub Classroom runner step, as the autograding grading reporter reads it
// (the step's output `result` is this document's text in base64): version 1, `status` "pass"
// with full marks else "fail", `max_score`, and a test per case with its `status`, `score` (the
// points it earned: the reporter adds these up for Classroom) and `message`. The reporter prints
// only a failing test's name, so the name also says why it failed.
nlohmann::json githubResultJson(const SubmissionGrade& g);

} // namespace vkp
