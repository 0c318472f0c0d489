// gpu/pipeline_store.h: a kernel made again from the same words reuses the modules, layout and
// pipelines of the one before (pack check's mutants share a puzzle's other kernels), and a
// different specialization, module or layout is never mistaken for a kept one.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "gpu/context.h"
#include "gpu/device_runner.h"
#include "gpu/kernel.h"
#include "gpu/pipeline_warmer.h"
#include "gpu/run_resources.h"
#include "shader/compiler.h"
#include "support/test_env.h"

namespace vkp {
namespace {

// result[i] = a[i] * SCALE + OFFSET (OFFSET differs between the two kernels' texts).
std::string scaleKernel(int offset) {
    return R"(#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint SCALE = 1;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(a.length())) result[i] = a[i] * SCALE + )" +
           std::to_string(offset) + R"(u;
}
)";
}

class PipelineStoreTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        auto ctx = GpuContext::create(test::deviceOptions(true));
        ASSERT_TRUE(ctx.ok()) << ctx.error().str();
        s_ctx = std::move(*ctx).release();
    }
    static void TearDownTestSuite() {
        delete s_ctx;
        s_ctx = nullptr;
    }
    static std::vector<uint32_t> words(int offset) {
        CompileResult c = Compiler().compile(scaleKernel(offset), "scale.comp");
        EXPECT_TRUE(c.ok());
        return c.spirv;
    }
    static PipelineStore& store() { return (*s_ctx->runResources())->store(); }
    // One run of a kernel made now from `spirv`: result for a = {1, 2, 3}.
    static std::vector<uint32_t> run(const std::vector<uint32_t>& spirv, uint32_t scale,
                                     uint32_t workgroupSize = 4) {
        auto k = GpuKernel::create(*s_ctx, spirv, {0, 1});
        EXPECT_TRUE(k.ok());
        if (!k) return {};
        std::vector<uint32_t> a = {1, 2, 3}, zeros(3, 0);
        RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
        auto out = (*k)->run({{workgroupSize, 1, 1}, {1, 1, 1}, {{3, scale}}}, buffers, 5000);
        EXPECT_TRUE(out.ok()) << (out ? "" : out.error().str());
        return out ? out->buffers[1] : std::vector<uint32_t>{};
    }
    static inline GpuContext* s_ctx = nullptr;
};

TEST_F(PipelineStoreTest, TheSameWordsGetTheSameModuleAndOthersAnother) {
    std::vector<uint32_t> one = words(1), two = words(2);
    auto a = store().module(one), b = store().module(one), c = store().module(two);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(a->id, b->id);
    EXPECT_EQ(a->object.get(), b->object.get());
    EXPECT_NE(a->id, c->id);
}

TEST_F(PipelineStoreTest, AKernelMadeAgainReusesThePipelineOfTheSameLaunch) {
    std::vector<uint32_t> spirv = words(7);
    EXPECT_EQ(run(spirv, 3), (std::vector<uint32_t>{10, 13, 16}));
    size_t hits = store().hits();
    EXPECT_EQ(run(spirv, 3), (std::vector<uint32_t>{10, 13, 16}));
    EXPECT_EQ(store().hits(), hits + 1); // built once, run by two kernels
}

TEST_F(PipelineStoreTest, ADifferentSpecializationOrModuleIsBuiltAfresh) {
    std::vector<uint32_t> seven = words(7), eight = words(8);
    EXPECT_EQ(run(seven, 3), (std::vector<uint32_t>{10, 13, 16}));
    size_t hits = store().hits();
    EXPECT_EQ(run(seven, 5), (std::vector<uint32_t>{12, 17, 22}));    // another SCALE
    EXPECT_EQ(run(seven, 3, 8), (std::vector<uint32_t>{10, 13, 16})); // another workgroup size
    EXPECT_EQ(run(eight, 3), (std::vector<uint32_t>{11, 14, 17}));    // another module
    EXPECT_EQ(store().hits(), hits);
}

