// One Vulkan setup for both users of a device, compute (gpu/context.h) and the window
// (platform/renderer.h): the instance, the physical devices and how their kinds rank, their
// extensions, and a logical device with its one queue. One error style for both: a failed call is
// vkError(what, result) ("creating X failed: VK_ERROR_... (n)"), returned by VKP_TRY where a
// function returns a Status or a Result, and by vkCheck (gpu/vk_objects.h) as a Status.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/vulkan_api.h"

#include "base/result.h"
#include "device/device_info.h"

namespace vkp {

// "VK_ERROR_DEVICE_LOST" and friends.
const char* vkResultName(VkResult result);
// ErrorKind::DeviceLost for a lost device, ErrorKind::Device otherwise; the result is kept.
Error vkError(const char* what, VkResult result);
inline Error vkError(const std::string& what, VkResult result) {
    return vkError(what.c_str(), result);
}

// Returns vkError(what, r) from the enclosing function when `call` does not return VK_SUCCESS.
#define VKP_TRY(call, what)                                                                        \
    do {                                                                                           \
        VkResult vkp_r = (call);                                                                   \
        if (vkp_r != VK_SUCCESS) return ::vkp::vkError(what, vkp_r);                               \
    } while (0)

struct InstanceRequest {
    uint32_t apiVersion = VK_API_VERSION_1_2;
    std::vector<const char*> extensions; // the window system's, for a window
    // The Khronos validation layer (and debug utils, to collect its messages) where installed:
    // an aid, so an instance without it is made all the same (InstanceMade::validation false).
    bool validation = false;
};
struct InstanceMade {
    VkInstance instance = VK_NULL_HANDLE;
    bool validation = false; // the validation layer is on
};
// Loads Vulkan first (gpu/vulkan_api.h) and points the API at the new instance. No driver at all
// is the message that says how to install one (device/vulkan_drivers.h).
Result<InstanceMade> createInstance(const InstanceRequest& request);

Result<std::vector<VkPhysicalDevice>> physicalDevices(VkInstance instance);
DeviceTypeKind deviceTypeOf(VkPhysicalDeviceType type);
// Which kind of device is chosen when nothing else decides: discrete 4, integrated 3, virtual 2,
// CPU 1, other 0.
int deviceTypeRank(DeviceTypeKind type);
// An extension the driver fails to list is taken as absent.
bool hasDeviceExtension(VkPhysicalDevice device, const char* name);

struct DeviceRequest {
    uint32_t queueFamily = 0; // one queue of it
    std::vector<const char*> extensions;
    const VkPhysicalDeviceFeatures* features = nullptr;
    void* next = nullptr; // a chain of feature structures (VkPhysicalDeviceVulkan11Features ...)
    std::string what;     // "creating the window's Vulkan device"
};
struct DeviceMade {
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
};
Result<DeviceMade> createDevice(VkPhysicalDevice physical, const DeviceRequest& request);

} // namespace vkp
