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

namespace {

// Calls `f(name, line)` for each `#extension NAME : enable|require` line of a kernel (1-based).
template <class F> void forEachExtension(std::string_view text, F f) {
    static const std::regex line(
        R"(^[ \t]*#[ \t]*extension[ \t]+(\w+)[ \t]*:[ \t]*(enable|require)\b.*)");
    std::match_results<std::string_view::const_iterator> m;
    uint32_t number = 0;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        std::string_view row = text.substr(at, end == std::string_view::npos ? end : end - at);
        at = end == std::string_view::npos ? text.size() : end + 1;
        ++number;
        if (row.find("#") == std::string_view::npos ||
            !std::regex_match(row.begin(), row.end(), m, line))
            continue;
        f(std::string_view(&*m[1].first, static_cast<size_t>(m[1].length())), number);
    }
}

} // namespace

DeviceNeeds kernelNeeds(std::string_view text) {
    DeviceNeeds needs;
    forEachExtension(text, [&](std::string_view name, uint32_t) {
        for (const ExtensionNeed& e : kExtensions)
            if (name == e.extension) {
                needs.subgroup |= e.subgroup;
                needs.shader |= e.shader;
            }
    });
    return needs;
}

uint32_t extensionLine(std::string_view text, std::string_view extension) {
    uint32_t first = 0;
    forEachExtension(text, [&](std::string_view name, uint32_t line) {
        if (!first && name == extension) first = line;
    });
    return first;
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
