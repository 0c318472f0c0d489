#include "platform/window.h"

#include <algorithm>
#include <cstdlib>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace vkp::platform {
namespace {

std::string g_lastGlfwError;
uint64_t g_events = 0;

void bump() { ++g_events; }

void onGlfwError(int, const char* message) { g_lastGlfwError = message ? message : "unknown GLFW error"; }

Status initGlfw() {
    static bool done = false;
    if (done) return okStatus();
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit())
        return Error{ErrorKind::Device, "cannot open a window: " + (g_lastGlfwError.empty() ? std::string("no display") : g_lastGlfwError)};
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        return Error{ErrorKind::Device, "cannot open a window: no Vulkan loader or driver (install mesa-vulkan-drivers)"};
    }
    std::atexit(glfwTerminate);
    done = true;
    return okStatus();
}

} // namespace

bool displayAvailable() {
    const char* x = std::getenv("DISPLAY");
    const char* wl = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (wl && *wl);
}

Result<std::unique_ptr<Window>> Window::create(const WindowOptions& options) {
    if (auto s = initGlfw(); !s) return s.error();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, options.resizable ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    std::unique_ptr<Window> w(new Window);
    w->m_window = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
    if (!w->m_window) return Error{ErrorKind::Device, "cannot create the window: " + g_lastGlfwError};
    glfwSetWindowSizeLimits(w->m_window, 640, 400, GLFW_DONT_CARE, GLFW_DONT_CARE);
    return w;
}

Window::~Window() {
    if (m_window) glfwDestroyWindow(m_window);
}

bool Window::shouldClose() const { return glfwWindowShouldClose(m_window); }
void Window::requestClose() { glfwSetWindowShouldClose(m_window, GLFW_TRUE); }
void Window::framebufferSize(int& width, int& height) const { glfwGetFramebufferSize(m_window, &width, &height); }
void Window::size(int& width, int& height) const { glfwGetWindowSize(m_window, &width, &height); }
void Window::setTitle(const std::string& title) { glfwSetWindowTitle(m_window, title.c_str()); }

float Window::contentScale() const {
    float x = 1, y = 1;
    glfwGetWindowContentScale(m_window, &x, &y);
    return std::max(1.0f, std::max(x, y));
}

void Window::countEvents() {
    glfwSetKeyCallback(m_window, [](GLFWwindow*, int, int, int, int) { bump(); });
    glfwSetCharCallback(m_window, [](GLFWwindow*, unsigned int) { bump(); });
    glfwSetMouseButtonCallback(m_window, [](GLFWwindow*, int, int, int) { bump(); });
    glfwSetCursorPosCallback(m_window, [](GLFWwindow*, double, double) { bump(); });
    glfwSetScrollCallback(m_window, [](GLFWwindow*, double, double) { bump(); });
    glfwSetWindowFocusCallback(m_window, [](GLFWwindow*, int) { bump(); });
    glfwSetCursorEnterCallback(m_window, [](GLFWwindow*, int) { bump(); });
    glfwSetFramebufferSizeCallback(m_window, [](GLFWwindow*, int, int) { bump(); });
    glfwSetWindowRefreshCallback(m_window, [](GLFWwindow*) { bump(); });
}

uint64_t Window::eventCount() const { return g_events; }

void Window::waitEvents(double seconds) {
    if (seconds <= 0) glfwPollEvents();
    else glfwWaitEventsTimeout(seconds);
}

} // namespace vkp::platform
