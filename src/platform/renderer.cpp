#include "platform/renderer.h"

#include <algorithm>
#include <cstring>

#define GLFW_INCLUDE_NONE
#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include "base/os.h"
#include "gpu/vk_setup.h"
#include "platform/window.h"

namespace vkp::platform {
namespace {

// A queue family that draws and presents to the surface, or -1.
int presentQueueFamily(VkPhysicalDevice d, VkSurfaceKHR surface) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, families.data());
    for (uint32_t i = 0; i < n; ++i) {
        VkBool32 present = VK_FALSE;
        vkGetPhysicalDeviceSurfaceSupportKHR(d, i, surface, &present);
        if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && present) return static_cast<int>(i);
    }
    return -1;
}

VkSurfaceFormatKHR chooseFormat(VkPhysicalDevice d, VkSurfaceKHR surface) {
    uint32_t n = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(d, surface, &n, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(n);
    vkGetPhysicalDeviceSurfaceFormatsKHR(d, surface, &n, formats.data());
    // ImGui's colours are authored for a UNORM target.
    for (VkFormat want : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM})
        for (const VkSurfaceFormatKHR& f : formats)
            if (f.format == want && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
    return formats.empty()
               ? VkSurfaceFormatKHR{VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR}
               : formats[0];
}

VkPresentModeKHR choosePresentMode(VkPhysicalDevice d, VkSurfaceKHR surface, bool vsync) {
    if (vsync) return VK_PRESENT_MODE_FIFO_KHR;
    uint32_t n = 0;
    vkGetPhysicalDeviceSurfacePresentModesKHR(d, surface, &n, nullptr);
    std::vector<VkPresentModeKHR> modes(n);
    vkGetPhysicalDeviceSurfacePresentModesKHR(d, surface, &n, modes.data());
    for (VkPresentModeKHR want : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
        if (std::find(modes.begin(), modes.end(), want) != modes.end()) return want;
    return VK_PRESENT_MODE_FIFO_KHR;
}

uint32_t memoryType(VkPhysicalDevice d, uint32_t bits, VkMemoryPropertyFlags flags) {
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(d, &props);
    for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & flags) == flags) return i;
    return UINT32_MAX;
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                  VkAccessFlags srcAccess, VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
                  VkPipelineStageFlags dstStage) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

} // namespace

struct Renderer::Frame {
    VkImage image = VK_NULL_HANDLE; // owned by the swapchain
    VkImageView view = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE; // signalled when this image's last frame finished
};

Result<std::unique_ptr<Renderer>> Renderer::create(Window& window, const RendererOptions& options) {
    std::unique_ptr<Renderer> r(new Renderer);
    r->m_window = &window;
    r->m_options = options;
    if (auto s = r->createInstance(); !s) return s.error();
    VKP_TRY(glfwCreateWindowSurface(r->m_instance, window.handle(), nullptr, &r->m_surface),
            "creating the window surface");
    if (auto s = r->pickDevice(); !s) return s.error();
    if (auto s = r->createDevice(); !s) return s.error();
    r->m_format = chooseFormat(r->m_physical, r->m_surface);
    r->m_presentMode = choosePresentMode(r->m_physical, r->m_surface, options.vsync);
    if (auto s = r->createRenderPass(); !s) return s.error();
    if (auto s = r->createSwapchain(); !s) return s.error();
    return r;
}

Status Renderer::createInstance() {
    uint32_t count = 0;
    const char** required = glfwGetRequiredInstanceExtensions(&count);
    if (!required) {
        // GLFW finds no window-system extensions both when the drivers lack them and when there
        // is no driver at all; the second needs another fix, so tell them apart.
        auto bare = ::vkp::createInstance({VK_API_VERSION_1_1, {}, false});
        if (!bare && bare.error().vkResult == VK_ERROR_INCOMPATIBLE_DRIVER)
            return Error{ErrorKind::NotFound, bare.error().message}; // not the command line either
        if (!bare) return bare.error();
        vkDestroyInstance(bare->instance, nullptr);
        return Error{ErrorKind::Device, "this Vulkan installation cannot draw into windows"};
    }
    auto made =
        ::vkp::createInstance({VK_API_VERSION_1_1, std::vector(required, required + count), false});
    if (!made) return made.error();
    m_instance = made->instance;
    return okStatus();
}

