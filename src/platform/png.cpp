#include "platform/png.h"

#include <algorithm>
#include <cstring>

#include <stb_image_write.h>

namespace vkp::platform {

Status writePng(const std::string& path, const Image& image) {
    if (image.width <= 0 || image.height <= 0 ||
        image.rgba.size() < size_t(image.width) * image.height * 4)
        return Error{ErrorKind::Internal, "no frame was captured for " + path};
    if (!stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(),
                        image.width * 4))
        return Error{ErrorKind::Io, "cannot write the screenshot " + path};
    return okStatus();
}

Image cropImage(const Image& image, int x0, int y0, int x1, int y1) {
    x0 = std::clamp(x0, 0, image.width), x1 = std::clamp(x1, 0, image.width);
    y0 = std::clamp(y0, 0, image.height), y1 = std::clamp(y1, 0, image.height);
    Image out;
    if (x1 <= x0 || y1 <= y0 || image.rgba.size() < size_t(image.width) * image.height * 4)
        return out;
    out.width = x1 - x0;
    out.height = y1 - y0;
    out.rgba.resize(size_t(out.width) * out.height * 4);
    for (int y = 0; y < out.height; ++y)
        std::memcpy(&out.rgba[size_t(y) * out.width * 4],
                    &image.rgba[(size_t(y0 + y) * image.width + x0) * 4], size_t(out.width) * 4);
    return out;
}

} // namespace vkp::platform
