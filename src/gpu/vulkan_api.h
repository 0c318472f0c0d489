// The Vulkan API as this build reaches it: linked against the loader (Linux: libvulkan), or
// through volk (VKP_VOLK, the Windows build), which finds vulkan-1.dll when the program runs, so
// that a machine without one gets a message of ours rather than the system's refusal to start.
// Every file that calls Vulkan includes this, never <vulkan/vulkan.h> itself.
#pragma once

#ifdef VKP_VOLK
#include <volk.h>
#else
#include <vulkan/vulkan.h>
#endif

#include "base/result.h"

namespace vkp {

// Finds the Vulkan loader, once; an error says what is missing and how to get it. Call before the
// first Vulkan call (creating an instance, listing layers).
Status loadVulkan();
// Points the API at an instance's functions (volk); nothing where the loader is linked.
void useVulkanInstance(VkInstance instance);

} // namespace vkp
