// The learner's saved state: drafts, progress and settings round-trip; damage is contained;
// state follows a renumbered puzzle folder.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "base/text_file.h"
#include "store/user_state.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

class UserStateTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_root = fs::temp_directory_path() /
                 ("vkp-user-state-" + std::to_string(getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_root);
        fs::create_directories(m_root);
        m_dir = (m_root / "vkpuzzles").string();
    }
    void TearDown() override { fs::remove_all(m_root); }

    void write(const std::string& rel, const std::string& text) {
        fs::create_directories((fs::path(m_dir) / rel).parent_path());
        std::ofstream(fs::path(m_dir) / rel) << text;
    }
    std::vector<fs::path> corruptFiles(const std::string& sub = "") {
        std::vector<fs::path> out;
        for (const auto& e : fs::directory_iterator(fs::path(m_dir) / sub))
            if (e.path().filename().string().find(".corrupt-") != std::string::npos)
                out.push_back(e.path());
        return out;
    }

    fs::path m_root;
    std::string m_dir;
};

TEST_F(UserStateTest, DefaultDirectoryFollowsXdg) {
    std::string saved = std::getenv("XDG_DATA_HOME") ? std::getenv("XDG_DATA_HOME") : "";
    setenv("XDG_DATA_HOME", m_root.c_str(), 1);
    EXPECT_EQ(UserState::defaultDirectory(), m_dir);
    setenv("XDG_DATA_HOME", "relative/is/ignored", 1);
    EXPECT_EQ(UserState::defaultDirectory(),
              std::string(std::getenv("HOME")) + "/.local/share/vkpuzzles");
    if (saved.empty())
        unsetenv("XDG_DATA_HOME");
    else
        setenv("XDG_DATA_HOME", saved.c_str(), 1);
}

TEST_F(UserStateTest, PresenterModeAndHighContrastRoundTrip) {
    {
        UserState s(m_dir);
        s.load();
        s.settings().theme = ThemeKind::HighContrast;
        s.settings().presenter = true;
        s.settings().presenterFontScale = 2.4f;
        ASSERT_TRUE(s.saveSettings().ok());
    }
    UserState s(m_dir);
    EXPECT_TRUE(s.load().empty());
    EXPECT_EQ(s.settings().theme, ThemeKind::HighContrast);
    EXPECT_TRUE(s.settings().presenter);
    EXPECT_FLOAT_EQ(s.settings().presenterFontScale, 2.4f);
    EXPECT_FLOAT_EQ(s.settings().activeFontScale(), 2.4f) << "presenter mode has its own size";
    s.settings().presenter = false;
    EXPECT_FLOAT_EQ(s.settings().activeFontScale(), s.settings().fontScale);
}

TEST_F(UserStateTest, EverythingRoundTrips) {
    {
        UserState s(m_dir);
        EXPECT_TRUE(s.load().empty()) << "a first start has nothing to complain about";
        s.settings().theme = ThemeKind::Light;
        s.settings().fontScale = 1.5f;
        s.settings().layout.topHeight = 0.6f;
        s.settings().device = "cpu";
        s.settings().lastPuzzle = "14-matmul";
        ASSERT_TRUE(s.saveSettings().ok());
        s.setProgress("01-map", {true, 2, false});
        s.setProgress("14-matmul", {false, 1, true});
        ASSERT_TRUE(s.saveProgress().ok());
        ASSERT_TRUE(s.saveDraft("01-map", {"void main() { /* é ✓ */ }\n", std::string("old text"),
                                           "reset to starter"})
                        .ok());
        ASSERT_TRUE(s.saveDraft("02-zip", {"zip draft", std::nullopt, ""}).ok());
    }
    UserState s(m_dir);
    EXPECT_TRUE(s.load().empty());
    EXPECT_EQ(s.settings().theme, ThemeKind::Light);
    EXPECT_FLOAT_EQ(s.settings().fontScale, 1.5f);
    EXPECT_FLOAT_EQ(s.settings().layout.topHeight, 0.6f);
    EXPECT_EQ(s.settings().device, "cpu");
    EXPECT_EQ(s.settings().lastPuzzle, "14-matmul");
    EXPECT_TRUE(s.progress("01-map").solved);
    EXPECT_EQ(s.progress("01-map").hintsRevealed, 2);
    EXPECT_TRUE(s.progress("14-matmul").solutionRevealed);
    EXPECT_FALSE(s.progress("05-broadcast").solved);
    ASSERT_NE(s.draft("01-map"), nullptr);
    EXPECT_EQ(s.draft("01-map")->text, "void main() { /* é ✓ */ }\n");
    EXPECT_EQ(s.draft("01-map")->previous, "old text");
    EXPECT_EQ(s.draft("01-map")->previousReason, "reset to starter");
    ASSERT_NE(s.draft("02-zip"), nullptr);
    EXPECT_FALSE(s.draft("02-zip")->previous.has_value());
    EXPECT_EQ(s.draft("03-guards"), nullptr);
}

