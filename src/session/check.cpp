#include "session/check.h"

#include <algorithm>
#include <chrono>

#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "gpu/kernel.h"
#include "shader/compiler.h"
#include "shader/instrument.h"
#include "shader/interface_check.h"
#include "shader/reflect.h"

namespace vkp {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

LaunchSpec launchOf(const TestCase& c) { return {c.workgroupSize, c.workgroups, c.constants}; }

// Every specialization constant of a case, the workgroup size (ids 0..2) included: shared
// arrays may be sized by either (`shared float s[gl_WorkGroupSize.x]`).
std::map<uint32_t, uint32_t> specValues(const TestCase& c) {
    std::map<uint32_t, uint32_t> values = c.constants;
    for (uint32_t d = 0; d < 3; ++d) values[d] = c.workgroupSize[d];
    return values;
}

std::vector<size_t> selectedCases(const Puzzle& puzzle, const CheckOptions& options) {
    if (options.onlyCase) return {*options.onlyCase};
    std::vector<size_t> all(puzzle.cases.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
}

class Checker {
  public:
    Checker(const Puzzle& p, DeviceRunner& runner, CheckReport& r, const CheckOptions& o, const KernelInterface& k)
        : m_p(p), m_runner(runner), m_r(r), m_o(o), m_kernel(k) {}

    void run(std::span<const uint32_t> spirv) {
        if (auto s = checkSharedMemory(); !s) return fail(s.error());
        std::vector<uint32_t> bindings;
        for (const BufferDecl& b : m_p.buffers) bindings.push_back(b.binding);
        std::vector<uint32_t> traced;
        if (m_o.trace) {
            auto t = Clock::now();
            auto inst = instrumentKernel(spirv);
            if (!inst) return fail(inst.error());
            if (auto valid = validateSpirv(inst->spirv); !valid) return fail(valid.error());
            m_layout = inst->layout;
            traced = std::move(inst->spirv);
            spirv = traced;
            m_r.timing.instrumentMs = msSince(t);
        }
        DeviceJob job;
        job.spirv = spirv;
        job.bindings = bindings;
        if (m_o.trace) job.otherSets.push_back({m_layout.traceSet, m_layout.traceBinding});
        job.timeoutMs = m_o.timeoutMs;
        job.testCrash = m_o.testCrashWorker;
        m_r.reached = StageKind::Pipeline;
        runCases(job, selectedCases(m_p, m_o));
        bool allRan = std::all_of(m_r.cases.begin(), m_r.cases.end(), [](const CaseOutcome& c) { return !c.error; });
        if (!m_r.error && allRan && !m_r.cases.empty()) m_r.reached = StageKind::Done;
    }

  private:
    void fail(Error e) { m_r.error = std::move(e); }

    // Shared arrays sized by constants can outgrow the device in some case only: say which.
    Status checkSharedMemory() const {
        uint64_t limit = m_runner.info().maxSharedMemoryBytes;
        for (size_t i : selectedCases(m_p, m_o)) {
            uint64_t bytes = m_kernel.sharedBytes(specValues(m_p.cases[i]));
            if (!limit || bytes <= limit) continue;
            std::string parts;
            for (const KernelSharedArray& a : m_kernel.shared)
                parts += (parts.empty() ? "" : ", ") + a.name + " " + std::to_string(a.bytes(specValues(m_p.cases[i])));
            return Error{ErrorKind::Interface, "case " + std::to_string(i + 1) + ": the kernel's shared arrays need " + std::to_string(bytes) +
                                               " bytes (" + parts + "), over " + m_runner.info().name + "'s limit of " +
                                               std::to_string(limit) + " bytes"};
        }
        return okStatus();
    }

    // Every case in one submission; then each output is compared with its expected values.
    void runCases(DeviceJob& job, const std::vector<size_t>& cases) {
        std::vector<CaseData> data;
        std::vector<RunItem> items;
        for (size_t i : cases) {
            auto d = materializeCase(m_p, i);
            if (!d) return fail(d.error());
            data.push_back(std::move(*d));
            RunItem item{launchOf(m_p.cases[i]), {}};
            for (size_t b = 0; b < m_p.buffers.size(); ++b)
                item.buffers.push_back({m_p.buffers[b].binding, data.back().initial[b].words, m_p.buffers[b].role == RoleKind::Output});
            items.push_back(std::move(item));
        }
        std::vector<std::vector<uint32_t>> traceBuffers;
        if (m_o.trace) {
            traceBuffers.reserve(cases.size());
            for (size_t k = 0; k < cases.size(); ++k) {
                TraceLaunch launch = traceLaunch(cases[k]);
                uint64_t per = std::clamp<uint64_t>(m_o.traceRecords / std::max<uint64_t>(1, launch.invocations()), 16, 1024);
                uint64_t words = 0;
                traceBuffers.push_back(makeTraceBuffer(launch, static_cast<uint32_t>(per), m_o.loopBudget, &words));
                items[k].buffers.push_back({m_layout.traceBinding, traceBuffers.back(), true, m_layout.traceSet, words});
            }
        }
        job.items = std::move(items);
        auto ran = m_runner.run(job);
        if (!ran) return fail(ran.error());
        m_r.timing.pipelineMs = ran->pipelineMs;
        m_r.timing.runMs = ran->runMs;
        m_r.reached = StageKind::Run;
        auto t = Clock::now();
        for (size_t k = 0; k < cases.size(); ++k) m_r.cases.push_back(compare(cases[k], data[k], ran->items.at(k)));
        m_r.timing.checkMs = msSince(t);
    }

    CaseOutcome compare(size_t index, CaseData& data, Result<RunOutput>& ran) {
        CaseOutcome out;
        out.index = index;
        if (!ran) {
            out.error = ran.error();
            out.error->message = "case " + std::to_string(index + 1) + " " + out.error->message;
            out.inputs = std::move(data.initial);
            return out;
        }
        out.gpuMs = ran->gpuMs;
        if (ran->gpuMs > 0) m_r.timing.gpuMs += ran->gpuMs;
        out.pass = true;
        if (m_o.trace) analyse(out, data, ran->buffers.back());
        for (size_t b = 0; b < m_p.buffers.size(); ++b) {
            if (!data.expected[b]) continue;
            BufferData actual{m_p.buffers[b].type, data.expected[b]->shape, std::move(ran->buffers[b])};
            BufferVerdict v = compareBuffers(*data.expected[b], actual, m_p.tolerance);
            out.pass = out.pass && v.pass;
            out.outputs.push_back({b, std::move(*data.expected[b]), std::move(actual), std::move(v)});
        }
        out.outputsMatch = out.pass;
        if (out.analysis && out.analysis->failsCase()) out.pass = false;
        out.inputs = std::move(data.initial);
        return out;
    }

    TraceLaunch traceLaunch(size_t index) const {
        return {m_p.cases[index].workgroupSize, m_p.cases[index].workgroups};
    }

    // Names each traced variable with its length in this case (buffers: the data's; shared
    // arrays: from their dimensions and the case's constants).
    std::vector<TraceVariableInfo> variableInfo(size_t index, const CaseData& data) const {
        std::vector<TraceVariableInfo> out;
        for (const TracedVariable& v : m_layout.variables) {
            TraceVariableInfo info{v};
            if (v.shared) {
                info.length = v.elementWidth;
                for (const SizeExpr& d : v.dims) {
                    info.dims.push_back(d.evaluate(specValues(m_p.cases[index])));
                    info.length *= info.dims.back();
                }
            } else if (const BufferDecl* b = m_p.findBuffer(v.binding); b && v.set == 0) {
                info.puzzleBuffer = static_cast<int>(b - m_p.buffers.data());
                const auto& shapeOf = data.expected[info.puzzleBuffer] ? data.expected[info.puzzleBuffer]->shape : data.initial[info.puzzleBuffer].shape;
                info.length = shapeOf.count();
                if (shapeOf.dims.size() == 2) info.dims = shapeOf.dims;
            }
            out.push_back(std::move(info));
        }
        return out;
    }

    void analyse(CaseOutcome& out, const CaseData& data, const std::vector<uint32_t>& words) {
        auto t = Clock::now();
        auto trace = decodeTrace(words, traceLaunch(out.index), variableInfo(out.index, data));
        if (!trace) {
            out.error = trace.error();
            return;
        }
        auto shared = std::make_shared<const Trace>(std::move(*trace));
        out.analysis = std::make_shared<const TraceAnalysis>(analyzeTrace(*shared, m_p.limits));
        out.trace = std::move(shared);
        m_r.timing.analysisMs += msSince(t);
    }

    const Puzzle& m_p;
    TraceLayout m_layout;
    DeviceRunner& m_runner;
    CheckReport& m_r;
    const CheckOptions& m_o;
    const KernelInterface& m_kernel;
};

} // namespace

const char* stageName(StageKind stage) {
    switch (stage) {
    case StageKind::Compile: return "compile";
    case StageKind::Interface: return "interface";
    case StageKind::Pipeline: return "pipeline";
    case StageKind::Run: return "run";
    case StageKind::Done: return "done";
    }
    return "?";
}

bool CheckReport::allPass() const {
    if (reached != StageKind::Done || error || hasErrors(diagnostics)) return false;
    for (const CaseOutcome& c : cases)
        if (!c.pass) return false;
    return !cases.empty();
}

size_t CheckReport::passCount() const {
    size_t n = 0;
    for (const CaseOutcome& c : cases) n += c.pass;
    return n;
}

CheckReport checkKernel(const Compiler& compiler, GpuContext& gpu, const Puzzle& puzzle,
                        const std::string& source, const std::string& kernelFile,
                        const CheckOptions& options) {
    InProcessRunner runner(gpu);
    return checkKernel(compiler, runner, puzzle, source, kernelFile, options);
}

CheckReport checkKernel(const Compiler& compiler, DeviceRunner& runner, const Puzzle& puzzle,
                        const std::string& source, const std::string& kernelFile,
                        const CheckOptions& options) {
    auto start = Clock::now();
    CheckReport r;
    r.kernelFile = kernelFile;
    if (options.onlyCase && *options.onlyCase >= puzzle.cases.size()) {
        r.error = Error{ErrorKind::Usage, "case " + std::to_string(*options.onlyCase + 1) + " does not exist; " +
                                              puzzle.slug + " has cases 1 to " + std::to_string(puzzle.cases.size())};
        return r;
    }
    auto t = Clock::now();
    CompileResult compiled = compiler.compile(source, kernelFile, {/*debugInfo=*/options.trace});
    r.timing.compileMs = msSince(t);
    r.diagnostics = compiled.diagnostics;
    if (!compiled.ok()) return r;
    r.reached = StageKind::Interface;
    t = Clock::now();
    auto iface = reflectKernel(compiled.spirv);
    if (!iface) {
        r.error = iface.error();
        return r;
    }
    auto problems = checkInterface(puzzle, *iface, source, kernelFile);
    r.diagnostics.insert(r.diagnostics.end(), problems.begin(), problems.end());
    r.timing.reflectMs = msSince(t);
    if (hasErrors(problems)) return r;
    r.reached = StageKind::Pipeline;
    Checker(puzzle, runner, r, options, *iface).run(compiled.spirv);
    r.timing.totalMs = msSince(start);
    return r;
}

} // namespace vkp
