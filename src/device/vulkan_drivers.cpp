#include "device/vulkan_drivers.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

#include "base/os.h"
#include "base/result.h"
#include "base/text_file.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::vector<std::string> splitPaths(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ':');)
        if (!item.empty()) out.push_back(item);
    return out;
}

std::string libraryOf(const std::string& manifest) {
    // A manifest is a few hundred bytes; one that cannot be read names no library.
    static constexpr FileLimit kManifestLimit{64u << 10, "a Vulkan driver manifest"};
    auto text = readTextFile(manifest, kManifestLimit);
    std::smatch m;
    static const std::regex kLibrary(R"re("library_path"\s*:\s*"([^"]*)")re");
    return text && std::regex_search(*text, m, kLibrary) ? m[1].str() : "";
}

std::vector<std::string> manifestFolders() {
    std::vector<std::string> dirs;
    std::string home = env("HOME");
    std::string configHome = env("XDG_CONFIG_HOME").empty() && !home.empty()
                                 ? home + "/.config"
                                 : env("XDG_CONFIG_HOME");
    std::string dataHome = env("XDG_DATA_HOME").empty() && !home.empty() ? home + "/.local/share"
                                                                         : env("XDG_DATA_HOME");
    std::string configDirs = env("XDG_CONFIG_DIRS").empty() ? "/etc/xdg" : env("XDG_CONFIG_DIRS");
    std::string dataDirs =
        env("XDG_DATA_DIRS").empty() ? "/usr/local/share:/usr/share" : env("XDG_DATA_DIRS");
    if (!configHome.empty()) dirs.push_back(configHome);
    for (const std::string& d : splitPaths(configDirs))
        dirs.push_back(d);
    dirs.push_back("/etc");
    if (!dataHome.empty()) dirs.push_back(dataHome);
    for (const std::string& d : splitPaths(dataDirs))
        dirs.push_back(d);
    for (std::string& d : dirs)
        d += "/vulkan/icd.d";
    return dirs;
}

} // namespace

std::vector<DriverManifest> vulkanDriverManifests() {
    std::vector<std::string> files;
    std::string listed =
        env("VK_DRIVER_FILES").empty() ? env("VK_ICD_FILENAMES") : env("VK_DRIVER_FILES");
    std::error_code ec;
    if (!listed.empty()) {
        files = splitPaths(listed);
    } else {
        for (const std::string& dir : manifestFolders()) {
            std::vector<std::string> here;
            for (fs::directory_iterator it(os::toPath(dir), ec), end; !ec && it != end;
                 it.increment(ec))
                if (it->path().extension() == ".json") here.push_back(os::pathText(it->path()));
            std::sort(here.begin(), here.end());
            files.insert(files.end(), here.begin(), here.end());
        }
    }
    std::vector<DriverManifest> found;
    for (const std::string& f : files)
        if (fs::is_regular_file(os::toPath(f), ec)) found.push_back({f, libraryOf(f)});
    return found;
}

std::string noVulkanDriverMessage() {
    std::vector<DriverManifest> found = vulkanDriverManifests();
    if (found.empty())
        return "no Vulkan driver is installed (install your GPU's driver, or " +
               os::cpuVulkanDriverAdvice() + ")";
    std::string list;
    for (const DriverManifest& m : found) {
        if (!list.empty()) list += ", ";
        list += m.path + (m.library.empty() ? "" : " (library " + m.library + ")");
    }
    bool nvidia = std::any_of(found.begin(), found.end(), [](const DriverManifest& m) {
        return m.path.find("nvidia") != std::string::npos ||
               m.library.find("nvidia") != std::string::npos;
    });
    return "the Vulkan loader found " +
           std::string(found.size() == 1 ? "a driver file" : "driver files") +
           " but could not load " + (found.size() == 1 ? "it" : "any of them") + ": " + list +
           "; run with VK_LOADER_DEBUG=error to see why" +
           (nvidia ? " (NVIDIA's driver also needs libglvnd: the Debian packages libglvnd0, "
                     "libgl1, libegl1, libglx0)"
                   : "");
}

} // namespace vkp
