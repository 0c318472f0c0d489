// The operating system's seam (base/os.h), on the system the test runs on: Linux here, and the
// Windows build under Wine in CI (packaging/windows/check.sh), where UTF-8 paths are the point.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "base/os.h"
#include "base/text_file.h"

namespace vkp {
namespace {

namespace fs = std::filesystem;

class OsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("vkp-os-" + std::to_string(os::processId()));
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

// "Zoë's café €": letters of two and three bytes in UTF-8, an apostrophe and a space.
const std::string kName = "Zo\xC3\xAB's caf\xC3\xA9 \xE2\x82\xAC";

TEST_F(OsTest, UnicodePathsMakeTheFilesTheyName) {
    fs::path folder = m_dir / os::toPath(kName);
    fs::create_directories(folder);
    std::string file = os::pathText(folder / os::toPath("k\xC3\xA9rnel.comp"));
    ASSERT_TRUE(writeFileAtomically(file, "#version 450\n").ok());
    auto text = readTextFile(file);
    ASSERT_TRUE(text.ok()) << text.error().str();
    EXPECT_EQ(*text, "#version 450\n");
    // The folder as the system lists it: its name is the same text, not one byte per letter.
    std::vector<std::string> names;
    for (const fs::directory_entry& e : fs::directory_iterator(m_dir))
        names.push_back(os::pathText(e.path().filename()));
    EXPECT_EQ(names, std::vector<std::string>{kName});
    EXPECT_EQ(os::pathText(os::toPath(kName)), kName);
}

TEST_F(OsTest, ReplacingAFileReplacesItWhole) {
    std::string a = os::pathText(m_dir / "a.txt"), b = os::pathText(m_dir / "b.txt");
    ASSERT_TRUE(writeFileAtomically(a, "new").ok());
    ASSERT_TRUE(writeFileAtomically(b, "old, and longer").ok());
    ASSERT_TRUE(os::replaceFile(a, b));
    EXPECT_FALSE(fs::exists(m_dir / "a.txt"));
    EXPECT_EQ(*readTextFile(b), "new");
}

TEST_F(OsTest, AnExclusiveLockExcludesAnotherAndASharedOneSharesWithOthers) {
    std::string path = os::pathText(m_dir / ".lock");
    int first = os::openForLocking(path), second = os::openForLocking(path);
    ASSERT_GE(first, 0);
    ASSERT_GE(second, 0);
    EXPECT_TRUE(os::lockExclusive(first, false));
    EXPECT_FALSE(os::lockExclusive(second, false)) << "the first holds it";
    EXPECT_FALSE(os::lockShared(second)) << "not even shared while the first holds it alone";
    EXPECT_TRUE(os::lockShared(first)) << "the first's lock becomes shared";
    EXPECT_TRUE(os::lockShared(second)) << "now both share it";
    EXPECT_FALSE(os::lockExclusive(second, false)) << "not alone: the first shares it too";
    ::close(first);
    ::close(second);
}

TEST_F(OsTest, TheProgramAndItsFoldersAreKnown) {
    EXPECT_TRUE(fs::exists(os::toPath(os::executablePath()))) << os::executablePath();
    EXPECT_FALSE(os::dataHome().empty());
    EXPECT_GT(os::processId(), 0);
    bool path = false;
    for (const std::string& e : os::environmentEntries())
        path = path || e.rfind("PATH=", 0) == 0 || e.rfind("Path=", 0) == 0;
    EXPECT_TRUE(path) << "the environment has its PATH";
}

TEST(OsShellWord, PlainWordsStayAndOthersAreQuotedForThisSystemsShell) {
    EXPECT_EQ(os::shellWord("plain-name_1.comp"), "plain-name_1.comp");
#ifdef _WIN32 // cmd and PowerShell
    EXPECT_EQ(os::shellWord("C:\\Users\\ada\\my course"), "\"C:\\Users\\ada\\my course\"");
    EXPECT_EQ(os::shellWord(""), "\"\"");
#else
    EXPECT_EQ(os::shellWord("/tmp/plain-name_1.comp"), "/tmp/plain-name_1.comp");
    EXPECT_EQ(os::shellWord("my course/it's"), "'my course/it'\\''s'");
    EXPECT_EQ(os::shellWord(""), "''");
#endif
}

} // namespace
} // namespace vkp
