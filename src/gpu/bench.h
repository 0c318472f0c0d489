// Benchmark runs: device-local buffers, one kernel dispatched many times with timestamps, and the
// device's copy bandwidth measured in the same run (vkCmdCopyBuffer and a copy shader).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "device/pipeline_stat.h"
#include "gpu/context.h"
#include "gpu/kernel.h"

namespace vkp {

struct BenchBuffer {
    uint32_t binding = 0;
    std::span<const uint32_t> initial; // uploaded once (empty: zero-filled)
    uint64_t words = 0;                // size
    bool zeroEachRep =
        false; // scratch (tile counters) and outputs: cleared before every repetition
    bool restoreEachRep =
        false; // an input a pass overwrites (ping-pong): re-copied before every repetition
    bool readBack = false; // the output, read after the last dispatch
};

// One dispatch of a multi-pass benchmark: its kernel, workgroups, push words, and per BenchBuffer
// whose buffer is bound at its binding (-1: none).

struct BenchJob {
    std::vector<std::span<const uint32_t>> kernels; // one, or a multi-pass puzzle's
    uint32_t pushBytes = 0;
    LaunchSpec launch;
    std::vector<BenchBuffer> buffers;
    std::vector<Dispatch> dispatches; // empty: one dispatch of kernel 0 (launch.workgroups)
    int warmups = 2;                  // untimed repetitions at the start of the timed batch
    double warmupMs = 500;            // wall time of repetitions before it, to get the clocks up
    int reps = 10;
    uint64_t timeoutMs = 60000;
};

struct BenchRun {
    std::vector<double> repetitionMs; // per timed repetition: all its dispatches
    std::vector<std::vector<double>>
        perDispatchMs;                           // per dispatch: its time in each timed repetition
    std::vector<std::vector<uint32_t>> readBack; // per BenchBuffer (empty unless readBack)
    std::vector<std::vector<PipelineStat>>
        kernelStats; // per kernel; empty where the driver reports nothing
};

Result<BenchRun> runBench(GpuContext& gpu, const BenchJob& job);

struct CopyBandwidth {
    std::vector<double> transferMs; // vkCmdCopyBuffer of `bytes`, per repetition
    std::vector<double> shaderMs;   // the copy shader over the same bytes
};

struct CopyJob {
    uint64_t bytes = 0; // copied by each repetition
    int reps = 3;
    std::span<const uint32_t>
        copyShader;        // shaders/copy.comp compiled (one uvec4 per thread, push constant count)
    double warmupMs = 500; // untimed copies first
};

Result<CopyBandwidth> measureCopy(GpuContext& gpu, const CopyJob& job);

double medianOf(std::vector<double> v);

} // namespace vkp
