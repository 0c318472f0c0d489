// Subgroups of 32 and 64 lanes emulated on smaller ones (rewrite/subgroup_emulation.h), as SPIR-V:
// every official kernel that uses subgroups, plain and instrumented for the trace, rewrites to a
// module that validates, for real subgroups of 4, 8 and 16 lanes; its subgroup operations are
// replaced (what is left are the real subgroups' own, the quad operations and the clustered ones
// that fit a real subgroup); a kernel without subgroups gets only the barrier bookkeeping.
// (Run on lavapipe against a model of a 32- and 64-lane subgroup: tests/gpu.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "base/text_file.h"
#include "puzzle/puzzle_loader.h"
#include "rewrite/instrument.h"
#include "rewrite/official_kernels.h"
#include "rewrite/subgroup_emulation.h"
#include "shader/compiler.h"
#include "shader/reflect.h"
#include "shader/spirv_text.h"
#include "shader/spirv_tools.h"
#include "support/engines.h"

namespace vkp {
namespace {

using spirv_text::countOpcode;

TEST(SubgroupEmulationSpirvTest, EveryOfficialKernelWithSubgroupsRewritesToValidSpirv) {
    size_t withSubgroups = 0;
    for (const test::OfficialKernel& k : test::officialKernels()) {
        if (k.iface.subgroupUses.empty()) continue;
        ++withSubgroups;
        auto traced = instrumentKernel(k.spirv);
        ASSERT_TRUE(traced.ok()) << k.path << ": " << traced.error().message;
        const std::vector<uint32_t>* both[] = {&k.spirv, &traced->spirv};
        for (const std::vector<uint32_t>* words : both)
            for (uint32_t real : {4u, 8u, 16u})
                for (uint32_t lanes : kEmulatedSubgroupSizes) {
                    auto emulated = emulateSubgroupSize(*words, lanes, real);
                    ASSERT_TRUE(emulated.ok()) << k.path << ": " << emulated.error().message;
                    Status valid = validateSpirv(*emulated);
                    EXPECT_TRUE(valid.ok()) << k.path << " with " << lanes << " lanes on " << real
                                            << ": " << valid.error().message;
                }
    }
    EXPECT_GE(withSubgroups, 15u);
}

std::vector<uint32_t> compile(const std::string& body) {
    const std::string header =
        "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : require\n"
        "#extension GL_KHR_shader_subgroup_shuffle : require\n"
        "#extension GL_KHR_shader_subgroup_ballot : require\n"
        "#extension GL_KHR_shader_subgroup_vote : require\n"
        "layout(local_size_x = 96) in;\n"
        "layout(set = 0, binding = 0) buffer R { uint r[]; };\n";
    CompileResult c = Compiler().compile(header + body, "k.comp", {});
    EXPECT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    return c.spirv;
}

TEST(SubgroupEmulationSpirvTest, EachOperationBecomesTheRealSubgroupsAndAMeeting) {
    auto words = compile("void main() {\n"
                         "  uint i = gl_LocalInvocationIndex;\n"
                         "  uint s = subgroupAdd(i);\n"
                         "  uint x = subgroupShuffleXor(s, 1u);\n"
                         "  barrier();\n"
                         "  r[i] = x + gl_SubgroupSize + subgroupExclusiveMax(i);\n"
                         "}\n");
    ASSERT_FALSE(words.empty());
    EXPECT_EQ(countOpcode(words, spv::Op::OpGroupNonUniformShuffleXor), 1u);
    size_t barriers = countOpcode(words, spv::Op::OpControlBarrier);
    auto emulated = emulateSubgroupSize(words, 64, 8);
    ASSERT_TRUE(emulated.ok()) << emulated.error().message;
    Status valid = validateSpirv(*emulated);
    ASSERT_TRUE(valid.ok()) << valid.error().message;
    // The shuffle reads a slot; the add and the max are the real subgroup's reductions and scans
    // (a scan also needs the real subgroup's total).
    EXPECT_EQ(countOpcode(*emulated, spv::Op::OpGroupNonUniformShuffleXor), 0u);
    EXPECT_EQ(countOpcode(*emulated, spv::Op::OpGroupNonUniformIAdd), 1u);
    EXPECT_EQ(countOpcode(*emulated, spv::Op::OpGroupNonUniformUMax), 2u);
    // Two steps an operation, one to start, the barrier's wait (one in its loop, one after) and
    // the wait of the ended threads for the others.
    EXPECT_EQ(countOpcode(*emulated, spv::Op::OpControlBarrier), 1 + 3 * 2 + barriers - 1 + 2 + 1);
    // The barrier's wait and the ends of threads take the waiting ones' step in a loop each; the
    // ended threads wait in one; each meeting of the real subgroups (the add's, the max's) is one.
    EXPECT_EQ(countOpcode(*emulated, spv::Op::OpLoopMerge), 4u + 2u);
    // The kernel's main is called by a new one, which waits for every thread to end after it.
    EXPECT_EQ(countOpcode(*emulated, spv::Op::OpFunction),
              countOpcode(words, spv::Op::OpFunction) + 1);
    EXPECT_EQ(countOpcode(*emulated, spv::Op::OpFunctionCall),
              countOpcode(words, spv::Op::OpFunctionCall) + 1);
}

// A meeting is a loop over the real subgroups of the virtual one, not a copy of its code for each:
// what the driver compiles is the same size at 64 lanes on 4 as on 16 (measured on Mesa 25,
// 2 cores: one copy each made a traced scan-decoupled case take 9 s to build at 64 lanes on 4).
TEST(SubgroupEmulationSpirvTest, TheCodeDoesNotGrowWithTheRealSubgroupsOfAVirtualOne) {
    auto words = compile("void main() {\n"
                         "  uint i = gl_LocalInvocationIndex;\n"
                         "  uvec4 odd = subgroupBallot((i & 1u) == 1u);\n"
                         "  r[i] = subgroupInclusiveAdd(i) + subgroupBroadcastFirst(i) +\n"
                         "         uint(subgroupElect()) + uint(subgroupAll(i < 9u)) + odd.y;\n"
                         "}\n");
    ASSERT_FALSE(words.empty());
    auto few = emulateSubgroupSize(words, 64, 16); // 4 real subgroups a virtual one
    auto many = emulateSubgroupSize(words, 64, 4); // 16
    ASSERT_TRUE(few.ok() && many.ok());
    ASSERT_TRUE(validateSpirv(*many).ok());
    // Give or take a few constants (the number of real subgroups, of their lanes).
    EXPECT_LE(many->size(), few->size() + 12)
        << many->size() << " words at 64 on 4, " << few->size() << " on 16";
}

TEST(SubgroupEmulationSpirvTest, SizesThatCannotBeEmulatedAreRefused) {
    auto words = compile("void main() { r[0] = subgroupAdd(1u); }\n");
    ASSERT_FALSE(words.empty());
    for (auto [lanes, real] : {std::pair{48u, 16u}, {32u, 64u}, {64u, 12u}, {256u, 16u}}) {
        auto emulated = emulateSubgroupSize(words, lanes, real);
        ASSERT_FALSE(emulated.ok()) << lanes << " on " << real;
        EXPECT_EQ(emulated.error().message,
                  std::to_string(lanes) + " lanes cannot be emulated with " + std::to_string(real));
    }
}

} // namespace
} // namespace vkp
