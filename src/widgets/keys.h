// The keys the app's shortcuts use, read the same way on Debian 12's Dear ImGui 1.86 and Debian
// 13's 1.90. ImGui 1.87 gave every key a name (ImGuiKey_Equal); 1.86 knows only a few by name and
// the rest by the backend's key codes (GLFW's: printable keys are their ASCII character).
#pragma once

#include <imgui.h>

namespace vkp::ui {

#if IMGUI_VERSION_NUM >= 18700
using ShortcutKey = ImGuiKey;
inline constexpr ShortcutKey kKeyEqual = ImGuiKey_Equal, kKeyMinus = ImGuiKey_Minus,
                             kKeyZero = ImGuiKey_0, kKeyQ = ImGuiKey_Q, kKeyS = ImGuiKey_S,
                             kKeyF = ImGuiKey_F, kKeySlash = ImGuiKey_Slash, kKeyF1 = ImGuiKey_F1,
                             kKeyF3 = ImGuiKey_F3, kKeyF5 = ImGuiKey_F5, kKeyF6 = ImGuiKey_F6,
                             kKeyF7 = ImGuiKey_F7, kKeyF8 = ImGuiKey_F8, kKeyF9 = ImGuiKey_F9,
                             kKeyF11 = ImGuiKey_F11, kKeyM = ImGuiKey_M, kKeyO = ImGuiKey_O,
                             kKeyKeypadAdd = ImGuiKey_KeypadAdd,
                             kKeyKeypadSubtract = ImGuiKey_KeypadSubtract,
                             kKeyKeypadEnter = ImGuiKey_KeypadEnter;
#else
using ShortcutKey = int; // GLFW key codes
inline constexpr ShortcutKey kKeyEqual = '=', kKeyMinus = '-', kKeyZero = '0', kKeyQ = 'Q',
                             kKeyS = 'S', kKeyF = 'F', kKeySlash = '/', kKeyF1 = 290, kKeyF3 = 292,
                             kKeyF5 = 294, kKeyF6 = 295, kKeyF7 = 296, kKeyF8 = 297, kKeyF9 = 298,
                             kKeyF11 = 300, kKeyM = 'M', kKeyO = 'O', kKeyKeypadAdd = 334,
                             kKeyKeypadSubtract = 333;
inline constexpr auto kKeyKeypadEnter = ImGuiKey_KeyPadEnter; // a named key already in 1.86
#endif

// Pressed this frame (not held down: repeats are left out unless asked for).
inline bool shortcutPressed(ShortcutKey key, bool repeat = false) {
    return ImGui::IsKeyPressed(key, repeat);
}

} // namespace vkp::ui
