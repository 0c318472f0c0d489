#include "puzzle/device_needs.h"

#include <regex>

namespace vkp {
namespace {

struct ExtensionNeed {
    const char* extension;
    uint32_t subgroup, shader;
};

// The extensions a kernel enables, and what each asks of the device.
constexpr ExtensionNeed kExtensions[] = {
    {"GL_KHR_shader_subgroup_basic", kSubgroupBasic, 0},
    {"GL_KHR_shader_subgroup_vote", kSubgroupVote, 0},
    {"GL_KHR_shader_subgroup_arithmetic", kSubgroupArithmetic, 0},
    {"GL_KHR_shader_subgroup_ballot", kSubgroupBallot, 0},
    {"GL_KHR_shader_subgroup_shuffle", kSubgroupShuffle, 0},
    {"GL_KHR_shader_subgroup_shuffle_relative", kSubgroupShuffleRelative, 0},
    {"GL_KHR_shader_subgroup_clustered", kSubgroupClustered, 0},
    {"GL_KHR_shader_subgroup_quad", kSubgroupQuad, 0},
    {"GL_EXT_shader_explicit_arithmetic_types_float16", 0, kShaderFloat16},
    {"GL_EXT_shader_explicit_arithmetic_types_float64", 0, kShaderFloat64},
    {"GL_EXT_shader_explicit_arithmetic_types_int8", 0, kShaderInt8},
    {"GL_EXT_shader_explicit_arithmetic_types_int16", 0, kShaderInt16},
    {"GL_EXT_shader_explicit_arithmetic_types_int64", 0, kShaderInt64},
    {"GL_EXT_shader_16bit_storage", 0, kStorage16Bit},
    {"GL_EXT_shader_8bit_storage", 0, kStorage8Bit},
    {"GL_EXT_shader_atomic_int64", 0, kInt64Atomics},
    {"GL_KHR_cooperative_matrix", 0, kCooperativeMatrix},
};

} // namespace

DeviceNeeds kernelNeeds(std::string_view text) {
    static const std::regex line(
        R"(^[ \t]*#[ \t]*extension[ \t]+(\w+)[ \t]*:[ \t]*(enable|require)\b.*)");
    DeviceNeeds needs;
    std::match_results<std::string_view::const_iterator> m;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        std::string_view row = text.substr(at, end == std::string_view::npos ? end : end - at);
        at = end == std::string_view::npos ? text.size() : end + 1;
        if (row.find("#") == std::string_view::npos ||
            !std::regex_match(row.begin(), row.end(), m, line))
            continue;
        for (const ExtensionNeed& e : kExtensions)
            if (m[1] == e.extension) {
                needs.subgroup |= e.subgroup;
                needs.shader |= e.shader;
            }
    }
    return needs;
}

DeviceNeeds operator|(DeviceNeeds a, const DeviceNeeds& b) {
    a.subgroup |= b.subgroup;
    a.shader |= b.shader;
    return a;
}

DeviceNeeds missingOn(const DeviceNeeds& needs, const DeviceInfo& device) {
    return {needs.subgroup & ~device.subgroupOperations, needs.shader & ~device.shaderFeatures};
}

std::vector<std::string> needNames(const DeviceNeeds& needs) {
    std::vector<std::string> names;
    for (uint32_t bit = 1; bit != 0 && bit <= needs.subgroup; bit <<= 1)
        if (needs.subgroup & bit) names.push_back("subgroup " + subgroupFeatureList(bit));
    for (uint32_t bit = 1; bit != 0 && bit <= needs.shader; bit <<= 1)
        if (needs.shader & bit) names.push_back(shaderFeatureList(bit));
    return names;
}

std::string needsText(const DeviceNeeds& needs) {
    std::string out;
    if (needs.subgroup) out = "subgroups (" + subgroupFeatureList(needs.subgroup) + ")";
    if (needs.shader) out += (out.empty() ? "" : ", ") + shaderFeatureList(needs.shader);
    return out;
}

} // namespace vkp
