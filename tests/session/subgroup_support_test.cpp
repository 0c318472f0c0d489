// A kernel that uses subgroup operations the device lacks is refused before it runs, with the
// family, its line, the kernel and the device named, instead of failing on values the device
// could not compute (lavapipe runs a clustered add as a plain one). Pure comparisons against
// made-up devices, and the real device: refused there if it lacks clustered operations, checked if
// not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "session/case_limits.h"
#include "session/check.h"
#include "shader/reflect.h"
#include "support/engines.h"

namespace vkp {
namespace {

using test::engines;

const std::string kClustered =
    "#version 450\n"
    "#extension GL_KHR_shader_subgroup_clustered : require\n"
    "layout(local_size_x_id = 0) in;\n"
    "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer R { float result[]; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x;\n"
    "    float x = i < uint(a.length()) ? a[i] : 0.0;\n"
    "    float s = subgroupClusteredAdd(x, 4u);\n" // line 9
    "    if (i < uint(a.length())) result[i] = s;\n"
    "}\n";

CompiledKernel compiled(const std::string& source) {
    CompileResult r = engines().compiler.compile(source, "k.comp", {/*debugInfo=*/true});
    EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    auto iface = reflectKernel(r.spirv);
    EXPECT_TRUE(iface.ok());
    return {r.spirv, iface.ok() ? *iface : KernelInterface{}, {}, source};
}

DeviceInfo deviceWith(uint32_t operations) {
    DeviceInfo d;
    d.name = "Test GPU 3000";
    d.subgroupOperations = operations;
    return d;
}

constexpr uint32_t kAll = 0xff;

TEST(SubgroupSupport, AFamilyTheDeviceLacksIsNamedWithItsLineAndTheDevice) {
    auto p = engines().set.find("map");
    ASSERT_TRUE(p.ok());
    std::vector<CompiledKernel> kernels{compiled(kClustered)};
    Status lacking = checkSubgroupSupport(**p, kernels, deviceWith(kAll & ~kSubgroupClustered));
    ASSERT_FALSE(lacking.ok());
    EXPECT_EQ(lacking.error().kind, ErrorKind::Device);
    const std::string& m = lacking.error().message;
    EXPECT_NE(m.find("line 9 of the kernel uses clustered subgroup operations"), std::string::npos)
        << m;
    EXPECT_NE(m.find("which Test GPU 3000 does not support (it has basic, vote, arithmetic, "
                     "ballot, shuffle, shuffle relative, quad)"),
              std::string::npos)
        << m;
    EXPECT_TRUE(checkSubgroupSupport(**p, kernels, deviceWith(kAll)).ok());
    // Without subgroups at all (a device that reports none for compute), even the basics.
    Status none = checkSubgroupSupport(**p, kernels, deviceWith(0));
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message.find("(it has none)"), std::string::npos);
}

TEST(SubgroupSupport, AMultiKernelPuzzleNamesTheKernel) {
    Puzzle p;
    p.kernels = {{"first", "", "", {}}, {"second", "", "", {}}};
    std::vector<CompiledKernel> kernels{
        compiled("#version 450\nlayout(local_size_x = 8) in;\n"
                 "layout(set = 0, binding = 0) buffer R { uint r[]; };\n"
                 "void main() { r[gl_LocalInvocationID.x] = 1u; }\n"),
        compiled(kClustered)};
    Status s = checkSubgroupSupport(p, kernels, deviceWith(kSubgroupBasic));
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("line 9 of the kernel 'second' uses clustered"),
              std::string::npos)
        << s.error().message;
}

TEST(SubgroupSupport, TheRealDeviceRefusesWhatItLacksAndRunsWhatItHas) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find("map");
    ASSERT_TRUE(p.ok());
    CheckReport r = checkKernel(engines().compiler, *engines().gpu, **p, kClustered, "k.comp", {});
    if (engines().gpu->info().subgroupOperations & kSubgroupClustered) {
        EXPECT_FALSE(r.error) << r.error->message;
        EXPECT_EQ(r.cases.size(), (*p)->cases.size()); // it ran (and fails map on its values)
    } else {
        ASSERT_TRUE(r.error);
        EXPECT_EQ(r.error->kind, ErrorKind::Device);
        EXPECT_NE(r.error->message.find("clustered subgroup operations"), std::string::npos);
        EXPECT_TRUE(r.cases.empty()); // nothing ran
    }
}

} // namespace
} // namespace vkp