Status Renderer::pickDevice() {
    auto devices = physicalDevices(m_instance);
    if (!devices) return devices.error();
    int best = -1;
    for (VkPhysicalDevice d : *devices) {
        int family = presentQueueFamily(d, m_surface);
        if (family < 0 || !hasDeviceExtension(d, VK_KHR_SWAPCHAIN_EXTENSION_NAME)) continue;
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(d, &props);
        int rank = deviceTypeRank(deviceTypeOf(props.deviceType));
        if (rank <= best) continue;
        best = rank;
        m_physical = d;
        m_queueFamily = static_cast<uint32_t>(family);
        m_deviceName = props.deviceName;
    }
    if (!m_physical)
        return Error{ErrorKind::Device, "no Vulkan device can draw into this window (" +
                                            os::cpuVulkanDriverAdvice() +
                                            ", or your GPU's driver)"};
    return okStatus();
}

Status Renderer::createDevice() {
    auto made = ::vkp::createDevice(m_physical, {m_queueFamily,
                                                 {VK_KHR_SWAPCHAIN_EXTENSION_NAME},
                                                 nullptr,
                                                 nullptr,
                                                 "creating the window's Vulkan device"});
    if (!made) return made.error();
    m_device = made->device;
    m_queue = made->queue;
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16}};
    VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    pool.maxSets = 16;
    pool.poolSizeCount = 1;
    pool.pPoolSizes = sizes;
    VKP_TRY(vkCreateDescriptorPool(m_device, &pool, nullptr, &m_descriptorPool),
            "creating the descriptor pool");
    return okStatus();
}

Status Renderer::createRenderPass() {
    VkAttachmentDescription color{};
    color.format = m_format.format;
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    color.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &ref;
    VkSubpassDependency dep{};
    dep.srcSubpass = VK_SUBPASS_EXTERNAL;
    dep.srcStageMask = dep.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dep.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    info.attachmentCount = 1;
    info.pAttachments = &color;
    info.subpassCount = 1;
    info.pSubpasses = &subpass;
    info.dependencyCount = 1;
    info.pDependencies = &dep;
    VKP_TRY(vkCreateRenderPass(m_device, &info, nullptr, &m_renderPass),
            "creating the render pass");
    return okStatus();
}

Status Renderer::createSwapchain() {
    VkSurfaceCapabilitiesKHR caps;
    VKP_TRY(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(m_physical, m_surface, &caps),
            "reading the surface");
    int fw = 0, fh = 0;
    m_window->framebufferSize(fw, fh);
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {
        extent.width = std::clamp(static_cast<uint32_t>(fw), caps.minImageExtent.width,
                                  caps.maxImageExtent.width);
        extent.height = std::clamp(static_cast<uint32_t>(fh), caps.minImageExtent.height,
                                   caps.maxImageExtent.height);
    }
    if (extent.width == 0 || extent.height == 0)
        return okStatus(); // minimised: nothing to draw into
    m_minImageCount = std::max(2u, caps.minImageCount);
    uint32_t images = m_minImageCount + 1;
    if (caps.maxImageCount) images = std::min(images, caps.maxImageCount);
    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = m_surface;
    info.minImageCount = images;
    info.imageFormat = m_format.format;
    info.imageColorSpace = m_format.colorSpace;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    // TRANSFER_SRC lets the app read its own frames back for screenshots.
    m_canCapture = caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    info.imageUsage =
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (m_canCapture ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = m_presentMode;
    info.clipped = VK_TRUE;
    VKP_TRY(vkCreateSwapchainKHR(m_device, &info, nullptr, &m_swapchain), "creating the swapchain");
    m_extent = extent;
    uint32_t n = 0;
    vkGetSwapchainImagesKHR(m_device, m_swapchain, &n, nullptr);
    std::vector<VkImage> swapImages(n);
    vkGetSwapchainImagesKHR(m_device, m_swapchain, &n, swapImages.data());
    m_frames.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        Frame& f = m_frames[i];
        f.image = swapImages[i];
        VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        view.image = f.image;
        view.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view.format = m_format.format;
        view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VKP_TRY(vkCreateImageView(m_device, &view, nullptr, &f.view), "creating a swapchain view");
        VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        fb.renderPass = m_renderPass;
        fb.attachmentCount = 1;
        fb.pAttachments = &f.view;
        fb.width = extent.width;
        fb.height = extent.height;
        fb.layers = 1;
        VKP_TRY(vkCreateFramebuffer(m_device, &fb, nullptr, &f.framebuffer),
                "creating a framebuffer");
        VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool.queueFamilyIndex = m_queueFamily;
        VKP_TRY(vkCreateCommandPool(m_device, &pool, nullptr, &f.pool), "creating a command pool");
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = f.pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        VKP_TRY(vkAllocateCommandBuffers(m_device, &alloc, &f.cmd), "allocating a command buffer");
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        VKP_TRY(vkCreateFence(m_device, &fence, nullptr, &f.fence), "creating a fence");
    }
    VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    m_acquired.resize(n);
    m_rendered.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        VKP_TRY(vkCreateSemaphore(m_device, &sem, nullptr, &m_acquired[i]), "creating a semaphore");
        VKP_TRY(vkCreateSemaphore(m_device, &sem, nullptr, &m_rendered[i]), "creating a semaphore");
    }
    m_semaphoreIndex = 0;
    if (m_imguiReady) ImGui_ImplVulkan_SetMinImageCount(m_minImageCount);
    return okStatus();
}

