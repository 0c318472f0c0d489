// Shared helpers for tests that need the repository, a compiler or a Vulkan device.
#pragma once

#include <chrono>

#include <cstdlib>
#include <string>

#include "gpu/context.h"

namespace vkp::test {

// How long a test waits for something that must happen (a check's report, a reload, a window):
// only a broken program waits this long. A loaded 2-core machine with a cold shader cache took
// over 60 s for one workbench check (every traced loop's pipeline new after a change to the
// instrumentation), so no smaller bound is safe.
inline constexpr std::chrono::seconds kPatience{600};

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
