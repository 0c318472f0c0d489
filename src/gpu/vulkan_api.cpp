#include "gpu/vulkan_api.h"

namespace vkp {

#ifdef VKP_VOLK
Status loadVulkan() {
    static const VkResult loaded = volkInitialize();
    if (loaded != VK_SUCCESS)
        return Error{ErrorKind::Device,
                     "this machine has no Vulkan loader (vulkan-1.dll): install or update the "
                     "graphics driver (NVIDIA, AMD and Intel drivers include Vulkan), or a CPU "
                     "Vulkan driver"};
    return okStatus();
}

void useVulkanInstance(VkInstance instance) {
    volkLoadInstance(instance); // device functions through the loader's trampolines: any device
}
#else
Status loadVulkan() {
    return okStatus(); // linked: the system's dynamic linker found it before main
}

void useVulkanInstance(VkInstance) {}
#endif

} // namespace vkp
