// guardKernel: the loop budget of untraced runs. Every loop shape the trace handles gets the same
// back-edge counter, the result validates, and nothing else of the kernel is instrumented.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rewrite/instrument.h"
#include "shader/compiler.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

const std::string kHeader =
    "#version 450\nlayout(local_size_x = 4) in;\n"
    "layout(set = 0, binding = 0) buffer B { uint b[]; };\nshared uint s[4];\n";

InstrumentResult guardValid(const std::string& body) {
    CompileOptions options;
    options.debugInfo = true;
    CompileResult c = Compiler().compile(kHeader + body, "k.comp", options);
    EXPECT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    if (!c.ok()) return {};
    auto r = guardKernel(c.spirv, 60000);
    EXPECT_TRUE(r.ok()) << r.error().message;
    if (!r.ok()) return {};
    Status valid = validateSpirv(r->spirv);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    return *r;
}

TEST(LoopGuardTest, EveryLoopShapeIsGuardedAndValidates) {
    EXPECT_EQ(guardValid("void main() { while (true) {} }").loopsGuarded, 1u);
    EXPECT_EQ(
        guardValid("void main() { for (uint k = 0u; k < b[0]; ++k) b[k + 1u] += k; }").loopsGuarded,
        1u);
    EXPECT_EQ(guardValid("void main() { uint k = 0u; do { b[k] = k; ++k; } while (k < b[0]); }")
                  .loopsGuarded,
              1u);
    EXPECT_EQ(guardValid("void main() { for (uint i = 0u; i < 4u; ++i) for (uint j = 0u; j < b[i]; "
                         "++j) { if (j == 3u) continue; "
                         "if (j == 7u) break; s[i] += j; barrier(); } }")
                  .loopsGuarded,
              2u);
}

TEST(LoopGuardTest, OnlyTheCounterIsAddedNoAccessIsLogged) {
    InstrumentResult r = guardValid(
        "void main() { for (uint k = 0u; k < b[0]; ++k) { s[k % 4u] = b[k]; b[k] = s[0]; } }");
    EXPECT_EQ(r.accessSites, 0u);
    EXPECT_TRUE(r.layout.variables.empty());
    EXPECT_EQ(r.layout.traceSet, 1u);
}

TEST(LoopGuardTest, AKernelWithoutLoopsGetsNone) {
    EXPECT_EQ(guardValid("void main() { b[gl_LocalInvocationIndex] = 1u; }").loopsGuarded, 0u);
}

// A kernel of the Vulkan memory model (glslang's for cooperative matrices, or asked for with a
// pragma): the counter's atomic takes the queue family's scope, as Device scope would need a
// capability (VulkanMemoryModelDeviceScope) the kernel does not declare.
TEST(LoopGuardTest, AKernelOfTheVulkanMemoryModelStaysValid) {
    const std::string vulkanModel =
        "#version 450\n#pragma use_vulkan_memory_model\n"
        "layout(local_size_x = 4) in;\n"
        "layout(set = 0, binding = 0) buffer B { uint b[]; };\n"
        "void main() { for (uint k = 0u; k < b[0]; ++k) b[k + 1u] += k; }\n";
    CompileResult c = Compiler().compile(vulkanModel, "k.comp", {});
    ASSERT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    auto r = guardKernel(c.spirv, 60000);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->loopsGuarded, 1u);
    Status valid = validateSpirv(r->spirv);
    EXPECT_TRUE(valid.ok()) << valid.error().message;
    auto stripped = stripDebugInfo(r->spirv);
    EXPECT_TRUE(stripped.ok()) << stripped.error().message;
}

TEST(LoopGuardTest, ABudgetThatCannotBeCountedIsRefused) {
    CompileResult c = Compiler().compile(kHeader + "void main() { while (true) {} }", "k.comp");
    ASSERT_TRUE(c.ok());
    EXPECT_FALSE(guardKernel(c.spirv, 0).ok());
}

} // namespace
} // namespace vkp
