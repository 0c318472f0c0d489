// Key queries that read the same on Debian 12's Dear ImGui 1.86 and Debian 13's 1.90.
#pragma once

#include <imgui.h>

namespace vkp::ui {

// A key by its GLFW key code: printable keys are their ASCII character ('Q', '/', '='), F1 is 290.
// ImGui 1.87+ still maps these legacy codes to its own keys (Debian does not define
// IMGUI_DISABLE_OBSOLETE_KEYIO), but takes them only as an ImGuiKey.
inline bool glfwKeyPressed(int glfwKey, bool repeat = false) {
#if IMGUI_VERSION_NUM >= 18900
    return ImGui::IsKeyPressed(static_cast<ImGuiKey>(glfwKey), repeat);
#else
    return ImGui::IsKeyPressed(glfwKey, repeat);
#endif
}

// The keypad's Enter (renamed in ImGui 1.87).
#if IMGUI_VERSION_NUM >= 18700
inline constexpr auto kKeypadEnterKey = ImGuiKey_KeypadEnter;
#else
inline constexpr auto kKeypadEnterKey = ImGuiKey_KeyPadEnter;
#endif

} // namespace vkp::ui
