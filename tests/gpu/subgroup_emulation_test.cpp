// Subgroups of 32 and 64 lanes on the test's device (rewrite/subgroup_emulation.h): one kernel
// using every kind of subgroup operation and built-in, emulated and run on lavapipe, against a
// model of a subgroup of that many lanes computed here: whole workgroups, a partial last subgroup
// (workgroups of 100 threads), threads that ended early, operations only some lanes run, and
// barriers between them.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "gpu/context.h"
#include "gpu/kernel.h"
#include "rewrite/instrument.h"
#include "rewrite/subgroup_emulation.h"
#include "shader/compiler.h"
#include "shader/spirv_tools.h"
#include "support/test_env.h"

namespace vkp {
namespace {

constexpr uint32_t kOutputs = 26;

const char* kKernel = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer R { uint r[]; };
shared uint total;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(a.length())) return;
    uint o = i * 26u;
    uint v = a[i];
    r[o + 0u] = gl_SubgroupSize;
    r[o + 1u] = gl_SubgroupInvocationID;
    r[o + 2u] = gl_SubgroupID;
    r[o + 3u] = gl_NumSubgroups;
    r[o + 4u] = subgroupAdd(v);
    r[o + 5u] = subgroupInclusiveAdd(v);
    r[o + 6u] = subgroupExclusiveAdd(v);
    r[o + 7u] = subgroupMax(v);
    uvec4 odd = subgroupBallot((v & 1u) == 1u);
    r[o + 8u] = odd.x;
    r[o + 9u] = odd.y;
    r[o + 10u] = subgroupBallotBitCount(odd);
    r[o + 11u] = subgroupBallotExclusiveBitCount(odd);
    r[o + 12u] = subgroupShuffleXor(v, 1u);
    r[o + 13u] = subgroupBroadcast(v, 3u);
    r[o + 14u] = subgroupBroadcastFirst(v);
    r[o + 15u] = uint(subgroupElect());
    r[o + 16u] = uint(subgroupAny(v == 7u)) + 2u * uint(subgroupAll(v < 1000u));
    r[o + 17u] = gl_SubgroupLtMask.x ^ (gl_SubgroupGeMask.y * 3u);
    r[o + 18u] = uint(subgroupAdd(float(v)));
    uvec2 pair = subgroupInclusiveAdd(uvec2(v, 1u));
    r[o + 19u] = pair.x * 1000u + pair.y;
    r[o + 20u] = subgroupBallotFindLSB(odd) * 1000u + subgroupBallotFindMSB(odd);
    r[o + 21u] = subgroupShuffleDown(v, 1u);
    if (v % 3u != 0u) {
        r[o + 22u] = subgroupAdd(v);
        r[o + 23u] = uint(subgroupElect());
        r[o + 24u] = subgroupBroadcastFirst(v);
    }
    if (gl_LocalInvocationIndex == 0u) total = 0u;
    barrier();
    if (gl_SubgroupID == 0u) {
        uint count = subgroupAdd(1u);
        if (subgroupElect()) atomicAdd(total, count);
    }
    barrier();
    r[o + 25u] = total;
}
)";

