// Facts about a Vulkan physical device that matter to puzzles and to learners. Plain data without
// Vulkan types: it lives in device/ so that ui and app can show a device without including gpu/.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace vkp {

enum class DeviceTypeKind { Discrete, Integrated, Virtual, Cpu, Other };
const char* deviceTypeName(DeviceTypeKind type); // "discrete GPU", "CPU", ...

// The families of subgroup operations a device may support for compute kernels: the bits of
// Vulkan's VkSubgroupFeatureFlagBits, so a device's mask is used as it comes.
enum SubgroupFeature : uint32_t {
    kSubgroupBasic = 0x1,            // gl_SubgroupSize, subgroupElect, subgroupBarrier
    kSubgroupVote = 0x2,             // subgroupAll, subgroupAny, subgroupAllEqual
    kSubgroupArithmetic = 0x4,       // subgroupAdd, subgroupInclusiveAdd, ...
    kSubgroupBallot = 0x8,           // subgroupBallot, subgroupBroadcast, ...
    kSubgroupShuffle = 0x10,         // subgroupShuffle, subgroupShuffleXor
    kSubgroupShuffleRelative = 0x20, // subgroupShuffleUp, subgroupShuffleDown
    kSubgroupClustered = 0x40,       // subgroupClusteredAdd, ...
    kSubgroupQuad = 0x80,            // subgroupQuadBroadcast, subgroupQuadSwap*
};
// What one family is, for a learner: "clustered subgroup operations (subgroupClusteredAdd, ...)".
const char* subgroupFeatureName(uint32_t feature);
// A device's families, short: "basic, vote, arithmetic, ballot, shuffle, shuffle relative, quad".
std::string subgroupFeatureList(uint32_t mask);

// Optional kinds of numbers a kernel may use, and optional ways to use them, where the device
// supports them (its Vulkan features of the same names, enabled when it has them).
enum ShaderFeature : uint32_t {
    kShaderFloat64 = 0x1, // shaderFloat64
    kShaderInt64 = 0x2,   // shaderInt64
    kShaderInt16 = 0x4,   // shaderInt16
    kShaderFloat16 = 0x8, // shaderFloat16 (Vulkan 1.2)
    kShaderInt8 = 0x10,   // shaderInt8 (Vulkan 1.2)
    kStorage16Bit = 0x20, // storageBuffer16BitAccess (Vulkan 1.1): 16-bit values in buffers
    kStorage8Bit = 0x40,  // storageBuffer8BitAccess (Vulkan 1.2): 8-bit values in buffers
    kInt64Atomics = 0x80, // shaderBufferInt64Atomics (Vulkan 1.2): atomics on 64-bit buffer cells
    // VK_KHR_cooperative_matrix (tensor cores): its cooperativeMatrix feature with 16 x 16 x 16
    // products of float16 tiles into float32 at subgroup scope, and vulkanMemoryModel, which
    // every kernel that uses them is compiled for. Never set by a vkpuzzles built with Vulkan
    // headers older than the extension (Debian 12's): see gpu/context.h.
    kCooperativeMatrix = 0x100,
};
// For a learner: "64-bit floats (double, dvec*)".
const char* shaderFeatureName(uint32_t feature);
// A device's, short: "double, int64, int16" ("none").
std::string shaderFeatureList(uint32_t mask);

struct DeviceInfo {
    uint32_t index = 0; // position in vkEnumeratePhysicalDevices
    std::string name;   // "llvmpipe (LLVM 15.0.6, 256 bits)"
    DeviceTypeKind type = DeviceTypeKind::Other;
    std::string apiVersion; // "1.3.230"
    std::string driver;     // driver name and info, when the device reports them
    bool usable = true;     // false when it lacks what we need (see whyUnusable)
    std::string whyUnusable;
    uint32_t subgroupSize = 0;
    uint32_t subgroupOperations = 0; // SubgroupFeature bits a compute kernel may use
    uint32_t shaderFeatures = 0;     // ShaderFeature bits it supports (and a device enables)
    uint32_t maxWorkgroupInvocations = 0;
    std::array<uint32_t, 3> maxWorkgroupSize{};
    std::array<uint32_t, 3> maxWorkgroupCount{};
    uint32_t maxSharedMemoryBytes = 0;
    uint64_t maxStorageBufferRange = 0;
    float timestampPeriodNs = 0; // 0 when compute timestamps are not supported
    bool robustBufferAccess = false;
    bool lockstepSubgroups =
        false; // Mesa's lavapipe: a subgroup is one SIMD vector (see rewrite/lockstep_barriers.h)
    bool pipelineStatistics =
        false; // VK_KHR_pipeline_executable_properties: the driver reports on compiled kernels
};

} // namespace vkp
