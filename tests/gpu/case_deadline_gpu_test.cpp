// Each item of a batch has its own deadline, counted from when the item before it finished. The
// items here are launches too large to finish until the test opens their gate, so how long each
// runs is set by the host, not by the machine's speed: a gate never opened is a case that cannot
// finish, and gates opened a second apart make a batch longer than one budget whose every case
// finishes well within its own.
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <thread>

#include "gpu/context.h"
#include "gpu/kernel.h"
#include "gpu/run_resources.h"
#include "shader/compiler.h"
#include "support/test_env.h"

namespace vkp {
namespace {

constexpr uint32_t kMarker = 0x6a7e5eedu; // marks a gate buffer in the arena

// Writes its index + 1. While its gate is closed, each of its 1M threads does up to 50000 rounds
// of trigonometry, looking at the gate each round: minutes on 2 cores, seconds on 64 (lavapipe cuts
// off longer loops, so the launch makes it long), and on a GPU, where the gate word is one address
// that every thread reads atomically, as long; once the gate opens, the threads left stop at once.
const char* kGateKernel = R"(#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) coherent buffer Gate { uint marker; uint index; uint open; };
layout(set = 0, binding = 1) buffer Result { float result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float y = float(i);
    for (uint k = 0u; k < 50000u && atomicOr(open, 0u) == 0u; ++k)
        y = sin(y) * 1.0001 + cos(y * 0.5);
    if (i == 0u) result[0] = float(index + 1u);
    if (y == 0.123f) result[1] = y; // y is used, so the loop is kept
}
)";
constexpr uint32_t kGroups = 4096;

// A fresh context per test: one that gave a case up is left marked hung.
struct GateBatch {
    std::unique_ptr<GpuContext> ctx;
    std::unique_ptr<GpuKernel> kernel;
    std::vector<std::vector<uint32_t>> gates, results;
    std::vector<RunItem> items;

    // `count` items; those in `open` may run at once, the others wait for openGate.
    bool make(uint32_t count, std::vector<bool> open) {
        auto c = GpuContext::create(test::deviceOptions());
        EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().str());
        if (!c.ok()) return false;
        ctx = std::move(*c);
        CompileResult compiled = Compiler().compile(kGateKernel, "gate.comp");
        EXPECT_TRUE(compiled.ok());
        auto k = GpuKernel::create(*ctx, compiled.spirv, {0, 1});
        EXPECT_TRUE(k.ok()) << (k.ok() ? "" : k.error().str());
        if (!k.ok()) return false;
        kernel = std::move(*k);
        for (uint32_t i = 0; i < count; ++i) {
            gates.push_back({kMarker, i, open[i] ? 1u : 0u});
            results.push_back({0, 0});
        }
        for (uint32_t i = 0; i < count; ++i)
            items.push_back({{{256, 1, 1}, {kGroups, 1, 1}, {}},
                             {{0, gates[i], false}, {1, results[i], true}}});
        return true;
    }

    // Opens gate `index` of the batch under way: the device reads the batch's buffers from the
    // arena (RunResources), so its gate is found there by its marker and opened in place.
    bool openGate(uint32_t index) {
        RunResources* res = *ctx->runResources();
        auto* words = reinterpret_cast<uint32_t*>(res->arenaMap());
        size_t count = res->arenaBytes() / 4;
        for (size_t w = 0; w + 2 < count; ++w)
            if (words[w] == kMarker && words[w + 1] == index) {
                std::atomic_ref<uint32_t>(words[w + 2]).store(1);
                return true;
            }
        return false;
    }
};

double secondsIn(const std::string& message, const std::string& before) {
    size_t at = message.find(before);
    double seconds = -1;
    if (at != std::string::npos) std::sscanf(message.c_str() + at + before.size(), "%lf", &seconds);
    return seconds;
}

TEST(CaseDeadlineGpuTest, TheStuckCaseIsNamedWithTheTimeItRanAndTheOthersKeepTheirResults) {
    GateBatch b;
    ASSERT_TRUE(b.make(4, {true, true, false, true})); // case 3 waits for a gate never opened
    auto out = b.kernel->runAll(b.items, 1000);
    b.openGate(2); // lets the device finish; the test no longer waits for it
    ASSERT_TRUE(out.ok()) << out.error().str();
    ASSERT_EQ(out->size(), 4u);
    for (uint32_t i : {0u, 1u}) {
        ASSERT_TRUE((*out)[i].ok()) << i << ": " << (*out)[i].error().str();
        EXPECT_EQ(std::bit_cast<float>((*out)[i]->buffers[1].at(0)), float(i + 1))
            << "case " << i + 1 << " finished before the stuck one: its result is read";
    }
    ASSERT_FALSE((*out)[2].ok());
    EXPECT_EQ((*out)[2].error().kind, ErrorKind::Timeout);
    const std::string& stuck = (*out)[2].error().message;
    EXPECT_NE(stuck.find("did not finish within 1 s: it was given up after running "),
              std::string::npos)
        << stuck;
    double ran = secondsIn(stuck, "given up after running ");
    EXPECT_GE(ran, 1.0) << stuck; // it had its whole budget
    // One budget, not the batch's 4 (1 s x 4 cases) that a single wait for the batch would give.
    EXPECT_LT(ran, 4.0) << stuck;
    ASSERT_FALSE((*out)[3].ok());
    EXPECT_EQ((*out)[3].error().message, "did not run: an earlier case never finished");
    EXPECT_TRUE(b.ctx->hung()) << "the stuck case may still run: the device is not reused";
}

TEST(CaseDeadlineGpuTest, ABatchLongerThanOneBudgetIsNotGivenUpWhileEachCaseFinishesInItsOwn) {
    GateBatch b;
    ASSERT_TRUE(b.make(4, {false, false, false, false}));
    // Gate i opens (i + 1) seconds after the start: each case runs about 1 s of its 3 s budget,
    // the batch about 4 s, more than one budget.
    constexpr uint64_t kBudgetMs = 3000;
    auto start = std::chrono::steady_clock::now();
    std::thread opener([&] {
        for (uint32_t i = 0; i < 4; ++i) {
            std::this_thread::sleep_until(start + std::chrono::seconds(i + 1));
            EXPECT_TRUE(b.openGate(i)) << "gate " << i << " not found in the arena";
        }
    });
    auto out = b.kernel->runAll(b.items, kBudgetMs);
    double batchMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    opener.join();
    ASSERT_TRUE(out.ok()) << out.error().str();
    for (uint32_t i = 0; i < 4; ++i) {
        ASSERT_TRUE((*out)[i].ok()) << "case " << i + 1 << ": " << (*out)[i].error().str();
        EXPECT_EQ(std::bit_cast<float>((*out)[i]->buffers[1].at(0)), float(i + 1));
    }
    EXPECT_GT(batchMs, double(kBudgetMs)) << "the batch must outlast one budget to prove anything";
    EXPECT_FALSE(b.ctx->hung());
}

} // namespace
} // namespace vkp