// The outputs of thread i (global), as a subgroup of `lanes` lanes computes them.
std::vector<uint32_t> model(const std::vector<uint32_t>& a, uint32_t group, uint32_t lanes) {
    uint32_t n = uint32_t(a.size());
    std::vector<uint32_t> r(size_t(n) * kOutputs, 0);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t local = i % group, lane = local % lanes;
        uint32_t first = i - lane, wgFirst = i - local;
        uint32_t end = std::min({first + lanes, wgFirst + group, n}); // lanes that ran
        auto out = [&](uint32_t k) -> uint32_t& { return r[size_t(i) * kOutputs + k]; };
        uint32_t sum = 0, incl = 0, excl = 0, mx = 0, oddCount = 0, oddBefore = 0;
        uint64_t odd = 0;
        bool any7 = false, allSmall = true;
        uint32_t divSum = 0, divFirst = ~0u;
        for (uint32_t j = first; j < end; ++j) {
            sum += a[j];
            mx = std::max(mx, a[j]);
            if (j <= i) incl += a[j];
            if (j < i) excl += a[j];
            if (a[j] & 1) {
                odd |= uint64_t(1) << (j - first);
                ++oddCount;
                if (j < i) ++oddBefore;
            }
            any7 |= a[j] == 7;
            allSmall &= a[j] < 1000;
            if (a[j] % 3 != 0) {
                divSum += a[j];
                if (divFirst == ~0u) divFirst = j;
            }
        }
        out(0) = lanes;
        out(1) = lane;
        out(2) = local / lanes;
        out(3) = (group + lanes - 1) / lanes;
        out(4) = sum;
        out(5) = incl;
        out(6) = excl;
        out(7) = mx;
        out(8) = uint32_t(odd);
        out(9) = uint32_t(odd >> 32);
        out(10) = oddCount;
        out(11) = oddBefore;
        uint32_t x = first + (lane ^ 1);
        out(12) = (lane ^ 1) < lanes && x < end ? a[x] : ~0u; // ~0u: not compared
        out(13) = first + 3 < end ? a[first + 3] : ~0u;
        out(14) = a[first];
        out(15) = i == first ? 1 : 0;
        out(16) = uint32_t(any7) + 2 * uint32_t(allSmall);
        uint64_t lt = (uint64_t(1) << lane) - 1,
                 ge = ~lt & (lanes == 64 ? ~0ull : (1ull << lanes) - 1);
        out(17) = uint32_t(lt) ^ (uint32_t(ge >> 32) * 3);
        out(18) = sum;
        out(19) = incl * 1000 + (i - first + 1);
        out(20) =
            odd ? uint32_t(std::countr_zero(odd)) * 1000 + uint32_t(63 - std::countl_zero(odd))
                : ~0u;
        out(21) = i + 1 < end ? a[i + 1] : ~0u;
        if (a[i] % 3 != 0) {
            out(22) = divSum;
            out(23) = i == divFirst ? 1 : 0;
            out(24) = a[divFirst];
        }
        uint32_t wgEnd = std::min(wgFirst + group, n);
        out(25) = std::min(wgEnd - wgFirst, lanes); // the lanes of the first subgroup that ran
    }
    return r;
}

TEST(SubgroupEmulationTest, EveryOperationAndBuiltInAsASubgroupOfThatManyLanes) {
    auto ctx = GpuContext::create(test::deviceOptions(true));
    ASSERT_TRUE(ctx.ok()) << ctx.error().str();
    uint32_t real = (*ctx)->info().subgroupSize;
    if (32 % real != 0) GTEST_SKIP() << "the device's subgroups have " << real << " lanes";
    CompileResult c = Compiler().compile(kKernel, "every-op.comp");
    ASSERT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    // 3 workgroups of 100 threads, the last 10 threads ended at once.
    std::vector<uint32_t> a(290);
    for (uint32_t i = 0; i < a.size(); ++i)
        a[i] = (i * 7919u + 13u) % 97u;
    for (uint32_t lanes : kEmulatedSubgroupSizes) {
        if (lanes % real != 0) continue;
        auto emulated = emulateSubgroupSize(c.spirv, lanes, real);
        ASSERT_TRUE(emulated.ok()) << emulated.error().message;
        Status valid = validateSpirv(*emulated);
        ASSERT_TRUE(valid.ok()) << valid.error().message;
        auto kernel = GpuKernel::create(**ctx, *emulated, {0, 1});
        ASSERT_TRUE(kernel.ok()) << kernel.error().str();
        std::vector<uint32_t> zeros(a.size() * kOutputs, 0);
        RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
        auto out = (*kernel)->run({{100, 1, 1}, {3, 1, 1}, {}}, buffers, 60000);
        ASSERT_TRUE(out.ok()) << out.error().str();
        std::vector<uint32_t> want = model(a, 100, lanes);
        const std::vector<uint32_t>& got = out->buffers[1];
        ASSERT_EQ(got.size(), want.size());
        size_t wrong = 0;
        for (size_t k = 0; k < want.size(); ++k) {
            if (want[k] == ~0u) continue; // undefined: the source lane does not exist
            if (got[k] != want[k] && ++wrong <= 12)
                ADD_FAILURE() << lanes << " lanes: thread " << k / kOutputs << ", output "
                              << k % kOutputs << ": expected " << want[k] << ", got " << got[k];
        }
        EXPECT_EQ(wrong, 0u) << lanes << " lanes";
    }
}

// Barriers keep their meaning around loops whose trips differ between subgroups: each subgroup
// sums rows of its own (a different number each), a barrier, then the first subgroup polls until
// its slowest lane is done while the others wait at the next barrier; every thread then reads all
// the subgroups' sums.
const char* kLoopsKernel = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer R { uint r[]; };
shared uint partial[64];
void main() {
    uint lane = gl_SubgroupInvocationID, sid = gl_SubgroupID;
    uint acc = 0u;
    for (uint row = sid; row < 9u; row += gl_NumSubgroups)
        acc += subgroupAdd(a[(row * 64u + lane) % 997u]);
    if (subgroupElect()) partial[sid] = acc;
    barrier();
    uint polls = 0u;
    if (sid == 0u) {
        while (subgroupAny(polls < lane % 7u)) ++polls;
    }
    barrier();
    uint sum = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) sum += partial[s];
    r[gl_GlobalInvocationID.x] = sum * 100u + polls;
}
)";

