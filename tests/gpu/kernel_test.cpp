#include <gtest/gtest.h>

#include <bit>

#include "gpu/context.h"
#include "gpu/kernel.h"
#include "shader/compiler.h"
#include "support/test_env.h"
#include "trace/trace.h"

namespace vkp {
namespace {

// result[i] = a[i] * SCALE + local index: exercises spec constants 0 (workgroup size) and 3.
const char* kScaleKernel = R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SCALE = 1;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(a.length())) result[i] = a[i] * SCALE + gl_LocalInvocationID.x;
}
)";

class KernelTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        auto ctx = GpuContext::create(test::deviceOptions(true));
        ASSERT_TRUE(ctx.ok()) << ctx.error().str();
        s_ctx = std::move(*ctx).release();
        CompileResult c = Compiler().compile(kScaleKernel, "scale.comp");
        ASSERT_TRUE(c.ok());
        s_spirv = c.spirv;
    }
    static void TearDownTestSuite() {
        delete s_ctx;
        s_ctx = nullptr;
    }
    std::unique_ptr<GpuKernel> kernel() {
        auto k = GpuKernel::create(*s_ctx, s_spirv, {0, 1});
        EXPECT_TRUE(k.ok());
        return k.ok() ? std::move(*k) : nullptr;
    }
    static inline GpuContext* s_ctx = nullptr;
    static inline std::vector<uint32_t> s_spirv;
};

TEST_F(KernelTest, DeviceInfoIsFilledIn) {
    const DeviceInfo& d = s_ctx->info();
    EXPECT_FALSE(d.name.empty());
    EXPECT_TRUE(d.usable);
    EXPECT_GT(d.subgroupSize, 0u);
    EXPECT_GE(d.maxWorkgroupInvocations, 128u);
    EXPECT_GT(d.maxSharedMemoryBytes, 0u);
}

TEST_F(KernelTest, RunsWithSpecializationConstantsPerLaunch) {
    auto k = kernel();
    ASSERT_TRUE(k);
    std::vector<uint32_t> a = {5, 1, 7, 2, 9, 4, 3};
    std::vector<uint32_t> zeros(a.size(), 0);
    RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
    LaunchSpec launch{{4, 1, 1}, {2, 1, 1}, {{3, 3}}};
    auto out = k->run(launch, buffers, 5000);
    ASSERT_TRUE(out.ok()) << out.error().str();
    std::vector<uint32_t> want = {15, 4, 23, 9, 27, 13, 11}; // a*3 + (i % 4)
    EXPECT_EQ(out->buffers[1], want);
    EXPECT_TRUE(out->buffers[0].empty()); // inputs are not read back

    LaunchSpec other{{8, 1, 1}, {1, 1, 1}, {{3, 2}}};
    out = k->run(other, buffers, 5000);
    ASSERT_TRUE(out.ok());
    std::vector<uint32_t> want2 = {10, 3, 16, 7, 22, 13, 12}; // a*2 + i
    EXPECT_EQ(out->buffers[1], want2);
}

TEST_F(KernelTest, RunAllRunsEveryItemInOneSubmission) {
    auto k = kernel();
    ASSERT_TRUE(k);
    std::vector<uint32_t> a = {5, 1, 7, 2, 9}, zeros(5, 0), b(70, 3), zerosB(70, 0);
    // 70 items: more than one batch of RunResources::kMaxBatch.
    std::vector<RunItem> items;
    for (uint32_t i = 0; i < 70; ++i) {
        bool small = i % 2 == 0;
        items.push_back(
            {{{small ? 2u : 32u, 1, 1}, {small ? 3u : 3u, 1, 1}, {{3, i}}},
             {{0, small ? std::span<const uint32_t>(a) : std::span<const uint32_t>(b), false},
              {1, small ? std::span<const uint32_t>(zeros) : std::span<const uint32_t>(zerosB),
               true}}});
    }
    auto out = k->runAll(items, 5000);
    ASSERT_TRUE(out.ok()) << out.error().str();
    ASSERT_EQ(out->size(), 70u);
    for (uint32_t i = 0; i < 70; ++i) {
        ASSERT_TRUE((*out)[i].ok()) << i;
        const std::vector<uint32_t>& r = (*out)[i]->buffers[1];
        if (i % 2 == 0)
            EXPECT_EQ(r, (std::vector<uint32_t>{5 * i, 1 * i + 1, 7 * i, 2 * i + 1, 9 * i})) << i;
        else
            EXPECT_EQ(r[69], 3 * i + 69 % 32) << i;
    }
}

