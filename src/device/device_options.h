// Which Vulkan device to open and how: the options of gpu's GpuContext::create, as plain data
// without Vulkan types, in device/ so that ui and app can name a device without including gpu/.
#pragma once

#include <cstdint>
#include <string>

namespace vkp {

struct ContextOptions {
    // Which device: "" picks the best (discrete > integrated > virtual > CPU); a number is an
    // index from `vkpuzzles devices`; "cpu" or "gpu" a kind; other text a part of the name.
    std::string deviceSelector;
    bool validation = false; // enable VK_LAYER_KHRONOS_validation and collect its messages
    // The kernels are checked, not timed: a worker process asks its driver to compile them fast
    // rather than well (kQuickCompileEnvironment, gpu/context.h). Not for bench.
    bool quickCompile = false;
    // A CPU device (lavapipe) started with this many subgroup lanes (4, 8, 16); 0: its own
    // width. Only a worker process can honour it (kCpuLanesVariable, gpu/context.h).
    uint32_t subgroupLanes = 0;
};

// The device selector from the environment (VKPUZZLES_DEVICE), or "".
std::string deviceSelectorFromEnvironment();

} // namespace vkp
