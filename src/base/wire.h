// The wire format between this process and its helper processes (the kernel worker, the compile
// helper): frames of magic, kind, payload length (little-endian), then the payload, encoded with
// Encoder and read back with Decoder, which checks every length so a garbled frame is an error,
// never an overrun.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/process.h"
#include "base/result.h"

namespace vkp {

inline constexpr uint32_t kFrameMagic = 0x56504b57; // "WKPV"
inline constexpr uint64_t kMaxFrameBytes =
    1ull << 34; // a benchmark's inputs: up to 2^28 words per buffer

// Bytes that a resize leaves uninitialised: frames carry a benchmark's inputs and results, up to
// gigabytes, and zeroing memory about to be overwritten cost as much as the copy.
// Large blocks are 2 MiB-aligned and asked to be backed by huge pages: first touches of fresh
// 4 KiB pages (one fault each) were most of a big frame's cost.
void* allocateFrameMemory(size_t bytes);
void freeFrameMemory(void* p, size_t bytes) noexcept;

template <class T> struct NoInitAllocator : std::allocator<T> {
    template <class U> struct rebind {
        using other = NoInitAllocator<U>; // what std::allocator_traits asks for
    };
    NoInitAllocator() = default;
    template <class U> NoInitAllocator(const NoInitAllocator<U>&) noexcept {}
    T* allocate(size_t n) { return static_cast<T*>(allocateFrameMemory(n * sizeof(T))); }
    void deallocate(T* p, size_t n) noexcept { freeFrameMemory(p, n * sizeof(T)); }
    template <class U> void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U; // default-initialised: left as it is
    }
    template <class U, class... Args> void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
using Bytes = std::vector<uint8_t, NoInitAllocator<uint8_t>>;

// Every field is a multiple of 4 bytes long (strings are padded), so word arrays lie 4-aligned in
// a payload and can be read in place (Decoder::wordsView).
class Encoder {
  public:
    void u32(uint32_t v);
    void u64(uint64_t v);
    void f64(double v);
    void str(const std::string& s);
    void words(std::span<const uint32_t> w);
    void reserve(size_t bytes) { m_bytes.reserve(bytes); }
    const Bytes& bytes() const { return m_bytes; }

  private:
    Bytes m_bytes;
};

class Decoder {
  public:
    explicit Decoder(std::span<const uint8_t> bytes) : m_bytes(bytes) {}
    bool u32(uint32_t& v);
    bool u64(uint64_t& v);
    bool f64(double& v);
    bool str(std::string& s);
    bool words(std::vector<uint32_t>& w);
    // The words where they lie in the payload, which must outlive the view (no copy).
    bool wordsView(std::span<const uint32_t>& w);
    bool done() const { return m_offset == m_bytes.size(); }
    size_t remaining() const { return m_bytes.size() - m_offset; } // bytes not yet read

  private:
    bool take(void* out, size_t n);
    const uint32_t* alignedWords(uint64_t& n); // past a word count, or null
    std::span<const uint8_t> m_bytes;
    size_t m_offset = 0;
};

// Blocking frame I/O on a pipe; false on its end, a broken pipe or a garbled header.
bool writeFrame(PipeEnd& pipe, uint32_t kind, std::span<const uint8_t> payload);
bool readFrame(PipeEnd& pipe, uint32_t& kind, Bytes& payload);

void encodeError(Encoder& e, const Error& error);
bool decodeError(Decoder& d, Error& error);

} // namespace vkp