TEST_F(KernelTest, TimestampsMeasureTheDispatch) {
    if (s_ctx->info().timestampPeriodNs <= 0) GTEST_SKIP() << "device has no compute timestamps";
    auto k = kernel();
    ASSERT_TRUE(k);
    std::vector<uint32_t> a(4096, 1), zeros(4096, 0);
    RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
    auto out = k->run({{64, 1, 1}, {64, 1, 1}, {{3, 1}}}, buffers, 5000);
    ASSERT_TRUE(out.ok());
    EXPECT_GT(out->gpuMs, 0.0);
    EXPECT_LT(out->gpuMs, 5000.0);
}

TEST_F(KernelTest, PrepareBuildsEachShapeOnceAndRunsReuseThem) {
    auto k = kernel();
    ASSERT_TRUE(k);
    std::vector<LaunchSpec> launches = {{{4, 1, 1}, {1, 1, 1}, {{3, 1}}},
                                        {{4, 1, 1}, {1, 1, 1}, {{3, 1}}},
                                        {{2, 1, 1}, {2, 1, 1}, {{3, 5}}}};
    ASSERT_TRUE(k->prepare(launches).ok());
    ASSERT_TRUE(k->prepare(launches).ok()); // nothing new to build
    std::vector<uint32_t> a = {1, 2, 3, 4}, zeros(4, 0);
    RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
    auto out = k->run(launches[2], buffers, 5000);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->buffers[1], (std::vector<uint32_t>{5, 11, 15, 21}));
}

TEST(GpuKernelBudgetTest, PipelinesAreCountedOncePerKernelAndShapeAndEachGetsCompileTime) {
    LaunchSpec a{{4, 1, 1}, {1, 1, 1}, {{3, 1}}}, b{{4, 1, 1}, {9, 1, 1}, {{3, 1}}},
        c{{4, 1, 1}, {1, 1, 1}, {{3, 2}}};
    // a and b differ only in workgroup count: one pipeline; c's constant makes another.
    std::vector<RunItem> items = {{a, {}, {}}, {b, {}, {}}, {c, {}, {}}};
    EXPECT_EQ(GpuKernel::pipelinesOf(items), 2u);
    // A multi-pass item needs a pipeline of each kernel it dispatches.
    items.push_back({a, {}, {Dispatch{0, {1, 1, 1}, {}, {}}, Dispatch{1, {2, 1, 1}, {}, {}}}});
    EXPECT_EQ(GpuKernel::pipelinesOf(items), 3u);
    EXPECT_EQ(GpuKernel::buildBudgetMs(3), 60000u + 3 * GpuKernel::kCompileMsPerPipeline);
}

TEST_F(KernelTest, LaunchesOverTheDeviceLimitsAreRefusedByCase) {
    auto k = kernel();
    ASSERT_TRUE(k);
    uint32_t tooMany = s_ctx->info().maxWorkgroupInvocations * 2;
    std::vector<LaunchSpec> launches = {{{4, 1, 1}, {1, 1, 1}, {}},
                                        {{tooMany, 1, 1}, {1, 1, 1}, {}}};
    Status s = k->checkLimits(launches);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("case 2"), std::string::npos) << s.error().message;
    EXPECT_NE(s.error().message.find("limit"), std::string::npos);
}

TEST_F(KernelTest, OutOfRangeAccessesAreHarmlessWithRobustBufferAccess) {
    if (!s_ctx->info().robustBufferAccess) GTEST_SKIP();
    CompileResult c = Compiler().compile(R"(#version 450
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
void main() { uint i = gl_GlobalInvocationID.x; result[i] = a[i + 1000] + 1; })",
                                         "oob.comp");
    ASSERT_TRUE(c.ok());
    auto k = GpuKernel::create(*s_ctx, c.spirv, {0, 1});
    ASSERT_TRUE(k.ok());
    std::vector<uint32_t> a = {1, 2, 3, 4}, zeros(4, 0);
    RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
    auto out = (*k)->run({{16, 1, 1}, {1, 1, 1}, {}}, buffers, 5000);
    ASSERT_TRUE(out.ok()) << out.error().str();
    EXPECT_EQ(out->buffers[1], (std::vector<uint32_t>{1, 1, 1, 1}));
}

