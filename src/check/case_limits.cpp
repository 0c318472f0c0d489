#include "check/case_limits.h"

#include <algorithm>
#include <regex>

#include "base/source_text.h"
#include "gpu/context.h"
#include "puzzle/device_needs.h"
#include "puzzle/passes.h"

namespace vkp {
namespace {

constexpr uint32_t kMinTraceSlots = 16; // records per traced thread, however many threads

// " (line 15)": where the kernel declares the shared array `name`, when its text says.
std::string declarationLine(const std::string& source, const std::string& name) {
    if (name.empty()) return "";
    int line = firstLineMatching(source, std::regex("\\bshared\\b[^;]*\\b" + name + "\\s*\\["));
    return line ? " (line " + std::to_string(line) + ")" : "";
}

// "WG = 4, MAX_SUBGROUPS = 1": what a case's shared arrays are sized from.
std::string sizingText(const Puzzle& puzzle, const TestCase& c) {
    std::string s = "WG = " + std::to_string(c.workgroupSize[0]);
    for (const ConstantDecl& d : puzzle.constants)
        if (auto it = c.constants.find(d.id); it != c.constants.end())
            s += ", " + d.name + " = " + std::to_string(it->second);
    return s;
}

// A traced case's trace buffers: every thread gets at least kMinTraceSlots records.
Status checkTraceSize(const Puzzle& puzzle, size_t index, const CheckOptions& options,
                      const DeviceInfo& device, uint64_t limit) {
    if (!options.trace) return okStatus();
    auto dispatches = caseDispatches(puzzle, index);
    if (!dispatches) return okStatus(); // the check reports it
    for (const CaseDispatch& d : *dispatches) {
        TraceLaunch launch{puzzle.cases[index].workgroupSize, d.workgroups};
        uint64_t slots =
            defaultTraceSlots(options.traceRecords, launch.invocations(), dispatches->size());
        uint64_t bytes = traceBufferWords(launch, slots) * 4;
        if (bytes <= limit) continue;
        uint64_t perThread = (2 + uint64_t(kMinTraceSlots) * kTraceRecordWords) * 4;
        return Error{ErrorKind::Usage,
                     "case " + std::to_string(index + 1) +
                         ": the trace buffer (not a buffer of the puzzle) would need " +
                         std::to_string(bytes) + " bytes for " +
                         std::to_string(launch.invocations()) + " threads, over " + device.name +
                         "'s limit of " + std::to_string(limit) +
                         " bytes for one storage buffer; a trace covers at most about " +
                         std::to_string(limit / perThread) +
                         " threads on this device. Trace a case with fewer threads (--case N), "
                         "or check without a trace (--no-trace)"};
    }
    return okStatus();
}

} // namespace

std::map<uint32_t, uint32_t> specValues(const TestCase& c) {
    std::map<uint32_t, uint32_t> values = c.constants;
    for (uint32_t d = 0; d < 3; ++d)
        values[d] = c.workgroupSize[d];
    return values;
}

uint64_t traceBufferWords(const TraceLaunch& launch, uint64_t slots) {
    uint64_t n = launch.invocations();
    return recordsStart(kTraceHeaderWords + 2 * n) + n * slots * kTraceRecordWords;
}

uint32_t defaultTraceSlots(uint64_t traceRecords, uint64_t invocations, size_t dispatches) {
    uint64_t records = traceRecords / std::max<size_t>(1, dispatches);
    return static_cast<uint32_t>(
        std::clamp<uint64_t>(records / std::max<uint64_t>(1, invocations), kMinTraceSlots, 1024));
}

namespace {

// The error for a kernel that uses what the device lacks: `has`, what it has of the kind.
Diagnostic lackingDiagnostic(const std::string& file, uint32_t line, const std::string& what,
                             const DeviceInfo& device, const std::string& has,
                             const std::string& verb) {
    return Diagnostic{file, static_cast<int>(line), 0, SeverityKind::Error,
                      std::string(line ? "" : "the kernel ") + "uses " + what + ", which " +
                          device.name + " does not support" + has +
                          ": a verdict here would be about values it could not compute. " + verb +
                          " it on a device that has them (vkpuzzles devices), or write it "
                          "without them"};
}

// What a shader feature's absence says beyond the device: a build that cannot ask for it.
std::string whyAbsent(uint32_t feature) {
    if (feature == kCooperativeMatrix && !builtWithCooperativeMatrix())
        return " (nor can this vkpuzzles ask any device for them: it was built with Vulkan "
               "headers older than VK_KHR_cooperative_matrix, as Debian 12's)";
    return "";
}

} // namespace

std::string lacksText(const DeviceInfo& device, const DeviceNeeds& missing) {
    if (!missing.subgroup && missing.shader == kCooperativeMatrix && !builtWithCooperativeMatrix())
        return "this vkpuzzles cannot ask " + device.name + " for " + needsText(missing) +
               ": it was built with Vulkan headers older than VK_KHR_cooperative_matrix (as "
               "Debian 12's); a build on Debian 13 can";
    return device.name + " lacks " + needsText(missing);
}

std::optional<Diagnostic> unsupportedExtension(const std::vector<KernelSource>& sources,
                                               const DeviceInfo& device, const std::string& verb) {
    for (const KernelSource& k : sources) {
        uint32_t lacking = kernelNeeds(k.text).shader & kCooperativeMatrix & ~device.shaderFeatures;
        if (!lacking) continue;
        uint32_t line = extensionLine(k.text, "GL_KHR_cooperative_matrix");
        return lackingDiagnostic(k.file, line, shaderFeatureName(lacking), device,
                                 whyAbsent(lacking), verb);
    }
    return std::nullopt;
}

std::optional<Diagnostic> unsupportedUse(const std::vector<CompiledKernel>& kernels,
                                         const DeviceInfo& device, const std::string& verb) {
    auto lacking = [&](const CompiledKernel& k, uint32_t line, const std::string& what,
                       const std::string& has) {
        return lackingDiagnostic(k.file, line, what, device, has, verb);
    };
    for (const CompiledKernel& k : kernels) {
        for (const KernelFeatureUse& use : k.iface.numberUses)
            if (!(device.shaderFeatures & use.feature))
                return lacking(k, use.line, shaderFeatureName(use.feature), whyAbsent(use.feature));
        for (const KernelFeatureUse& use : k.iface.subgroupUses)
            if (!(device.subgroupOperations & use.feature))
                return lacking(k, use.line, subgroupFeatureName(use.feature),
                               " (it has " + subgroupFeatureList(device.subgroupOperations) + ")");
    }
    return std::nullopt;
}

Status checkSharedMemory(const Puzzle& puzzle, const std::vector<CompiledKernel>& kernels,
                         const std::vector<size_t>& cases, const DeviceInfo& device,
                         const std::string& launchName) {
    uint64_t limit = device.maxSharedMemoryBytes;
    for (const CompiledKernel& k : kernels)
        for (size_t i : cases) {
            std::string which = launchName.empty() ? "case " + std::to_string(i + 1) : launchName;
            auto constants = specValues(puzzle.cases[i]);
            bool unknown = false; // a length reflection cannot work out: the driver judges it
            for (const KernelSharedArray& a : k.iface.shared)
                for (const SizeExpr& d : a.dims)
                    if (!d.known())
                        unknown = true;
                    else if (d.evaluate(constants) == 0)
                        return Error{ErrorKind::Interface,
                                     which + ": the shared array '" + a.name + "'" +
                                         declarationLine(k.source, a.name) +
                                         " has no elements: its length comes to 0 with " +
                                         sizingText(puzzle, puzzle.cases[i]) +
                                         "; a shared array needs at least one"};
            uint64_t bytes = k.iface.sharedBytes(constants);
            if (!limit || unknown || bytes <= limit) continue;
            std::string parts;
            for (const KernelSharedArray& a : k.iface.shared)
                parts +=
                    (parts.empty() ? "" : ", ") + a.name + " " + std::to_string(a.bytes(constants));
            return Error{ErrorKind::Interface, which + ": the kernel's shared arrays need " +
                                                   std::to_string(bytes) + " bytes (" + parts +
                                                   "), over " + device.name + "'s limit of " +
                                                   std::to_string(limit) + " bytes"};
        }
    return okStatus();
}

Status checkBufferSizes(const Puzzle& puzzle, const std::vector<size_t>& cases,
                        const CheckOptions& options, const DeviceInfo& device) {
    uint64_t limit = device.maxStorageBufferRange;
    if (!limit) return okStatus();
    for (size_t i : cases) {
        const TestCase& c = puzzle.cases[i];
        for (size_t b = 0; b < puzzle.buffers.size() && b < c.data.size(); ++b) {
            if (!c.data[b]) continue;
            uint64_t elements = c.data[b]->shape.count(),
                     bytes = std::max<uint64_t>(4, elements * 4);
            if (bytes <= limit) continue;
            return Error{ErrorKind::Usage,
                         "case " + std::to_string(i + 1) + ": buffer '" + puzzle.buffers[b].name +
                             "' (binding " + std::to_string(puzzle.buffers[b].binding) +
                             ") holds " + std::to_string(elements) + " elements, " +
                             std::to_string(bytes) + " bytes, over " + device.name +
                             "'s limit of " + std::to_string(limit) +
                             " bytes for one storage buffer (maxStorageBufferRange); nothing was "
                             "generated or run. "
                             "On this device a buffer holds at most " +
                             std::to_string(limit / 4) + " elements: use a smaller case"};
        }
        if (auto s = checkTraceSize(puzzle, i, options, device, limit); !s) return s;
    }
    return okStatus();
}

} // namespace vkp
