#include "gpu/vk_setup.h"

#include <algorithm>
#include <cstring>

#include "device/vulkan_drivers.h"

namespace vkp {

const char* vkResultName(VkResult result) {
    switch (result) {
    case VK_SUCCESS:
        return "VK_SUCCESS";
    case VK_TIMEOUT:
        return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
        return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
        return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
        return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT:
        return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
        return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
        return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS:
        return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_INVALID_SHADER_NV:
        return "VK_ERROR_INVALID_SHADER_NV";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
        return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_SURFACE_LOST_KHR:
        return "VK_ERROR_SURFACE_LOST_KHR";
    case VK_ERROR_OUT_OF_DATE_KHR:
        return "VK_ERROR_OUT_OF_DATE_KHR";
    default:
        return "VkResult error";
    }
}

Error vkError(const char* what, VkResult result) {
    ErrorKind kind = result == VK_ERROR_DEVICE_LOST ? ErrorKind::DeviceLost : ErrorKind::Device;
    return Error{kind,
                 std::string(what) + " failed: " + vkResultName(result) + " (" +
                     std::to_string(result) + ")",
                 {},
                 result};
}

Result<InstanceMade> createInstance(const InstanceRequest& request) {
    if (auto s = loadVulkan(); !s) return s.error();
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkpuzzles";
    app.apiVersion = request.apiVersion;
    std::vector<const char*> layers, extensions = request.extensions;
    InstanceMade made;
    if (request.validation) {
        // Validation is an aid: layers the loader fails to list are taken as absent.
        uint32_t n = 0;
        std::vector<VkLayerProperties> available;
        if (vkEnumerateInstanceLayerProperties(&n, nullptr) == VK_SUCCESS) {
            available.resize(n);
            VkResult r = vkEnumerateInstanceLayerProperties(&n, available.data());
            available.resize(r == VK_SUCCESS || r == VK_INCOMPLETE ? n : 0);
        }
        for (const auto& l : available)
            if (std::strcmp(l.layerName, "VK_LAYER_KHRONOS_validation") == 0)
                made.validation = true;
        if (made.validation) {
            layers.push_back("VK_LAYER_KHRONOS_validation");
            extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        }
    }
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    ci.enabledLayerCount = static_cast<uint32_t>(layers.size());
    ci.ppEnabledLayerNames = layers.data();
    ci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    ci.ppEnabledExtensionNames = extensions.data();
    VkResult r = vkCreateInstance(&ci, nullptr, &made.instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return Error{ErrorKind::Device, noVulkanDriverMessage(), {}, r};
    if (r != VK_SUCCESS) return vkError("creating the Vulkan instance", r);
    useVulkanInstance(made.instance);
    return made;
}

Result<std::vector<VkPhysicalDevice>> physicalDevices(VkInstance instance) {
    uint32_t n = 0;
    VKP_TRY(vkEnumeratePhysicalDevices(instance, &n, nullptr), "listing the Vulkan devices");
    std::vector<VkPhysicalDevice> pds(n);
    VkResult r = vkEnumeratePhysicalDevices(instance, &n, pds.data());
    if (r != VK_INCOMPLETE) VKP_TRY(r, "listing the Vulkan devices");
    pds.resize(n);
    return pds;
}

DeviceTypeKind deviceTypeOf(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return DeviceTypeKind::Discrete;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return DeviceTypeKind::Integrated;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return DeviceTypeKind::Virtual;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return DeviceTypeKind::Cpu;
    default:
        return DeviceTypeKind::Other;
    }
}

int deviceTypeRank(DeviceTypeKind type) {
    switch (type) {
    case DeviceTypeKind::Discrete:
        return 4;
    case DeviceTypeKind::Integrated:
        return 3;
    case DeviceTypeKind::Virtual:
        return 2;
    case DeviceTypeKind::Cpu:
        return 1;
    default:
        return 0;
    }
}

bool hasDeviceExtension(VkPhysicalDevice device, const char* name) {
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(device, nullptr, &n, nullptr) != VK_SUCCESS)
        return false;
    std::vector<VkExtensionProperties> all(n);
    VkResult r = vkEnumerateDeviceExtensionProperties(device, nullptr, &n, all.data());
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) return false;
    all.resize(n);
    return std::any_of(all.begin(), all.end(), [&](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, name) == 0;
    });
}

Result<DeviceMade> createDevice(VkPhysicalDevice physical, const DeviceRequest& request) {
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = request.queueFamily;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    ci.pNext = request.next;
    ci.queueCreateInfoCount = 1;
    ci.pQueueCreateInfos = &queue;
    ci.enabledExtensionCount = static_cast<uint32_t>(request.extensions.size());
    ci.ppEnabledExtensionNames = request.extensions.data();
    ci.pEnabledFeatures = request.features;
    DeviceMade made;
    VKP_TRY(vkCreateDevice(physical, &ci, nullptr, &made.device), request.what);
    vkGetDeviceQueue(made.device, request.queueFamily, 0, &made.queue);
    return made;
}

} // namespace vkp