// A trace buffer is read back packed: the header, counts and status, then only the records the
// invocations wrote. Here invocation i writes i records into 3 slots (invocation 3 counts 4).
TEST_F(KernelTest, ATraceBufferIsReadBackPacked) {
    CompileResult c = Compiler().compile(R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer T { uint w[]; };
void main() {
    uint i = gl_LocalInvocationID.x, slots = w[1], recordsAt = w[5];
    w[8 + i] = i == 3u ? 4u : i;
    for (uint k = 0u; k < min(i, slots); ++k) {
        uint at = recordsAt + (i * slots + k) * 4u;
        w[at] = 0x10000000u | (k + 1u);  // a read on line k + 1
        w[at + 1u] = 100u * i + k;
        w[at + 2u] = 0u;
        w[at + 3u] = 0u;
    }
})",
                                         "trace.comp");
    ASSERT_TRUE(c.ok());
    auto k = GpuKernel::create(*s_ctx, c.spirv, {0});
    ASSERT_TRUE(k.ok());
    TraceLaunch launch{{4, 1, 1}, {1, 1, 1}};
    uint64_t total = 0;
    std::vector<uint32_t> initial = makeTraceBuffer(launch, 3, 100, &total);
    RunBuffer buffers[] = {{0, initial, true, 0, total, true}};
    auto out = (*k)->run({{4, 1, 1}, {1, 1, 1}, {}}, buffers, 5000);
    ASSERT_TRUE(out.ok()) << out.error().str();
    const std::vector<uint32_t>& packed = out->buffers[0];
    EXPECT_EQ(packed.size(), initial.size() + (0 + 1 + 2 + 3) * kTraceRecordWords)
        << "of " << total << " words";
    auto trace = decodeTrace(packed, launch, {});
    ASSERT_TRUE(trace.ok()) << trace.error().str();
    for (uint32_t i = 0; i < 4; ++i) {
        ASSERT_EQ(trace->threads[i].size(), std::min(i, 3u)) << i;
        for (uint32_t r = 0; r < trace->threads[i].size(); ++r) {
            EXPECT_EQ(trace->threads[i][r].index, 100 * i + r);
            EXPECT_EQ(trace->threads[i][r].line, r + 1);
        }
    }
    // Without packing, the whole buffer comes back.
    buffers[0].packTrace = false;
    out = (*k)->run({{4, 1, 1}, {1, 1, 1}, {}}, buffers, 5000);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->buffers[0].size(), total);
}

TEST_F(KernelTest, ValidationLayerReportsNothing) {
    if (!s_ctx->validationEnabled()) GTEST_SKIP() << "VK_LAYER_KHRONOS_validation is not installed";
    auto k = kernel();
    ASSERT_TRUE(k);
    std::vector<uint32_t> a = {1, 2, 3}, zeros(3, 0);
    RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
    ASSERT_TRUE(k->run({{4, 1, 1}, {1, 1, 1}, {{3, 2}}}, buffers, 5000).ok());
    for (const std::string& m : s_ctx->validationMessages())
        ADD_FAILURE() << m;
}

TEST(GpuContextTest, ListsAtLeastOneUsableDevice) {
    auto list = GpuContext::listDevices();
    ASSERT_TRUE(list.ok()) << list.error().str();
    ASSERT_FALSE(list->empty());
    bool usable = false;
    for (const DeviceInfo& d : *list)
        usable |= d.usable;
    EXPECT_TRUE(usable);
}

TEST(GpuContextTest, AnUnknownDeviceNameListsTheDevices) {
    auto ctx = GpuContext::create({"no-such-device-xyz"});
    ASSERT_FALSE(ctx.ok());
    EXPECT_EQ(ctx.error().kind, ErrorKind::Device);
    EXPECT_NE(ctx.error().message.find("no-such-device-xyz"), std::string::npos);
    EXPECT_NE(ctx.error().message.find("0: "), std::string::npos) << ctx.error().message;
}

TEST(GpuContextTest, SelectsByIndexAndKind) {
    auto list = GpuContext::listDevices();
    ASSERT_TRUE(list.ok());
    auto byIndex = GpuContext::create({"0"});
    ASSERT_TRUE(byIndex.ok());
    EXPECT_EQ((*byIndex)->info().index, 0u);
    bool hasCpu = false;
    for (const DeviceInfo& d : *list)
        hasCpu |= d.type == DeviceTypeKind::Cpu && d.usable;
    if (!hasCpu) GTEST_SKIP() << "no CPU device (lavapipe) installed";
    auto cpu = GpuContext::create({"cpu"});
    ASSERT_TRUE(cpu.ok());
    EXPECT_EQ((*cpu)->info().type, DeviceTypeKind::Cpu);
}

} // namespace
} // namespace vkp
