// debugPrintfEXT calls in SPIR-V: the traced variant turns them into records and stays valid, the
// untraced variants (stripDebugPrintf, guardKernel) drop them and stay valid.
#include <gtest/gtest.h>

#include <spirv/unified1/spirv.hpp11>

#include "rewrite/instrument.h"
#include "rewrite/printf_rewrite.h"
#include "shader/compiler.h"
#include "shader/spirv_module.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

const char* kPrinting = R"(#version 450
#extension GL_EXT_debug_printf : enable
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };

void show(uint k) { debugPrintfEXT("helper k=%u\n", k); }

void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = data[i];
    debugPrintfEXT("i=%u v=%f\n", i, v);
    debugPrintfEXT("vec=%v4f neg=%d flag=%u\n", vec4(v, 1.0, 2.0, 3.0), -int(i), i > 3u);
    for (uint k = 0u; k < 3u; ++k) show(k);
    debugPrintfEXT("no arguments\n");
    data[i] = v * 2.0;
}
)";

std::vector<uint32_t> compile(const std::string& src) {
    CompileResult r = Compiler().compile(src, "k.comp", {/*debugInfo=*/true});
    EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    return r.spirv;
}

// What is left of debugPrintf in the words: its import, its extension and its calls.
struct PrintfLeft {
    int imports = 0, extensions = 0, calls = 0;
};
PrintfLeft printfLeft(const std::vector<uint32_t>& words) {
    auto m = SpirvModule::parse(words);
    EXPECT_TRUE(m.ok());
    PrintfLeft left;
    uint32_t set = 0;
    for (const SpirvInstruction& i : m->instructions()) {
        auto op = i.opcode();
        if (op == spv::Op::OpExtInstImport && i.literalString(0) == "NonSemantic.DebugPrintf")
            ++left.imports, set = i.resultId();
        if (op == spv::Op::OpExtension && i.literalString(0) == "SPV_KHR_non_semantic_info")
            ++left.extensions;
        if (op == spv::Op::OpExtInst && set && i.operand(0) == set) ++left.calls;
    }
    return left;
}

TEST(PrintfRewrite, TheCompiledKernelHasItsCallsToBeginWith) {
    PrintfLeft left = printfLeft(compile(kPrinting));
    EXPECT_EQ(left.imports, 1);
    EXPECT_EQ(left.extensions, 1);
    EXPECT_EQ(left.calls, 4);
}

TEST(PrintfRewrite, TracedCallsBecomeRecordsAndTheModuleValidates) {
    auto r = instrumentKernel(compile(kPrinting));
    ASSERT_TRUE(r.ok()) << r.error().message;
    Status valid = validateSpirv(r->spirv);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    EXPECT_EQ(r->printfCalls, 4u);
    // In the order the module holds the calls: glslang puts main before the helper.
    std::vector<std::string> expected{"i=%u v=%f\n", "vec=%v4f neg=%d flag=%u\n", "no arguments\n",
                                      "helper k=%u\n"};
    EXPECT_EQ(r->layout.printfFormats, expected);
    PrintfLeft left = printfLeft(r->spirv);
    EXPECT_EQ(left.imports, 0);
    EXPECT_EQ(left.extensions, 0);
    EXPECT_EQ(left.calls, 0);
}

TEST(PrintfRewrite, StrippedAndLoopGuardedModulesHaveNoCallsAndValidate) {
    std::vector<uint32_t> words = compile(kPrinting);
    auto stripped = stripDebugPrintf(words);
    ASSERT_TRUE(stripped.ok());
    EXPECT_TRUE(validateSpirv(*stripped).ok());
    PrintfLeft left = printfLeft(*stripped);
    EXPECT_EQ(left.imports + left.extensions + left.calls, 0);
    auto guarded = guardKernel(words, 1000);
    ASSERT_TRUE(guarded.ok());
    Status valid = validateSpirv(guarded->spirv);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    left = printfLeft(guarded->spirv);
    EXPECT_EQ(left.imports + left.calls, 0);
    EXPECT_EQ(guarded->printfCalls, 0u);
    EXPECT_TRUE(guarded->layout.printfFormats.empty());
}

TEST(PrintfRewrite, AKernelWithoutPrintfIsLeftAsItIs) {
    std::vector<uint32_t> words =
        compile("#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint "
                "b[]; };\nvoid main() { b[0] = 1u; }\n");
    auto stripped = stripDebugPrintf(words);
    ASSERT_TRUE(stripped.ok());
    EXPECT_EQ(*stripped, words);
    auto r = instrumentKernel(words);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->printfCalls, 0u);
}

TEST(PrintfRewrite, NotAModuleIsAnError) {
    std::vector<uint32_t> junk{1, 2, 3};
    EXPECT_FALSE(stripDebugPrintf(junk).ok());
}

} // namespace
} // namespace vkp
