// debugPrintfEXT formatting and decoding: every conversion the format documents, bad formats and
// missing or extra arguments (never a crash), and printf records decoded from a trace buffer.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "trace/debug_printf.h"

namespace vkp {
namespace {

uint32_t bits(float f) {
    return std::bit_cast<uint32_t>(f);
}
uint32_t bits(int32_t i) {
    return std::bit_cast<uint32_t>(i);
}
std::vector<uint32_t> wide(uint64_t v) {
    return {uint32_t(v), uint32_t(v >> 32)};
}

std::string fmt(std::string_view f, std::vector<uint32_t> args) {
    return formatPrintf(f, args);
}

TEST(DebugPrintf, IntegerConversions) {
    EXPECT_EQ(fmt("%d %i", {bits(-7), bits(42)}), "-7 42");
    EXPECT_EQ(fmt("%u", {0xffffffffu}), "4294967295");
    EXPECT_EQ(fmt("%x %X %o", {255, 255, 8}), "ff FF 10");
    EXPECT_EQ(fmt("[%5d|%-5d|%05u|%+d]", {bits(3), bits(3), 42, bits(3)}),
              "[    3|3    |00042|+3]");
    EXPECT_EQ(fmt("%#x %.3d", {26, bits(7)}), "0x1a 007");
}

TEST(DebugPrintf, FloatConversions) {
    EXPECT_EQ(fmt("%f", {bits(1.5f)}), "1.500000");
    EXPECT_EQ(fmt("%.2f %F", {bits(-0.125f), bits(2.0f)}), "-0.12 2.000000");
    EXPECT_EQ(fmt("%e %E", {bits(1234.5f), bits(0.5f)}), "1.234500e+03 5.000000E-01");
    EXPECT_EQ(fmt("%g %G", {bits(0.0001f), bits(1e10f)}), "0.0001 1E+10");
    EXPECT_EQ(fmt("%a", {bits(1.0f)}), "0x1p+0");
    EXPECT_EQ(fmt("%A", {bits(2.0f)}), "0X1P+1");
    EXPECT_EQ(fmt("%8.3f|", {bits(3.14159f)}), "   3.142|");
}

TEST(DebugPrintf, SixtyFourBitValuesTakeTwoWords) {
    EXPECT_EQ(fmt("%lu", wide(1ull << 40)), "1099511627776");
    EXPECT_EQ(fmt("%ul", wide(5)), "5");
    EXPECT_EQ(fmt("%ld", wide(uint64_t(-3))), "-3");
    EXPECT_EQ(fmt("%lx", wide(0xabcdef0123ull)), "abcdef0123");
    EXPECT_EQ(fmt("%lf", wide(std::bit_cast<uint64_t>(0.25))), "0.250000");
}

TEST(DebugPrintf, VectorsPrintEachComponent) {
    EXPECT_EQ(fmt("%v2u", {1, 2}), "1, 2");
    EXPECT_EQ(fmt("%v3d", {bits(-1), 0, 1}), "-1, 0, 1");
    EXPECT_EQ(fmt("%.1v4f", {bits(1.0f), bits(2.5f), bits(-3.0f), bits(0.0f)}),
              "1.0, 2.5, -3.0, 0.0");
    EXPECT_EQ(fmt("(%v2x)", {10, 11}), "(a, b)");
}

TEST(DebugPrintf, PercentAndPlainText) {
    EXPECT_EQ(fmt("100%% sure\n", {}), "100% sure\n");
    EXPECT_EQ(fmt("", {}), "");
}

TEST(DebugPrintf, BadInputIsMarkedNeverACrash) {
    EXPECT_EQ(fmt("%s", {0x41}), "[unsupported %s: 0x00000041]");
    EXPECT_EQ(fmt("%c!", {0x41}), "[unsupported %c: 0x00000041]!");
    EXPECT_EQ(fmt("%*d", {3, 4}), "[unsupported %*: 0x00000003]d [unused arguments: 0x00000004]");
    EXPECT_EQ(fmt("a=%u b=%u", {1}), "a=1 b=[missing argument]");
    EXPECT_EQ(fmt("%lu", {1}), "[missing argument]"); // half of a 64-bit value
    EXPECT_EQ(fmt("%v4u", {1, 2}), "1, 2, [missing argument], [missing argument]");
    EXPECT_EQ(fmt("x=%u", {1, 2, 3}), "x=1 [unused arguments: 0x00000002 0x00000003]");
    EXPECT_EQ(fmt("tail %", {}), "tail [incomplete % at the end of the format]");
    EXPECT_EQ(fmt("%.", {}), "[incomplete % at the end of the format]");
    EXPECT_EQ(fmt("%v9f", {bits(1.0f)}), "[unsupported %v: 0x3f800000]9f");
}

TEST(DebugPrintf, HugeWidthsArePinnedAndLongOutputIsCut) {
    std::string padded = fmt("%99999999999d", {bits(1)});
    EXPECT_EQ(padded.size(), size_t(kPrintfMaxWidth));
    EXPECT_EQ(padded.back(), '1');
    std::string f(10000, 'x');
    std::string out = fmt(f, {});
    EXPECT_LT(out.size(), f.size());
    EXPECT_EQ(out.substr(out.size() - 3), "...");
    EXPECT_EQ(fmt("%.99999f", {bits(1.0f)}).size(), size_t(2 + kPrintfMaxWidth));
}

TEST(DebugPrintf, NanAndInfinityPrint) {
    EXPECT_EQ(fmt("%f %f", {0x7fc00000u, 0xff800000u}), "nan -inf");
}

// A packed trace buffer (trace/trace.h) of two threads: records as the instrumented kernel writes.
std::vector<uint32_t> traceWords(const std::vector<std::vector<std::array<uint32_t, 4>>>& threads,
                                 std::vector<uint32_t> status) {
    uint64_t n = threads.size();
    std::vector<uint32_t> w(kTraceHeaderWords + 2 * n, 0);
    w[1] = 16, w[2] = static_cast<uint32_t>(n), w[3] = 1, w[4] = 1;
    w[5] = static_cast<uint32_t>(kTraceHeaderWords + 2 * n),
    w[7] = static_cast<uint32_t>(kTraceHeaderWords + n);
    for (uint64_t t = 0; t < n; ++t) {
        w[kTraceHeaderWords + t] = static_cast<uint32_t>(threads[t].size());
        w[w[7] + t] = status[t];
    }
    for (const auto& records : threads)
        for (const auto& r : records)
            w.insert(w.end(), r.begin(), r.end());
    return w;
}

TEST(DebugPrintf, RecordsDecodeInProgramOrderAndDropsAreCounted) {
    uint32_t printf5 = packTraceWord0(TraceEventKind::Printf, 5, 12),
             more = packTraceWord0(TraceEventKind::PrintfArgs, 0, 0);
    uint32_t read = packTraceWord0(TraceEventKind::Read, 0, 11),
             printf0 = packTraceWord0(TraceEventKind::Printf, 0, 13);
    auto words =
        traceWords({{{read, 3, 7, 0}, {printf5, 0, 1, 2}, {more, 3, 4, 5}, {printf0, 1, 0, 0}},
                    {{more, 9, 9, 9}}},
                   {0, (7u << kTracePrintfDroppedShift) | kTraceBudgetFlag | 20});
    TraceLaunch launch{{2, 1, 1}, {1, 1, 1}};
    auto t = decodeTrace(words, launch, {}, {"%u %u %u %u %u\n", "done\n"});
    ASSERT_TRUE(t.ok()) << t.error().message;
    ASSERT_EQ(t->threads[0].size(), 1u); // only the read: printf records are not events
    ASSERT_EQ(t->prints.size(), 2u);
    EXPECT_EQ(t->prints[0].args, (std::vector<uint32_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(t->prints[0].afterEvents, 1u);
    auto lines = printfLines(*t);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].text, "1 2 3 4 5");
    EXPECT_EQ(lines[0].sourceLine, 12u);
    EXPECT_EQ(lines[1].text, "done");
    EXPECT_TRUE(printfLines(*t, 1).empty()); // a stray argument record opens no line
    EXPECT_EQ(printfDropped(*t, 1), 7u);
    EXPECT_EQ(printfDroppedTotal(*t), 7u);
    ASSERT_EQ(t->threads[1].size(), 1u); // the loop budget's line survives the printf count
    EXPECT_EQ(t->threads[1][0].line, 20u);
}

TEST(DebugPrintf, AnUnknownFormatIndexAndEmbeddedNewlines) {
    Trace t;
    t.printfFormats = {"a\nb=%u\n"};
    t.prints = {{0, 0, 5, 0, {7}}, {0, 3, 6, 0, {}}};
    auto lines = printfLines(t, 0);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].text, "a");
    EXPECT_EQ(lines[1].text, "b=7");
    EXPECT_EQ(lines[2].text, "[unknown format string 3]");
}

} // namespace
} // namespace vkp
