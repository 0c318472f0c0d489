#include "check/kernel_text.h"

namespace vkp {

CheckReport checkKernelText(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                            const std::string& text, const std::string& file,
                            const CheckOptions& options) {
    auto sections = splitKernelText(puzzle, text);
    if (!sections) {
        CheckReport r;
        r.kernelFile = file;
        r.diagnostics.push_back({file, 0, 0, SeverityKind::Error, sections.error().message});
        return r;
    }
    std::vector<KernelSource> sources;
    for (const KernelSection& s : *sections)
        sources.push_back(s.source);
    if (sections->size() == 1) sources[0].file = file;
    CheckReport r = checkProgram(compiler, runner, puzzle, sources, options);
    r.kernelFile = file;
    for (Diagnostic& d : r.diagnostics)
        for (const KernelSection& s : *sections)
            if (d.file == s.source.file) {
                if (d.line > 0) d.line += s.firstLine - 1;
                if (sections->size() > 1) d.message = s.source.name + ": " + d.message;
                d.file = file;
            }
    return r;
}

} // namespace vkp