TEST_F(UserStateTest, WatchedLinesAndLegendSettingsRoundTrip) {
    {
        UserState s(m_dir);
        s.load();
        s.settings().showLegends = false;
        s.settings().showExplanations = false;
        PuzzleProgress p;
        p.watchedLines = {37, 52};
        s.setProgress("14-matmul", p);
        ASSERT_TRUE(s.saveSettings().ok());
        ASSERT_TRUE(s.saveProgress().ok());
    }
    UserState s(m_dir);
    EXPECT_TRUE(s.load().empty());
    EXPECT_FALSE(s.settings().showLegends);
    EXPECT_FALSE(s.settings().showExplanations);
    EXPECT_EQ(s.progress("14-matmul").watchedLines, (std::vector<uint32_t>{37, 52}));
    EXPECT_TRUE(s.progress("01-map").watchedLines.empty());
    write("progress.json",
          R"({"version": 1, "puzzles": {"01-map": {"watched_lines": [9, -1, "x", 3]}}})");
    UserState odd(m_dir);
    EXPECT_TRUE(odd.load().empty()) << "odd entries are skipped, the rest kept";
    EXPECT_EQ(odd.progress("01-map").watchedLines, (std::vector<uint32_t>{3, 9}));
}

TEST_F(UserStateTest, WritesLeaveNoTemporaryFiles) {
    UserState s(m_dir);
    for (int i = 0; i < 5; ++i)
        ASSERT_TRUE(s.saveDraft("01-map", {"text " + std::to_string(i), std::nullopt, ""}).ok());
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(fs::path(m_dir) / "drafts")) {
        ++files;
        EXPECT_EQ(e.path().extension(), ".json") << e.path();
    }
    EXPECT_EQ(files, 1u);
}

TEST_F(UserStateTest, ACorruptDraftIsSetAsideAndTheOthersKept) {
    {
        UserState s(m_dir);
        ASSERT_TRUE(s.saveDraft("01-map", {"map draft", std::nullopt, ""}).ok());
        ASSERT_TRUE(s.saveDraft("02-zip", {"zip draft", std::nullopt, ""}).ok());
    }
    write("drafts/02-zip.json", "{\"version\": 1, \"text\": \"trunc");
    UserState s(m_dir);
    auto problems = s.load();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("02-zip.json"), std::string::npos) << problems[0];
    EXPECT_NE(problems[0].find("moved to"), std::string::npos) << problems[0];
    ASSERT_NE(s.draft("01-map"), nullptr);
    EXPECT_EQ(s.draft("01-map")->text, "map draft");
    EXPECT_EQ(s.draft("02-zip"), nullptr);
    auto aside = corruptFiles("drafts");
    ASSERT_EQ(aside.size(), 1u);
    std::ifstream in(aside[0]);
    std::stringstream kept;
    kept << in.rdbuf();
    EXPECT_EQ(kept.str(), "{\"version\": 1, \"text\": \"trunc")
        << "the damaged file is kept as it was";
    EXPECT_FALSE(fs::exists(fs::path(m_dir) / "drafts/02-zip.json"));
}

TEST_F(UserStateTest, CorruptSettingsAndProgressFallBackToDefaults) {
    write("settings.json", "not json at all");
    write("progress.json", "{\"version\": 1, \"puzzles\": {\"01-map\": {\"solved\": \"yes\"}}}");
    UserState s(m_dir);
    auto problems = s.load();
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_NE(problems[0].find("settings.json"), std::string::npos);
    EXPECT_NE(problems[1].find("progress.json"), std::string::npos);
    EXPECT_EQ(s.settings().theme, ThemeKind::Dark);
    EXPECT_FALSE(s.progress("01-map").solved);
    EXPECT_EQ(corruptFiles().size(), 2u);
    // The next save writes fresh files in their place.
    ASSERT_TRUE(s.saveSettings().ok());
    UserState again(m_dir);
    EXPECT_TRUE(again.load().empty());
}

