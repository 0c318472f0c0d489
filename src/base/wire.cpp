#include "base/wire.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>

#include "base/os.h"

namespace vkp {

namespace {
constexpr size_t kHugePage = 2u << 20;
}

void* allocateFrameMemory(size_t bytes) {
    if (bytes < 4 * kHugePage) return ::operator new(bytes);
    void* p = os::allocateHuge(bytes);
    if (!p) throw std::bad_alloc();
    return p;
}

void freeFrameMemory(void* p, size_t bytes) noexcept {
    if (bytes < 4 * kHugePage) return ::operator delete(p);
    os::freeHuge(p);
}

void Encoder::u32(uint32_t v) {
    for (int i = 0; i < 4; ++i)
        m_bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void Encoder::u64(uint64_t v) {
    u32(static_cast<uint32_t>(v));
    u32(static_cast<uint32_t>(v >> 32));
}
void Encoder::f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    u64(bits);
}
void Encoder::str(const std::string& s) {
    u64(s.size());
    m_bytes.insert(m_bytes.end(), s.begin(), s.end());
    m_bytes.resize((m_bytes.size() + 3) / 4 * 4, 0); // keep what follows 4-aligned
}
void Encoder::words(std::span<const uint32_t> w) {
    u64(w.size());
    size_t at = m_bytes.size();
    m_bytes.resize(at + w.size_bytes());
    if (!w.empty())
        std::memcpy(m_bytes.data() + at, w.data(), w.size_bytes()); // little-endian hosts
}

bool Decoder::take(void* out, size_t n) {
    if (n > m_bytes.size() - m_offset) return false;
    std::memcpy(out, m_bytes.data() + m_offset, n);
    m_offset += n;
    return true;
}
bool Decoder::u32(uint32_t& v) {
    uint8_t b[4];
    if (!take(b, 4)) return false;
    v = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    return true;
}
bool Decoder::u64(uint64_t& v) {
    uint32_t lo, hi;
    if (!u32(lo) || !u32(hi)) return false;
    v = uint64_t(hi) << 32 | lo;
    return true;
}
bool Decoder::f64(double& v) {
    uint64_t bits;
    if (!u64(bits)) return false;
    std::memcpy(&v, &bits, 8);
    return true;
}
bool Decoder::str(std::string& s) {
    uint64_t n;
    if (!u64(n) || n > m_bytes.size() - m_offset) return false;
    s.assign(reinterpret_cast<const char*>(m_bytes.data() + m_offset), n);
    m_offset += n;
    size_t padding = (4 - m_offset % 4) % 4;
    if (padding > m_bytes.size() - m_offset) return false;
    m_offset += padding;
    return true;
}
const uint32_t* Decoder::alignedWords(uint64_t& n) {
    if (!u64(n) || n > (m_bytes.size() - m_offset) / 4) return nullptr;
    const uint8_t* at = m_bytes.data() + m_offset;
    if (reinterpret_cast<uintptr_t>(at) % alignof(uint32_t) != 0)
        return nullptr; // not from an Encoder
    m_offset += n * 4;
    return reinterpret_cast<const uint32_t*>(at);
}
bool Decoder::words(std::vector<uint32_t>& w) {
    uint64_t n;
    const uint32_t* at = alignedWords(n);
    if (!at) return false;
    w.assign(at, at + n);
    return true;
}
bool Decoder::wordsView(std::span<const uint32_t>& w) {
    uint64_t n;
    const uint32_t* at = alignedWords(n);
    if (!at) return false;
    w = {at, n};
    return true;
}

bool writeFrame(PipeEnd& pipe, uint32_t kind, std::span<const uint8_t> payload) {
    Encoder head;
    head.u32(kFrameMagic);
    head.u32(kind);
    head.u64(payload.size());
    return pipe.writeAll(head.bytes().data(), head.bytes().size()) &&
           pipe.writeAll(payload.data(), payload.size());
}

bool readFrame(PipeEnd& pipe, uint32_t& kind, Bytes& payload) {
    Bytes head(16);
    if (!pipe.readAll(head.data(), head.size())) return false;
    Decoder d(head);
    uint32_t magic, k;
    uint64_t n;
    if (!d.u32(magic) || !d.u32(k) || !d.u64(n) || magic != kFrameMagic || n > kMaxFrameBytes)
        return false;
    kind = k;
    payload.resize(n);
    return pipe.readAll(payload.data(), n);
}

void encodeError(Encoder& e, const Error& error) {
    e.u32(static_cast<uint32_t>(error.kind));
    e.str(error.message);
    e.u32(static_cast<uint32_t>(error.vkResult));
}

bool decodeError(Decoder& d, Error& error) {
    uint32_t kind, vk;
    if (!d.u32(kind) || !d.str(error.message) || !d.u32(vk) || kind > uint32_t(ErrorKind::Internal))
        return false;
    error.kind = static_cast<ErrorKind>(kind);
    error.vkResult = static_cast<int32_t>(vk);
    return true;
}

} // namespace vkp
