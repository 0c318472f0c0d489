// The framed protocol between the app and its worker process. Each frame: magic, kind, payload
// length (little-endian), then the payload, encoded with Encoder and read back with Decoder, which
// checks every length so a garbled frame is an error, never an overrun.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/device_runner.h"

namespace vkp::worker {

inline constexpr uint32_t kFrameMagic = 0x56504b57; // "WKPV"
inline constexpr uint64_t kMaxFrameBytes = 1ull << 31;

enum class FrameKind : uint32_t {
    Hello = 1,   // worker -> app: the device it opened (or the error why not)
    Job = 2,     // app -> worker: a DeviceJob
    Result = 3,  // worker -> app: a DeviceJobResult (or the error)
};

class Encoder {
  public:
    void u32(uint32_t v);
    void u64(uint64_t v);
    void f64(double v);
    void str(const std::string& s);
    void words(std::span<const uint32_t> w);
    const std::vector<uint8_t>& bytes() const { return m_bytes; }

  private:
    std::vector<uint8_t> m_bytes;
};

class Decoder {
  public:
    explicit Decoder(const std::vector<uint8_t>& bytes) : m_bytes(bytes) {}
    bool u32(uint32_t& v);
    bool u64(uint64_t& v);
    bool f64(double& v);
    bool str(std::string& s);
    bool words(std::vector<uint32_t>& w);
    bool done() const { return m_at == m_bytes.size(); }

  private:
    bool take(void* out, size_t n);
    const std::vector<uint8_t>& m_bytes;
    size_t m_at = 0;
};

// Blocking frame I/O on file descriptors; false on EOF or a broken pipe.
bool writeFrame(int fd, FrameKind kind, const std::vector<uint8_t>& payload);
bool readFrame(int fd, FrameKind& kind, std::vector<uint8_t>& payload);

void encodeError(Encoder& e, const Error& error);
bool decodeError(Decoder& d, Error& error);
void encodeDeviceInfo(Encoder& e, const DeviceInfo& info);
bool decodeDeviceInfo(Decoder& d, DeviceInfo& info);

// A job as it travels: owns its words (the in-process DeviceJob points into the caller's memory).
struct OwnedJob {
    std::vector<uint32_t> spirv;
    std::vector<std::vector<uint32_t>> moreKernels;
    std::vector<std::vector<uint32_t>> buffers; // every item's buffers, item after item
    DeviceJob job;                              // spans point into the vectors above
};

void encodeJob(Encoder& e, const DeviceJob& job);
bool decodeJob(Decoder& d, OwnedJob& out);
void encodeJobResult(Encoder& e, const Result<DeviceJobResult>& result);
bool decodeJobResult(Decoder& d, Result<DeviceJobResult>& result);

} // namespace vkp::worker
