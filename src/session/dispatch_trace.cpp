#include "session/dispatch_trace.h"

#include <algorithm>
#include <filesystem>

namespace vkp {

DispatchTrace dispatchTrace(const CaseOutcome& c, size_t d) {
    DispatchTrace out;
    if (c.passes.empty()) {
        if (d == 0) {
            out.trace = c.trace.get();
            out.analysis = c.analysis.get();
        }
    } else if (d < c.passes.size()) {
        const PassTrace& p = c.passes[d];
        out.trace = p.trace.get();
        out.analysis = p.analysis.get();
        out.kernel = p.kernel;
        out.label = p.label;
    }
    if (!out.trace || !out.analysis) return DispatchTrace{};
    return out;
}

std::vector<WalkthroughSubject> walkthroughSubjects(const CaseOutcome& c,
                                                    const std::vector<KernelSource>& sources) {
    std::vector<WalkthroughSubject> out;
    for (size_t d = 0; d < std::max<size_t>(1, c.passes.size()); ++d) {
        DispatchTrace t = dispatchTrace(c, d);
        if (!t.trace || t.kernel >= sources.size()) {
            out.emplace_back();
            continue;
        }
        const KernelSource& k = sources[t.kernel];
        out.push_back({k.text, std::filesystem::path(k.file).filename().string(), t.trace});
    }
    return out;
}

} // namespace vkp
