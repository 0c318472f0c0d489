// Loops kept rolled for checks: every OpLoopMerge asks for DontUnroll (an [[unroll]] or a
// partial_count the learner wrote is dropped, other loop controls and their literals stay), the
// module still validates, and nothing but the loop merges changes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "rewrite/instrument.h"
#include "rewrite/rolled_loops.h"
#include "shader/compiler.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

std::vector<uint32_t> compile(const std::string& body) {
    const std::string header = "#version 450\n#extension GL_EXT_control_flow_attributes : require\n"
                               "layout(local_size_x = 8) in;\n"
                               "layout(constant_id = 0) const uint ITEMS = 4;\n"
                               "layout(set = 0, binding = 0) buffer R { uint r[]; };\n";
    CompileResult c = Compiler().compile(header + body, "k.comp", {});
    EXPECT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    return c.spirv;
}

// Each OpLoopMerge's operands after the merge and continue labels: the mask, then its literals.
std::vector<std::vector<uint32_t>> loopControls(const std::vector<uint32_t>& words) {
    std::vector<std::vector<uint32_t>> controls;
    for (size_t at = 5; at < words.size(); at += words[at] >> spv::WordCountShift) {
        uint32_t count = words[at] >> spv::WordCountShift;
        if (static_cast<spv::Op>(words[at] & spv::OpCodeMask) == spv::Op::OpLoopMerge)
            controls.emplace_back(words.begin() + at + 3, words.begin() + at + count);
    }
    return controls;
}

constexpr uint32_t kUnroll = uint32_t(spv::LoopControlMask::Unroll);
constexpr uint32_t kDontUnroll = uint32_t(spv::LoopControlMask::DontUnroll);
constexpr uint32_t kDependencyLength = uint32_t(spv::LoopControlMask::DependencyLength);

TEST(RolledLoopsTest, EveryLoopAsksNotToBeUnrolledAndTheModuleStaysValid) {
    auto words = compile("void main() {\n"
                         "  uint s = 0u;\n"
                         "  for (uint k = 0u; k < ITEMS; ++k) s += r[k];\n"              // plain
                         "  [[unroll]] for (uint k = 0u; k < 4u; ++k) s += r[k + 8u];\n" // asked
                         "  uint j = 0u;\n"
                         "  while (j < s) { j += 3u; }\n"
                         "  r[gl_LocalInvocationID.x] = s + j;\n"
                         "}\n");
    ASSERT_FALSE(words.empty());
    auto before = loopControls(words);
    ASSERT_EQ(before.size(), 3u);
    EXPECT_EQ(before[1][0] & kUnroll, kUnroll); // glslang kept the learner's [[unroll]]

    auto rolled = keepLoopsRolled(words);
    ASSERT_TRUE(rolled.ok()) << rolled.error().message;
    auto after = loopControls(*rolled);
    ASSERT_EQ(after.size(), 3u);
    for (const auto& control : after) {
        ASSERT_EQ(control.size(), 1u); // no literals were there, none were made up
        EXPECT_EQ(control[0], kDontUnroll);
    }
    EXPECT_EQ(rolled->size(), words.size()); // a mask changes, nothing is added or removed
    Status valid = validateSpirv(*rolled);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
}

TEST(RolledLoopsTest, OtherLoopControlsKeepTheirLiterals) {
    auto words = compile("void main() {\n"
                         "  uint s = 0u;\n"
                         "  [[dependency_length(4), unroll]] for (uint k = 0u; k < ITEMS; ++k)\n"
                         "    s += r[k];\n"
                         "  r[0] = s;\n"
                         "}\n");
    ASSERT_FALSE(words.empty());
    auto before = loopControls(words);
    ASSERT_EQ(before.size(), 1u);
    ASSERT_EQ(before[0], (std::vector<uint32_t>{kUnroll | kDependencyLength, 4u}));

    auto rolled = keepLoopsRolled(words);
    ASSERT_TRUE(rolled.ok()) << rolled.error().message;
    auto after = loopControls(*rolled);
    ASSERT_EQ(after.size(), 1u);
    EXPECT_EQ(after[0], (std::vector<uint32_t>{kDontUnroll | kDependencyLength, 4u}));
    Status valid = validateSpirv(*rolled);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
}

TEST(RolledLoopsTest, AModuleWithoutLoopsIsCopiedWordForWord) {
    auto words = compile("void main() { r[gl_LocalInvocationID.x] = ITEMS; }\n");
    ASSERT_FALSE(words.empty());
    auto rolled = keepLoopsRolled(words);
    ASSERT_TRUE(rolled.ok()) << rolled.error().message;
    EXPECT_EQ(*rolled, words);
}

TEST(RolledLoopsTest, WordsThatAreNotAModuleAreRefused) {
    EXPECT_FALSE(keepLoopsRolled(std::vector<uint32_t>{1, 2, 3}).ok());
    auto words = compile("void main() { r[0] = 1u; }\n");
    ASSERT_FALSE(words.empty());
    words.push_back(5u << spv::WordCountShift); // an instruction of five words, one there
    EXPECT_FALSE(keepLoopsRolled(words).ok());
}

} // namespace
} // namespace vkp
