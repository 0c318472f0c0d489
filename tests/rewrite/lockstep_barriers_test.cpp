// Subgroup execution barriers lowered for lavapipe: only the subgroup-scoped OpControlBarriers
// change (into OpMemoryBarriers with the same memory scope and semantics), the module still
// validates, and anything else is copied word for word.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "rewrite/instrument.h"
#include "rewrite/lockstep_barriers.h"
#include "shader/compiler.h"
#include "shader/spirv_text.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

std::vector<uint32_t> compile(const std::string& body) {
    const std::string header =
        "#version 450\n#extension GL_KHR_shader_subgroup_basic : require\n"
        "layout(local_size_x = 16) in;\n"
        "layout(set = 0, binding = 0) buffer R { uint r[]; };\nshared uint s[16];\n";
    CompileResult c = Compiler().compile(header + body, "k.comp", {});
    EXPECT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    return c.spirv;
}

using spirv_text::countOpcode;

TEST(LockstepBarriersTest, SubgroupBarriersBecomeMemoryBarriersAndWorkgroupBarriersStay) {
    auto words =
        compile("void main() {\n"
                "  uint i = gl_LocalInvocationID.x;\n"
                "  if (gl_SubgroupID == 0u) { s[i] = i; subgroupBarrier(); r[i] = s[i ^ 1u]; }\n"
                "  barrier();\n"
                "  r[i] += s[0];\n"
                "}\n");
    ASSERT_FALSE(words.empty());
    ASSERT_EQ(countOpcode(words, spv::Op::OpControlBarrier), 2u);
    size_t memoryBefore = countOpcode(words, spv::Op::OpMemoryBarrier);

    auto lowered = lockstepSubgroupBarriers(words);
    ASSERT_TRUE(lowered.ok()) << lowered.error().message;
    EXPECT_EQ(countOpcode(*lowered, spv::Op::OpControlBarrier),
              1u); // barrier() is a workgroup barrier
    EXPECT_EQ(countOpcode(*lowered, spv::Op::OpMemoryBarrier), memoryBefore + 1);
    EXPECT_EQ(lowered->size(), words.size() - 1); // one word shorter: no scope operand
    Status valid = validateSpirv(*lowered);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
}

TEST(LockstepBarriersTest, AKernelWithoutSubgroupBarriersIsCopiedUnchanged) {
    auto words =
        compile("void main() { s[gl_LocalInvocationID.x] = 1u; barrier(); r[0] = s[3]; }\n");
    ASSERT_FALSE(words.empty());
    auto lowered = lockstepSubgroupBarriers(words);
    ASSERT_TRUE(lowered.ok());
    EXPECT_EQ(*lowered, words);
}

TEST(LockstepBarriersTest, WordsThatAreNotAModuleAreAnError) {
    EXPECT_FALSE(lockstepSubgroupBarriers(std::vector<uint32_t>{1, 2, 3}).ok());
    std::vector<uint32_t> truncated = compile("void main() { r[0] = 1u; }\n");
    ASSERT_GT(truncated.size(), 8u);
    truncated.resize(truncated.size() - 1);
    truncated.back() = 0; // an instruction of length 0
    EXPECT_FALSE(lockstepSubgroupBarriers(truncated).ok());
}

} // namespace
} // namespace vkp
