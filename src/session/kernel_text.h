// A puzzle's kernels as one editable text: the desktop app's editor holds a multi-pass puzzle's
// kernels one after another, each after a marker line `//// kernel NAME`. A single-kernel
// puzzle's text is just its kernel. Diagnostics come back on the lines of the whole text.
#pragma once

#include <string>
#include <vector>

#include "core/puzzle.h"
#include "core/result.h"
#include "session/check.h"

namespace vkp {

class Compiler;
class DeviceRunner;

inline constexpr const char* kKernelMarker = "//// kernel ";

struct KernelSection {
    KernelSource source; // its text alone; file = NAME.comp
    int firstLine = 1;   // line of the whole text where its first line is
};

// The kernels' texts (in Puzzle::kernels order) joined with markers; one kernel: its text.
std::string joinKernelTexts(const Puzzle& puzzle, const std::vector<std::string>& texts);
// The official solution's or the starter's files, one source per kernel (Puzzle::kernels order).
Result<std::vector<KernelSource>> readKernelSources(const Puzzle& puzzle, bool solution);
// The same, joined.
Result<std::string> readKernelTexts(const Puzzle& puzzle, bool solution);
// Splits a joined text; an error names a missing, unknown or repeated marker and its line.
Result<std::vector<KernelSection>> splitKernelText(const Puzzle& puzzle, const std::string& text);

// The kernels of a joined text as sources; one kernel is named `file`.
Result<std::vector<KernelSource>> kernelTextSources(const Puzzle& puzzle, const std::string& text,
                                                    const std::string& file);

// checkProgram on a joined text: diagnostics point into the whole text, named `file`.
CheckReport checkKernelText(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                            const std::string& text, const std::string& file,
                            const CheckOptions& options = {});

} // namespace vkp
