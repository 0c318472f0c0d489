// Starting lavapipe with other subgroup lanes (gpu/context.h cpuLanesEnvironment): its width,
// and a shader cache folder per width, since Mesa's cache would hand one width's code to another.
#include <gtest/gtest.h>

#include "gpu/context.h"

namespace vkp {
namespace {

std::vector<std::string> at(uint32_t lanes, std::vector<std::string> environment) {
    return cpuLanesEnvironment(lanes, environment);
}

TEST(LanesEnvironmentTest, EachWidthHasACacheFolderOfItsOwnBesideMesasOwn) {
    EXPECT_EQ(
        at(4, {"HOME=/home/ada", "PATH=/bin"}),
        (std::vector<std::string>{"LP_NATIVE_VECTOR_WIDTH=128",
                                  "MESA_SHADER_CACHE_DIR=/home/ada/.cache/vkpuzzles-4-lanes"}));
    EXPECT_EQ(at(16, {"HOME=/home/ada", "XDG_CACHE_HOME=/c"}),
              (std::vector<std::string>{"LP_NATIVE_VECTOR_WIDTH=512",
                                        "MESA_SHADER_CACHE_DIR=/c/vkpuzzles-16-lanes"}));
    // Mesa's own folder named: below it, and a name that only starts alike is not it.
    EXPECT_EQ(at(8, {"MESA_SHADER_CACHE_DIRX=/no", "MESA_SHADER_CACHE_DIR=/m", "HOME=/h"}),
              (std::vector<std::string>{"LP_NATIVE_VECTOR_WIDTH=256",
                                        "MESA_SHADER_CACHE_DIR=/m/vkpuzzles-8-lanes"}));
    // Nowhere to keep one: no cache at all rather than a shared one.
    EXPECT_EQ(at(4, {"PATH=/bin"}), (std::vector<std::string>{"LP_NATIVE_VECTOR_WIDTH=128",
                                                              "MESA_SHADER_CACHE_DISABLE=true"}));
}

} // namespace
} // namespace vkp
