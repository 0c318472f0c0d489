// checkProgram on a puzzle's kernels as one editable text (puzzle/kernel_sections.h): the app's
// editor holds a multi-pass puzzle's kernels one after another, and diagnostics come back on the
// lines of the whole text.
#pragma once

#include <string>

#include "check/check.h"
#include "puzzle/kernel_sections.h"
#include "puzzle/puzzle.h"

namespace vkp {

class Compiler;
class DeviceRunner;

// checkProgram on a joined text: diagnostics point into the whole text, named `file`.
CheckReport checkKernelText(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                            const std::string& text, const std::string& file,
                            const CheckOptions& options = {});

} // namespace vkp
