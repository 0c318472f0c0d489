#include "gpu/context.h"

#include "base/os.h"
#include "gpu/run_resources.h"
#include "gpu/vk_objects.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace vkp {
namespace {

constexpr uint32_t kApiVersion = VK_API_VERSION_1_2; // kernels are compiled for Vulkan 1.2

std::string versionText(uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
           "." + std::to_string(VK_API_VERSION_PATCH(v));
}

int computeFamily(VkPhysicalDevice pd, uint32_t* timestampBits) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
    for (uint32_t i = 0; i < n; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            *timestampBits = families[i].timestampValidBits;
            return static_cast<int>(i);
        }
    return -1;
}

// Whether the device multiplies 16 x 16 float16 tiles into 16 x 16 float32 ones at subgroup
// scope through VK_KHR_cooperative_matrix (the shape the tensor-core puzzle is written for), and
// has the Vulkan memory model such kernels are compiled for.
bool hasCooperativeMatrix(VkInstance instance, VkPhysicalDevice pd, bool memoryModel) {
#ifdef VK_KHR_cooperative_matrix
    if (!memoryModel || !hasDeviceExtension(pd, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME))
        return false;
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR cm{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &cm};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    // A loader older than the extension exports no symbol for it: ask the instance.
    auto shapes = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR>(
        vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
    if (!cm.cooperativeMatrix || !shapes) return false;
    uint32_t n = 0;
    if (shapes(pd, &n, nullptr) != VK_SUCCESS) return false;
    std::vector<VkCooperativeMatrixPropertiesKHR> all(
        n, {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR});
    VkResult r = shapes(pd, &n, all.data());
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) return false;
    all.resize(n);
    return std::any_of(all.begin(), all.end(), [](const VkCooperativeMatrixPropertiesKHR& p) {
        return p.MSize == 16 && p.NSize == 16 && p.KSize == 16 &&
               p.AType == VK_COMPONENT_TYPE_FLOAT16_KHR &&
               p.BType == VK_COMPONENT_TYPE_FLOAT16_KHR &&
               p.CType == VK_COMPONENT_TYPE_FLOAT32_KHR &&
               p.ResultType == VK_COMPONENT_TYPE_FLOAT32_KHR && p.scope == VK_SCOPE_SUBGROUP_KHR;
    });
#else
    (void)instance, (void)pd, (void)memoryModel;
    return false;
#endif
}

DeviceInfo describe(VkInstance instance, VkPhysicalDevice pd, uint32_t index) {
    VkPhysicalDeviceSubgroupProperties subgroup{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
                                            &subgroup};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
    vkGetPhysicalDeviceProperties2(pd, &props);
    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(pd, &features);
    const VkPhysicalDeviceLimits& l = props.properties.limits;
    DeviceInfo d;
    d.index = index;
    d.name = props.properties.deviceName;
    d.type = deviceTypeOf(props.properties.deviceType);
    d.apiVersion = versionText(props.properties.apiVersion);
    d.driver = std::string(driver.driverName) +
               (driver.driverInfo[0] ? " " + std::string(driver.driverInfo) : "");
    d.subgroupSize = subgroup.subgroupSize;
    if (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)
        d.subgroupOperations = subgroup.supportedOperations; // the same bits (device/device_info.h)
    d.maxWorkgroupInvocations = l.maxComputeWorkGroupInvocations;
    std::copy_n(l.maxComputeWorkGroupSize, 3, d.maxWorkgroupSize.begin());
    std::copy_n(l.maxComputeWorkGroupCount, 3, d.maxWorkgroupCount.begin());
    d.maxSharedMemoryBytes = l.maxComputeSharedMemorySize;
    d.maxStorageBufferRange = l.maxStorageBufferRange;
    d.robustBufferAccess = features.robustBufferAccess;
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                         &v12};
    VkPhysicalDeviceFeatures2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
    if (props.properties.apiVersion >= kApiVersion) vkGetPhysicalDeviceFeatures2(pd, &all);
    d.shaderFeatures =
        (features.shaderFloat64 ? kShaderFloat64 : 0u) |
        (features.shaderInt64 ? kShaderInt64 : 0u) | (features.shaderInt16 ? kShaderInt16 : 0u) |
        (v12.shaderFloat16 ? kShaderFloat16 : 0u) | (v12.shaderInt8 ? kShaderInt8 : 0u) |
        (v11.storageBuffer16BitAccess ? kStorage16Bit : 0u) |
        (v12.storageBuffer8BitAccess ? kStorage8Bit : 0u) |
        (v12.shaderBufferInt64Atomics ? kInt64Atomics : 0u) |
        (hasCooperativeMatrix(instance, pd, v12.vulkanMemoryModel) ? kCooperativeMatrix : 0u);
    d.lockstepSubgroups = driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
    d.pipelineStatistics =
        hasDeviceExtension(pd, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (d.pipelineStatistics) {
        VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &exec};
        vkGetPhysicalDeviceFeatures2(pd, &f2);
        d.pipelineStatistics = exec.pipelineExecutableInfo == VK_TRUE;
    }
    uint32_t tsBits = 0;
    int family = computeFamily(pd, &tsBits);
    d.timestampPeriodNs = tsBits > 0 ? l.timestampPeriod : 0;
    if (props.properties.apiVersion < kApiVersion) {
        d.usable = false;
        d.whyUnusable = "supports only Vulkan " + d.apiVersion + "; vkpuzzles needs 1.2";
    } else if (family < 0) {
        d.usable = false;
        d.whyUnusable = "has no compute queue";
    }
    return d;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

