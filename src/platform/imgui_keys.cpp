#include "platform/imgui_keys.h"

#include <cstring>

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

namespace vkp::platform {

HeldModifiers modifiersAfter(const KeyEvent& e) {
    HeldModifiers m{(e.mods & GLFW_MOD_CONTROL) != 0, (e.mods & GLFW_MOD_SHIFT) != 0,
                    (e.mods & GLFW_MOD_ALT) != 0, (e.mods & GLFW_MOD_SUPER) != 0};
    bool down = e.action != GLFW_RELEASE;
    switch (e.key) {
    case GLFW_KEY_LEFT_CONTROL:
    case GLFW_KEY_RIGHT_CONTROL:
        m.ctrl = down;
        break;
    case GLFW_KEY_LEFT_SHIFT:
    case GLFW_KEY_RIGHT_SHIFT:
        m.shift = down;
        break;
    case GLFW_KEY_LEFT_ALT:
    case GLFW_KEY_RIGHT_ALT:
        m.alt = down;
        break;
    case GLFW_KEY_LEFT_SUPER:
    case GLFW_KEY_RIGHT_SUPER:
        m.super = down;
        break;
    default:
        break;
    }
    return m;
}

#if IMGUI_VERSION_NUM >= 18700
namespace {

// GLFW reports letter and punctuation keys by their place on a US keyboard; a shortcut is meant
// by what the key types (Ctrl+Z is the key that types z), which the layout's name for it says.
int keyAsTyped(int key, int scancode) {
    if (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_EQUAL) return key;
    const char* name = glfwGetKeyName(key, scancode);
    if (!name || !name[0] || name[1]) return key;
    char c = name[0];
    if (c >= 'a' && c <= 'z') return GLFW_KEY_A + (c - 'a');
    if (c >= 'A' && c <= 'Z') return GLFW_KEY_A + (c - 'A');
    if (c >= '0' && c <= '9') return GLFW_KEY_0 + (c - '0');
    static const char kChars[] = "`-=[]\\,;'./";
    static const int kKeys[] = {GLFW_KEY_GRAVE_ACCENT, GLFW_KEY_MINUS,         GLFW_KEY_EQUAL,
                                GLFW_KEY_LEFT_BRACKET, GLFW_KEY_RIGHT_BRACKET, GLFW_KEY_BACKSLASH,
                                GLFW_KEY_COMMA,        GLFW_KEY_SEMICOLON,     GLFW_KEY_APOSTROPHE,
                                GLFW_KEY_PERIOD,       GLFW_KEY_SLASH};
    if (const char* at = std::strchr(kChars, c)) return kKeys[at - kChars];
    return key;
}

ImGuiKey imguiKey(int key) {
    // Runs of GLFW keys that ImGui numbers in the same order.
    struct Run {
        int first, last;
        ImGuiKey to;
    };
    static const Run kRuns[] = {
        {GLFW_KEY_0, GLFW_KEY_9, ImGuiKey_0},
        {GLFW_KEY_A, GLFW_KEY_Z, ImGuiKey_A},
        {GLFW_KEY_F1, GLFW_KEY_F24, ImGuiKey_F1},
        {GLFW_KEY_KP_0, GLFW_KEY_KP_9, ImGuiKey_Keypad0},
    };
    for (const Run& r : kRuns)
        if (key >= r.first && key <= r.last) return static_cast<ImGuiKey>(r.to + (key - r.first));
    static const std::pair<int, ImGuiKey> kOne[] = {
        {GLFW_KEY_TAB, ImGuiKey_Tab},
        {GLFW_KEY_LEFT, ImGuiKey_LeftArrow},
        {GLFW_KEY_RIGHT, ImGuiKey_RightArrow},
        {GLFW_KEY_UP, ImGuiKey_UpArrow},
        {GLFW_KEY_DOWN, ImGuiKey_DownArrow},
        {GLFW_KEY_PAGE_UP, ImGuiKey_PageUp},
        {GLFW_KEY_PAGE_DOWN, ImGuiKey_PageDown},
        {GLFW_KEY_HOME, ImGuiKey_Home},
        {GLFW_KEY_END, ImGuiKey_End},
        {GLFW_KEY_INSERT, ImGuiKey_Insert},
        {GLFW_KEY_DELETE, ImGuiKey_Delete},
        {GLFW_KEY_BACKSPACE, ImGuiKey_Backspace},
        {GLFW_KEY_SPACE, ImGuiKey_Space},
        {GLFW_KEY_ENTER, ImGuiKey_Enter},
        {GLFW_KEY_ESCAPE, ImGuiKey_Escape},
        {GLFW_KEY_APOSTROPHE, ImGuiKey_Apostrophe},
        {GLFW_KEY_COMMA, ImGuiKey_Comma},
        {GLFW_KEY_MINUS, ImGuiKey_Minus},
        {GLFW_KEY_PERIOD, ImGuiKey_Period},
        {GLFW_KEY_SLASH, ImGuiKey_Slash},
        {GLFW_KEY_SEMICOLON, ImGuiKey_Semicolon},
        {GLFW_KEY_EQUAL, ImGuiKey_Equal},
        {GLFW_KEY_LEFT_BRACKET, ImGuiKey_LeftBracket},
        {GLFW_KEY_BACKSLASH, ImGuiKey_Backslash},
        {GLFW_KEY_RIGHT_BRACKET, ImGuiKey_RightBracket},
        {GLFW_KEY_GRAVE_ACCENT, ImGuiKey_GraveAccent},
        {GLFW_KEY_CAPS_LOCK, ImGuiKey_CapsLock},
        {GLFW_KEY_SCROLL_LOCK, ImGuiKey_ScrollLock},
        {GLFW_KEY_NUM_LOCK, ImGuiKey_NumLock},
        {GLFW_KEY_PRINT_SCREEN, ImGuiKey_PrintScreen},
        {GLFW_KEY_PAUSE, ImGuiKey_Pause},
        {GLFW_KEY_KP_DECIMAL, ImGuiKey_KeypadDecimal},
        {GLFW_KEY_KP_DIVIDE, ImGuiKey_KeypadDivide},
        {GLFW_KEY_KP_MULTIPLY, ImGuiKey_KeypadMultiply},
        {GLFW_KEY_KP_SUBTRACT, ImGuiKey_KeypadSubtract},
        {GLFW_KEY_KP_ADD, ImGuiKey_KeypadAdd},
        {GLFW_KEY_KP_ENTER, ImGuiKey_KeypadEnter},
        {GLFW_KEY_KP_EQUAL, ImGuiKey_KeypadEqual},
        {GLFW_KEY_LEFT_SHIFT, ImGuiKey_LeftShift},
        {GLFW_KEY_LEFT_CONTROL, ImGuiKey_LeftCtrl},
        {GLFW_KEY_LEFT_ALT, ImGuiKey_LeftAlt},
        {GLFW_KEY_LEFT_SUPER, ImGuiKey_LeftSuper},
        {GLFW_KEY_RIGHT_SHIFT, ImGuiKey_RightShift},
        {GLFW_KEY_RIGHT_CONTROL, ImGuiKey_RightCtrl},
        {GLFW_KEY_RIGHT_ALT, ImGuiKey_RightAlt},
        {GLFW_KEY_RIGHT_SUPER, ImGuiKey_RightSuper},
        {GLFW_KEY_MENU, ImGuiKey_Menu},
    };
    for (const auto& [glfw, imgui] : kOne)
        if (glfw == key) return imgui;
    return ImGuiKey_None;
}

} // namespace
#endif

void deliverToImGui(GLFWwindow* window, const KeyEvent& e) {
    if (e.isChar) return ImGui_ImplGlfw_CharCallback(window, e.codepoint);
#if IMGUI_VERSION_NUM >= 18700
    if (e.action != GLFW_PRESS && e.action != GLFW_RELEASE) return; // ImGui repeats by itself
    HeldModifiers m = modifiersAfter(e);
    ImGuiIO& io = ImGui::GetIO();
    io.AddKeyEvent(ImGuiMod_Ctrl, m.ctrl);
    io.AddKeyEvent(ImGuiMod_Shift, m.shift);
    io.AddKeyEvent(ImGuiMod_Alt, m.alt);
    io.AddKeyEvent(ImGuiMod_Super, m.super);
    int key = keyAsTyped(e.key, e.scancode);
    ImGuiKey k = imguiKey(key);
    io.AddKeyEvent(k, e.action == GLFW_PRESS);
    io.SetKeyEventNativeData(k, key, e.scancode);
#else
    ImGui_ImplGlfw_KeyCallback(window, e.key, e.scancode, e.action, e.mods);
#endif
}

} // namespace vkp::platform
