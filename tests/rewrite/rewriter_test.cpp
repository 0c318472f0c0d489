// One interface for the rewriters (rewrite/rewriter.h): a pipeline runs the rewriters it is given,
// in order, each on what the one before it returned; an instrumentation rewriter leaves where its
// buffer is in the shared state; the first that fails ends the pipeline with its error; and each
// alone gives what its function gives.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "rewrite/atomic_order_rewriter.h"
#include "rewrite/compile_debug.h"
#include "rewrite/lockstep_barriers.h"
#include "rewrite/printf_rewrite.h"
#include "rewrite/rewriter.h"
#include "rewrite/rolled_loops.h"
#include "rewrite/subgroup_emulation.h"
#include "shader/spirv_text.h"
#include "shader/spirv_tools.h"

namespace vkp {
namespace {

using spirv_text::countOpcode;
using spirv_text::validationErrors;

const char* kKernel = R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint r[]; };
shared uint tile[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    tile[t] = subgroupAdd(t);
    barrier();
    for (uint i = 0; i < 4u; ++i) atomicAdd(r[i], tile[63u - t]);
}
)";

// A rewriter of the test's own: counts its runs and returns the words it was given.
Rewriter counting(int& runs) {
    return Rewriter("count", [&runs](std::span<const uint32_t> spirv, RewriteState&) {
        ++runs;
        return Result<std::vector<uint32_t>>(std::vector<uint32_t>(spirv.begin(), spirv.end()));
    });
}

TEST(RewriterTest, NoRewritersGiveTheWordsBack) {
    auto words = test::compileDebug(kKernel);
    ASSERT_FALSE(words.empty());
    RewriteState state;
    auto out = runRewriters(words, {}, state);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(*out, words);
    EXPECT_FALSE(state.instrumented);
}

TEST(RewriterTest, EachAloneIsItsFunction) {
    auto words = test::compileDebug(kKernel);
    ASSERT_FALSE(words.empty());
    struct Case {
        Rewriter rewriter;
        Result<std::vector<uint32_t>> direct;
    };
    std::vector<Case> cases = {
        {reverseAtomicsRewriter(), reverseAtomicOrder(words)},
        {emulationRewriter(32, 8), emulateSubgroupSize(words, 32, 8)},
        {stripDebugInfoRewriter(), stripDebugInfo(words)},
        {lockstepBarriersRewriter(), lockstepSubgroupBarriers(words)},
        {rolledLoopsRewriter(), keepLoopsRolled(words)},
        {stripDebugPrintfRewriter(), stripDebugPrintf(words)},
    };
    for (Case& c : cases) {
        ASSERT_TRUE(c.direct.ok()) << c.rewriter.name();
        RewriteState state;
        const Rewriter one[] = {c.rewriter};
        auto out = runRewriters(words, one, state);
        ASSERT_TRUE(out.ok()) << c.rewriter.name() << ": " << out.error().message;
        EXPECT_EQ(*out, *c.direct) << c.rewriter.name();
        EXPECT_EQ(validationErrors(*out), "") << c.rewriter.name();
    }
}

TEST(RewriterTest, APipelineRunsItsRewritersInOrderOnWhatTheOneBeforeReturned) {
    auto words = test::compileDebug(kKernel);
    ASSERT_FALSE(words.empty());
    // Emulated 32 lanes on 8, then without debug information: the emulation's output, stripped.
    auto emulated = emulateSubgroupSize(words, 32, 8);
    ASSERT_TRUE(emulated.ok());
    auto expected = stripDebugInfo(*emulated);
    ASSERT_TRUE(expected.ok());
    int runs = 0;
    const Rewriter pipeline[] = {counting(runs), emulationRewriter(32, 8), counting(runs),
                                 stripDebugInfoRewriter()};
    RewriteState state;
    auto out = runRewriters(words, pipeline, state);
    ASSERT_TRUE(out.ok()) << out.error().message;
    EXPECT_EQ(*out, *expected);
    EXPECT_EQ(runs, 2);
    EXPECT_EQ(countOpcode(*out, spv::Op::OpLine), 0u);
}

TEST(RewriterTest, AnInstrumentationRewriterSaysWhereItsBufferIs) {
    auto words = test::compileDebug(kKernel);
    ASSERT_FALSE(words.empty());
    InstrumentOptions options;
    options.traceSet = 2;
    options.traceBinding = 5;
    RewriteState traced;
    const Rewriter instrument[] = {instrumentRewriter(options)};
    auto out = runRewriters(words, instrument, traced);
    ASSERT_TRUE(out.ok()) << out.error().message;
    ASSERT_TRUE(traced.instrumented);
    EXPECT_EQ(traced.instrumented->layout.traceSet, 2u);
    EXPECT_EQ(traced.instrumented->layout.traceBinding, 5u);
    EXPECT_GT(traced.instrumented->accessSites, 0u);
    EXPECT_TRUE(traced.instrumented->spirv.empty()); // the words went down the pipeline
    EXPECT_EQ(validationErrors(*out), "");

    RewriteState guarded;
    const Rewriter guard[] = {guardRewriter(1000, options)};
    auto cheap = runRewriters(words, guard, guarded);
    ASSERT_TRUE(cheap.ok()) << cheap.error().message;
    ASSERT_TRUE(guarded.instrumented);
    EXPECT_EQ(guarded.instrumented->loopsGuarded, 1u);
    EXPECT_EQ(guarded.instrumented->accessSites, 0u); // no access is logged
    EXPECT_LT(cheap->size(), out->size());
}

TEST(RewriterTest, TheFirstThatFailsEndsThePipelineWithItsError) {
    auto words = test::compileDebug(kKernel);
    ASSERT_FALSE(words.empty());
    int runs = 0;
    const Rewriter pipeline[] = {emulationRewriter(48, 16), counting(runs)};
    RewriteState state;
    auto out = runRewriters(words, pipeline, state);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(
        out.error().message,
        "the kernel could not be run as if with 48 lanes: 48 lanes cannot be emulated with 16");
    EXPECT_EQ(runs, 0);
}

} // namespace
} // namespace vkp
