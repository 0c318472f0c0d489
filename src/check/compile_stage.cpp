#include "check/compile_stage.h"

#include <algorithm>
#include <chrono>

#include "rewrite/instrument.h"
#include "rewrite/rewriter.h"
#include "shader/compiler.h"
#include "shader/interface_check.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Orders the sources as Puzzle::kernels; an error names what is missing or unknown.
Result<std::vector<const KernelSource*>> matchSources(const Puzzle& puzzle,
                                                      const std::vector<KernelSource>& sources) {
    std::vector<const KernelSource*> out(puzzle.kernels.size(), nullptr);
    std::string names;
    for (const KernelDecl& k : puzzle.kernels)
        names += (names.empty() ? "" : ", ") + k.name;
    if (puzzle.kernels.size() == 1 && sources.size() == 1)
        return std::vector<const KernelSource*>{&sources[0]};
    for (const KernelSource& s : sources) {
        auto it = std::find_if(puzzle.kernels.begin(), puzzle.kernels.end(),
                               [&](const KernelDecl& k) { return k.name == s.name; });
        if (it == puzzle.kernels.end())
            return Error{ErrorKind::Usage, "'" + s.name + "' is not a kernel of " + puzzle.slug +
                                               " (its kernels: " + names + ")"};
        out[it - puzzle.kernels.begin()] = &s;
    }
    for (size_t k = 0; k < out.size(); ++k)
        if (!out[k])
            return Error{ErrorKind::Usage, puzzle.slug + " has " +
                                               std::to_string(puzzle.kernels.size()) +
                                               " kernels (" + names + "); the kernel '" +
                                               puzzle.kernels[k].name + "' is missing"};
    return out;
}

// Rewrites every kernel to log its accesses; the rewritten words must pass the validator.
// Writes to the buffers of the puzzle's [[schedule]] tables get the forced-schedule hooks.
Status instrumentAll(const Compiler& compiler, std::vector<CompiledKernel>& kernels,
                     const Puzzle& puzzle, bool subgroupLoopCount) {
    InstrumentOptions options;
    options.subgroupLoopCount = subgroupLoopCount;
    for (const ScheduleDecl& s : puzzle.schedules)
        options.scheduleBindings.push_back(puzzle.buffers[s.buffer].binding);
    const Rewriter instrument[] = {instrumentRewriter(options)};
    for (CompiledKernel& k : kernels) {
        RewriteState state;
        auto inst = runRewriters(k.spirv, instrument, state);
        if (!inst) return inst.error();
        if (auto valid = compiler.validate(*inst); !valid) return valid.error();
        k.layout = state.instrumented->layout;
        k.spirv = std::move(*inst);
    }
    return okStatus();
}

// Untraced runs drop debugPrintfEXT calls: no driver has to print them (lavapipe does not).
Status stripPrintfAll(std::vector<CompiledKernel>& kernels) {
    const Rewriter strip[] = {stripDebugPrintfRewriter()};
    for (CompiledKernel& k : kernels) {
        RewriteState state;
        auto stripped = runRewriters(k.spirv, strip, state);
        if (!stripped) return stripped.error();
        k.spirv = std::move(*stripped);
    }
    return okStatus();
}

bool usesCooperativeMatrices(const std::vector<CompiledKernel>& kernels) {
    return std::any_of(kernels.begin(), kernels.end(),
                       [](const CompiledKernel& k) { return k.iface.uses(kCooperativeMatrix); });
}

} // namespace

std::vector<CompiledKernel> compileProgram(const Compiler& compiler, const Puzzle& puzzle,
                                           const std::vector<KernelSource>& sources,
                                           const CheckOptions& options, CheckReport& r) {
    auto ordered = matchSources(puzzle, sources);
    if (!ordered) {
        r.error = ordered.error();
        return {};
    }
    std::vector<CompiledKernel> kernels;
    bool compiledAll = true, interfaceOk = true;
    for (size_t k = 0; k < ordered->size(); ++k) {
        const KernelSource& src = *(*ordered)[k];
        auto t = Clock::now();
        CompileResult compiled = compiler.compile(
            src.text, src.file,
            {/*debugInfo=*/options.trace || options.loopGuard}); // lines for findings
        r.timing.compileMs += msSince(t);
        r.diagnostics.insert(r.diagnostics.end(), compiled.diagnostics.begin(),
                             compiled.diagnostics.end());
        r.compilerCrashed = r.compilerCrashed || compiled.compilerCrashed;
        if (!compiled.ok()) {
            compiledAll = false;
            continue;
        }
        t = Clock::now();
        auto iface = reflectKernel(compiled.spirv);
        if (!iface) {
            r.error = iface.error();
            return {};
        }
        auto interfaceDiagnostics = checkInterface(puzzle, *iface, src.text, src.file, k);
        r.diagnostics.insert(r.diagnostics.end(), interfaceDiagnostics.begin(),
                             interfaceDiagnostics.end());
        r.timing.reflectMs += msSince(t);
        interfaceOk = interfaceOk && !hasErrors(interfaceDiagnostics);
        r.usesSubgroups = r.usesSubgroups || !iface->subgroupUses.empty();
        r.usesAtomics = r.usesAtomics || iface->usesAtomics;
        kernels.push_back({std::move(compiled.spirv), std::move(*iface), {}, src.text, src.file});
    }
    if (!compiledAll) return {};
    r.reached = StageKind::Interface;
    if (!interfaceOk) return {};
    std::vector<const KernelInterface*> ifaces;
    for (const CompiledKernel& k : kernels)
        ifaces.push_back(&k.iface);
    if (auto broken = brokenUsesRule(puzzle, ifaces, kernels.front().file)) {
        r.diagnostics.push_back(*broken);
        return {};
    }
    r.reached = StageKind::Pipeline;
    if (options.trace && usesCooperativeMatrices(kernels))
        r.untraced = "the trace does not follow cooperative matrices: a subgroup loads, "
                     "multiplies and stores a whole tile at once, and which thread holds which "
                     "cell is the driver's choice. The cases ran untraced: values and the "
                     "verdict, no thread's reads and writes";
    if (!options.trace || !r.untraced.empty()) {
        if (auto s = stripPrintfAll(kernels); !s) r.error = s.error();
        return r.error ? std::vector<CompiledKernel>{} : kernels;
    }
    auto t = Clock::now();
    if (auto s = instrumentAll(compiler, kernels, puzzle, options.subgroupLoopCount); !s) {
        r.error = s.error();
        return {};
    }
    r.timing.instrumentMs = msSince(t);
    return kernels;
}

std::vector<uint32_t>
pushConstantWords(const KernelInterface& kernel,
                  const std::vector<std::pair<std::string, uint32_t>>& values) {
    std::vector<uint32_t> words((kernel.pushBytes + 3) / 4, 0);
    for (const auto& [name, value] : values)
        for (const KernelPushMember& m : kernel.push)
            if (m.name == name && m.offset / 4 < words.size()) words[m.offset / 4] = value;
    return words;
}

void appendDeviceRewriters(std::vector<Rewriter>& pipeline, const DeviceInfo& device) {
    pipeline.push_back(stripDebugInfoRewriter());
    if (device.lockstepSubgroups) pipeline.push_back(lockstepBarriersRewriter());
}

Result<std::vector<uint32_t>> spirvForDevice(const DeviceInfo& device,
                                             std::vector<uint32_t> spirv) {
    std::vector<Rewriter> pipeline;
    appendDeviceRewriters(pipeline, device);
    RewriteState state;
    return runRewriters(spirv, pipeline, state);
}

} // namespace vkp
