#include "base/install_paths.h"

#include <cstdlib>
#include <filesystem>

#ifndef VKPUZZLES_SOURCE_DATA_DIR
#define VKPUZZLES_SOURCE_DATA_DIR "."
#endif

namespace fs = std::filesystem;

namespace vkp {

std::string bundledDataDir() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        fs::path prefix = exe.parent_path().parent_path();
        for (const fs::path& dir : {prefix / "share" / "vkpuzzles", prefix})
            if (fs::is_directory(dir / "puzzles", ec)) return dir.string();
    }
    return VKPUZZLES_SOURCE_DATA_DIR;
}

std::string defaultPuzzleRoot() {
    if (const char* env = std::getenv("VKPUZZLES_PUZZLES"); env && *env) return env;
    return (fs::path(bundledDataDir()) / "puzzles").string();
}

std::string bundledShaderPath(const std::string& name) {
    return (fs::path(bundledDataDir()) / "shaders" / name).string();
}

} // namespace vkp