void Renderer::destroySwapchain() {
    for (Frame& f : m_frames) {
        vkDestroyFence(m_device, f.fence, nullptr);
        vkDestroyCommandPool(m_device, f.pool, nullptr);
        vkDestroyFramebuffer(m_device, f.framebuffer, nullptr);
        vkDestroyImageView(m_device, f.view, nullptr);
    }
    m_frames.clear();
    for (VkSemaphore s : m_acquired)
        vkDestroySemaphore(m_device, s, nullptr);
    for (VkSemaphore s : m_rendered)
        vkDestroySemaphore(m_device, s, nullptr);
    m_acquired.clear();
    m_rendered.clear();
    if (m_swapchain) vkDestroySwapchainKHR(m_device, m_swapchain, nullptr);
    m_swapchain = VK_NULL_HANDLE;
}

void Renderer::newImGuiFrame() {
    ImGui_ImplVulkan_NewFrame();
}

Status Renderer::initImGui() {
    // The backend's own function pointers where it was built without prototypes (Windows);
    // nothing to do where it calls the linked loader.
    auto load = [](const char* name, void* instance) {
        return vkGetInstanceProcAddr(static_cast<VkInstance>(instance), name);
    };
    ImGui_ImplVulkan_LoadFunctions(load, m_instance);
    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = m_instance;
    info.PhysicalDevice = m_physical;
    info.Device = m_device;
    info.QueueFamily = m_queueFamily;
    info.Queue = m_queue;
    info.DescriptorPool = m_descriptorPool;
    info.Subpass = 0;
    info.MinImageCount = m_minImageCount;
    info.ImageCount = std::max<uint32_t>(
        m_minImageCount, static_cast<uint32_t>(std::max<size_t>(m_frames.size(), 2)));
    info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    if (!ImGui_ImplVulkan_Init(&info, m_renderPass))
        return Error{ErrorKind::Device, "the ImGui Vulkan backend did not start"};
    m_imguiReady = true;
    return uploadFonts();
}

Status Renderer::reloadFonts() {
    vkDeviceWaitIdle(m_device);
    if (m_imguiReady) ImGui_ImplVulkan_Shutdown();
    m_imguiReady = false;
    vkResetDescriptorPool(m_device, m_descriptorPool, 0);
    return initImGui();
}

