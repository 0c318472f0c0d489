// debugPrintfEXT output of a traced run (GL_EXT_debug_printf): the recorded calls
// (Trace::prints) formatted on the CPU the way the Vulkan debug printf layer documents its
// format strings, and listed per thread. The CLI and the app both print these lines.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace.h"

namespace vkp {

// Formats one call: `%[flags][width][.precision][vN][l]conversion` with conversions d i o u x X
// (32-bit; with l or a trailing l as in %ul / %lu: 64-bit, two words low then high), a A e E f F
// g G (a 32-bit float; with l a double, two words), %% and vectors %v2f .. %v4f (N components,
// ", " between them). Width and precision are capped at kPrintfMaxWidth. A conversion it does not
// know prints "[unsupported %c: 0x...]" with the raw word it would have used; a missing argument
// prints "[missing argument]"; unused argument words are listed at the end. Never throws.
std::string formatPrintf(std::string_view format, std::span<const uint32_t> args);
inline constexpr int kPrintfMaxWidth = 64;

// A line of output: a call's text split at its newlines (a final newline ends the line).
struct PrintfLine {
    uint64_t invocation = 0;
    uint32_t sourceLine = 0;  // the kernel line of the call
    uint32_t afterEvents = 0; // the thread's traced events before it
    std::string text;
};

// Every recorded line of the trace, by thread then program order, or only `invocation`'s.
std::vector<PrintfLine> printfLines(const Trace& trace,
                                    std::optional<uint64_t> invocation = std::nullopt);
// Lines a thread printed but could not record (past kPrintfLinesPerThread or its trace slots).
uint32_t printfDropped(const Trace& trace, uint64_t invocation);
uint64_t printfDroppedTotal(const Trace& trace);

} // namespace vkp
