// Keyboard events from the window's queue (platform/window.h) into Dear ImGui, whose GLFW backend
// is installed for the window.
#pragma once

#include "platform/window.h"

namespace vkp::platform {

// The modifiers held once `e` has happened: GLFW's `mods` (the state before it) with e's own key
// applied when it is a modifier.
struct HeldModifiers {
    bool ctrl = false, shift = false, alt = false, super = false;
    bool operator==(const HeldModifiers&) const = default;
};
HeldModifiers modifiersAfter(const KeyEvent& e);

// Hands one queued event to ImGui. Since ImGui 1.87 a key goes in with the modifiers it was made
// with (modifiersAfter): ImGui's own GLFW callback reads them from glfwGetKey, the keyboard as it
// is when the queue hands the key over, a frame or more after the key. Ctrl+Q typed quickly (or
// sent by xdotool in one go) then reached ImGui with Ctrl already up: a plain Q, and no quit.
// ImGui 1.86 keeps its own key state, which the queue's order keeps right: its callbacks do.
void deliverToImGui(GLFWwindow* window, const KeyEvent& e);

} // namespace vkp::platform
