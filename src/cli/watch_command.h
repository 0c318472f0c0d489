// `vkpuzzles watch`: a check at every save of the learner's kernel files (cli/watch_command.cpp;
// the command itself is Command::watch).
#pragma once

#include <string>
#include <vector>

#include "puzzle/puzzle.h"
#include "report/check_report.h"
#include "session/check.h"

namespace vkp::cli {

// A check's findings as the lines compilers print, one per finding and line, with the cases it
// came back in: "my-map.comp:10:1: error: endless loop?: thread 0 was stopped ... (cases 1, 2)";
// a finding without a line is "FILE: error: ...". Hidden cases are left out.
std::vector<std::string> problemLines(const Puzzle& p, const CheckReport& r,
                                      const std::vector<KernelSource>& sources);

} // namespace vkp::cli
