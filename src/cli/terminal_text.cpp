#include "cli/terminal_text.h"

#include <array>
#include <cstdio>

#include "base/os.h"

namespace vkp::cli {
namespace {

// The sequences Style writes (see style.h); nothing else that starts with ESC passes.
constexpr std::array<std::string_view, 6> kStyleSequences = {"\x1b[0m",  "\x1b[1m",  "\x1b[2m",
                                                             "\x1b[32m", "\x1b[33m", "\x1b[31;1m"};

bool isControl(unsigned char c) {
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

std::string hexByte(unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    return buf;
}

size_t styleSequenceAt(std::string_view text, size_t i) {
    for (std::string_view s : kStyleSequences)
        if (text.substr(i, s.size()) == s) return s.size();
    return 0;
}

} // namespace

std::string terminalText(std::string_view text, bool allowStyle) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        auto c = static_cast<unsigned char>(text[i]);
        if (c == 0x1b && allowStyle) {
            if (size_t n = styleSequenceAt(text, i)) {
                out.append(text.substr(i, n));
                i += n - 1;
                continue;
            }
        }
        if (isControl(c)) {
            out += hexByte(c);
            continue;
        }
        // U+0080..U+009F (C1 controls, such as the one-byte CSI U+009B) as UTF-8: C2 80..C2 9F.
        if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xa0 &&
            static_cast<unsigned char>(text[i + 1]) >= 0x80) {
            out += hexByte(c) + hexByte(static_cast<unsigned char>(text[++i]));
            continue;
        }
        out += static_cast<char>(c);
    }
    return out;
}

TerminalFilter::int_type TerminalFilter::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    m_line += traits_type::to_char_type(c);
    if (c == '\n') emitLine();
    return c;
}

std::streamsize TerminalFilter::xsputn(const char* s, std::streamsize n) {
    for (std::streamsize i = 0; i < n; ++i)
        overflow(traits_type::to_int_type(s[i]));
    return n;
}

int TerminalFilter::sync() {
    emitLine();
    return m_dest->pubsync();
}

void TerminalFilter::emitLine() {
    if (m_line.empty()) return;
    std::string safe = terminalText(m_line, m_allowStyle);
    m_dest->sputn(safe.data(), static_cast<std::streamsize>(safe.size()));
    m_line.clear();
}

ProgressLine::ProgressLine(std::ostream& rawErr)
    : m_raw(rawErr), m_on(os::terminalColours(os::Stream::Err)) {}

void ProgressLine::show(std::string_view text) {
    if (m_on) m_raw << "\r\x1b[K" << terminalText(text, false) << std::flush;
}

void ProgressLine::clear() {
    if (m_on) m_raw << "\r\x1b[K" << std::flush;
}

} // namespace vkp::cli
