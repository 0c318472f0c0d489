#include "base/install_paths.h"

#include <cstdlib>
#include <filesystem>

#include "base/os.h"

#ifndef VKPUZZLES_SOURCE_DATA_DIR
#define VKPUZZLES_SOURCE_DATA_DIR "."
#endif

namespace fs = std::filesystem;

namespace vkp {

std::string bundledDataDir() {
    std::error_code ec;
    if (std::string self = os::executablePath(); !self.empty()) {
        fs::path folder = os::toPath(self).parent_path(), prefix = folder.parent_path();
        for (const fs::path& dir : {prefix / "share" / "vkpuzzles", folder, prefix})
            if (fs::is_directory(dir / "puzzles", ec)) return os::pathText(dir);
    }
    return VKPUZZLES_SOURCE_DATA_DIR;
}

std::string bundledPuzzleRoot() {
    return os::pathText(os::toPath(bundledDataDir()) / "puzzles");
}

std::string defaultPuzzleRoot() {
    if (std::string env = os::environmentVariable("VKPUZZLES_PUZZLES"); !env.empty()) return env;
    return bundledPuzzleRoot();
}

std::string bundledShaderPath(const std::string& name) {
    return os::pathText(os::toPath(bundledDataDir()) / "shaders" / os::toPath(name));
}

} // namespace vkp
