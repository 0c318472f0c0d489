// A multi-kernel puzzle edited as one text: joined with markers, split back, and checked with
// diagnostics on the lines of the whole text.
#include <gtest/gtest.h>

#include "check/kernel_text.h"
#include "gpu/device_runner.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;

const Puzzle& blocks() {
    auto p = engines().set.find("scan-blocks");
    EXPECT_TRUE(p.ok());
    return **p;
}

TEST(KernelTextTest, JoinedSolutionsSplitBackAndPass) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = blocks();
    auto text = readKernelTexts(p, true);
    ASSERT_TRUE(text.ok());
    EXPECT_EQ(text->rfind("//// kernel scan_tiles\n", 0), 0u);
    auto sections = splitKernelText(p, *text);
    ASSERT_TRUE(sections.ok()) << sections.error().message;
    ASSERT_EQ(sections->size(), 3u);
    EXPECT_EQ((*sections)[1].source.name, "scan_sums");
    EXPECT_EQ((*sections)[1].source.text.rfind("#version", 0), 0u);
    InProcessRunner runner(*engines().gpu);
    CheckReport r = checkKernelText(engines().compiler, runner, p, *text, "kernel.comp");
    EXPECT_TRUE(r.allPass());
}

TEST(KernelTextTest, ACompileErrorPointsAtTheLineOfTheWholeText) {
    ASSERT_TRUE(engines().gpu);
    const Puzzle& p = blocks();
    auto text = readKernelTexts(p, true);
    ASSERT_TRUE(text.ok());
    size_t marker = text->find("//// kernel add_offsets");
    ASSERT_NE(marker, std::string::npos);
    int markerLine = static_cast<int>(std::count(text->begin(), text->begin() + marker, '\n')) + 1;
    std::string broken =
        text->substr(0, marker) +
        "//// kernel add_offsets\n#version 450\nvoid main() { undefinedThing = 1; }\n";
    InProcessRunner runner(*engines().gpu);
    CheckReport r = checkKernelText(engines().compiler, runner, p, broken, "kernel.comp");
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].file, "kernel.comp");
    EXPECT_EQ(r.diagnostics[0].line, markerLine + 2);
    EXPECT_EQ(r.diagnostics[0].message.rfind("add_offsets: ", 0), 0u) << r.diagnostics[0].message;
}

TEST(KernelTextTest, MarkersThatDoNotFitAreNamed) {
    const Puzzle& p = blocks();
    auto missing = splitKernelText(p, "//// kernel scan_tiles\nx\n//// kernel scan_sums\ny\n");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("the kernel 'add_offsets' is missing"),
              std::string::npos);
    auto unknown = splitKernelText(p, "//// kernel scan_tile\nx\n");
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().message.find("line 1"), std::string::npos);
    auto before = splitKernelText(p, "#version 450\n//// kernel scan_tiles\n");
    ASSERT_FALSE(before.ok());
    EXPECT_NE(before.error().message.find("text before the first"), std::string::npos);
}

TEST(KernelTextTest, ASingleKernelPuzzleIsItsText) {
    auto p = engines().set.find("map");
    ASSERT_TRUE(p.ok());
    auto text = readKernelTexts(**p, false);
    ASSERT_TRUE(text.ok());
    EXPECT_EQ(text->find(kKernelMarker), std::string::npos);
    auto sections = splitKernelText(**p, *text);
    ASSERT_TRUE(sections.ok());
    ASSERT_EQ(sections->size(), 1u);
    EXPECT_EQ((*sections)[0].source.text, *text);
}

} // namespace
} // namespace vkp