bool matches(const DeviceInfo& d, const std::string& selector) {
    std::string s = lower(selector);
    if (!s.empty() && std::all_of(s.begin(), s.end(), ::isdigit)) {
        uint64_t index = 0; // a number past 2^64 matches no device (std::stoul would throw)
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), index);
        return ec == std::errc() && d.index == index;
    }
    if (s == "cpu") return d.type == DeviceTypeKind::Cpu;
    if (s == "gpu") return d.type != DeviceTypeKind::Cpu;
    return lower(d.name).find(s) != std::string::npos;
}

Result<size_t> choose(const std::vector<DeviceInfo>& infos, const std::string& selector) {
    if (infos.empty())
        return Error{ErrorKind::Device,
                     "no Vulkan device found (" + os::cpuVulkanDriverAdvice() + ")"};
    int best = -1;
    for (size_t i = 0; i < infos.size(); ++i) {
        if (!infos[i].usable || (!selector.empty() && !matches(infos[i], selector))) continue;
        if (best < 0 || deviceTypeRank(infos[i].type) > deviceTypeRank(infos[best].type))
            best = static_cast<int>(i);
    }
    if (best >= 0) return static_cast<size_t>(best);
    std::string list;
    for (const DeviceInfo& d : infos)
        list += "\n  " + std::to_string(d.index) + ": " + d.name +
                (d.usable ? "" : " (unusable: " + d.whyUnusable + ")");
    if (selector.empty()) return Error{ErrorKind::Device, "no usable Vulkan device:" + list};
    return Error{ErrorKind::Device,
                 "no usable Vulkan device matches '" + selector + "'; the devices are:" + list};
}

} // namespace

Result<std::vector<DeviceInfo>> GpuContext::listDevices() {
    auto made = ::vkp::createInstance({kApiVersion, {}, false});
    if (!made) return made.error();
    VkInstance instance = made->instance;
    std::vector<DeviceInfo> infos;
    auto pds = physicalDevices(instance);
    if (!pds) {
        vkDestroyInstance(instance, nullptr);
        return pds.error();
    }
    for (uint32_t i = 0; i < pds->size(); ++i)
        infos.push_back(describe(instance, (*pds)[i], i));
    vkDestroyInstance(instance, nullptr);
    return infos;
}

Status GpuContext::createInstance(bool validation) {
    auto made = ::vkp::createInstance({kApiVersion, {}, validation});
    if (!made) return made.error();
    m_instance = made->instance;
    if (!made->validation) return okStatus();
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(m_instance, "vkCreateDebugUtilsMessengerEXT"));
    VkDebugUtilsMessengerCreateInfoEXT ci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    ci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    ci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    ci.pfnUserCallback = &GpuContext::onValidation;
    ci.pUserData = this;
    // Validation messages are an aid: without a messenger they are not collected, nothing else
    // changes.
    if (create && create(m_instance, &ci, nullptr, &m_messenger) != VK_SUCCESS)
        m_messenger = VK_NULL_HANDLE;
    return okStatus();
}

VKAPI_ATTR VkBool32 VKAPI_CALL
GpuContext::onValidation(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* self) {
    static_cast<GpuContext*>(self)->m_validationMessages.push_back(data->pMessage ? data->pMessage
                                                                                  : "");
    return VK_FALSE;
}

