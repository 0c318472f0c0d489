#include "device/device_info.h"

#include <string>

namespace vkp {

const char* deviceTypeName(DeviceTypeKind type) {
    switch (type) {
    case DeviceTypeKind::Discrete:
        return "discrete GPU";
    case DeviceTypeKind::Integrated:
        return "integrated GPU";
    case DeviceTypeKind::Virtual:
        return "virtual GPU";
    case DeviceTypeKind::Cpu:
        return "CPU";
    case DeviceTypeKind::Other:
        return "other";
    }
    return "?";
}

namespace {

struct SubgroupFamily {
    uint32_t feature;
    const char* shortName;
    const char* name;
};
constexpr SubgroupFamily kSubgroupFamilies[] = {
    {kSubgroupBasic, "basic", "subgroup operations (gl_SubgroupSize, subgroupElect, ...)"},
    {kSubgroupVote, "vote", "subgroup votes (subgroupAll, subgroupAny, subgroupAllEqual)"},
    {kSubgroupArithmetic, "arithmetic",
     "subgroup arithmetic (subgroupAdd, subgroupInclusiveAdd, subgroupMin, ...)"},
    {kSubgroupBallot, "ballot", "subgroup ballots (subgroupBallot, subgroupBroadcast, ...)"},
    {kSubgroupShuffle, "shuffle", "subgroup shuffles (subgroupShuffle, subgroupShuffleXor)"},
    {kSubgroupShuffleRelative, "shuffle relative",
     "relative subgroup shuffles (subgroupShuffleUp, subgroupShuffleDown)"},
    {kSubgroupClustered, "clustered",
     "clustered subgroup operations (subgroupClusteredAdd, subgroupClusteredMin, ...)"},
    {kSubgroupQuad, "quad",
     "subgroup quad operations (subgroupQuadBroadcast, subgroupQuadSwap...)"},
};

} // namespace

const char* shaderFeatureName(uint32_t feature) {
    switch (feature) {
    case kShaderFloat64:
        return "64-bit floats (double, dvec*)";
    case kShaderInt64:
        return "64-bit integers (int64_t, uint64_t)";
    case kShaderInt16:
        return "16-bit integers (int16_t, uint16_t)";
    case kShaderFloat16:
        return "16-bit floats (float16_t, f16vec*)";
    case kShaderInt8:
        return "8-bit integers (int8_t, uint8_t)";
    case kStorage16Bit:
        return "16-bit values in buffers (GL_EXT_shader_16bit_storage)";
    case kStorage8Bit:
        return "8-bit values in buffers (GL_EXT_shader_8bit_storage)";
    case kInt64Atomics:
        return "atomics on 64-bit buffer cells (GL_EXT_shader_atomic_int64)";
    case kCooperativeMatrix:
        return "cooperative matrices (tensor cores: GL_KHR_cooperative_matrix, 16x16x16 float16 "
               "tiles into float32)";
    }
    return "an optional kind of number";
}

std::string shaderFeatureList(uint32_t mask) {
    std::string out;
    for (auto [bit, name] :
         {std::pair{kShaderFloat64, "double"}, std::pair{kShaderInt64, "int64"},
          std::pair{kShaderInt16, "int16"}, std::pair{kShaderFloat16, "float16"},
          std::pair{kShaderInt8, "int8"}, std::pair{kStorage16Bit, "16-bit storage"},
          std::pair{kStorage8Bit, "8-bit storage"}, std::pair{kInt64Atomics, "int64 atomics"},
          std::pair{kCooperativeMatrix, "cooperative matrix"}})
        if (mask & bit) out += (out.empty() ? "" : ", ") + std::string(name);
    return out.empty() ? "none" : out;
}

const char* subgroupFeatureName(uint32_t feature) {
    for (const SubgroupFamily& f : kSubgroupFamilies)
        if (f.feature == feature) return f.name;
    return "subgroup operations";
}

std::string subgroupFeatureList(uint32_t mask) {
    std::string out;
    for (const SubgroupFamily& f : kSubgroupFamilies)
        if (mask & f.feature) out += (out.empty() ? "" : ", ") + std::string(f.shortName);
    return out.empty() ? "none" : out;
}

} // namespace vkp