// A job names the later jobs' launches (DeviceJob::prebuild), and a PipelineWarmer compiles them
// meanwhile: a GPU's on threads of the runner's own device, into its store (the later jobs build
// nothing); lavapipe's on helper devices, into Mesa's shader cache (the later jobs' device still
// builds each, from the cache), and only where there is a cache to share. The answers are right
// either way, and a later launch over the device's limits is left to its own job.
TEST_F(PipelineStoreTest, LaterJobsPipelinesAreCompiledMeanwhile) {
    std::vector<uint32_t> spirv = words(31), a = {1, 2, 3}, zeros(3, 0);
    auto job = [&](InProcessRunner& runner, uint32_t scale, std::vector<LaunchSpec> later) {
        DeviceJob j;
        j.spirv = spirv;
        j.bindings = {0, 1};
        j.items.push_back(
            {{{4, 1, 1}, {1, 1, 1}, {{3, scale}}}, {{0, a, false}, {1, zeros, true}}});
        j.prebuild = std::move(later);
        return runner.run(j);
    };
    std::vector<LaunchSpec> later;
    for (uint32_t scale : {2u, 3u, 4u})
        later.push_back({{4, 1, 1}, {1, 1, 1}, {{3, scale}}});
    bool gpu = compilesAtCreation(s_ctx->info());
    if (!gpu) {
        const char* was = std::getenv("MESA_SHADER_CACHE_DISABLE");
        std::string kept = was ? was : "";
        setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
        InProcessRunner runner(*s_ctx);
        ASSERT_TRUE(job(runner, 1, later).ok());
        EXPECT_EQ(runner.warmer(), nullptr) << "no cache to share the helpers' work through";
        if (was)
            setenv("MESA_SHADER_CACHE_DISABLE", kept.c_str(), 1);
        else
            unsetenv("MESA_SHADER_CACHE_DISABLE");
    }
    if (!PipelineWarmer::helps(*s_ctx)) GTEST_SKIP() << "one core, or no shader cache to share";
    InProcessRunner runner(*s_ctx);
    LaunchSpec tooBig{{s_ctx->info().maxWorkgroupInvocations + 1, 1, 1}, {1, 1, 1}, {{3, 9}}};
    std::vector<LaunchSpec> withTooBig = later;
    withTooBig.insert(withTooBig.begin(), tooBig);
    auto first = job(runner, 7, withTooBig);
    ASSERT_TRUE(first.ok()) << first.error().str();
    ASSERT_TRUE(first->items[0].ok());
    EXPECT_EQ(first->items[0]->buffers[1], (std::vector<uint32_t>{38, 45, 52}));
    EXPECT_EQ(first->pipelinesBuilt, 1u) << "the job waits for its own pipeline only";
    ASSERT_TRUE(runner.warmer());
    // However long the helpers take, the later jobs' answers are right; waiting for them here
    // only makes the count of pipelines the later jobs build certain.
    for (int i = 0; i < 3000 && runner.warmer()->compiled() < later.size(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(runner.warmer()->compiled(), later.size()) << "the one over the limits fails";
    for (uint32_t scale : {2u, 3u, 4u}) {
        auto next = job(runner, scale, {});
        ASSERT_TRUE(next.ok()) << next.error().str();
        ASSERT_TRUE(next->items[0].ok());
        EXPECT_EQ(next->items[0]->buffers[1],
                  (std::vector<uint32_t>{31 + scale, 31 + 2 * scale, 31 + 3 * scale}));
        EXPECT_EQ(next->pipelinesBuilt, gpu ? 0u : 1u) << "scale " << scale;
    }
}

// The runner awaits each launch before building it: a launch no helper has begun is taken away
// from them, one under way is waited for; nothing is compiled twice, and nothing waits forever.
TEST_F(PipelineStoreTest, AwaitingALaunchTakesItOrWaitsForIt) {
    if (!PipelineWarmer::helps(*s_ctx)) GTEST_SKIP() << "one core, or no shader cache to share";
    std::vector<uint32_t> spirv = words(41);
    WarmJob job{{spirv}, {0, 1}, {}, 0, {}};
    for (uint32_t scale : {2u, 3u, 4u, 5u, 6u, 7u})
        job.launches.push_back({{4, 1, 1}, {1, 1, 1}, {{3, scale}}});
    job.launches.push_back(job.launches.front()); // the same specialization twice: once
    PipelineWarmer warmer(*s_ctx);
    warmer.start(job);
    for (const LaunchSpec& l : job.launches)
        warmer.await(l);
    EXPECT_LE(warmer.compiled(), 6u);
    warmer.await({{4, 1, 1}, {1, 1, 1}, {{3, 99}}}); // not the warmer's: returns at once
}

TEST_F(PipelineStoreTest, ThePipelineUsedLeastRecentlyGoesFirst) {
    PipelineStore small(*s_ctx, 2);
    auto none = std::make_shared<const Pipeline>(); // no handle: nothing to destroy
    small.keep({1, 1, 1}, none);
    small.keep({1, 1, 2}, none);
    EXPECT_TRUE(small.pipeline({1, 1, 1})); // used: {1, 1, 2} is now the oldest
    small.keep({1, 1, 3}, none);
    EXPECT_EQ(small.pipelines(), 2u);
    EXPECT_TRUE(small.pipeline({1, 1, 1}));
    EXPECT_FALSE(small.pipeline({1, 1, 2}));
    EXPECT_TRUE(small.pipeline({1, 1, 3}));
}

} // namespace
} // namespace vkp
