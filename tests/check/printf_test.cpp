// debugPrintfEXT on a real device: a traced check records each call's format and argument words
// per thread in program order; an untraced check runs the kernel with the calls removed, with no
// word from the validation layer either way.
#include <gtest/gtest.h>

#include <bit>

#include "base/text_file.h"
#include "check/check.h"
#include "support/engines.h"
#include "trace/debug_printf.h"

namespace vkp {
namespace {

using test::engines;

CheckReport checkPrinting(const char* file, bool trace, size_t onlyCase) {
    CheckOptions o;
    o.trace = trace;
    o.onlyCase = onlyCase;
    std::string path = test::sourceDir() + "/tests/data/printf/" + file;
    auto src = readTextFile(path);
    auto p = engines().set.find("map");
    EXPECT_TRUE(p.ok());
    return checkKernel(engines().compiler, *engines().gpu, **p, src ? *src : "", path, o);
}

TEST(PrintfSession, TracedCallsComeBackWithTheirFormatAndArgumentWords) {
    ASSERT_TRUE(engines().gpu);
    CheckReport r = checkPrinting("map_printf.comp", true, 0);
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_TRUE(r.allPass()) << (r.error ? r.error->message : "");
    const Trace& t = *r.cases[0].trace;
    ASSERT_EQ(t.printfFormats.size(), 2u);
    EXPECT_EQ(t.printfFormats[0], "i=%u a=%.1f\n");
    ASSERT_EQ(t.prints.size(), 12u) << "6 threads, 2 calls each";
    const PrintfRecord &first = t.prints[6], &second = t.prints[7]; // thread 3
    EXPECT_EQ(first.invocation, 3u);
    EXPECT_EQ(first.line, 12u);
    EXPECT_EQ(first.args, (std::vector<uint32_t>{3, std::bit_cast<uint32_t>(3.0f)}));
    EXPECT_EQ(first.afterEvents, 1u) << "after its read of a[3]";
    EXPECT_EQ(second.args, (std::vector<uint32_t>{std::bit_cast<uint32_t>(-3), 3, 4, 5, 1, 48}));
    EXPECT_EQ(t.threads[3].size(), 2u) << "the read and the write; printf records are not accesses";
    EXPECT_TRUE(t.printsDropped.empty());
    EXPECT_TRUE(engines().gpu->validationMessages().empty())
        << engines().gpu->validationMessages().front();
}

TEST(PrintfSession, UntracedChecksRunWithTheCallsRemoved) {
    ASSERT_TRUE(engines().gpu);
    for (const char* file : {"map_printf.comp", "loop_printf.comp"}) {
        CheckReport r = checkPrinting(file, false, 3);
        EXPECT_TRUE(r.allPass()) << file << (r.error ? ": " + r.error->message : "");
        ASSERT_EQ(r.cases.size(), 1u);
        EXPECT_FALSE(r.cases[0].trace) << "no trace, so no printf output";
    }
    EXPECT_TRUE(engines().gpu->validationMessages().empty())
        << engines().gpu->validationMessages().front();
}

TEST(PrintfSession, APrintingLoopKeepsAccessesTracedAndCountsWhatItDropped) {
    ASSERT_TRUE(engines().gpu);
    CheckReport r = checkPrinting("loop_printf.comp", true, 3);
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_TRUE(r.allPass()) << (r.error ? r.error->message : "");
    const Trace& t = *r.cases[0].trace;
    EXPECT_EQ(printfLines(t, 18).size(), size_t(kPrintfLinesPerThread));
    EXPECT_EQ(printfDropped(t, 18), 100u - kPrintfLinesPerThread);
    EXPECT_EQ(t.threads[18].size(), 2u) << "the read and the write are still recorded";
    EXPECT_EQ(t.dropped, 0u);
}

} // namespace
} // namespace vkp
