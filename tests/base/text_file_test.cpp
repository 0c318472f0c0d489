// Issue 19, items 2, 6 and 11: files are read defensively (regular files only, with a limit,
// never blocking on a FIFO or a device, never throwing on a symbolic link loop).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include "base/text_file.h"
#include "support/system.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

class TextFile : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir =
            fs::path("/tmp") / ("vkp_text_file_" + std::to_string(::getpid()) + "_" +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    std::string path(const std::string& name) const { return (m_dir / name).string(); }
    static std::string messageOf(const std::string& p, const FileLimit& limit = kKernelFileLimit) {
        auto r = readTextFile(p, limit);
        EXPECT_FALSE(r.ok()) << p;
        if (r.ok()) return "";
        EXPECT_EQ(r.error().where.file, p);
        return r.error().message;
    }
    fs::path m_dir;
};

TEST_F(TextFile, ReadsARegularFileWhole) {
    std::ofstream(path("k.comp"), std::ios::binary) << std::string("#version 450\n\0\x80\n", 16);
    auto r = readTextFile(path("k.comp"));
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(*r, std::string("#version 450\n\0\x80\n", 16)); // bytes as they are
    if (!test::canMakeSymlinks()) return;
    fs::create_symlink("k.comp", m_dir / "link.comp");
    EXPECT_TRUE(readTextFile(path("link.comp")).ok()) << "a link to a regular file is fine";
}

TEST_F(TextFile, RefusesAFolderAFifoAndADevice) {
    fs::create_directories(m_dir / "dir.comp");
    EXPECT_NE(messageOf(path("dir.comp")).find("this is a folder, not a file"), std::string::npos);
#ifndef _WIN32 // FIFOs and device files are POSIX's kinds of file
    ASSERT_EQ(::mkfifo(path("fifo.comp").c_str(), 0644), 0);
    // Opening a FIFO with no writer would block forever; it is refused at once.
    EXPECT_NE(
        messageOf(path("fifo.comp")).find("not a regular file (a FIFO, a device or a socket)"),
        std::string::npos);
    EXPECT_NE(messageOf("/dev/zero").find("not a regular file"), std::string::npos);
    EXPECT_NE(messageOf("/dev/null").find("not a regular file"), std::string::npos);
    fs::create_symlink("/dev/zero", m_dir / "zero.comp");
    EXPECT_NE(messageOf(path("zero.comp")).find("not a regular file"), std::string::npos);
#endif
}

TEST_F(TextFile, SymbolicLinkLoopsAndMissingFilesAreErrors) {
    if (!test::canMakeSymlinks()) GTEST_SKIP() << test::kNoSymlinks;
    fs::create_symlink("loop.json", m_dir / "loop.json");
    EXPECT_NE(messageOf(path("loop.json")).find("symbolic link that leads back to itself"),
              std::string::npos);
    fs::create_symlink("b.json", m_dir / "a.json");
    fs::create_symlink("a.json", m_dir / "b.json");
    EXPECT_NE(messageOf(path("a.json")).find("(a loop)"), std::string::npos);
    EXPECT_NE(messageOf(path("absent.comp")).find("no such file"), std::string::npos);
}

// A UTF-8 byte order mark is no text: a kernel saved with one starts at its #version line.
TEST_F(TextFile, AByteOrderMarkIsDropped) {
    std::ofstream(path("bom.comp"), std::ios::binary) << "\xEF\xBB\xBF#version 450\n";
    auto text = readTextFile(path("bom.comp"));
    ASSERT_TRUE(text.ok());
    EXPECT_EQ(*text, "#version 450\n");
    std::ofstream(path("inner.comp"), std::ios::binary) << "a\xEF\xBB\xBF";
    EXPECT_EQ(*readTextFile(path("inner.comp")), "a\xEF\xBB\xBF") << "only at the start";
}

TEST_F(TextFile, SizeIsLimitedAndTheMessageSaysTheLimit) {
    std::ofstream(path("big.comp"), std::ios::binary)
        << std::string(kKernelFileLimit.bytes + 1, 'x');
    std::string m = messageOf(path("big.comp"));
    EXPECT_NE(m.find("a kernel file may be at most 1 MiB"), std::string::npos) << m;
    EXPECT_TRUE(readTextFile(path("big.comp"), kStateFileLimit).ok());
    std::ofstream(path("edge.comp"), std::ios::binary) << std::string(kKernelFileLimit.bytes, 'x');
    EXPECT_TRUE(readTextFile(path("edge.comp")).ok()) << "exactly the limit is allowed";
    // Just over 1 MiB reads as bytes, not as "1.0 MiB" beside "at most 1 MiB".
    std::ofstream(path("over.comp"), std::ios::binary) << std::string(1100000, 'x');
    EXPECT_NE(messageOf(path("over.comp")).find("the file is 1100000 bytes"), std::string::npos)
        << messageOf(path("over.comp"));
    EXPECT_EQ(sizeText(512), "512 bytes");
    EXPECT_EQ(sizeText(3u << 19), "1.5 MiB");
    EXPECT_EQ(sizeText(16u << 20), "16 MiB");
}

#ifndef _WIN32 // Windows' permissions are lists, which fs::permissions does not set
TEST_F(TextFile, UnreadableFileSaysPermissionDenied) {
    std::ofstream(path("secret.comp")) << "#version 450\n";
    fs::permissions(path("secret.comp"), fs::perms::none);
    if (::geteuid() == 0)
        GTEST_SKIP() << "root reads any file; the permission case needs another user";
    EXPECT_NE(messageOf(path("secret.comp")).find("permission denied"), std::string::npos);
}
#endif

TEST(WriteFileAtomically, ReplacesTheWholeFile) {
    std::string path =
        (fs::temp_directory_path() / ("vkp-atomic-" + std::to_string(getpid()))).string();
    ASSERT_TRUE(writeFileAtomically(path, std::string(10000, 'x')).ok());
    ASSERT_TRUE(writeFileAtomically(path, "short").ok());
    auto back = readTextFile(path);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, "short");
    fs::remove(path);
}

} // namespace
} // namespace vkp
