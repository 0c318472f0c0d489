#include "core/device_info.h"

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
    }
    return "an optional kind of number";
}

std::string shaderFeatureList(uint32_t mask) {
    std::string out;
    for (auto [bit, name] : {std::pair{kShaderFloat64, "double"}, std::pair{kShaderInt64, "int64"},
                             std::pair{kShaderInt16, "int16"}})
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
