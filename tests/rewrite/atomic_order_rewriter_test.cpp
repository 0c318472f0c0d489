// Atomics in reverse lane order (rewrite/atomic_order_rewriter.h): each atomic ends up in a loop
// over the lanes of its own, the module still validates (phis of the blocks after a split name
// the block their branch moved to), a kernel without atomics is left as it was, and every
// official kernel with atomics (as reflection finds them) rewrites to valid SPIR-V.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "base/text_file.h"
#include "puzzle/puzzle_loader.h"
#include "rewrite/atomic_order_rewriter.h"
#include "rewrite/instrument.h"
#include "rewrite/official_kernels.h"
#include "shader/compiler.h"
#include "shader/reflect.h"
#include "shader/spirv_text.h"
#include "shader/spirv_tools.h"
#include "support/engines.h"

namespace vkp {
namespace {

std::vector<uint32_t> compile(const std::string& body) {
    const std::string header = "#version 450\nlayout(local_size_x = 16) in;\n"
                               "layout(set = 0, binding = 0) buffer R { uint r[]; };\n"
                               "shared uint s[16];\n";
    CompileResult c = Compiler().compile(header + body, "k.comp", {});
    EXPECT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    return c.spirv;
}

using spirv_text::countOpcode;

TEST(AtomicOrderRewriterTest, EachAtomicGetsALoopOverTheLanes) {
    // Three atomics: one whose result is used, one in a loop (its block's successor has a phi at
    // -O0 only through variables; the loop's blocks are split), one without a result.
    auto words = compile("void main() {\n"
                         "  uint i = gl_LocalInvocationID.x;\n"
                         "  uint slot = atomicAdd(s[0], 1u);\n"
                         "  for (uint k = 0u; k < 3u; ++k) { atomicMax(r[k], slot + i); }\n"
                         "  atomicExchange(r[4], slot);\n"
                         "  r[5 + i] = slot > 2u ? slot : atomicOr(r[3], 1u);\n"
                         "}\n");
    ASSERT_FALSE(words.empty());
    auto reflected = reflectKernel(words);
    ASSERT_TRUE(reflected.ok());
    ASSERT_TRUE(reflected->usesAtomics);
    size_t loops = countOpcode(words, spv::Op::OpLoopMerge);
    auto reversed = reverseAtomicOrder(words);
    ASSERT_TRUE(reversed.ok()) << reversed.error().message;
    EXPECT_EQ(countOpcode(*reversed, spv::Op::OpLoopMerge), loops + 4);
    EXPECT_EQ(countOpcode(*reversed, spv::Op::OpAtomicIAdd), 1u);
    EXPECT_EQ(countOpcode(*reversed, spv::Op::OpAtomicUMax), 1u);
    Status valid = validateSpirv(*reversed);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
}

TEST(AtomicOrderRewriterTest, AKernelWithoutAtomicsIsLeftAsItWas) {
    auto words =
        compile("void main() { s[gl_LocalInvocationID.x] = 1u; barrier(); r[0] = s[3]; }\n");
    ASSERT_FALSE(words.empty());
    auto reflected = reflectKernel(words);
    ASSERT_TRUE(reflected.ok());
    EXPECT_FALSE(reflected->usesAtomics);
    auto reversed = reverseAtomicOrder(words);
    ASSERT_TRUE(reversed.ok()) << reversed.error().message;
    EXPECT_EQ(*reversed, words);
}

TEST(AtomicOrderRewriterTest, EveryOfficialKernelWithAtomicsRewritesToValidSpirv) {
    size_t withAtomics = 0;
    for (const test::OfficialKernel& k : test::officialKernels()) {
        if (!k.iface.usesAtomics) continue;
        ++withAtomics;
        auto reversed = reverseAtomicOrder(k.spirv);
        ASSERT_TRUE(reversed.ok()) << k.path << ": " << reversed.error().message;
        Status valid = validateSpirv(*reversed);
        EXPECT_TRUE(valid.ok()) << k.path << ": " << valid.error().message;
        auto guarded = guardKernel(*reversed, kDefaultLoopBudget);
        ASSERT_TRUE(guarded.ok()) << k.path << ": " << guarded.error().message;
        Status guardedValid = validateSpirv(guarded->spirv);
        EXPECT_TRUE(guardedValid.ok()) << k.path << ": " << guardedValid.error().message;
    }
    EXPECT_GE(withAtomics, 8u);
}

} // namespace
} // namespace vkp
