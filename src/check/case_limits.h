// What the cases of a check ask of the device, checked from the puzzle and the kernels alone,
// before any data is generated or anything runs: shared arrays that come to nothing or outgrow
// the device, and buffers or trace buffers over one storage buffer's limit.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostic.h"
#include "base/result.h"
#include "check/check.h"
#include "check/compile_stage.h"
#include "device/device_info.h"
#include "puzzle/device_needs.h"
#include "puzzle/puzzle.h"
#include "trace/trace.h"

namespace vkp {

// Every specialization constant of a case, the workgroup size (ids 0..2) included: shared
// arrays may be sized by either (`shared float s[gl_WorkGroupSize.x]`).
std::map<uint32_t, uint32_t> specValues(const TestCase& c);

// Record slots per thread in a traced dispatch of `invocations` threads: its share of the case's
// `traceRecords` over `dispatches` dispatches, 16 to 1024.
uint32_t defaultTraceSlots(uint64_t traceRecords, uint64_t invocations, size_t dispatches);
// The words of one dispatch's trace buffer with room for `slots` records a thread.
uint64_t traceBufferWords(const TraceLaunch& launch, uint64_t slots);

// Shared arrays sized by constants can come to nothing or outgrow the device in some case only:
// an Interface error names the case and the array (a shared array of length 0 crashes
// lavapipe's compiler).
// What the kernels use against what the device supports: the optional kinds of numbers (double,
// 64- and 16-bit integers) and the families of subgroup operations. On a device without them a
// kernel computes something else, or nothing (lavapipe runs a clustered add as a plain one), and
// would fail on values it did not get wrong. The first thing the device lacks, as an error at
// the line of its first use (the editor marks it, `check` quotes the line), naming it and the
// device; none when the device has everything. Checked before anything runs. `verb` says what
// to do elsewhere: "Check" it, or "Benchmark" it (`bench` refuses it in the same words).
std::optional<Diagnostic> unsupportedUse(const std::vector<CompiledKernel>& kernels,
                                         const DeviceInfo& device,
                                         const std::string& verb = "Check");

// Why `device` cannot run what needs `missing` (missingOn), for a line that says a puzzle was not
// run: "NAME lacks cooperative matrices", or, where only this build stands in the way (built
// with Vulkan headers older than VK_KHR_cooperative_matrix, as Debian 12's), "this vkpuzzles
// cannot ask NAME for cooperative matrices: ...", since the device may well have them. For this
// process's own device only (a case file's device was seen by another build).
std::string lacksText(const DeviceInfo& device, const DeviceNeeds& missing);

// The same from a kernel's text, before it is compiled, for what a compiler may not even know:
// a kernel that enables GL_KHR_cooperative_matrix on a device without cooperative matrices is
// refused at that line (Debian 12's glslang would report only an unknown extension).
std::optional<Diagnostic> unsupportedExtension(const std::vector<KernelSource>& sources,
                                               const DeviceInfo& device,
                                               const std::string& verb = "Check");

// The kernels' shared arrays at each case's constants against the device's limit (and none of
// length 0), the error naming the case, or `launchName` in its place ("the benchmark's launch":
// a case re-sized, with the constants a --set gave).
Status checkSharedMemory(const Puzzle& puzzle, const std::vector<CompiledKernel>& kernels,
                         const std::vector<size_t>& cases, const DeviceInfo& device,
                         const std::string& launchName = "");

// Every buffer of the cases, and traced, their trace buffers, against the device's storage-buffer
// limit, from the shapes alone: a case too large is refused before gigabytes of inputs are
// generated.
Status checkBufferSizes(const Puzzle& puzzle, const std::vector<size_t>& cases,
                        const CheckOptions& options, const DeviceInfo& device);

} // namespace vkp
