// The message for a Vulkan loader that loads no driver: none installed, or one found that cannot
// be loaded (named, with how to see why). Driver manifests are real files in a temporary folder.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "base/os.h"
#include "device/vulkan_drivers.h"

namespace fs = std::filesystem;

// The Linux loader's driver manifests (icd.d folders); Windows' loader reads the registry.
#ifndef _WIN32
namespace vkp {
namespace {

class VulkanDriversTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("vkp-icd-" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
        // Each test sets the variables it reads; the caller's are kept aside, not read.
        for (const char* name : {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"})
            if (const char* v = std::getenv(name)) m_saved.emplace_back(name, v);
        ::unsetenv("VK_DRIVER_FILES");
        ::unsetenv("VK_ICD_FILENAMES");
    }
    void TearDown() override {
        ::unsetenv("VK_DRIVER_FILES");
        ::unsetenv("VK_ICD_FILENAMES");
        for (auto& [name, value] : m_saved)
            ::setenv(name.c_str(), value.c_str(), 1);
        fs::remove_all(m_dir);
    }
    std::string manifest(const std::string& name, const std::string& library) {
        fs::path p = m_dir / name;
        std::ofstream(p)
            << "{\n  \"file_format_version\": \"1.0.1\",\n  \"ICD\": {\n    \"library_path\": \""
            << library << "\",\n    \"api_version\": \"1.3.0\"\n  }\n}\n";
        return p.string();
    }
    fs::path m_dir;
    std::vector<std::pair<std::string, std::string>> m_saved;
};

TEST_F(VulkanDriversTest, NoManifestMeansNoDriverIsInstalled) {
    ::setenv("VK_DRIVER_FILES", (m_dir / "missing.json").c_str(), 1);
    EXPECT_TRUE(vulkanDriverManifests().empty());
    EXPECT_EQ(noVulkanDriverMessage().rfind(
                  "no Vulkan driver is installed (install your GPU's driver, or " +
                      os::cpuVulkanDriverAdvice(),
                  0),
              0u)
        << noVulkanDriverMessage();
}

TEST_F(VulkanDriversTest, AManifestThatCannotBeLoadedIsNamedWithHowToSeeWhy) {
    std::string file = manifest("nvidia_icd.json", "libGLX_nvidia.so.0");
    ::setenv("VK_DRIVER_FILES", file.c_str(), 1);
    auto found = vulkanDriverManifests();
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].library, "libGLX_nvidia.so.0");
    std::string m = noVulkanDriverMessage();
    EXPECT_EQ(m.find("no Vulkan driver is installed"), std::string::npos) << m;
    EXPECT_NE(m.find("found a driver file but could not load it: " + file +
                     " (library libGLX_nvidia.so.0)"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("VK_LOADER_DEBUG=error"), std::string::npos) << m;
    EXPECT_NE(m.find("libglvnd"), std::string::npos) << m;
}

TEST_F(VulkanDriversTest, TheOlderVariableAndSeveralFilesAreRead) {
    std::string a = manifest("a.json", "/nonexistent/liba.so");
    std::string b = manifest("b.json", "/nonexistent/libb.so");
    ::setenv("VK_ICD_FILENAMES", (a + ":" + b + ":" + (m_dir / "gone.json").string()).c_str(), 1);
    std::string m = noVulkanDriverMessage();
    EXPECT_NE(m.find("found driver files but could not load any of them: " + a), std::string::npos)
        << m;
    EXPECT_NE(m.find(b + " (library /nonexistent/libb.so)"), std::string::npos) << m;
    EXPECT_EQ(m.find("gone.json"), std::string::npos) << m;
    EXPECT_EQ(m.find("libglvnd"), std::string::npos) << m;
}

} // namespace
} // namespace vkp
#endif
