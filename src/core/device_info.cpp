#include "core/device_info.h"

namespace vkp {

const char* deviceTypeName(DeviceTypeKind type) {
    switch (type) {
    case DeviceTypeKind::Discrete:
        return "discrete GPU";
    case DeviceTypeKind::Integrated:
        return "integrated GPU";
    case DeviceTypeKind::Virtual:
        return "virtual GPU";
    case DeviceTypeKind::Cpu:
        return "CPU";
    case DeviceTypeKind::Other:
        return "other";
    }
    return "?";
}

} // namespace vkp