#if IMGUI_VERSION_NUM >= 19000
// ImGui 1.90 (Debian 13): the backend records, submits and waits for the upload itself, on the
// queue given at init.
Status Renderer::uploadFonts() {
    if (!ImGui_ImplVulkan_CreateFontsTexture())
        return Error{ErrorKind::Device, "the ImGui Vulkan backend could not upload the fonts"};
    return okStatus();
}
#else
// ImGui 1.86 (Debian 12): the upload is recorded into a command buffer of ours.
Status Renderer::uploadFonts() {
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    poolInfo.queueFamilyIndex = m_queueFamily;
    VkCommandPool pool;
    VKP_TRY(vkCreateCommandPool(m_device, &poolInfo, nullptr, &pool), "creating a command pool");
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd;
    VkResult r = vkAllocateCommandBuffers(m_device, &alloc, &cmd);
    if (r == VK_SUCCESS) {
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkBeginCommandBuffer(cmd, &begin);
        ImGui_ImplVulkan_CreateFontsTexture(cmd);
        vkEndCommandBuffer(cmd);
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        r = vkQueueSubmit(m_queue, 1, &submit, VK_NULL_HANDLE);
        if (r == VK_SUCCESS) r = vkQueueWaitIdle(m_queue);
        ImGui_ImplVulkan_DestroyFontUploadObjects();
    }
    vkDestroyCommandPool(m_device, pool, nullptr);
    if (r != VK_SUCCESS) return vkError("uploading the fonts", r);
    return okStatus();
}
#endif

Status Renderer::render(ImDrawData* drawData, const float clearColor[4], bool capture) {
    int fw = 0, fh = 0;
    m_window->framebufferSize(fw, fh);
    if (fw <= 0 || fh <= 0) return okStatus(); // minimised
    if (capture && !m_canCapture)
        return Error{ErrorKind::Device,
                     "this window's surface cannot be read back for a screenshot"};
    if (m_rebuild || !m_swapchain || m_extent.width != static_cast<uint32_t>(fw) ||
        m_extent.height != static_cast<uint32_t>(fh)) {
        vkDeviceWaitIdle(m_device);
        destroySwapchain();
        m_rebuild = false;
        if (auto s = createSwapchain(); !s) return s;
        if (!m_swapchain) return okStatus();
    }
    VkSemaphore acquired = m_acquired[m_semaphoreIndex];
    VkSemaphore rendered = m_rendered[m_semaphoreIndex];
    uint32_t image = 0;
    VkResult r =
        vkAcquireNextImageKHR(m_device, m_swapchain, UINT64_MAX, acquired, VK_NULL_HANDLE, &image);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) return (m_rebuild = true, okStatus());
    if (r == VK_SUBOPTIMAL_KHR)
        m_rebuild = true;
    else if (r != VK_SUCCESS)
        return vkError("acquiring a swapchain image", r);
    Frame& f = m_frames[image];
    VKP_TRY(vkWaitForFences(m_device, 1, &f.fence, VK_TRUE, UINT64_MAX), "waiting for a frame");
    vkResetFences(m_device, 1, &f.fence);
    if (capture) {
        if (auto s = ensureCaptureBuffer(VkDeviceSize(m_extent.width) * m_extent.height * 4); !s)
            return s;
    }
    if (auto s = recordFrame(f, image, drawData, clearColor, capture); !s) return s;
    VkPipelineStageFlags wait = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &acquired;
    submit.pWaitDstStageMask = &wait;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &f.cmd;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &rendered;
    VKP_TRY(vkQueueSubmit(m_queue, 1, &submit, f.fence), "submitting a frame");
    if (capture) {
        vkWaitForFences(m_device, 1, &f.fence, VK_TRUE, UINT64_MAX);
        readCapture();
    }
    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &rendered;
    present.swapchainCount = 1;
    present.pSwapchains = &m_swapchain;
    present.pImageIndices = &image;
    r = vkQueuePresentKHR(m_queue, &present);
    m_semaphoreIndex = (m_semaphoreIndex + 1) % static_cast<uint32_t>(m_acquired.size());
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR)
        return (m_rebuild = true, okStatus());
    if (r != VK_SUCCESS) return vkError("presenting a frame", r);
    return okStatus();
}

Status Renderer::recordFrame(Frame& f, uint32_t, ImDrawData* drawData, const float clearColor[4],
                             bool capture) {
    vkResetCommandPool(m_device, f.pool, 0);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKP_TRY(vkBeginCommandBuffer(f.cmd, &begin), "recording a frame");
    VkClearValue clear{};
    std::memcpy(clear.color.float32, clearColor, 4 * sizeof(float));
    VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    pass.renderPass = m_renderPass;
    pass.framebuffer = f.framebuffer;
    pass.renderArea.extent = m_extent;
    pass.clearValueCount = 1;
    pass.pClearValues = &clear;
    vkCmdBeginRenderPass(f.cmd, &pass, VK_SUBPASS_CONTENTS_INLINE);
    if (drawData) ImGui_ImplVulkan_RenderDrawData(drawData, f.cmd);
    vkCmdEndRenderPass(f.cmd);
    if (capture) recordCopy(f.cmd, f.image);
    VKP_TRY(vkEndCommandBuffer(f.cmd), "recording a frame");
    return okStatus();
}

