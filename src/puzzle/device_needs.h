// What a puzzle's official solution needs of a device beyond plain compute: families of subgroup
// operations and optional kinds of numbers, read from its `#extension` lines (no compiler: the
// puzzle list shows them at once). A device without them cannot run the solution as written;
// the list, `show` and docs/platforms.md's matrix say so before anything runs. (A learner's own
// kernel is checked against the device from its compiled code: check/case_limits.h
// unsupportedUse.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "device/device_info.h"

namespace vkp {

struct DeviceNeeds {
    uint32_t subgroup = 0; // SubgroupFeature bits
    uint32_t shader = 0;   // ShaderFeature bits

    bool empty() const { return subgroup == 0 && shader == 0; }
    bool operator==(const DeviceNeeds&) const = default;
};

// From a kernel's `#extension NAME : enable|require` lines: GL_KHR_shader_subgroup_* families,
// GL_EXT_shader_explicit_arithmetic_types_* kinds, 16- and 8-bit storage, 64-bit atomics,
// cooperative matrices.
DeviceNeeds kernelNeeds(std::string_view text);
// The line (1-based) of the first `#extension EXTENSION : enable|require`; 0 where there is none.
uint32_t extensionLine(std::string_view text, std::string_view extension);
// The needs of several kernels together.
DeviceNeeds operator|(DeviceNeeds a, const DeviceNeeds& b);
// What of `needs` the device lacks (empty: it has it all).
DeviceNeeds missingOn(const DeviceNeeds& needs, const DeviceInfo& device);
// One name per need, short: {"subgroup basic", "subgroup arithmetic", "float16"}.
std::vector<std::string> needNames(const DeviceNeeds& needs);
// The same in a phrase: "subgroups (basic, arithmetic), float16" ("" for none).
std::string needsText(const DeviceNeeds& needs);

} // namespace vkp
