// The app's one GLFW window (no client API: Vulkan draws into it).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"

struct GLFWwindow;

namespace vkp::platform {

struct WindowOptions {
    std::string title = "vkpuzzles";
    int width = 1280; // in screen coordinates
    int height = 800;
    bool resizable = true;
};

// A keyboard event as GLFW reported it: a key (with the modifiers held when it happened, GLFW's
// `mods`) or a typed character.
struct KeyEvent {
    bool isChar = false;
    unsigned int codepoint = 0;
    int key = 0, scancode = 0, action = 0, mods = 0;
};
using KeySink = std::function<void(GLFWwindow*, const KeyEvent&)>;

class Window {
  public:
    // Initialises GLFW once. A machine without a display is an Error of kind Device whose message
    // says so in one line.
    static Result<std::unique_ptr<Window>> create(const WindowOptions& options);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* handle() const { return m_window; }
    bool shouldClose() const;
    void requestClose();
    void framebufferSize(int& width, int& height) const; // pixels
    void size(int& width, int& height) const;            // screen coordinates
    float contentScale() const;                          // 1 on a classic screen, 2 on high-DPI
    void setTitle(const std::string& title);

    // Fullscreen on the monitor that holds most of the window, and back to the size and place it
    // had before (F11). A window system that refuses leaves the window as it was.
    void setFullscreen(bool on);
    bool fullscreen() const;
    void windowedSize(int& width, int& height) const; // size(), or the size before fullscreen

    // Waits for input up to `seconds` (0: just polls).
    static void waitEvents(double seconds);
    // Counts input and window events (keys, pointer, resize, focus), so the app can draw eagerly
    // after input and sleep when nothing happens. Install before ImGui's GLFW backend, which
    // chains.
    void countEvents();
    uint64_t eventCount() const;
    uint64_t exposureCount() const; // times the window's contents must be drawn again in full
    // Files dropped on the window since the last call (counted as events too), in order.
    std::vector<std::string> takeDroppedPaths();

    // Keyboard events are queued and handed to `sink` (platform/imgui_keys.h) one frame at a
    // time, so a key pressed and released between two frames (a fast typist, a scripted xdotool)
    // is still seen pressed for one frame, with the modifiers it was pressed with, and keys and
    // typed characters keep their order. ImGui 1.86 only samples key state once per frame, and
    // ImGui 1.90 takes a key's press and a modifier's release in one frame when they come
    // together.
    void queueKeyboard(KeySink sink);
    // Before each UI frame: forwards queued events in order until one for a key that already
    // changed state this frame (it waits for the next). Returns true when events are left.
    bool deliverKeyboard();

  private:
    Window() = default;
    GLFWwindow* m_window = nullptr;
    int m_windowed[4] = {0, 0, 0, 0}; // x, y, width, height before fullscreen
};

// Whether a display looks reachable (DISPLAY or WAYLAND_DISPLAY set), without starting GLFW.
bool displayAvailable();

} // namespace vkp::platform
