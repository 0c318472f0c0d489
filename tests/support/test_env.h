// Shared helpers for tests that need the repository, a compiler or a Vulkan device.
#pragma once

#include <cstdlib>
#include <string>

#include "gpu/context.h"

namespace vkp::test {

inline std::string sourceDir() {
    return VKPUZZLES_SOURCE_DIR;
}
inline std::string puzzleDir() {
    return sourceDir() + "/puzzles";
}

// The device tests run on: VKPUZZLES_DEVICE (CI sets lavapipe) or the best one.
inline ContextOptions deviceOptions(bool validation = false) {
    return {deviceSelectorFromEnvironment(), validation};
}

} // namespace vkp::test