TEST_F(UserStateTest, FilesFromANewerVersionAreNotMisread) {
    write("settings.json", "{\"version\": 99, \"theme\": \"light\"}");
    UserState s(m_dir);
    auto problems = s.load();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("newer"), std::string::npos);
}

TEST_F(UserStateTest, OddValuesAreClampedNotTrusted) {
    write("settings.json",
          "{\"font_scale\": 1000, \"layout\": {\"top_height\": 0.0, \"browser_width\": 0.2}}");
    UserState s(m_dir);
    EXPECT_TRUE(s.load().empty());
    EXPECT_LE(s.settings().fontScale, 4.0f);
    EXPECT_FLOAT_EQ(s.settings().layout.topHeight, LayoutSettings{}.topHeight);
    EXPECT_FLOAT_EQ(s.settings().layout.browserWidth, 0.2f);
}

TEST_F(UserStateTest, RenumberedPuzzlesKeepTheirDraftsAndProgress) {
    {
        UserState s(m_dir);
        s.load();
        s.settings().lastPuzzle = "22-scan-levels";
        ASSERT_TRUE(s.saveSettings().ok());
        s.setProgress("22-scan-levels", {true, 2, false, {7}});
        s.setProgress("01-map", {true, 1, false});
        ASSERT_TRUE(s.saveProgress().ok());
        ASSERT_TRUE(s.saveDraft("22-scan-levels",
                                {"levels draft", std::string("before"), "reset to starter"})
                        .ok());
        ASSERT_TRUE(s.saveDraft("20-scan-decoupled", {"decoupled draft", std::nullopt, ""}).ok());
        ASSERT_TRUE(s.saveDraft("01-map", {"map draft", std::nullopt, ""}).ok());
    }
    std::string oldLevels = UserState(m_dir).draftPath("22-scan-levels");
    std::string oldDecoupled = UserState(m_dir).draftPath("20-scan-decoupled");
    std::vector<std::string> folders = {"01-map", "18-scan-levels", "21-scan-decoupled"};
    {
        UserState s(m_dir);
        EXPECT_TRUE(s.load().empty());
        std::vector<std::string> said = s.followRenamedPuzzles(folders);
        ASSERT_EQ(said.size(), 2u);
        EXPECT_EQ(
            said[0],
            "The puzzle 20-scan-decoupled is now 21-scan-decoupled; your draft moved with it.");
        EXPECT_EQ(said[1], "The puzzle 22-scan-levels is now 18-scan-levels; your draft and "
                           "progress moved with it.");
        EXPECT_EQ(s.settings().lastPuzzle, "18-scan-levels");
        EXPECT_EQ(s.draft("22-scan-levels"), nullptr);
        EXPECT_FALSE(fs::exists(oldLevels));
        EXPECT_FALSE(fs::exists(oldDecoupled));
        EXPECT_TRUE(s.followRenamedPuzzles(folders).empty())
            << "a second time there is nothing to move";
    }
    // What moved is on disk under the new names.
    UserState s(m_dir);
    EXPECT_TRUE(s.load().empty());
    ASSERT_NE(s.draft("18-scan-levels"), nullptr);
    EXPECT_EQ(s.draft("18-scan-levels")->text, "levels draft");
    EXPECT_EQ(s.draft("18-scan-levels")->previous, "before");
    ASSERT_NE(s.draft("21-scan-decoupled"), nullptr);
    EXPECT_EQ(s.draft("21-scan-decoupled")->text, "decoupled draft");
    EXPECT_TRUE(s.progress("18-scan-levels").solved);
    EXPECT_EQ(s.progress("18-scan-levels").watchedLines, (std::vector<uint32_t>{7}));
    EXPECT_FALSE(s.progress("22-scan-levels").solved);
    // Puzzles that were not renamed are untouched.
    ASSERT_NE(s.draft("01-map"), nullptr);
    EXPECT_EQ(s.draft("01-map")->text, "map draft");
    EXPECT_TRUE(s.progress("01-map").solved);
}

