// Messages described once, encoded and decoded by the same description: a `describe` function
// over a message's fields, run with a WireWriter to encode it (base/wire.h's Encoder) and with a
// WireReader to decode it, so the two sides cannot differ. The worker's protocol and the case
// files (report/case_file.h) are written this way.
#pragma once

#include <deque>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "base/wire.h"

namespace vkp {

// Words a decoded message owns; its spans point into them (a deque: they never move).
using WordStore = std::deque<std::vector<uint32_t>>;

// A description returns false where the WireReader meets a garbled or out-of-range field (the
// WireWriter never does). Numbers travel as u32 (32-bit and smaller integers, bools, enums), u64 or
// f64.

class WireWriter {
  public:
    static constexpr bool kReading = false;
    explicit WireWriter(Encoder& e) : m_e(e) {}
    template <class T> bool num(const T& v) {
        if constexpr (std::is_floating_point_v<T>)
            m_e.f64(static_cast<double>(v));
        else if constexpr (std::is_enum_v<T> || std::is_same_v<T, bool> || sizeof(T) <= 4)
            m_e.u32(static_cast<uint32_t>(v));
        else
            m_e.u64(static_cast<uint64_t>(v));
        return true;
    }
    // An enum or bool of at most `max`; a count the WireReader checks: written as they are.
    template <class T> bool num(const T& v, T) { return num(v); }
    bool str(const std::string& s) {
        m_e.str(s);
        return true;
    }
    bool words(std::span<const uint32_t> w) {
        m_e.words(w);
        return true;
    }
    // Words the decoded message keeps in its storage (Reader::ownWords) or views in the payload.
    bool ownWords(const std::span<const uint32_t>& w, WordStore&) { return words(w); }
    bool viewWords(const std::span<const uint32_t>& w) { return words(w); }
    // A list: its length (at most `max`), then each element described by `each`.
    template <class Vec, class F> bool list(const Vec& v, uint32_t, F each) {
        m_e.u32(static_cast<uint32_t>(v.size()));
        for (const auto& x : v)
            each(x);
        return true;
    }
    bool check(bool) { return true; } // a condition on what was read
    bool error(const Error& e) {
        encodeError(m_e, e);
        return true;
    }

  private:
    Encoder& m_e;
};

class WireReader {
  public:
    static constexpr bool kReading = true;
    explicit WireReader(Decoder& d) : m_d(d) {}
    template <class T> bool num(T& v) {
        if constexpr (std::is_floating_point_v<T>) {
            double x;
            if (!m_d.f64(x)) return false;
            v = static_cast<T>(x);
        } else if constexpr (std::is_same_v<T, bool>) {
            uint32_t x;
            if (!m_d.u32(x) || x > 1) return false;
            v = x;
        } else if constexpr (std::is_enum_v<T> || sizeof(T) <= 4) {
            uint32_t x;
            if (!m_d.u32(x)) return false;
            v = static_cast<T>(x);
        } else {
            uint64_t x;
            if (!m_d.u64(x)) return false;
            v = static_cast<T>(x);
        }
        return true;
    }
    template <class T> bool num(T& v, T max) {
        uint32_t x;
        if (!m_d.u32(x) || x > static_cast<uint32_t>(max)) return false;
        v = static_cast<T>(x);
        return true;
    }
    bool str(std::string& s) { return m_d.str(s); }
    bool words(std::vector<uint32_t>& w) { return m_d.words(w); }
    bool ownWords(std::span<const uint32_t>& w, WordStore& store) {
        store.emplace_back();
        if (!m_d.words(store.back())) return false;
        w = store.back(); // a deque's elements stay where they are
        return true;
    }
    bool viewWords(std::span<const uint32_t>& w) { return m_d.wordsView(w); }
    // Every element takes a word at least: a count past what is left is garbled, refused before
    // anything is allocated for it.
    template <class Vec, class F> bool list(Vec& v, uint32_t max, F each) {
        uint32_t n;
        if (!m_d.u32(n) || n > max || n > m_d.remaining() / 4) return false;
        using T = typename Vec::value_type;
        if constexpr (std::is_default_constructible_v<T>)
            v.resize(n);
        else
            v.assign(n, T(Error{})); // a Result, each decoded in its place
        for (auto& x : v)
            if (!each(x)) return false;
        return true;
    }
    bool check(bool ok) { return ok; }
    bool error(Error& e) { return decodeError(m_d, e); }

  private:
    Decoder& m_d;
};

// A Result<T>: 1 and the value, or 0 and the error.
template <class Io, class R, class F> bool describeResult(Io& io, R& r, F value) {
    bool ok = r.ok();
    if (!io.num(ok)) return false;
    if constexpr (Io::kReading) {
        if (!ok) {
            Error e;
            if (!io.error(e)) return false;
            r = e;
            return true;
        }
        using T = std::remove_cvref_t<decltype(*r)>;
        T v{};
        if (!value(v)) return false;
        r = std::move(v);
        return true;
    } else {
        return ok ? value(r.value()) : io.error(r.error());
    }
}

// Encodes `m` with `describe`.
template <class M, class F> void encodeWith(Encoder& e, const M& m, F describe) {
    WireWriter w(e);
    describe(w, m);
}

// Decodes a whole payload into `m` with `describe`: every byte used, none left over.
template <class M, class F> bool decodeWith(Decoder& d, M& m, F describe) {
    WireReader r(d);
    return describe(r, m) && d.done();
}

} // namespace vkp