Status Renderer::ensureCaptureBuffer(VkDeviceSize size) {
    if (m_captureBuffer && m_captureSize == size) return okStatus();
    if (m_captureBuffer) {
        vkDestroyBuffer(m_device, m_captureBuffer, nullptr);
        vkFreeMemory(m_device, m_captureMemory, nullptr);
        m_captureBuffer = VK_NULL_HANDLE;
    }
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VKP_TRY(vkCreateBuffer(m_device, &info, nullptr, &m_captureBuffer),
            "creating the screenshot buffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(m_device, m_captureBuffer, &req);
    VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex =
        memoryType(m_physical, req.memoryTypeBits,
                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VKP_TRY(vkAllocateMemory(m_device, &alloc, nullptr, &m_captureMemory),
            "allocating the screenshot buffer");
    VKP_TRY(vkBindBufferMemory(m_device, m_captureBuffer, m_captureMemory, 0),
            "binding the screenshot buffer");
    m_captureSize = size;
    return okStatus();
}

void Renderer::recordCopy(VkCommandBuffer cmd, VkImage image) {
    imageBarrier(cmd, image, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {m_extent.width, m_extent.height, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, m_captureBuffer, 1,
                           &region);
    imageBarrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                 VK_ACCESS_TRANSFER_READ_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
    VkBufferMemoryBarrier host{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    host.srcQueueFamilyIndex = host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    host.buffer = m_captureBuffer;
    host.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                         nullptr, 1, &host, 0, nullptr);
}

void Renderer::readCapture() {
    void* mapped = nullptr;
    if (vkMapMemory(m_device, m_captureMemory, 0, m_captureSize, 0, &mapped) != VK_SUCCESS) return;
    m_captured.width = static_cast<int>(m_extent.width);
    m_captured.height = static_cast<int>(m_extent.height);
    m_captured.rgba.resize(m_captureSize);
    std::memcpy(m_captured.rgba.data(), mapped, m_captureSize);
    vkUnmapMemory(m_device, m_captureMemory);
    bool bgra =
        m_format.format == VK_FORMAT_B8G8R8A8_UNORM || m_format.format == VK_FORMAT_B8G8R8A8_SRGB;
    for (size_t i = 0; i + 3 < m_captured.rgba.size(); i += 4) {
        if (bgra) std::swap(m_captured.rgba[i], m_captured.rgba[i + 2]);
        m_captured.rgba[i + 3] = 255;
    }
}

const char* Renderer::presentModeName() const {
    switch (m_presentMode) {
    case VK_PRESENT_MODE_FIFO_KHR:
        return "fifo (vsync)";
    case VK_PRESENT_MODE_MAILBOX_KHR:
        return "mailbox";
    case VK_PRESENT_MODE_IMMEDIATE_KHR:
        return "immediate";
    default:
        return "other";
    }
}

Renderer::~Renderer() {
    if (m_device) vkDeviceWaitIdle(m_device);
    if (m_imguiReady) ImGui_ImplVulkan_Shutdown();
    if (m_device) {
        destroySwapchain();
        if (m_captureBuffer) vkDestroyBuffer(m_device, m_captureBuffer, nullptr);
        if (m_captureMemory) vkFreeMemory(m_device, m_captureMemory, nullptr);
        if (m_renderPass) vkDestroyRenderPass(m_device, m_renderPass, nullptr);
        if (m_descriptorPool) vkDestroyDescriptorPool(m_device, m_descriptorPool, nullptr);
        vkDestroyDevice(m_device, nullptr);
    }
    if (m_surface) vkDestroySurfaceKHR(m_instance, m_surface, nullptr);
    if (m_instance) vkDestroyInstance(m_instance, nullptr);
}

} // namespace vkp::platform