TEST_F(UserStateTest, StateMovesOnlyToAnUnambiguousFolderWithNoStateOfItsOwn) {
    UserState s(m_dir);
    s.load();
    ASSERT_TRUE(s.saveDraft("05-broadcast", {"old broadcast", std::nullopt, ""}).ok());
    ASSERT_TRUE(s.saveDraft("07-broadcast", {"new broadcast", std::nullopt, ""}).ok());
    ASSERT_TRUE(s.saveDraft("03-pairs", {"pairs", std::nullopt, ""}).ok());
    ASSERT_TRUE(s.saveDraft("09-gone", {"a removed puzzle", std::nullopt, ""}).ok());
    s.setProgress("04-sum", {true, 0, false});
    // 07-broadcast has its own draft; two folders are called "pairs"; nothing is called "gone";
    // "sum" has no draft but one unambiguous successor.
    std::vector<std::string> said =
        s.followRenamedPuzzles({"07-broadcast", "10-pairs", "11-pairs", "12-sum"});
    ASSERT_EQ(said.size(), 1u);
    EXPECT_EQ(said[0], "The puzzle 04-sum is now 12-sum; your progress moved with it.");
    EXPECT_EQ(s.draft("07-broadcast")->text, "new broadcast");
    EXPECT_EQ(s.draft("05-broadcast")->text, "old broadcast"); // kept where it was, not lost
    EXPECT_TRUE(fs::exists(s.draftPath("05-broadcast")));
    EXPECT_NE(s.draft("03-pairs"), nullptr);
    EXPECT_NE(s.draft("09-gone"), nullptr);
    EXPECT_TRUE(s.progress("12-sum").solved);
}

TEST_F(UserStateTest, AnUnwritableDirectoryIsAnErrorNotACrash) {
    write("blocker", "a file where the folder should be");
    UserState s(m_dir + "/blocker/inner");
    auto st = s.saveDraft("01-map", {"text", std::nullopt, ""});
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().kind, ErrorKind::Io);
    ASSERT_NE(s.draft("01-map"), nullptr) << "the text stays in memory";
}

// ---- Issue 19, items 2, 4, 6 and 11: hostile files in the data folder ----

TEST_F(UserStateTest, ASymbolicLinkLoopAmongDraftsIsSetAsideNotFatal) {
    {
        UserState s(m_dir);
        ASSERT_TRUE(s.saveDraft("01-map", {"map draft", std::nullopt, ""}).ok());
    }
    fs::create_symlink("loop.json", fs::path(m_dir) / "drafts" /
                                        "loop.json"); // ln -s loop.json drafts/loop.json
    fs::create_directories(fs::path(m_dir) / "drafts" / "folder.json");
    UserState s(m_dir);
    auto problems = s.load();
    ASSERT_EQ(problems.size(), 2u);
    std::string all = problems[0] + "\n" + problems[1];
    EXPECT_NE(all.find("folder.json could not be read (this is a folder, not a file)"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find("loop.json could not be read (cannot read it: a symbolic link that leads "
                       "back to itself (a loop))"),
              std::string::npos)
        << all;
    ASSERT_NE(s.draft("01-map"), nullptr);
    EXPECT_EQ(s.draft("01-map")->text, "map draft");
    EXPECT_EQ(corruptFiles("drafts").size(), 2u) << "both moved aside, so the next start is clean";
    UserState again(m_dir);
    EXPECT_TRUE(again.load().empty());
}

TEST_F(UserStateTest, AFifoOrADeviceAsProgressDoesNotHang) {
    fs::create_directories(m_dir);
    ASSERT_EQ(::mkfifo((fs::path(m_dir) / "progress.json").c_str(), 0644),
              0); // reading it would wait for a writer
    fs::create_symlink("/dev/zero",
                       fs::path(m_dir) / "settings.json"); // reading it would never end
    UserState s(m_dir);
    auto problems = s.load();
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_NE(problems[0].find("settings.json could not be read (this is not a regular file"),
              std::string::npos)
        << problems[0];
    EXPECT_NE(problems[1].find("progress.json could not be read (this is not a regular file"),
              std::string::npos)
        << problems[1];
    EXPECT_NE(problems[1].find("progress starts afresh"), std::string::npos) << problems[1];
    ASSERT_TRUE(s.saveProgress().ok()) << "a plain file takes its place";
}

TEST_F(UserStateTest, AnOversizedDraftIsSetAsideWithTheLimit) {
    write("drafts/01-map.json", "{\"text\": \"" + std::string(kStateFileLimit.bytes, 'x') + "\"}");
    UserState s(m_dir);
    auto problems = s.load();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("a saved state file may be at most 16 MiB"), std::string::npos)
        << problems[0];
}

