// The undefined-values rewriter (rewrite/undefined_values_rewriter.h): shuffled values followed
// through locals, loops (phis), selects, switches, subgroup operations, calls and returns still
// instrument into valid SPIR-V, optimised or not.
#include <gtest/gtest.h>

#include <string>

#include "rewrite/instrument.h"
#include "shader/compiler.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

const char* kKernel = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
layout(local_size_x = 36) in;
layout(set = 0, binding = 0) buffer R { float r[]; };
shared float s[36];
float twice(float x) { return x + x; }
float peek(float x) { return subgroupShuffleXor(x, 4u); }
void main() {
    uint i = gl_LocalInvocationID.x;
    float v = r[i];
    vec2 pair = vec2(subgroupShuffleDown(v, 1u), v);
    for (uint m = 1u; m < gl_SubgroupSize; m <<= 1u) {
        float o = subgroupShuffleXor(v, m);
        v += (gl_SubgroupInvocationID ^ m) < 8u ? o : 0.0;
    }
    float far = peek(v);
    switch (uint(far) & 3u) {
    case 0u: s[i] = twice(pair.x); break;
    default: s[i] = subgroupAdd(far); break;
    }
    barrier();
    uint k = uint(abs(pair.y)) % 36u;
    r[i] = s[k] + (far > 0.0 ? 1.0 : 0.0);
}
)";

TEST(UndefinedValuesTest, FollowedValuesInstrumentToValidSpirv) {
    for (bool optimised : {false, true}) {
        CompileResult c = Compiler().compile(kKernel, "k.comp", {true, optimised});
        ASSERT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
        const std::vector<uint32_t>& spirv = c.spirv;
        auto r = instrumentKernel(spirv);
        ASSERT_TRUE(r.ok()) << r.error().message;
        Status valid = validateSpirv(r->spirv);
        EXPECT_TRUE(valid.ok()) << (optimised ? "optimised: " : "") << valid.error().message;
    }
}

} // namespace
} // namespace vkp
