// The modifiers a queued key carries into ImGui (platform/imgui_keys.h): GLFW's `mods` say what was
// held before the event, so a modifier's own press or release is applied on top.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "platform/imgui_keys.h"

namespace vkp::platform {
namespace {

KeyEvent key(int k, int action, int mods) {
    KeyEvent e;
    e.key = k;
    e.action = action;
    e.mods = mods;
    return e;
}

TEST(ImGuiKeysTest, AKeyCarriesTheModifiersHeldWhenItWasPressed) {
    // Ctrl+Q: Q pressed with Ctrl held; whatever the keyboard is like when it is handed over.
    EXPECT_EQ(modifiersAfter(key(GLFW_KEY_Q, GLFW_PRESS, GLFW_MOD_CONTROL)),
              (HeldModifiers{true, false, false, false}));
    EXPECT_EQ(modifiersAfter(key(GLFW_KEY_S, GLFW_PRESS, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT)),
              (HeldModifiers{true, true, false, false}));
    EXPECT_EQ(modifiersAfter(key(GLFW_KEY_Q, GLFW_RELEASE, 0)), HeldModifiers{});
}

TEST(ImGuiKeysTest, AModifiersOwnPressOrReleaseIsApplied) {
    // X reports the state before the event: Ctrl's own press comes without Ctrl in its mods.
    EXPECT_EQ(modifiersAfter(key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS, 0)),
              (HeldModifiers{true, false, false, false}));
    EXPECT_EQ(modifiersAfter(key(GLFW_KEY_RIGHT_SHIFT, GLFW_PRESS, GLFW_MOD_CONTROL)),
              (HeldModifiers{true, true, false, false}));
    EXPECT_EQ(modifiersAfter(key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE, GLFW_MOD_CONTROL)),
              HeldModifiers{});
    EXPECT_EQ(modifiersAfter(key(GLFW_KEY_LEFT_ALT, GLFW_RELEASE, GLFW_MOD_ALT | GLFW_MOD_SHIFT)),
              (HeldModifiers{false, true, false, false}));
    EXPECT_EQ(modifiersAfter(key(GLFW_KEY_RIGHT_SUPER, GLFW_PRESS, 0)),
              (HeldModifiers{false, false, false, true}));
}

} // namespace
} // namespace vkp::platform