TEST_F(UserStateTest, ADataFolderThatIsAFileIsSaidOnceAndSavesSayWhy) {
    fs::create_directories(m_root);
    std::ofstream(m_dir) << "a file where the data folder should be";
    UserState s(m_dir);
    auto problems = s.load();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("The data folder " + m_dir + " is a file, not a folder"),
              std::string::npos)
        << problems[0];
    auto st = s.saveDraft("01-map", {"text", std::nullopt, ""});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find(m_dir + " is a file, not a folder"), std::string::npos)
        << st.error().message;
    EXPECT_FALSE(s.saveProgress().ok());
}

TEST_F(UserStateTest, TextThatIsNotUtf8IsSavedNotThrown) {
    UserState s(m_dir);
    std::string bad = "name\xff\x80";
    s.setProgress(bad, {true, 1, false, {}});
    s.settings().lastPuzzle = bad;
    ASSERT_TRUE(s.saveProgress().ok()); // nlohmann threw type_error.316 here
    ASSERT_TRUE(s.saveSettings().ok());
    ASSERT_TRUE(s.saveDraft(bad, {"x = 1; // \xfe", std::string("\xc3"), ""}).ok());
    UserState again(m_dir);
    EXPECT_TRUE(again.load().empty());
    EXPECT_TRUE(again.progress("name\xEF\xBF\xBD\xEF\xBF\xBD").solved)
        << "each invalid byte became U+FFFD";
    EXPECT_EQ(again.settings().lastPuzzle, "name\xEF\xBF\xBD\xEF\xBF\xBD");
}

// Two windows on one data folder (issue 19, item 8): every save merges with what the other left.
TEST_F(UserStateTest, TwoWindowsKeepEachOthersProgress) {
    UserState a(m_dir), b(m_dir);
    a.load();
    b.load();
    a.setProgress("02-zip", {true, 0, true, {}});
    ASSERT_TRUE(a.saveProgress().ok());
    b.setProgress("01-map", {false, 1, false, {5}});
    ASSERT_TRUE(b.saveProgress().ok())
        << "B never saw zip: before merging, this save wrote zip's progress away";
    EXPECT_TRUE(b.progress("02-zip").solved) << "B now knows what A saved";
    // Progress only grows: A, which loaded map unsolved, solves nothing there and changes a hint.
    a.setProgress("01-map", {false, 0, true, {7}});
    ASSERT_TRUE(a.saveProgress().ok());
    UserState later(m_dir);
    later.load();
    EXPECT_TRUE(later.progress("02-zip").solved);
    EXPECT_TRUE(later.progress("02-zip").solutionRevealed);
    EXPECT_EQ(later.progress("01-map").hintsRevealed, 1)
        << "B's hint is not taken back by A's save";
    EXPECT_TRUE(later.progress("01-map").solutionRevealed);
    EXPECT_EQ(later.progress("01-map").watchedLines, std::vector<uint32_t>{7})
        << "watched lines: the last window that changed them";
}

