// A puzzle's kernels as one editable text: the desktop app's editor holds a multi-pass puzzle's
// kernels one after another, each after a marker line `//// kernel NAME`. A single-kernel
// puzzle's text is just its kernel. Part of the puzzle format: the front ends, the views and the
// check (check/kernel_text.h) all split and join it here.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "puzzle/puzzle.h"

namespace vkp {

inline constexpr const char* kKernelMarker = "//// kernel ";

// The text of one of the puzzle's kernels, as the user wrote it.
struct KernelSource {
    std::string name; // Puzzle::kernels[k].name ("kernel" for a single-kernel puzzle)
    std::string text;
    std::string file; // as named in diagnostics
};

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

} // namespace vkp
