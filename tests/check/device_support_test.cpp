// A kernel that uses what the device lacks (a family of subgroup operations, doubles, 64- or 16-bit
// integers) is refused before it runs, with an error at the line of its first use that names it
// and the device, instead of failing on values the device could not compute (lavapipe runs a
// clustered add as a plain one). Pure comparisons against made-up devices, and the real device:
// refused there if it lacks them, checked if not (a device that has doubles enables them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "check/case_limits.h"
#include "check/check.h"
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

CompiledKernel compiled(const std::string& source, const std::string& file = "k.comp") {
    CompileResult r = engines().compiler.compile(source, file, {/*debugInfo=*/true});
    EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    auto iface = reflectKernel(r.spirv);
    EXPECT_TRUE(iface.ok());
    return {r.spirv, iface.ok() ? *iface : KernelInterface{}, {}, source, file};
}

DeviceInfo deviceWith(uint32_t operations) {
    DeviceInfo d;
    d.name = "Test GPU 3000";
    d.subgroupOperations = operations;
    return d;
}

constexpr uint32_t kAll = 0xff;

TEST(DeviceSupport, AFamilyTheDeviceLacksIsAnErrorAtItsLineNamingTheDevice) {
    std::vector<CompiledKernel> kernels{compiled(kClustered)};
    auto lacking = unsupportedUse(kernels, deviceWith(kAll & ~kSubgroupClustered));
    ASSERT_TRUE(lacking);
    EXPECT_EQ(lacking->severity, SeverityKind::Error);
    EXPECT_EQ(lacking->file, "k.comp");
    EXPECT_EQ(lacking->line, 9);
    EXPECT_NE(lacking->message.find("uses clustered subgroup operations (subgroupClusteredAdd"),
              std::string::npos)
        << lacking->message;
    EXPECT_NE(lacking->message.find("which Test GPU 3000 does not support (it has basic, vote, "
                                    "arithmetic, ballot, shuffle, shuffle relative, quad)"),
              std::string::npos)
        << lacking->message;
    EXPECT_FALSE(unsupportedUse(kernels, deviceWith(kAll)));
    // A device with no subgroups for compute lacks even the basics; the message says so.
    auto none = unsupportedUse(kernels, deviceWith(0));
    ASSERT_TRUE(none);
    EXPECT_NE(none->message.find("(it has none)"), std::string::npos);
}

TEST(DeviceSupport, InAMultiKernelProgramTheErrorIsInTheKernelThatUsesThem) {
    std::vector<CompiledKernel> kernels{
        compiled("#version 450\nlayout(local_size_x = 8) in;\n"
                 "layout(set = 0, binding = 0) buffer R { uint r[]; };\n"
                 "void main() { r[gl_LocalInvocationID.x] = 1u; }\n",
                 "first.comp"),
        compiled(kClustered, "second.comp")};
    auto d = unsupportedUse(kernels, deviceWith(kSubgroupBasic));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->file, "second.comp");
    EXPECT_EQ(d->line, 9);
}

const std::string kDouble = "#version 450\n"
                            "layout(local_size_x_id = 0) in;\n"
                            "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
                            "layout(set = 0, binding = 1) writeonly buffer R { float result[]; };\n"
                            "void main() {\n"
                            "    uint i = gl_GlobalInvocationID.x;\n"
                            "    if (i >= uint(a.length())) return;\n"
                            "    double x = double(a[i]) + 10.0lf;\n" // line 8
                            "    result[i] = float(x);\n"
                            "}\n";

TEST(DeviceSupport, AKindOfNumberTheDeviceLacksIsAnErrorAtItsLine) {
    std::vector<CompiledKernel> kernels{compiled(kDouble)};
    auto lacking = unsupportedUse(kernels, deviceWith(kAll));
    ASSERT_TRUE(lacking);
    EXPECT_EQ(lacking->line, 8);
    EXPECT_NE(lacking->message.find("uses 64-bit floats (double, dvec*), which Test GPU 3000 "
                                    "does not support: "),
              std::string::npos)
        << lacking->message;
    DeviceInfo doubles = deviceWith(kAll);
    doubles.shaderFeatures = kShaderFloat64;
    EXPECT_FALSE(unsupportedUse(kernels, doubles));
}

// A device that has doubles enables them: a kernel using them runs there and passes.
TEST(DeviceSupport, TheRealDeviceRunsADoubleKernelWhereItHasDoubles) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find("map");
    ASSERT_TRUE(p.ok());
    CheckReport r = checkKernel(engines().compiler, *engines().gpu, **p, kDouble, "k.comp", {});
    if (engines().gpu->info().shaderFeatures & kShaderFloat64) {
        EXPECT_TRUE(r.allPass()) << (r.error ? r.error->message : "a case fails");
    } else {
        ASSERT_TRUE(r.error);
        EXPECT_EQ(r.error->kind, ErrorKind::Device);
        EXPECT_TRUE(r.cases.empty());
    }
}

