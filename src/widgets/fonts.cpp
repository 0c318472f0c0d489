#include "widgets/fonts.h"

#include <cmath>
#include <filesystem>

#include <imgui.h>

#include "base/install_paths.h"
#include "base/os.h"

namespace vkp::ui {
namespace {

Fonts g_fonts;

// Latin text plus the symbols the panels use (— … • → ✓ ✗ × ▲ ▼ ● ■).
const ImWchar kRanges[] = {
    0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2200, 0x22FF,
    0x25A0, 0x25FF, 0x26A0, 0x26A0, 0x2713, 0x2718, 0,
};

// The fonts that come with vkpuzzles (the Windows zip's fonts folder), else the system's.
std::string findFontDir() {
    namespace fs = std::filesystem;
    std::string bundled = os::pathText(os::toPath(bundledDataDir()) / "fonts");
    for (const std::string& dir :
         {bundled, std::string("/usr/share/fonts/truetype/dejavu"),
          std::string("/usr/share/fonts/TTF"), std::string("/usr/share/fonts/dejavu")}) {
        std::error_code ec;
        if (fs::exists(os::toPath(dir) / "DejaVuSans.ttf", ec) &&
            fs::exists(os::toPath(dir) / "DejaVuSansMono.ttf", ec))
            return dir;
    }
    return "";
}

ImFont* addTtf(const std::string& path, float px) {
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    cfg.OversampleV = 1;
    cfg.PixelSnapH = true;
    return ImGui::GetIO().Fonts->AddFontFromFileTTF(path.c_str(), std::round(px), &cfg, kRanges);
}

ImFont* addDefault(float px) {
    ImFontConfig cfg;
    cfg.SizePixels = std::round(px);
    return ImGui::GetIO().Fonts->AddFontDefault(&cfg);
}

} // namespace

Fonts buildFonts(float scale) {
    ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    atlas->Clear();
    Fonts f;
    f.scale = scale;
    std::string dir = findFontDir();
    float px = kBaseFontPx * scale;
    if (!dir.empty()) {
        auto font = [&](const char* name) { return os::pathText(os::toPath(dir) / name); };
        f.ui = addTtf(font("DejaVuSans.ttf"), px);
        f.bold = addTtf(font("DejaVuSans-Bold.ttf"), px);
        f.title = addTtf(font("DejaVuSans-Bold.ttf"), px * 1.3f);
        f.mono = addTtf(font("DejaVuSansMono.ttf"), px);
        f.small = addTtf(font("DejaVuSansMono.ttf"), px * 0.8f);
        f.source = dir;
    }
    if (!f.ui || !f.mono) {
        atlas->Clear();
        f.ui = addDefault(13 * scale);
        f.bold = f.title = f.mono = f.small = f.ui;
        f.source = "ImGui's built-in font (install fonts-dejavu-core for crisp text)";
    }
    if (!f.bold) f.bold = f.ui;
    if (!f.title) f.title = f.bold;
    if (!f.small) f.small = f.mono;
    atlas->Build();
    g_fonts = f;
    return f;
}

const Fonts& fonts() {
    return g_fonts;
}

} // namespace vkp::ui
