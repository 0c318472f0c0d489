// A line diff (longest common subsequence) between the learner's kernel and the official
// solution, for the solution panel. Headless.
#pragma once

#include <string>
#include <vector>

namespace vkp::text {

enum class DiffKind {
    Same,
    Removed,
    Added
}; // Removed: only in the learner's; Added: only in the solution

struct DiffLine {
    DiffKind kind = DiffKind::Same;
    int oldLine = -1; // 0-based line in the learner's text, -1 for Added
    int newLine = -1; // 0-based line in the solution, -1 for Removed
    std::string text;
};

// Lines compare with trailing blanks ignored, so stray spaces do not show as changes.
std::vector<DiffLine> diffLines(const std::string& before, const std::string& after);

struct DiffStats {
    int added = 0;
    int removed = 0;
};
DiffStats diffStats(const std::vector<DiffLine>& diff);

} // namespace vkp::text
