#include "check/dispatch_view.h"

#include "base/os.h"

#include <algorithm>
#include <filesystem>

namespace vkp {

DispatchView dispatchView(const CaseOutcome& c, size_t d) {
    DispatchView out;
    if (c.dispatches.empty()) {
        if (d == 0) {
            out.trace = c.trace.get();
            out.analysis = c.analysis.get();
        }
    } else if (d < c.dispatches.size()) {
        const DispatchTrace& dispatch = c.dispatches[d];
        out.trace = dispatch.trace.get();
        out.analysis = dispatch.analysis.get();
        out.kernel = dispatch.kernel;
        out.label = dispatch.label;
    }
    if (!out.trace || !out.analysis) return DispatchView{};
    return out;
}

std::vector<WalkthroughSubject> walkthroughSubjects(const CaseOutcome& c,
                                                    const std::vector<KernelSource>& sources) {
    std::vector<WalkthroughSubject> out;
    for (size_t d = 0; d < std::max<size_t>(1, c.dispatches.size()); ++d) {
        DispatchView view = dispatchView(c, d);
        if (!view.trace || view.kernel >= sources.size()) {
            out.emplace_back();
            continue;
        }
        const KernelSource& k = sources[view.kernel];
        out.push_back({k.text, os::pathText(os::toPath(k.file).filename()), view.trace});
    }
    return out;
}

} // namespace vkp
