// Draws Dear ImGui into the window with Vulkan: its own instance and device (never the one that
// runs learners' kernels), a swapchain that can be read back for screenshots, and the ImGui
// Vulkan backend from Debian's libimgui.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/vulkan_api.h"

#include "base/result.h"

struct ImDrawData;

namespace vkp::platform {

class Window;

struct RendererOptions {
    bool vsync = true; // FIFO; off: MAILBOX or IMMEDIATE when the surface offers them
};

// A frame read back from the swapchain, as 8-bit RGBA rows from the top.
struct Image {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgba;
};

class Renderer {
  public:
    static Result<std::unique_ptr<Renderer>> create(Window& window, const RendererOptions& options);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // Starts the ImGui Vulkan backend and uploads the font atlas (ImGui's context must exist).
    Status initImGui();
    void newImGuiFrame(); // ImGui's Vulkan backend starts a frame (before the GLFW backend's)
    // After the font atlas was rebuilt (another size): recreates the backend's objects and uploads
    // it.
    Status reloadFonts();

    // Records, submits and presents one frame. With `capture`, the frame is also copied back and
    // kept (see captured()). A frame may be skipped while the window is minimised or resized.
    Status render(ImDrawData* drawData, const float clearColor[4], bool capture = false);
    const Image& captured() const { return m_captured; }

    std::string deviceName() const { return m_deviceName; }
    const char* presentModeName() const;

  private:
    Renderer() = default;
    struct Frame;
    Status createInstance();
    Status pickDevice();
    Status createDevice();
    Status createSwapchain();
    void destroySwapchain();
    Status createRenderPass();
    Status uploadFonts();
    Status recordFrame(Frame& f, uint32_t image, ImDrawData* drawData, const float clearColor[4],
                       bool capture);
    Status ensureCaptureBuffer(VkDeviceSize size);
    void recordCopy(VkCommandBuffer cmd, VkImage image);
    void readCapture();

    Window* m_window = nullptr;
    RendererOptions m_options;
    VkInstance m_instance = VK_NULL_HANDLE;
    VkSurfaceKHR m_surface = VK_NULL_HANDLE;
    VkPhysicalDevice m_physical = VK_NULL_HANDLE;
    VkDevice m_device = VK_NULL_HANDLE;
    uint32_t m_queueFamily = 0;
    VkQueue m_queue = VK_NULL_HANDLE;
    VkDescriptorPool m_descriptorPool = VK_NULL_HANDLE;
    VkRenderPass m_renderPass = VK_NULL_HANDLE;
    VkSurfaceFormatKHR m_format{};
    VkPresentModeKHR m_presentMode = VK_PRESENT_MODE_FIFO_KHR;
    VkSwapchainKHR m_swapchain = VK_NULL_HANDLE;
    VkExtent2D m_extent{};
    uint32_t m_minImageCount = 2;
    std::vector<Frame> m_frames;         // one per swapchain image
    std::vector<VkSemaphore> m_acquired; // rotating, one per swapchain image
    std::vector<VkSemaphore> m_rendered;
    uint32_t m_semaphoreIndex = 0;
    bool m_rebuild = false;
    bool m_imguiReady = false;
    bool m_canCapture = false; // the surface allows TRANSFER_SRC
    VkBuffer m_captureBuffer = VK_NULL_HANDLE;
    VkDeviceMemory m_captureMemory = VK_NULL_HANDLE;
    VkDeviceSize m_captureSize = 0;
    Image m_captured;
    std::string m_deviceName;
};

} // namespace vkp::platform
