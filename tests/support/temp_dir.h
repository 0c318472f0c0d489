// A folder of a test's own under the system's temporary folder, made empty and removed with it,
// and a file's whole contents: what the tests that write files (grade's outputs, case files) share.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace vkp::test {

struct TempDir {
    std::filesystem::path path;
    // vkp-NAME-PID: the process id keeps test programs that run at once apart.
    explicit TempDir(const std::string& name)
        : path(std::filesystem::temp_directory_path() /
               ("vkp-" + name + "-" + std::to_string(getpid()))) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string operator/(const std::string& file) const { return (path / file).string(); }
};

// The file's bytes ("" when it cannot be read).
inline std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace vkp::test