TEST(DeviceSupport, TheRealDeviceRefusesWhatItLacksAndRunsWhatItHas) {
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
        EXPECT_NE(r.error->message.find("does not support what the kernel uses (line 9): it "
                                        "was not run"),
                  std::string::npos)
            << r.error->message;
        ASSERT_EQ(r.diagnostics.size(), 1u); // the detail, at the line
        EXPECT_EQ(r.diagnostics[0].line, 9);
        EXPECT_TRUE(r.cases.empty()); // nothing ran
    }
}

// Half floats computed in registers, and bytes and halves kept in buffers (a map whose input is
// widened from 8 bits and whose sum goes through a float16): each needs its own device feature.
const std::string kNarrow = "#version 450\n"
                            "#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
                            "#extension GL_EXT_shader_8bit_storage : require\n"
                            "layout(local_size_x_id = 0) in;\n"
                            "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
                            "layout(set = 0, binding = 1) writeonly buffer R { float result[]; };\n"
                            "layout(set = 0, binding = 2) buffer S { uint8_t bytes[]; };\n"
                            "void main() {\n"
                            "    uint i = gl_GlobalInvocationID.x;\n"
                            "    float16_t h = float16_t(a[i]) + float16_t(10.0);\n" // line 10
                            "    result[i] = float(h);\n"
                            "}\n";

TEST(DeviceSupport, HalfFloatsBytesAndNarrowStorageAreNamedWhereTheDeviceLacksThem) {
    CompileResult r = engines().compiler.compile(kNarrow, "k.comp", {/*debugInfo=*/true});
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
    auto iface = reflectKernel(r.spirv);
    ASSERT_TRUE(iface.ok());
    uint32_t used = 0;
    for (const KernelFeatureUse& u : iface->numberUses)
        used |= u.feature;
    EXPECT_TRUE(used & kShaderFloat16);
    EXPECT_TRUE(used & kStorage8Bit);
    std::vector<CompiledKernel> kernels{{r.spirv, *iface, {}, kNarrow, "k.comp"}};
    DeviceInfo none = deviceWith(kAll);
    auto lacking = unsupportedUse(kernels, none);
    ASSERT_TRUE(lacking);
    EXPECT_NE(lacking->message.find("which Test GPU 3000 does not support"), std::string::npos);
    DeviceInfo both = deviceWith(kAll);
    both.shaderFeatures = kShaderFloat16 | kShaderInt8 | kStorage8Bit | kStorage16Bit;
    EXPECT_FALSE(unsupportedUse(kernels, both));
    both.shaderFeatures &= ~kShaderFloat16;
    lacking = unsupportedUse(kernels, both);
    ASSERT_TRUE(lacking);
    EXPECT_EQ(lacking->line, 10);
    EXPECT_NE(lacking->message.find("16-bit floats (float16_t, f16vec*)"), std::string::npos)
        << lacking->message;
    EXPECT_EQ(shaderFeatureList(kStorage8Bit | kInt64Atomics), "8-bit storage, int64 atomics");
}

// A device that has half floats enables them: map computed through a float16 runs and passes,
// and the validation layer (on in these tests where installed) has nothing to say.
TEST(DeviceSupport, TheRealDeviceRunsAHalfFloatKernelWhereItHasThem) {
    ASSERT_TRUE(engines().gpu);
    auto p = engines().set.find("map");
    ASSERT_TRUE(p.ok());
    const std::string half =
        "#version 450\n"
        "#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
        "layout(local_size_x_id = 0) in;\n"
        "layout(set = 0, binding = 0) readonly buffer A { float a[]; };\n"
        "layout(set = 0, binding = 1) writeonly buffer R { float result[]; };\n"
        "void main() {\n"
        "    uint i = gl_GlobalInvocationID.x;\n"
        "    float16_t h = float16_t(a[i]) + float16_t(10.0);\n"
        "    result[i] = float(h);\n"
        "}\n";
    size_t before = engines().gpu->validationMessages().size();
    CheckReport r = checkKernel(engines().compiler, *engines().gpu, **p, half, "k.comp", {});
    if (!(engines().gpu->info().shaderFeatures & kShaderFloat16)) {
        ASSERT_TRUE(r.error);
        EXPECT_EQ(r.error->kind, ErrorKind::Device);
        return;
    }
    EXPECT_TRUE(r.allPass()) << (r.error ? r.error->message : "a case fails");
    EXPECT_EQ(engines().gpu->validationMessages().size(), before);
}

} // namespace
} // namespace vkp
