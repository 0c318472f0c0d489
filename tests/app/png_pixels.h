// Reading back what the app drew: a PNG (its own screenshot or a saved view) as 0xRRGGBB pixels,
// and the measures the GUI tests make of it (colours near a theme colour, title strips, change).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <stb_image.h>

namespace vkp::test {

struct Png {
    int width = 0, height = 0;
    std::vector<uint32_t> pixels; // 0xRRGGBB

    uint32_t at(int x, int y) const { return pixels[size_t(y) * width + x]; }
};

// An empty Png (width 0) when the file is missing or not a complete PNG yet.
inline Png loadPng(const std::string& path) {
    Png png;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &png.width, &png.height, &channels, 3);
    if (!data) return Png{};
    png.pixels.resize(size_t(png.width) * png.height);
    for (size_t i = 0; i < png.pixels.size(); ++i)
        png.pixels[i] =
            (uint32_t(data[3 * i]) << 16) | (uint32_t(data[3 * i + 1]) << 8) | data[3 * i + 2];
    stbi_image_free(data);
    return png;
}

// Pixels within a small distance of `colour` (text is anti-aliased).
inline size_t countNear(const Png& png, uint32_t colour, int tolerance = 24) {
    auto channel = [](uint32_t c, int shift) { return int((c >> shift) & 0xff); };
    size_t n = 0;
    for (uint32_t p : png.pixels) {
        int d = std::abs(channel(p, 16) - channel(colour, 16)) +
                std::abs(channel(p, 8) - channel(colour, 8)) +
                std::abs(channel(p, 0) - channel(colour, 0));
        n += d <= tolerance;
    }
    return n;
}

// Left edges of horizontal runs of `colour` at least `minRun` pixels long, over all rows: one per
// panel title strip.
inline std::set<int> runStarts(const Png& png, uint32_t colour, int minRun) {
    std::set<int> starts;
    for (int y = 0; y < png.height; ++y) {
        int run = 0;
        for (int x = 0; x <= png.width; ++x) {
            if (x < png.width && png.at(x, y) == colour) {
                ++run;
                continue;
            }
            if (run >= minRun)
                starts.insert((x - run) / 8); // 8-pixel buckets: the same strip on many rows
            run = 0;
        }
    }
    return starts;
}

// Share of pixels that differ between two pictures of the same size (1 when the sizes differ).
inline double differing(const Png& a, const Png& b) {
    if (a.width != b.width || a.height != b.height || a.pixels.empty()) return 1.0;
    size_t n = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i)
        n += a.pixels[i] != b.pixels[i];
    return double(n) / a.pixels.size();
}

// The dark theme's colours the tests look for.
constexpr uint32_t kDarkHeader = 0x2b2d33, kDarkFail = 0xf2555a, kDarkPass = 0x4cc38a,
                   kLightHeader = 0xe4e6eb;
constexpr uint32_t kDarkChanged = 0x6b5414, kDarkStep = 0xffe08a, kDarkFocus = 0xff8ad8,
                   kDarkAccent = 0x5aa2ff;

} // namespace vkp::test
