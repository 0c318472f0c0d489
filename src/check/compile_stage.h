// The compile stage of a check, the one path every front end (and the kernel-text fuzzer) takes
// from kernel text to runnable words: each kernel compiled (glslang in the compiler's helper
// process), reflected, checked against the puzzle's interface and, when tracing, instrumented and
// validated (SPIRV-Tools, in the helper process too).
#pragma once

#include <cstdint>
#include <vector>

#include "check/check.h"
#include "puzzle/puzzle.h"
#include "rewrite/rewriter.h"
#include "shader/reflect.h"
#include "trace/trace.h"

namespace vkp {

class Compiler;

// A compiled kernel of the program: its words (instrumented when tracing) and what it declares.
struct CompiledKernel {
    std::vector<uint32_t> spirv;
    KernelInterface iface;
    TraceLayout layout;
    std::string source; // the text it was compiled from (a trace quotes it)
    std::string file;   // its file, as the learner named it (diagnostics)
};

// Fills r's diagnostics, compile and reflect timings and compilerCrashed; r.reached becomes
// Interface when every kernel compiled and Pipeline when their interfaces fit the puzzle too
// (r.error: a stage that failed, such as instrumentation). Kernels that use cooperative
// matrices are never traced (r.untraced says why). Untraced kernels lose their
// debugPrintfEXT calls (rewrite/printf_rewrite.h). The kernels, in Puzzle::kernels order,
// are returned when r.reached is Pipeline and r.error is empty.
// The words a kernel runs as on this device: without debug information (shader/spirv_tools.h:
// a comment or blank line added builds nothing new), and where subgroups run in lock-step
// (lavapipe), with its subgroup-scoped execution barriers as memory barriers
// (rewrite/lockstep_barriers.h). appendDeviceRewriters adds those rewriters to a pipeline
// (rewrite/rewriter.h); spirvForDevice runs them alone.
void appendDeviceRewriters(std::vector<Rewriter>& pipeline, const DeviceInfo& device);
Result<std::vector<uint32_t>> spirvForDevice(const DeviceInfo& device, std::vector<uint32_t> spirv);

// A pass's push-constant values laid out as the kernel's block declares them (by member name).
std::vector<uint32_t>
pushConstantWords(const KernelInterface& kernel,
                  const std::vector<std::pair<std::string, uint32_t>>& values);

std::vector<CompiledKernel> compileProgram(const Compiler& compiler, const Puzzle& puzzle,
                                           const std::vector<KernelSource>& sources,
                                           const CheckOptions& options, CheckReport& r);

} // namespace vkp
