#include "device/device_options.h"

#include <cstdlib>

namespace vkp {

std::string deviceSelectorFromEnvironment() {
    const char* v = std::getenv("VKPUZZLES_DEVICE");
    return v ? v : "";
}

} // namespace vkp
