// The class report (`grade --html FILE`, `grade --merge ... --html FILE`): one self-contained HTML
// page (inline SVG and a little script, nothing fetched) to look at how a class did: per puzzle
// the scores' spread, the kinds of failure that cost the most with the students behind them, per
// case the share that failed it; a sortable table of the students with their case files linked.
// It may be shown to the class: a hidden case is named by its number only and its failures by
// their kind (classroom/class_summary.h), and every text a student or a puzzle wrote is escaped.
#pragma once

#include <string>

#include "classroom/grade_shards.h"

namespace vkp {

// The page; `htmlFile` is where it will be written: case files are linked relative to its folder.
std::string classReportHtml(const GradedClass& graded, const std::string& htmlFile);

// Text as HTML text or an attribute's value: & < > " ' escaped.
std::string htmlEscape(const std::string& text);

} // namespace vkp