TEST(SubgroupEmulationTest, BarriersHoldAroundLoopsWhoseTripsDifferBetweenSubgroups) {
    auto ctx = GpuContext::create(test::deviceOptions(true));
    ASSERT_TRUE(ctx.ok()) << ctx.error().str();
    uint32_t real = (*ctx)->info().subgroupSize;
    if (32 % real != 0) GTEST_SKIP() << "the device's subgroups have " << real << " lanes";
    CompileResult c = Compiler().compile(kLoopsKernel, "loops.comp");
    ASSERT_TRUE(c.ok()) << (c.diagnostics.empty() ? "" : c.diagnostics[0].str());
    std::vector<uint32_t> a(997);
    for (uint32_t i = 0; i < a.size(); ++i)
        a[i] = (i * 613u + 5u) % 89u;
    const uint32_t group = 200, groups = 2;
    for (uint32_t lanes : kEmulatedSubgroupSizes) {
        if (lanes % real != 0) continue;
        auto emulated = emulateSubgroupSize(c.spirv, lanes, real);
        ASSERT_TRUE(emulated.ok()) << emulated.error().message;
        auto kernel = GpuKernel::create(**ctx, *emulated, {0, 1});
        ASSERT_TRUE(kernel.ok()) << kernel.error().str();
        std::vector<uint32_t> zeros(group * groups, 0);
        RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
        auto out = (*kernel)->run({{group, 1, 1}, {groups, 1, 1}, {}}, buffers, 60000);
        ASSERT_TRUE(out.ok()) << out.error().str();
        uint32_t subgroups = (group + lanes - 1) / lanes, sum = 0;
        for (uint32_t s = 0; s < subgroups; ++s)
            for (uint32_t row = s; row < 9; row += subgroups)
                for (uint32_t l = 0; l < lanes && s * lanes + l < group; ++l)
                    sum += a[(row * 64 + l) % 997];
        uint32_t slowest = std::min(lanes, 7u) - 1; // the largest lane % 7 in the first subgroup
        for (uint32_t i = 0; i < group * groups; ++i) {
            uint32_t polls = (i % group) < lanes ? slowest : 0;
            ASSERT_EQ(out->buffers[1][i], sum * 100 + polls) << lanes << " lanes, thread " << i;
        }
    }
}

// A workgroup of 100 threads leaves the last real subgroup partial; lavapipe runs its missing lanes
// through loops, the barrier's wait among them, and they must not hold the real ones there.
TEST(SubgroupEmulationTest, APartialRealSubgroupPassesBarriersWithTheOthers) {
    auto ctx = GpuContext::create(test::deviceOptions(true));
    ASSERT_TRUE(ctx.ok()) << ctx.error().str();
    uint32_t real = (*ctx)->info().subgroupSize;
    if (32 % real != 0 || 100 % real == 0) GTEST_SKIP() << real << " lanes";
    const char* source = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer R { uint r[]; };
shared uint sums[16];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint s = subgroupAdd(a[i]);
    if (gl_SubgroupInvocationID == 0u) sums[gl_SubgroupID] = s;
    barrier();
    r[i] = 1000u + sums[0];
}
)";
    CompileResult c = Compiler().compile(source, "partial.comp");
    ASSERT_TRUE(c.ok());
    std::vector<uint32_t> a(100, 1);
    for (uint32_t lanes : kEmulatedSubgroupSizes) {
        if (lanes % real != 0) continue;
        auto emulated = emulateSubgroupSize(c.spirv, lanes, real);
        ASSERT_TRUE(emulated.ok()) << emulated.error().message;
        auto kernel = GpuKernel::create(**ctx, *emulated, {0, 1});
        ASSERT_TRUE(kernel.ok()) << kernel.error().str();
        std::vector<uint32_t> zeros(100, 0);
        RunBuffer buffers[] = {{0, a, false}, {1, zeros, true}};
        auto out = (*kernel)->run({{100, 1, 1}, {1, 1, 1}, {}}, buffers, 60000);
        ASSERT_TRUE(out.ok()) << out.error().str();
        EXPECT_EQ(out->buffers[1], std::vector<uint32_t>(100, 1000 + lanes)) << lanes << " lanes";
    }
}

} // namespace
} // namespace vkp
