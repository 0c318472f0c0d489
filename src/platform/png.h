// PNG files for screenshots (stb_image_write).
#pragma once

#include <string>

#include "base/result.h"
#include "platform/renderer.h"

namespace vkp::platform {

Status writePng(const std::string& path, const Image& image);
// The part of an image inside [x0, x1) x [y0, y1), clamped to it (empty when nothing is left).
Image cropImage(const Image& image, int x0, int y0, int x1, int y1);

} // namespace vkp::platform