TEST_F(UserStateTest, ADraftSavedByAnotherWindowIsKeptAsTheTextToRestore) {
    UserState a(m_dir), b(m_dir);
    a.load();
    b.load();
    auto first = a.saveDraft("01-map", {"A's text", std::nullopt, ""});
    ASSERT_TRUE(first.ok());
    EXPECT_FALSE(first->keptOtherWindowsText);
    auto second = b.saveDraft("01-map", {"B's text", std::nullopt, ""});
    ASSERT_TRUE(second.ok());
    EXPECT_TRUE(second->keptOtherWindowsText);
    EXPECT_EQ(second->draft.text, "B's text");
    ASSERT_TRUE(second->draft.previous.has_value());
    EXPECT_EQ(*second->draft.previous, "A's text");
    EXPECT_EQ(second->draft.previousReason, UserState::kOtherWindowReason);
    // B's own next save finds its own text on disk: nothing to keep.
    auto third = b.saveDraft(
        "01-map", {"B's second text", second->draft.previous, second->draft.previousReason});
    ASSERT_TRUE(third.ok());
    EXPECT_FALSE(third->keptOtherWindowsText);
    // A saves again: B's text is the other window's now.
    auto fourth = a.saveDraft("01-map", {"A's second text", std::nullopt, ""});
    ASSERT_TRUE(fourth.ok());
    EXPECT_TRUE(fourth->keptOtherWindowsText);
    EXPECT_EQ(fourth->draft.previous.value_or(""), "B's second text");
    UserState later(m_dir);
    later.load();
    ASSERT_NE(later.draft("01-map"), nullptr);
    EXPECT_EQ(later.draft("01-map")->text, "A's second text");
    EXPECT_EQ(later.draft("01-map")->previous.value_or(""), "B's second text")
        << "no window's text is lost";
}

TEST_F(UserStateTest, ASecondWindowOnTheFolderIsToldAndTheLastOneIsAlone) {
    auto a = std::make_unique<UserState>(m_dir);
    EXPECT_EQ(a->claimFolder(), std::nullopt) << "the first window is alone";
    auto b = std::make_unique<UserState>(m_dir);
    auto told = b->claimFolder();
    ASSERT_TRUE(told.has_value());
    EXPECT_NE(told->find("Another vkpuzzles window is open"), std::string::npos) << *told;
    EXPECT_NE(told->find(m_dir), std::string::npos) << *told;
    a.reset();
    {
        UserState c(m_dir);
        EXPECT_TRUE(c.claimFolder().has_value()) << "B is still open";
    }
    b.reset();
    UserState d(m_dir);
    EXPECT_EQ(d.claimFolder(), std::nullopt) << "every other window has closed";
}

// Issue 18, item 6: a pack's puzzle is keyed "PACK/FOLDER"; its draft file can never be a built-in
// puzzle's, and the puzzle open last is kept per pack.
TEST_F(UserStateTest, APacksDraftAndLastPuzzleAreKeptApartFromTheBuiltInOnes) {
    {
        UserState s(m_dir);
        ASSERT_TRUE(s.saveDraft("01-map", {"// built-in\n", std::nullopt, ""}).ok());
        ASSERT_TRUE(s.saveDraft("course/01-map", {"// course\n", std::nullopt, ""}).ok());
        ASSERT_TRUE(s.saveDraft("course_01-map",
                                {"// a built-in folder with an odd name\n", std::nullopt, ""})
                        .ok());
        s.setProgress("course/01-map", {true, 1, false, {}, SolvedHow::OnTheirOwn});
        ASSERT_TRUE(s.saveProgress().ok());
        s.settings().lastPuzzle = "02-zip";
        s.settings().lastPuzzleInPack["course"] = "01-map";
        ASSERT_TRUE(s.saveSettings().ok());
    }
    EXPECT_TRUE(fs::exists(fs::path(m_dir) / "drafts/course@01-map.json"));
    UserState s(m_dir);
    EXPECT_TRUE(s.load().empty());
    ASSERT_NE(s.draft("01-map"), nullptr);
    ASSERT_NE(s.draft("course/01-map"), nullptr);
    ASSERT_NE(s.draft("course_01-map"), nullptr);
    EXPECT_EQ(s.draft("01-map")->text, "// built-in\n");
    EXPECT_EQ(s.draft("course/01-map")->text, "// course\n");
    EXPECT_EQ(s.draft("course_01-map")->text, "// a built-in folder with an odd name\n");
    EXPECT_TRUE(s.progress("course/01-map").solved);
    EXPECT_FALSE(s.progress("01-map").solved);
    EXPECT_EQ(s.settings().lastPuzzle, "02-zip");
    EXPECT_EQ(s.settings().lastPuzzleInPack.at("course"), "01-map");
    EXPECT_TRUE(
        s.followRenamedPuzzles({"01-map", "02-zip", "course/01-map", "course_01-map"}).empty())
        << "nothing moves between packs";
}

} // namespace
} // namespace vkp
