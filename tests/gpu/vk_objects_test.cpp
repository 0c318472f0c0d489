#include <gtest/gtest.h>

#include <cstring>

#include "gpu/context.h"
#include "gpu/vk_objects.h"
#include "support/test_env.h"

namespace vkp {
namespace {

VkPhysicalDeviceMemoryProperties memoryTypes(std::initializer_list<VkMemoryPropertyFlags> flags) {
    VkPhysicalDeviceMemoryProperties mem{};
    for (VkMemoryPropertyFlags f : flags)
        mem.memoryTypes[mem.memoryTypeCount++].propertyFlags = f;
    return mem;
}

constexpr VkMemoryPropertyFlags kHost =
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
constexpr VkMemoryPropertyFlags kLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;

TEST(PickMemoryType, TakesTheFirstTypeWithTheMostPreferences) {
    auto mem =
        memoryTypes({kLocal, kHost, kHost | kLocal, kHost | kCached, kHost | kCached | kLocal});
    EXPECT_EQ(pickMemoryType(mem, ~0u, {kHost, kCached, kLocal}), 4);
    EXPECT_EQ(pickMemoryType(mem, ~0u, {kHost, kCached, 0}), 3); // the first cached one
    EXPECT_EQ(pickMemoryType(mem, ~0u, {0, kLocal, 0}), 0);
    EXPECT_EQ(pickMemoryType(mem, 0b00110, {kHost, kCached, kLocal}),
              2); // only types 1 and 2 allowed
}

TEST(PickMemoryType, FallsBackToAnyTypeWithWhatIsRequired) {
    auto mem = memoryTypes({kLocal, kHost});
    EXPECT_EQ(pickMemoryType(mem, ~0u, {kHost, kCached, kLocal}), 1);
    EXPECT_EQ(pickMemoryType(mem, 0b01, {kHost, kCached, 0}), -1);
}

TEST(VkCheck, NamesTheCallAndTheResult) {
    EXPECT_TRUE(vkCheck(VK_SUCCESS, "creating a fence").ok());
    Status s = vkCheck(VK_ERROR_OUT_OF_DEVICE_MEMORY, "allocating 4 MiB for a benchmark buffer");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().kind, ErrorKind::Device);
    EXPECT_NE(s.error().message.find("allocating 4 MiB for a benchmark buffer"), std::string::npos)
        << s.error().message;
    EXPECT_NE(s.error().message.find("VK_ERROR_OUT_OF_DEVICE_MEMORY"), std::string::npos)
        << s.error().message;
    Status lost = vkCheck(VK_ERROR_DEVICE_LOST, std::string("waiting for the benchmark"));
    ASSERT_FALSE(lost.ok());
    EXPECT_EQ(lost.error().kind, ErrorKind::DeviceLost);
    EXPECT_NE(lost.error().message.find("VK_ERROR_DEVICE_LOST"), std::string::npos)
        << lost.error().message;
}

class VkObjectsTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        auto ctx = GpuContext::create(test::deviceOptions(true));
        ASSERT_TRUE(ctx.ok()) << ctx.error().str();
        s_ctx = std::move(*ctx).release();
    }
    static void TearDownTestSuite() {
        delete s_ctx;
        s_ctx = nullptr;
    }
    static GpuContext* s_ctx;
};

GpuContext* VkObjectsTest::s_ctx = nullptr;

// A device-local buffer filled on the device and copied back through a mapped staging buffer,
// with one timed pair of queries around the copy.
TEST_F(VkObjectsTest, OneShotCommandsFillCopyAndTimeABuffer) {
    GpuContext& gpu = *s_ctx;
    constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    auto data = createDeviceBuffer(gpu, 1024, usage, {0, kLocal, 0}, false, "a test buffer");
    ASSERT_TRUE(data.ok()) << data.error().str();
    auto staging =
        createDeviceBuffer(gpu, 1024, usage, {kHost, kCached, 0}, true, "a staging buffer");
    ASSERT_TRUE(staging.ok()) << staging.error().str();
    ASSERT_NE(staging->map(), nullptr);
    auto shot = OneShotCommands::create(gpu, "the test");
    ASSERT_TRUE(shot.ok()) << shot.error().str();
    bool timed = gpu.info().timestampPeriodNs > 0;
    std::optional<TimestampQueries> ts;
    if (timed) {
        auto made = TimestampQueries::create(gpu, 2);
        ASSERT_TRUE(made.ok()) << made.error().str();
        ts.emplace(std::move(*made));
    }
    for (int round = 0; round < 2; ++round) { // the buffer is reused after a wait
        auto cmd = shot->begin();
        ASSERT_TRUE(cmd.ok()) << cmd.error().str();
        uint32_t value = 0x01020304u + round;
        if (ts) vkCmdResetQueryPool(*cmd, ts->get(), 0, 2);
        vkCmdFillBuffer(*cmd, data->get(), 0, VK_WHOLE_SIZE, value);
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vkCmdPipelineBarrier(*cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             0, 1, &mb, 0, nullptr, 0, nullptr);
        if (ts) vkCmdWriteTimestamp(*cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts->get(), 0);
        VkBufferCopy region{0, 0, 1024};
        vkCmdCopyBuffer(*cmd, data->get(), staging->get(), 1, &region);
        if (ts) vkCmdWriteTimestamp(*cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts->get(), 1);
        ASSERT_TRUE(shot->submit().ok());
        auto finished = shot->wait(60'000'000'000ull);
        ASSERT_TRUE(finished.ok()) << finished.error().str();
        EXPECT_TRUE(*finished);
        std::vector<uint32_t> words(256);
        std::memcpy(words.data(), staging->map(), 1024);
        EXPECT_EQ(words.front(), value);
        EXPECT_EQ(words.back(), value);
        if (ts) {
            auto ms = ts->pairMs();
            ASSERT_TRUE(ms.ok()) << ms.error().str();
            ASSERT_EQ(ms->size(), 1u);
            EXPECT_GE(ms->front(), 0.0);
        }
    }
}

} // namespace
} // namespace vkp
