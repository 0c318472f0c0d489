#include "platform/window.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <utility>
#include <vector>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "base/os.h"

namespace vkp::platform {
namespace {

std::string g_lastGlfwError;
uint64_t g_events = 0;
uint64_t g_exposures = 0;           // the window system lost the window's contents (expose, resize)
std::vector<std::string> g_dropped; // paths of files dropped on the window, not yet taken

void bump() {
    ++g_events;
}

// The keyboard queue (one window per process).
std::deque<KeyEvent> g_keys;
KeySink g_sink;

bool isModifier(int key) {
    switch (key) {
    case GLFW_KEY_LEFT_CONTROL:
    case GLFW_KEY_RIGHT_CONTROL:
    case GLFW_KEY_LEFT_SHIFT:
    case GLFW_KEY_RIGHT_SHIFT:
    case GLFW_KEY_LEFT_ALT:
    case GLFW_KEY_RIGHT_ALT:
    case GLFW_KEY_LEFT_SUPER:
    case GLFW_KEY_RIGHT_SUPER:
        return true;
    default:
        return false;
    }
}

void onKey(GLFWwindow*, int key, int scancode, int action, int mods) {
    bump();
    g_keys.push_back({false, 0, key, scancode, action, mods});
}

void onChar(GLFWwindow*, unsigned int codepoint) {
    bump();
    g_keys.push_back({true, codepoint, 0, 0, 0, 0});
}

void onGlfwError(int, const char* message) {
    g_lastGlfwError = message ? message : "unknown GLFW error";
}

Status initGlfw() {
    static bool done = false;
    if (done) return okStatus();
    glfwSetErrorCallback(onGlfwError);
    if (!glfwInit())
        return Error{ErrorKind::Device,
                     "cannot open a window: " +
                         (g_lastGlfwError.empty() ? std::string("no display") : g_lastGlfwError)};
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        return Error{ErrorKind::Device, "cannot open a window: no Vulkan loader or driver (" +
                                            os::cpuVulkanDriverAdvice() +
                                            ", or your GPU's driver)"};
    }
    std::atexit(glfwTerminate);
    done = true;
    return okStatus();
}

} // namespace

bool displayAvailable() {
    return os::hasDesktop();
}

Result<std::unique_ptr<Window>> Window::create(const WindowOptions& options) {
    if (auto s = initGlfw(); !s) return s.error();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, options.resizable ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    std::unique_ptr<Window> w(new Window);
    w->m_window =
        glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
    if (!w->m_window)
        return Error{ErrorKind::Device, "cannot create the window: " + g_lastGlfwError};
    glfwSetWindowSizeLimits(w->m_window, 640, 400, GLFW_DONT_CARE, GLFW_DONT_CARE);
    return w;
}

Window::~Window() {
    if (m_window) glfwDestroyWindow(m_window);
}

bool Window::shouldClose() const {
    return glfwWindowShouldClose(m_window);
}
void Window::requestClose() {
    glfwSetWindowShouldClose(m_window, GLFW_TRUE);
}
void Window::framebufferSize(int& width, int& height) const {
    glfwGetFramebufferSize(m_window, &width, &height);
}
void Window::size(int& width, int& height) const {
    glfwGetWindowSize(m_window, &width, &height);
}
void Window::setTitle(const std::string& title) {
    glfwSetWindowTitle(m_window, title.c_str());
}

namespace {

// The monitor that holds most of the window's area (the primary one when none does).
GLFWmonitor* monitorOf(GLFWwindow* window) {
    int wx = 0, wy = 0, ww = 0, wh = 0, count = 0;
    glfwGetWindowPos(window, &wx, &wy);
    glfwGetWindowSize(window, &ww, &wh);
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    GLFWmonitor* best = glfwGetPrimaryMonitor();
    long bestArea = 0;
    for (int i = 0; i < count; ++i) {
        const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
        if (!mode) continue;
        int mx = 0, my = 0;
        glfwGetMonitorPos(monitors[i], &mx, &my);
        long w = std::max(0, std::min(wx + ww, mx + mode->width) - std::max(wx, mx));
        long h = std::max(0, std::min(wy + wh, my + mode->height) - std::max(wy, my));
        if (w * h > bestArea) bestArea = w * h, best = monitors[i];
    }
    return best;
}

} // namespace

bool Window::fullscreen() const {
    return glfwGetWindowMonitor(m_window) != nullptr;
}

void Window::windowedSize(int& width, int& height) const {
    if (!fullscreen()) return size(width, height);
    width = m_windowed[2], height = m_windowed[3];
}

void Window::setFullscreen(bool on) {
    if (on == fullscreen()) return;
    if (!on) {
        glfwSetWindowMonitor(m_window, nullptr, m_windowed[0], m_windowed[1], m_windowed[2],
                             m_windowed[3], 0);
        return;
    }
    GLFWmonitor* monitor = monitorOf(m_window);
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (!mode) return;
    glfwGetWindowPos(m_window, &m_windowed[0], &m_windowed[1]);
    glfwGetWindowSize(m_window, &m_windowed[2], &m_windowed[3]);
    // The monitor's current mode: no mode switch, the desktop's resolution stays.
    glfwSetWindowMonitor(m_window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

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
    glfwSetFramebufferSizeCallback(m_window, [](GLFWwindow*, int, int) { bump(), ++g_exposures; });
    glfwSetWindowRefreshCallback(m_window, [](GLFWwindow*) { bump(), ++g_exposures; });
    glfwSetDropCallback(m_window, [](GLFWwindow*, int count, const char** paths) {
        for (int i = 0; i < count; ++i)
            g_dropped.emplace_back(paths[i]);
        bump();
    });
}

std::vector<std::string> Window::takeDroppedPaths() {
    return std::exchange(g_dropped, {});
}

uint64_t Window::eventCount() const {
    return g_events;
}
uint64_t Window::exposureCount() const {
    return g_exposures;
}

void Window::queueKeyboard(KeySink sink) {
    g_sink = std::move(sink);
    glfwSetKeyCallback(m_window, onKey);
    glfwSetCharCallback(m_window, onChar);
}

bool Window::deliverKeyboard() {
    // A key changes state at most once per frame, and a frame sees at most one new key press
    // (with the characters it typed): what follows it, such as the release of Ctrl in Ctrl+=, waits
    // for the next frame so the press is seen with the modifiers it was made with.
    std::vector<int> touched;
    bool pressed = false;
    while (!g_keys.empty()) {
        const KeyEvent e = g_keys.front();
        if (e.isChar) {
            g_keys.pop_front();
            if (g_sink) g_sink(m_window, e);
            continue;
        }
        if (pressed || std::find(touched.begin(), touched.end(), e.key) != touched.end()) break;
        g_keys.pop_front();
        if (g_sink) g_sink(m_window, e);
        touched.push_back(e.key);
        pressed = e.action == GLFW_PRESS && !isModifier(e.key);
    }
    return !g_keys.empty();
}

void Window::waitEvents(double seconds) {
    if (seconds <= 0)
        glfwPollEvents();
    else
        glfwWaitEventsTimeout(seconds);
}

} // namespace vkp::platform