Status GpuContext::createDevice(VkPhysicalDevice pd) {
    uint32_t tsBits = 0;
    m_queueFamily = static_cast<uint32_t>(computeFamily(pd, &tsBits));
    VkPhysicalDeviceFeatures features{};
    features.robustBufferAccess = m_info.robustBufferAccess; // out-of-range accesses stay harmless
    // The optional kinds of numbers the device has: a kernel may use them (check/case_limits.h
    // refuses one that uses what the device lacks).
    features.shaderFloat64 = (m_info.shaderFeatures & kShaderFloat64) != 0;
    features.shaderInt64 = (m_info.shaderFeatures & kShaderInt64) != 0;
    features.shaderInt16 = (m_info.shaderFeatures & kShaderInt16) != 0;
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    v12.shaderFloat16 = (m_info.shaderFeatures & kShaderFloat16) != 0;
    v12.shaderInt8 = (m_info.shaderFeatures & kShaderInt8) != 0;
    v12.storageBuffer8BitAccess = (m_info.shaderFeatures & kStorage8Bit) != 0;
    v12.shaderBufferInt64Atomics = (m_info.shaderFeatures & kInt64Atomics) != 0;
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                         &v12};
    v11.storageBuffer16BitAccess = (m_info.shaderFeatures & kStorage16Bit) != 0;
    // Where the driver can report on compiled kernels (registers, spills), the benchmark shows it.
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exec{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    std::vector<const char*> extensions;
    void** chainEnd = &v12.pNext;
    if (m_info.pipelineStatistics) {
        exec.pipelineExecutableInfo = VK_TRUE;
        *chainEnd = &exec;
        chainEnd = &exec.pNext;
        extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    }
#ifdef VK_KHR_cooperative_matrix
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR cm{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR};
    if (m_info.shaderFeatures & kCooperativeMatrix) {
        cm.cooperativeMatrix = VK_TRUE;
        v12.vulkanMemoryModel = VK_TRUE; // what glslang compiles cooperative-matrix kernels for
        *chainEnd = &cm;
        extensions.push_back(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
    }
#endif
    auto made = ::vkp::createDevice(
        pd, {m_queueFamily, extensions, &features, &v11, "creating a device on " + m_info.name});
    if (!made) return made.error();
    m_device = made->device;
    m_queue = made->queue;
    vkGetPhysicalDeviceMemoryProperties(pd, &m_memory);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    m_storageAlignment = std::max<uint64_t>(16, props.limits.minStorageBufferOffsetAlignment);
    return okStatus();
}

bool builtWithCooperativeMatrix() {
#ifdef VK_KHR_cooperative_matrix
    return true;
#else
    return false;
#endif
}

std::vector<std::string> cpuLanesEnvironment(uint32_t lanes,
                                             const std::vector<std::string>& environment) {
    auto value = [&](std::string_view name) -> std::string {
        for (const std::string& e : environment) {
            std::string_view entry(e);
            if (entry.size() > name.size() && entry.substr(0, name.size()) == name &&
                entry[name.size()] == '=')
                return std::string(entry.substr(name.size() + 1));
        }
        return "";
    };
    std::vector<std::string> out = {std::string(kCpuLanesVariable) + "=" +
                                    std::to_string(32 * lanes)};
    // Mesa's own folder (MESA_SHADER_CACHE_DIR, else XDG_CACHE_HOME, else ~/.cache), one folder
    // below it per width.
    std::string base = value("MESA_SHADER_CACHE_DIR");
    if (base.empty() && !value("XDG_CACHE_HOME").empty()) base = value("XDG_CACHE_HOME");
    if (base.empty() && !value("HOME").empty()) base = value("HOME") + "/.cache";
    if (base.empty())
        out.push_back("MESA_SHADER_CACHE_DISABLE=true");
    else
        out.push_back("MESA_SHADER_CACHE_DIR=" + base + "/vkpuzzles-" + std::to_string(lanes) +
                      "-lanes");
    return out;
}

Result<std::unique_ptr<GpuContext>> GpuContext::create(const ContextOptions& options) {
    std::unique_ptr<GpuContext> ctx(new GpuContext());
    if (auto s = ctx->createInstance(options.validation); !s) return s.error();
    auto pds = physicalDevices(ctx->m_instance);
    if (!pds) return pds.error();
    std::vector<DeviceInfo> infos;
    for (uint32_t i = 0; i < pds->size(); ++i)
        infos.push_back(describe(ctx->m_instance, (*pds)[i], i));
    auto chosen = choose(infos, options.deviceSelector);
    if (!chosen) return chosen.error();
    ctx->m_info = infos[*chosen];
    ctx->m_options = options;
    if (auto s = ctx->createDevice((*pds)[*chosen]); !s) return s.error();
    return ctx;
}

Result<RunResources*> GpuContext::runResources() {
    if (m_runResources) return m_runResources.get();
    auto r = RunResources::create(*this);
    if (!r) return r.error();
    m_runResources.reset(*r);
    return m_runResources.get();
}

GpuContext::~GpuContext() {
    if (m_hung) {
        (void)m_runResources.release(); // see markHung(): leaking is the only way not to block
        return;
    }
    if (m_device) {
        (void)vkDeviceWaitIdle(
            m_device); // a destructor cannot report; a lost device is destroyed all the same
        m_runResources.reset();
        vkDestroyDevice(m_device, nullptr);
    }
    if (m_messenger) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(m_instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy) destroy(m_instance, m_messenger, nullptr);
    }
    if (m_instance) vkDestroyInstance(m_instance, nullptr);
}

} // namespace vkp
