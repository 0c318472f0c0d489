// The Vulkan instance and one logical device for running puzzle kernels.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpu/vk_setup.h"
#include "gpu/vulkan_api.h"

#include "base/result.h"
#include "device/device_info.h"
#include "device/device_options.h"

namespace vkp {

class RunResources;

// The environment that asks drivers to trade a kernel's speed for its compile time, given to a
// worker process that checks (ContextOptions::quickCompile) where the user has not set the
// variable: lavapipe's GALLIVM_PERF=nopt (no LLVM optimisation passes). A check's cases are
// small, so its pipelines build 1.2-1.7x sooner (Mesa 22 / Mesa 25) and run a little slower.
// Drivers read it once per process, when the first device opens: hence a process's start.
struct EnvironmentSetting {
    const char* name;
    const char* value;
};
inline constexpr EnvironmentSetting kQuickCompileEnvironment[] = {{"GALLIVM_PERF", "nopt"}};
// lavapipe's vector width in bits, read once when a process first opens it: its subgroup size
// is width / 32 (ContextOptions::subgroupLanes). Mesa's shader cache does not tell widths apart
// (Mesa 22: a kernel compiled at 8 lanes was run at 4 and 16 from the cache, with 8-lane ids),
// so each width gets a cache folder of its own (cpuLanesEnvironment).
inline constexpr const char* kCpuLanesVariable = "LP_NATIVE_VECTOR_WIDTH";
// "NAME=VALUE" settings that start lavapipe with `lanes` subgroup lanes in a new process whose
// environment is `environment` (NAME=VALUE entries; its cache folder beside Mesa's usual one).
std::vector<std::string> cpuLanesEnvironment(uint32_t lanes,
                                             const std::vector<std::string>& environment);

// Whether this build can ask a device for cooperative matrices (kCooperativeMatrix): false where
// it was built with Vulkan headers older than VK_KHR_cooperative_matrix (1.3.255; Debian 12's).
bool builtWithCooperativeMatrix();

class GpuContext {
  public:
    static Result<std::unique_ptr<GpuContext>> create(const ContextOptions& options);
    static Result<std::vector<DeviceInfo>> listDevices();
    ~GpuContext();
    GpuContext(const GpuContext&) = delete;
    GpuContext& operator=(const GpuContext&) = delete;

    const DeviceInfo& info() const { return m_info; }
    const ContextOptions& options() const { return m_options; } // what it was created with
    bool validationEnabled() const { return m_messenger != VK_NULL_HANDLE; }
    const std::vector<std::string>& validationMessages() const { return m_validationMessages; }

    // After a timed-out wait the device may still be running the kernel: destroying it would
    // block until the kernel ends (forever for an endless loop). A hung context leaks instead.
    void markHung() { m_hung = true; }
    bool hung() const { return m_hung; }

    // Buffers memory, command buffer, fence and queries shared by every run (created on first use).
    Result<RunResources*> runResources();

    VkDevice device() const { return m_device; }
    VkQueue queue() const { return m_queue; }
    uint32_t queueFamily() const { return m_queueFamily; }
    const VkPhysicalDeviceMemoryProperties& memoryProperties() const { return m_memory; }
    uint64_t storageOffsetAlignment() const { return m_storageAlignment; }

  private:
    GpuContext() = default;
    Status createInstance(bool validation);
    Status createDevice(VkPhysicalDevice physical);
    static VKAPI_ATTR VkBool32 VKAPI_CALL onValidation(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                       VkDebugUtilsMessageTypeFlagsEXT,
                                                       const VkDebugUtilsMessengerCallbackDataEXT*,
                                                       void*);

    VkInstance m_instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT m_messenger = VK_NULL_HANDLE;
    VkDevice m_device = VK_NULL_HANDLE;
    VkQueue m_queue = VK_NULL_HANDLE;
    uint32_t m_queueFamily = 0;
    VkPhysicalDeviceMemoryProperties m_memory{};
    uint64_t m_storageAlignment = 16;
    DeviceInfo m_info;
    ContextOptions m_options;
    std::vector<std::string> m_validationMessages;
    bool m_hung = false;
    std::unique_ptr<RunResources> m_runResources;
};

} // namespace vkp
