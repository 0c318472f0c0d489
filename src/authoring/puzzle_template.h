// The puzzle folder `vkpuzzles new` writes: a small working puzzle (it loads, its solution passes,
// its starter fails) for a teacher to start from. Text only; the command writes the files.
#pragma once

#include <string>
#include <vector>

namespace vkp {

struct TemplateFile {
    std::string path; // relative to the puzzle's folder: "puzzle.toml", "starter/scale.comp"
    std::string text;
};

// The files of a new puzzle `slug` at position `order` of its pack. `multiPass`: two kernels run
// by two passes (starter/ and solution/ folders) instead of starter.comp and solution.comp.
std::vector<TemplateFile> puzzleTemplate(const std::string& slug, int order, bool multiPass);

} // namespace vkp
