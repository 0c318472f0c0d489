// `vkpuzzles bench`: a puzzle's kernel at a large N, timed against the device's copy bandwidth
// and a sequential CPU run of the same reference op, and checked against that reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/puzzle.h"
#include "core/result.h"

namespace vkp {

class Compiler;
class GpuContext;

struct BenchOptions {
    uint64_t n = 1u << 24;      // elements of the puzzle's first input
    int reps = 20;              // timed dispatches (after 2 warm-ups)
    size_t templateCase = 0;    // the case whose fills, expressions and constants are scaled
};

struct BenchReport {
    std::string device;
    uint64_t n = 0;
    std::array<uint32_t, 3> workgroupSize{}, workgroups{};
    std::vector<double> dispatchMs;   // every timed repetition
    double medianMs = 0;
    uint64_t bytesMoved = 0;          // inputs read once + outputs written once
    double gbPerS = 0;                // bytesMoved / median
    double elementsPerS = 0;
    double copyGbPerS = 0;            // vkCmdCopyBuffer of one input's bytes, read + write counted
    double shaderCopyGbPerS = 0;      // shaders/copy.comp over the same bytes
    double ratioToCopy = 0;           // gbPerS / max(copy, shader copy)
    double cpuMs = 0;                 // the reference op, sequential, on the CPU
    std::string cpuWhat;              // what the CPU timing ran
    bool pass = false;                // the GPU result equals the CPU reference
    uint64_t mismatches = 0;
    uint64_t firstMismatch = 0;
};

// Parses "2^28", "268435456" or "1<<20".
Result<uint64_t> parseCount(const std::string& text);

Result<BenchReport> benchKernel(const Compiler& compiler, GpuContext& gpu, const Puzzle& puzzle,
                                const std::string& source, const std::string& kernelFile,
                                const std::string& copyShaderSource, const BenchOptions& options);

} // namespace vkp
