#include "session/check.h"

#include <chrono>

#include "gpu/context.h"
#include "gpu/kernel.h"
#include "shader/compiler.h"
#include "shader/interface_check.h"
#include "shader/reflect.h"

namespace vkp {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

LaunchSpec launchOf(const TestCase& c) { return {c.workgroupSize, c.workgroups, c.constants}; }

std::vector<size_t> selectedCases(const Puzzle& puzzle, const CheckOptions& options) {
    if (options.onlyCase) return {*options.onlyCase};
    std::vector<size_t> all(puzzle.cases.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
}

class Checker {
  public:
    Checker(const Puzzle& p, GpuContext& gpu, CheckReport& r, const CheckOptions& o)
        : m_p(p), m_gpu(gpu), m_r(r), m_o(o) {}

    void run(std::span<const uint32_t> spirv) {
        std::vector<uint32_t> bindings;
        for (const BufferDecl& b : m_p.buffers) bindings.push_back(b.binding);
        auto t = Clock::now();
        auto kernel = GpuKernel::create(m_gpu, spirv, bindings);
        if (!kernel) return fail(kernel.error());
        std::vector<size_t> cases = selectedCases(m_p, m_o);
        std::vector<LaunchSpec> launches;
        for (size_t i : cases) launches.push_back(launchOf(m_p.cases[i]));
        if (auto s = (*kernel)->checkLimits(launches); !s) return fail(s.error());
        if (auto s = (*kernel)->prepare(launches); !s) return fail(s.error());
        m_r.timing.pipelineMs = msSince(t);
        m_r.reached = StageKind::Run;
        runCases(**kernel, cases);
        if (!m_r.error && !m_gpu.hung()) m_r.reached = StageKind::Done;
    }

  private:
    void fail(Error e) { m_r.error = std::move(e); }

    // Every case in one submission; then each output is compared with its expected values.
    void runCases(GpuKernel& kernel, const std::vector<size_t>& cases) {
        auto t = Clock::now();
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
        auto ran = kernel.runAll(items, m_o.timeoutMs);
        m_r.timing.runMs = msSince(t);
        if (!ran) return fail(ran.error());
        t = Clock::now();
        for (size_t k = 0; k < cases.size(); ++k) m_r.cases.push_back(compare(cases[k], data[k], (*ran)[k]));
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
        for (size_t b = 0; b < m_p.buffers.size(); ++b) {
            if (!data.expected[b]) continue;
            BufferData actual{m_p.buffers[b].type, data.expected[b]->shape, std::move(ran->buffers[b])};
            BufferVerdict v = compareBuffers(*data.expected[b], actual, m_p.tolerance);
            out.pass = out.pass && v.pass;
            out.outputs.push_back({b, std::move(*data.expected[b]), std::move(actual), std::move(v)});
        }
        out.inputs = std::move(data.initial);
        return out;
    }

    const Puzzle& m_p;
    GpuContext& m_gpu;
    CheckReport& m_r;
    const CheckOptions& m_o;
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
    auto start = Clock::now();
    CheckReport r;
    r.kernelFile = kernelFile;
    if (options.onlyCase && *options.onlyCase >= puzzle.cases.size()) {
        r.error = Error{ErrorKind::Usage, "case " + std::to_string(*options.onlyCase + 1) + " does not exist; " +
                                              puzzle.slug + " has cases 1 to " + std::to_string(puzzle.cases.size())};
        return r;
    }
    auto t = Clock::now();
    CompileResult compiled = compiler.compile(source, kernelFile);
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
    Checker(puzzle, gpu, r, options).run(compiled.spirv);
    r.timing.totalMs = msSince(start);
    return r;
}

} // namespace vkp
