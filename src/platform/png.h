// PNG files for screenshots (stb_image_write).
#pragma once

#include <string>

#include "core/result.h"
#include "platform/renderer.h"

namespace vkp::platform {

Status writePng(const std::string& path, const Image& image);

} // namespace vkp::platform
