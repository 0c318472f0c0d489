// What `vkpuzzles grade` prints on the terminal: a line per submission and a summary. The files
// it writes (CSV, JSON, Gradescope's results.json, the HTML class report) are the gradebook's.
#pragma once

#include <string>
#include <vector>

#include "classroom/grade.h"
#include "cli/style.h"
#include "gradebook/grade_files.h"

namespace vkp::cli {

// "alice   3/5  3 of 4 cases  case 2: result: 1 of 8 cells wrong (...)"; `nameWidth` aligns.
std::string gradeLine(const SubmissionGrade& g, size_t nameWidth, const Style& st);
// "30 submissions: mean 3.4 of 5 (68%), 12 with full marks" (`noun`: "submission", "student").
std::string gradeSummary(const std::vector<SubmissionGrade>& grades, const std::string& noun,
                         const Style& st);

} // namespace vkp::cli
