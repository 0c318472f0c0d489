// The protocol between the app and its worker process: the frames of base/wire.h, of these kinds.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/wire.h"
#include "base/wire_describe.h"
#include "gpu/device_runner.h"

namespace vkp::worker {

enum class FrameKind : uint32_t {
    Hello = 1,       // worker -> app: the device it opened (or the error why not)
    Job = 2,         // app -> worker: a DeviceJob
    Result = 3,      // worker -> app: a DeviceJobResult (or the error)
    Bench = 4,       // app -> worker: a BenchJob
    BenchResult = 5, // worker -> app: a BenchRun (or the error)
    Copy = 6,        // app -> worker: a CopyJob
    CopyResult = 7,  // worker -> app: a CopyBandwidth (or the error)
    Progress = 8,    // worker -> app, during a Job: its pipelines are built, the dispatches start
};

using vkp::Bytes;
using vkp::decodeError;
using vkp::Decoder;
using vkp::encodeError;
using vkp::Encoder;
using vkp::PipeEnd;

// Frames of the worker's kinds (base/wire.h).
inline bool writeFrame(PipeEnd& pipe, FrameKind kind, std::span<const uint8_t> payload) {
    return vkp::writeFrame(pipe, static_cast<uint32_t>(kind), payload);
}
inline bool readFrame(PipeEnd& pipe, FrameKind& kind, Bytes& payload) {
    uint32_t k = 0;
    bool ok = vkp::readFrame(pipe, k, payload);
    kind = static_cast<FrameKind>(k);
    return ok;
}

void encodeDeviceInfo(Encoder& e, const DeviceInfo& info);
bool decodeDeviceInfo(Decoder& d, DeviceInfo& info);

using vkp::WordStore;

// A job as it travels: owns its words (the in-process DeviceJob points into the caller's memory).
struct OwnedJob {
    WordStore words; // the kernels and every item's buffers
    DeviceJob job;   // spans point into `words`
};

// What a decoder accepts of one item (a case), far above any real one: its buffers are the
// puzzle's (bindings 0 to 31) and a trace buffer per dispatch, its dispatches at most
// kMaxDispatchesPerCase (puzzle/passes.h). A result carries one entry per buffer of its item.
inline constexpr uint32_t kMaxItemBuffers = 1024;
inline constexpr uint32_t kMaxItemDispatches = 1024;

void encodeJob(Encoder& e, const DeviceJob& job);
bool decodeJob(Decoder& d, OwnedJob& out);
void encodeJobResult(Encoder& e, const Result<DeviceJobResult>& result);
bool decodeJobResult(Decoder& d, Result<DeviceJobResult>& result);

// A benchmark as it travels (BenchJob's spans point into the caller's memory).
// The buffers' initial words are views into the decoded payload, which must outlive the job.
struct OwnedBenchJob {
    WordStore words; // the kernels
    BenchJob job;    // kernel spans point into `words`
};

void encodeBenchJob(Encoder& e, const BenchJob& job);
bool decodeBenchJob(Decoder& d, OwnedBenchJob& out);
void encodeBenchRun(Encoder& e, const Result<BenchRun>& run);
bool decodeBenchRun(Decoder& d, Result<BenchRun>& run);

struct OwnedCopyJob {
    WordStore words; // the copy shader
    CopyJob job;     // its span points into `words`
};

void encodeCopyJob(Encoder& e, const CopyJob& job);
bool decodeCopyJob(Decoder& d, OwnedCopyJob& out);
void encodeCopyBandwidth(Encoder& e, const Result<CopyBandwidth>& copy);
bool decodeCopyBandwidth(Decoder& d, Result<CopyBandwidth>& copy);

} // namespace vkp::worker
