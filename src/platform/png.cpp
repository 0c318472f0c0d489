#include "platform/png.h"

#include <stb_image_write.h>

namespace vkp::platform {

Status writePng(const std::string& path, const Image& image) {
    if (image.width <= 0 || image.height <= 0 || image.rgba.size() < size_t(image.width) * image.height * 4)
        return Error{ErrorKind::Internal, "no frame was captured for " + path};
    if (!stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(), image.width * 4))
        return Error{ErrorKind::Io, "cannot write the screenshot " + path};
    return okStatus();
}

} // namespace vkp::platform
