#include "puzzle/kernel_sections.h"

#include <algorithm>
#include <sstream>

#include "base/text_file.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

std::string trimmed(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

} // namespace

std::string joinKernelTexts(const Puzzle& puzzle, const std::vector<std::string>& texts) {
    if (puzzle.kernels.size() <= 1) return texts.empty() ? std::string() : texts[0];
    std::string out;
    for (size_t k = 0; k < puzzle.kernels.size() && k < texts.size(); ++k) {
        if (!out.empty() && out.back() != '\n') out += '\n';
        if (k > 0) out += '\n';
        out += kKernelMarker + puzzle.kernels[k].name + "\n" + texts[k];
    }
    return out;
}

Result<std::vector<KernelSource>> readKernelSources(const Puzzle& puzzle, bool solution) {
    std::vector<KernelSource> out;
    for (const KernelDecl& k : puzzle.kernels) {
        const std::string& path = solution ? k.solutionPath : k.starterPath;
        auto text = readTextFile(path);
        if (!text) return text.error();
        out.push_back({k.name, *text, path});
    }
    return out;
}

Result<std::string> readKernelTexts(const Puzzle& puzzle, bool solution) {
    auto sources = readKernelSources(puzzle, solution);
    if (!sources) return sources.error();
    std::vector<std::string> texts;
    for (const KernelSource& s : *sources)
        texts.push_back(s.text);
    return joinKernelTexts(puzzle, texts);
}

Result<std::vector<KernelSection>> splitKernelText(const Puzzle& puzzle, const std::string& text) {
    if (puzzle.kernels.size() <= 1) {
        std::string name = puzzle.kernels.empty() ? "kernel" : puzzle.kernels[0].name;
        return std::vector<KernelSection>{{{name, text, name + ".comp"}, 1}};
    }
    std::vector<KernelSection> out;
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        std::string t = trimmed(line);
        if (t.rfind(kKernelMarker, 0) == 0) {
            std::string name = trimmed(t.substr(std::string(kKernelMarker).size()));
            bool known = std::any_of(puzzle.kernels.begin(), puzzle.kernels.end(),
                                     [&](const KernelDecl& k) { return k.name == name; });
            bool repeated = std::any_of(out.begin(), out.end(), [&](const KernelSection& s) {
                return s.source.name == name;
            });
            if (!known || repeated)
                return Error{ErrorKind::Usage,
                             "line " + std::to_string(n) + ": '" + t + "' " +
                                 (repeated ? "comes twice" : "names no kernel of this puzzle")};
            out.push_back({{name, "", name + ".comp"}, n + 1});
            continue;
        }
        if (out.empty()) {
            if (!t.empty())
                return Error{ErrorKind::Usage, "line " + std::to_string(n) +
                                                   ": text before the first '" + kKernelMarker +
                                                   "NAME' line"};
            continue;
        }
        out.back().source.text += line + "\n";
    }
    for (const KernelDecl& k : puzzle.kernels)
        if (std::none_of(out.begin(), out.end(),
                         [&](const KernelSection& s) { return s.source.name == k.name; }))
            return Error{ErrorKind::Usage, "the kernel '" + k.name + "' is missing: add a line '" +
                                               kKernelMarker + k.name + "' and its code"};
    return out;
}

Result<std::vector<KernelSource>> kernelTextSources(const Puzzle& puzzle, const std::string& text,
                                                    const std::string& file) {
    auto sections = splitKernelText(puzzle, text);
    if (!sections) return sections.error();
    std::vector<KernelSource> sources;
    for (const KernelSection& s : *sections)
        sources.push_back(s.source);
    if (sources.size() == 1) sources[0].file = file;
    return sources;
}

} // namespace vkp
