// What an official solution needs of a device, from its #extension lines, and what a device
// lacks of it.
#include <gtest/gtest.h>

#include "puzzle/device_needs.h"
#include "puzzle/puzzle_loader.h"

namespace vkp {
namespace {

TEST(DeviceNeeds, ComeFromTheExtensionsAKernelEnables) {
    DeviceNeeds n = kernelNeeds("#version 450\n"
                                "#extension GL_KHR_shader_subgroup_basic : require\n"
                                "  #  extension GL_KHR_shader_subgroup_ballot:enable\n"
                                "// #extension GL_KHR_shader_subgroup_quad : require\n"
                                "#extension GL_KHR_shader_subgroup_vote : disable\n"
                                "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : "
                                "require\n"
                                "#extension GL_EXT_debug_printf : enable\n");
    EXPECT_EQ(n.subgroup, kSubgroupBasic | kSubgroupBallot) << "not a comment, not disabled";
    EXPECT_EQ(n.shader, uint32_t(kShaderFloat16));
    EXPECT_EQ(needsText(n), "subgroups (basic, ballot), float16");
    EXPECT_EQ(needNames(n),
              (std::vector<std::string>{"subgroup basic", "subgroup ballot", "float16"}));
    EXPECT_TRUE(kernelNeeds("#version 450\nvoid main() {}\n").empty());
}

TEST(DeviceNeeds, WhatADeviceLacksIsNamed) {
    DeviceNeeds n{kSubgroupBasic | kSubgroupClustered, kShaderFloat64};
    DeviceInfo d;
    d.subgroupOperations = kSubgroupBasic | kSubgroupArithmetic;
    d.shaderFeatures = kShaderFloat64;
    DeviceNeeds missing = missingOn(n, d);
    EXPECT_EQ(needsText(missing), "subgroups (clustered)");
    d.subgroupOperations |= kSubgroupClustered;
    EXPECT_TRUE(missingOn(n, d).empty());
}

TEST(DeviceNeeds, CooperativeMatricesAreANeedOfTheirOwn) {
    DeviceNeeds n = kernelNeeds("#version 450\n"
                                "#extension GL_KHR_cooperative_matrix : require\n"
                                "#extension GL_KHR_memory_scope_semantics : require\n");
    EXPECT_EQ(n.shader, uint32_t(kCooperativeMatrix));
    EXPECT_EQ(needsText(n), "cooperative matrix");
    // Where it is enabled: a comment that names it is no #extension line.
    std::string text = "#version 450\n// GL_KHR_cooperative_matrix below\n"
                       "  #extension GL_KHR_cooperative_matrix:require\n";
    EXPECT_EQ(extensionLine(text, "GL_KHR_cooperative_matrix"), 3u);
    EXPECT_EQ(extensionLine(text, "GL_KHR_shader_subgroup_basic"), 0u);
    DeviceInfo d;
    d.shaderFeatures = kShaderFloat16 | kStorage16Bit;
    EXPECT_EQ(needsText(missingOn(n, d)), "cooperative matrix");
    d.shaderFeatures |= kCooperativeMatrix;
    EXPECT_TRUE(missingOn(n, d).empty());
    auto p = loadPuzzle(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles/53-matmul-tensor-cores");
    ASSERT_TRUE(p.ok()) << p.error().str();
    EXPECT_EQ(p->needs.shader, kShaderFloat16 | kCooperativeMatrix);
    EXPECT_EQ(p->needs.subgroup, uint32_t(kSubgroupBasic));
}

TEST(DeviceNeeds, ALoadedPuzzleHasItsSolutionsNeeds) {
    auto p = loadPuzzle(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles/21-scan-decoupled");
    ASSERT_TRUE(p.ok()) << p.error().str();
    EXPECT_EQ(p->needs.subgroup, kSubgroupBasic | kSubgroupArithmetic | kSubgroupShuffleRelative);
    auto map = loadPuzzle(std::string(VKPUZZLES_SOURCE_DIR) + "/puzzles/01-map");
    ASSERT_TRUE(map.ok());
    EXPECT_TRUE(map->needs.empty());
}

} // namespace
} // namespace vkp
