#include "trace/debug_printf.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

namespace vkp {
namespace {

constexpr size_t kMaxLineChars = 4096; // a format string repeated past this is cut

// One parsed conversion: %[flags][width][.precision][vN][l]conversion[l].
struct Spec {
    std::string flags;
    int width = -1, precision = -1;
    int components = 1;  // %vN: N
    bool wide = false;   // 64-bit: two words per component
    char conversion = 0; // 0: the format ended inside the conversion
    size_t end = 0;      // index just past it
};

int readNumber(std::string_view f, size_t& i) {
    int n = 0;
    while (i < f.size() && f[i] >= '0' && f[i] <= '9')
        n = std::min(n * 10 + (f[i++] - '0'), kPrintfMaxWidth);
    return n;
}

Spec parseSpec(std::string_view f, size_t i) {
    Spec s;
    while (i < f.size() && std::strchr("-+ #0", f[i]) && s.flags.size() < 5)
        s.flags += f[i++];
    if (i < f.size() && f[i] >= '0' && f[i] <= '9') s.width = readNumber(f, i);
    if (i < f.size() && f[i] == '.') {
        ++i;
        s.precision = readNumber(f, i);
    }
    if (i + 1 < f.size() && f[i] == 'v' && f[i + 1] >= '2' && f[i + 1] <= '4') {
        s.components = f[i + 1] - '0';
        i += 2;
    }
    while (i < f.size() && f[i] == 'l')
        s.wide = true, ++i;
    if (i >= f.size()) return s.end = i, s;
    s.conversion = f[i++];
    if (i < f.size() && f[i] == 'l' && std::strchr("diouxX", s.conversion))
        s.wide = true, ++i; // %ul, %lu alike
    s.end = i;
    return s;
}

bool isInteger(char c) {
    return c && std::strchr("diouxX", c);
}
bool isFloat(char c) {
    return c && std::strchr("aAeEfFgG", c);
}

std::string hexWord(uint32_t w) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08x", w);
    return b;
}

// One component of a conversion, from its words.
std::string formatValue(const Spec& s, uint64_t bits) {
    std::string fmt = "%" + s.flags;
    if (s.width >= 0) fmt += std::to_string(s.width);
    if (s.precision >= 0) fmt += "." + std::to_string(s.precision);
    char buf[512];
    if (isInteger(s.conversion)) {
        fmt += std::string("ll") + s.conversion;
        if (s.conversion == 'd' || s.conversion == 'i') {
            long long v = s.wide ? static_cast<long long>(std::bit_cast<int64_t>(bits))
                                 : static_cast<long long>(std::bit_cast<int32_t>(uint32_t(bits)));
            std::snprintf(buf, sizeof buf, fmt.c_str(), v);
        } else {
            std::snprintf(buf, sizeof buf, fmt.c_str(),
                          static_cast<unsigned long long>(s.wide ? bits : uint32_t(bits)));
        }
        return buf;
    }
    fmt += s.conversion;
    double v = s.wide ? std::bit_cast<double>(bits)
                      : static_cast<double>(std::bit_cast<float>(uint32_t(bits)));
    std::snprintf(buf, sizeof buf, fmt.c_str(), v);
    return buf;
}

class Formatter {
  public:
    explicit Formatter(std::span<const uint32_t> args) : m_args(args) {}

    std::string run(std::string_view f) {
        size_t i = 0;
        while (i < f.size() && m_out.size() < kMaxLineChars) {
            if (f[i] != '%') {
                m_out += f[i++];
                continue;
            }
            if (i + 1 < f.size() && f[i + 1] == '%') {
                m_out += '%';
                i += 2;
                continue;
            }
            Spec s = parseSpec(f, i + 1);
            conversion(s);
            i = s.end;
        }
        if (i < f.size() || m_out.size() > kMaxLineChars)
            m_out.resize(std::min(m_out.size(), kMaxLineChars)), m_out += "...";
        unused();
        return m_out;
    }

  private:
    void conversion(const Spec& s) {
        if (!s.conversion) {
            m_out += "[incomplete % at the end of the format]";
            return;
        }
        bool known = isInteger(s.conversion) || isFloat(s.conversion);
        for (int c = 0; c < s.components; ++c) {
            if (c) m_out += ", ";
            size_t words = known && s.wide ? 2 : 1;
            if (m_next + words > m_args.size()) {
                m_out += "[missing argument]";
                m_next = m_args.size();
                continue;
            }
            uint64_t bits = m_args[m_next] | (words == 2 ? uint64_t(m_args[m_next + 1]) << 32 : 0);
            m_next += words;
            if (known)
                m_out += formatValue(s, bits);
            else
                m_out += std::string("[unsupported %") + s.conversion + ": " +
                         hexWord(uint32_t(bits)) + "]";
        }
    }
    void unused() {
        if (m_next >= m_args.size()) return;
        m_out += " [unused arguments:";
        for (size_t k = m_next; k < m_args.size(); ++k)
            m_out += " " + hexWord(m_args[k]);
        m_out += "]";
    }

    std::span<const uint32_t> m_args;
    size_t m_next = 0;
    std::string m_out;
};

// A call's text as lines: split at newlines, a final newline ending the last line.
void appendLines(const PrintfRecord& r, std::string text, std::vector<PrintfLine>& out) {
    if (!text.empty() && text.back() == '\n') text.pop_back();
    size_t start = 0;
    while (true) {
        size_t nl = text.find('\n', start);
        out.push_back(
            {r.invocation, r.line, r.afterEvents,
             text.substr(start, nl == std::string::npos ? std::string::npos : nl - start)});
        if (nl == std::string::npos) return;
        start = nl + 1;
    }
}

} // namespace

std::string formatPrintf(std::string_view format, std::span<const uint32_t> args) {
    return Formatter(args).run(format);
}

std::vector<PrintfLine> printfLines(const Trace& trace, std::optional<uint64_t> invocation) {
    std::vector<PrintfLine> out;
    auto first = trace.prints.begin();
    if (invocation)
        first = std::lower_bound(
            trace.prints.begin(), trace.prints.end(), *invocation,
            [](const PrintfRecord& r, uint64_t inv) { return r.invocation < inv; });
    for (auto it = first; it != trace.prints.end(); ++it) {
        if (invocation && it->invocation != *invocation) break;
        std::string_view format = it->format < trace.printfFormats.size()
                                      ? std::string_view(trace.printfFormats[it->format])
                                      : std::string_view();
        std::string text = it->format < trace.printfFormats.size()
                               ? formatPrintf(format, it->args)
                               : "[unknown format string " + std::to_string(it->format) + "]";
        appendLines(*it, std::move(text), out);
    }
    return out;
}

uint32_t printfDropped(const Trace& trace, uint64_t invocation) {
    auto it = trace.printsDropped.find(invocation);
    return it == trace.printsDropped.end() ? 0 : it->second;
}

uint64_t printfDroppedTotal(const Trace& trace) {
    uint64_t n = 0;
    for (const auto& [inv, lost] : trace.printsDropped)
        n += lost;
    return n;
}

} // namespace vkp
