// loadPuzzleSet on a temporary tree (one bad puzzle, names and numbers, tracks, packs beside the
// built-in puzzles, a pack read defensively) and on the real puzzles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "base/os.h"
#include "puzzle/puzzle_loader.h"
#include "puzzle/track_order.h"
#include "support/system.h"
#include "toy_puzzle.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

// ---- loadPuzzleSet ----

class TempTree : public ::testing::Test {
  protected:
    void SetUp() override {
        m_root =
            fs::path("/tmp") / ("vkp_loader_test_" + std::to_string(::getpid()) + "_" +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_root);
        fs::create_directories(m_root);
    }
    void TearDown() override { fs::remove_all(m_root); }
    void write(const std::string& rel, const std::string& text) {
        fs::create_directories((m_root / rel).parent_path());
        std::ofstream(m_root / rel) << text;
    }
    void writePuzzle(const std::string& folder, const std::string& toml) {
        write(folder + "/puzzle.toml", toml);
        write(folder + "/starter.comp", "#version 450\nvoid main() {}\n");
        write(folder + "/solution.comp", "#version 450\nvoid main() {}\n");
    }
    fs::path m_root;
};

TEST_F(TempTree, OneBadPuzzleDoesNotHideTheGoodOne) {
    writePuzzle("01-good", kToyToml);
    writePuzzle("02-bad", "title = \"Bad\"\ntrack = [\n");
    write("notes/readme.txt", "not a puzzle"); // folders without puzzle.toml are ignored
    PuzzleSet set = loadPuzzleSet(m_root.string());
    EXPECT_EQ(set.root, m_root.string());
    ASSERT_EQ(set.puzzles.size(), 1u);
    EXPECT_EQ(set.puzzles[0].folder, "01-good");
    EXPECT_EQ(set.puzzles[0].slug, "good");
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_EQ(set.errors[0].kind, ErrorKind::PuzzleFile);
    EXPECT_EQ(set.errors[0].where.file, (m_root / "02-bad" / "puzzle.toml").string());
    EXPECT_GT(set.errors[0].where.line, 0);
    EXPECT_NE(set.errors[0].str().find("02-bad"), std::string::npos);
}

TEST_F(TempTree, FindByFolderSlugAndNumber) {
    writePuzzle("01-good", kToyToml);
    writePuzzle("03-other", kToyToml);
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_TRUE(set.errors.empty()) << set.errors[0].str();
    ASSERT_EQ(set.puzzles.size(), 2u);
    for (const char* name : {"01-good", "good", "1", "01"}) {
        auto p = set.find(name);
        ASSERT_TRUE(p.ok()) << name;
        EXPECT_EQ((*p)->folder, "01-good") << name;
    }
    auto o = set.find("3");
    ASSERT_TRUE(o.ok());
    EXPECT_EQ((*o)->slug, "other");
    for (const char* name : {"2", "nope", "", "good2"}) {
        auto missing = set.find(name);
        ASSERT_FALSE(missing.ok()) << name;
        EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);
        EXPECT_NE(missing.error().message.find("no puzzle named '" + std::string(name) + "'"),
                  std::string::npos);
    }
    auto close = set.find("goo");
    ASSERT_FALSE(close.ok());
    EXPECT_NE(close.error().message.find("did you mean: good"), std::string::npos)
        << close.error().message;
}

TEST_F(TempTree, TracksAreListedInTheOrderTheyAreTaken) {
    // Alphabetically "performance" would come before "scan"; a learner takes it after.
    auto withTrack = [](const std::string& track, int order) {
        std::string toml = kToyToml;
        toml.replace(toml.find("classic"), 7, track);
        toml.replace(toml.find("order = 7"), 9, "order = " + std::to_string(order));
        return toml;
    };
    writePuzzle("01-zeta", withTrack("zeta", 1));
    writePuzzle("02-perf", withTrack("performance", 1));
    writePuzzle("03-algo", withTrack("algorithms", 1));
    writePuzzle("04-scan-b", withTrack("scan", 2));
    writePuzzle("05-scan-a", withTrack("scan", 1));
    writePuzzle("06-alpha", withTrack("alpha", 1));
    writePuzzle("07-basic", withTrack("classic", 1));
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_TRUE(set.errors.empty()) << set.errors[0].str();
    std::vector<std::string> folders;
    for (const Puzzle& p : set.puzzles)
        folders.push_back(p.folder);
    EXPECT_EQ(folders, (std::vector<std::string>{"07-basic", "05-scan-a", "04-scan-b", "02-perf",
                                                 "03-algo", "06-alpha", "01-zeta"}));
    EXPECT_TRUE(trackBefore("scan", "performance"));
    EXPECT_FALSE(trackBefore("performance", "scan"));
    EXPECT_FALSE(trackBefore("scan", "scan"));
}

TEST_F(TempTree, NumberZeroDoesNotNameAnUnnumberedFolder) {
    // BUG (src/puzzle/puzzle_set.cpp, PuzzleSet::find): a folder without an "NN-" prefix gets
    // number 0, and find("0") compares p.number == stoi("0"), so "0" (or "00") silently selects
    // the first unnumbered puzzle instead of reporting NotFound. Numbers start at 1.
    writePuzzle("sandbox", kToyToml);
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.puzzles.size(), 1u);
    ASSERT_TRUE(set.find("sandbox").ok());
    EXPECT_FALSE(set.find("0").ok());
}

TEST_F(TempTree, MissingKernelFileIsAnError) {
    write("04-nokernel/puzzle.toml", kToyToml);
    write("04-nokernel/starter.comp", "#version 450\nvoid main() {}\n");
    PuzzleSet set = loadPuzzleSet(m_root.string());
    EXPECT_TRUE(set.puzzles.empty());
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_NE(set.errors[0].message.find("'solution.comp' is missing"), std::string::npos)
        << set.errors[0].message;
    EXPECT_EQ(set.errors[0].where.file, (m_root / "04-nokernel" / "puzzle.toml").string());
}

// A folder that holds no puzzle, or none at all, is the user's mistake about the whole folder
// (a Usage error: no puzzle of it is "skipped").
TEST_F(TempTree, EmptyOrMissingRootIsAUsageError) {
    PuzzleSet empty = loadPuzzleSet(m_root.string());
    ASSERT_EQ(empty.errors.size(), 1u);
    EXPECT_EQ(empty.errors[0].kind, ErrorKind::Usage);
    EXPECT_NE(empty.errors[0].message.find("no puzzle folders"), std::string::npos);
    PuzzleSet missing = loadPuzzleSet((m_root / "absent").string());
    ASSERT_EQ(missing.errors.size(), 1u);
    EXPECT_EQ(missing.errors[0].kind, ErrorKind::Usage);
    EXPECT_EQ(missing.errors[0].message, "no such folder");
    EXPECT_FALSE(readTextFile((m_root / "absent.txt").string()).ok());
    EXPECT_EQ(readTextFile((m_root / "absent.txt").string()).error().kind, ErrorKind::Io);
}

TEST(RealPuzzles, AllLoadAndEveryCaseMaterializes) {
    PuzzleSet set = loadPuzzleSet(VKPUZZLES_SOURCE_DIR "/puzzles");
    for (const Error& e : set.errors)
        ADD_FAILURE() << e.str();
    size_t classic = std::count_if(set.puzzles.begin(), set.puzzles.end(),
                                   [](const Puzzle& p) { return p.track == "classic"; });
    ASSERT_EQ(classic, 14u);
    std::map<std::string, int> lastOrder; // per track: sorted by order, no gaps, classic first
    for (size_t i = 0; i < set.puzzles.size(); ++i) {
        const Puzzle& p = set.puzzles[i];
        SCOPED_TRACE(p.folder);
        if (i < classic) {
            EXPECT_EQ(p.track, "classic");
        }
        EXPECT_EQ(p.order, ++lastOrder[p.track]);
        if (p.track == "classic") {
            EXPECT_EQ(p.number, p.order); // "1" names the puzzle of order 1
        }
        EXPECT_GE(p.cases.size(), 3u);
        EXPECT_GE(p.hints.size(), 2u);
        EXPECT_FALSE(p.statement.empty());
        // A case whose outputs are all zeros is passed by a kernel that writes nothing, so it
        // cannot stand alone; one is allowed where it is the point (compact keeping nothing).
        size_t zeroCases = 0;
        for (size_t c = 0; c < p.cases.size(); ++c) {
            auto d = materializeCase(p, c);
            ASSERT_TRUE(d.ok()) << d.error().str();
            bool anyOutput = false, allZero = true;
            for (const auto& e : d->expected) {
                if (!e) continue;
                anyOutput = true;
                allZero &= std::all_of(e->words.begin(), e->words.end(),
                                       [](uint32_t w) { return w == 0; });
            }
            EXPECT_TRUE(anyOutput) << "case " << c + 1;
            zeroCases += anyOutput && allZero;
        }
        EXPECT_LE(zeroCases, 1u) << "cases expecting only zeros";
    }
}

} // namespace
} // namespace vkp

// ---- Issue 19: a downloaded puzzle pack is read defensively ----

namespace vkp {
namespace {

TEST_F(TempTree, SymbolicLinkLoopInAPackIsAnErrorNotACrash) {
    if (!test::canMakeSymlinks()) GTEST_SKIP() << test::kNoSymlinks;
    writePuzzle("01-good", kToyToml);
    fs::create_directory_symlink("03-self", m_root / "03-self"); // ln -s 03-self PACK/03-self
    fs::create_directory_symlink("05-b", m_root / "04-a");       // a loop of two
    fs::create_directory_symlink("04-a", m_root / "05-b");
    fs::create_directory_symlink("gone", m_root / "06-dangling"); // not a loop: not a puzzle
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.puzzles.size(), 1u);
    EXPECT_EQ(set.puzzles[0].folder, "01-good");
    ASSERT_EQ(set.errors.size(), 3u);
    for (const Error& e : set.errors)
        EXPECT_NE(e.message.find("cannot open this folder"), std::string::npos) << e.str();
    EXPECT_EQ(set.errors[0].where.file, (m_root / "03-self").string());
}

#ifndef _WIN32 // Windows' permissions are lists, which fs::permissions does not set
TEST_F(TempTree, UnreadablePuzzleFolderIsAnError) {
    writePuzzle("01-good", kToyToml);
    writePuzzle("02-locked", kToyToml);
    fs::permissions(m_root / "02-locked", fs::perms::none);
    PuzzleSet set = loadPuzzleSet(m_root.string());
    fs::permissions(m_root / "02-locked", fs::perms::owner_all); // so that TearDown can remove it
    if (::geteuid() == 0)
        GTEST_SKIP() << "root reads a chmod 000 folder; the case needs another user";
    ASSERT_EQ(set.puzzles.size(), 1u);
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_NE(set.errors[0].str().find("02-locked"), std::string::npos);
}
#endif

#ifndef _WIN32 // a FIFO, /dev/zero and /etc/passwd are POSIX's
TEST_F(TempTree, KernelFilesMustBePlainFilesInsideThePuzzleFolder) {
    writePuzzle("01-fifo", kToyToml);
    fs::remove(m_root / "01-fifo" / "solution.comp");
    ASSERT_EQ(::mkfifo((m_root / "01-fifo" / "solution.comp").c_str(), 0644), 0);
    writePuzzle("02-dev", kToyToml);
    fs::remove(m_root / "02-dev" / "solution.comp");
    fs::create_directory(m_root / "02-dev" /
                         "solution.comp"); // a folder where the kernel should be
    writePuzzle("03-escape", kToyToml);
    fs::remove(m_root / "03-escape" / "solution.comp");
    fs::create_symlink("/etc/passwd",
                       m_root / "03-escape" / "solution.comp"); // a link out of the pack
    writePuzzle("04-zero", kToyToml);
    fs::remove(m_root / "04-zero" / "starter.comp");
    fs::create_symlink("/dev/zero", m_root / "04-zero" / "starter.comp");
    PuzzleSet set = loadPuzzleSet(m_root.string());
    EXPECT_TRUE(set.puzzles.empty());
    ASSERT_EQ(set.errors.size(), 4u);
    EXPECT_NE(set.errors[0].message.find("'solution.comp' is not a plain file"), std::string::npos)
        << set.errors[0].str();
    EXPECT_NE(set.errors[1].message.find("'solution.comp' is not a plain file"), std::string::npos)
        << set.errors[1].str();
    EXPECT_NE(set.errors[2].message.find(
                  "'solution' names \"solution.comp\", which is outside the puzzle's folder"),
              std::string::npos)
        << set.errors[2].str();
    EXPECT_NE(set.errors[3].message.find("'starter' names \"starter.comp\", which is outside"),
              std::string::npos)
        << set.errors[3].str();
    for (const Error& e : set.errors)
        EXPECT_EQ(e.where.file.rfind(m_root.string(), 0), 0u) << e.str();
}
#endif

TEST_F(TempTree, DuplicateSlugsNumbersAndOrdersAreWarnedAbout) {
    writePuzzle("03-alpha", kToyToml);
    writePuzzle("03-beta", kToyToml);  // same number, same track and order as 03-alpha
    writePuzzle("07-alpha", kToyToml); // same slug as 03-alpha
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.puzzles.size(), 3u);
    EXPECT_TRUE(set.errors.empty());
    std::string all;
    for (const Error& w : set.warnings)
        all += w.str() + "\n";
    EXPECT_NE(all.find("the folders 03-alpha and 07-alpha both have the slug 'alpha'; 'alpha' "
                       "names 03-alpha only"),
              std::string::npos)
        << all;
    EXPECT_NE(
        all.find(
            "the folders 03-alpha and 03-beta both have the number 3; '3' names 03-alpha only"),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("the folders 03-alpha and 03-beta both have order = "), std::string::npos)
        << all;
    EXPECT_EQ((*set.find("alpha"))->folder, "03-alpha")
        << "the warning says which one the name picks";
}

TEST_F(TempTree, AHugeFolderNumberIsAName) {
    writePuzzle("99999999999999999999-big", kToyToml); // std::stoi threw out_of_range here
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.puzzles.size(), 1u) << (set.errors.empty() ? "" : set.errors[0].str());
    EXPECT_EQ(set.puzzles[0].number, 0);
    EXPECT_EQ(set.puzzles[0].slug, "99999999999999999999-big");
}

TEST_F(TempTree, OversizedPuzzleTomlIsRefusedWithItsLimit) {
    writePuzzle("01-huge",
                std::string(kToyToml) + "\n#" + std::string(kPuzzleFileLimit.bytes, 'x') + "\n");
    PuzzleSet set = loadPuzzleSet(m_root.string());
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_NE(set.errors[0].message.find("a puzzle file may be at most 1 MiB"), std::string::npos)
        << set.errors[0].str();
}

// ---- packs beside the built-in puzzles (--puzzles) ----

TEST_F(TempTree, APackIsAddedBesideTheBuiltInPuzzlesAndListedAfterThem) {
    writePuzzle("builtin/01-alpha", kToyToml);
    writePuzzle("course/pack/01-alpha", kToyToml); // the same folder name in a pack
    writePuzzle("course/pack/02-beta", kToyToml);
    PuzzleSet set =
        loadPuzzleSet((m_root / "builtin").string(), {(m_root / "course/pack/").string()});
    ASSERT_EQ(set.puzzles.size(), 3u) << (set.errors.empty() ? "" : set.errors[0].str());
    for (const Error& w :
         set.warnings) // the toy puzzles share a track order within the pack, which is warned about
        EXPECT_EQ(w.message.find("slug 'alpha'"), std::string::npos)
            << "a pack's 01-alpha beside a built-in 01-alpha is not a duplicate: " << w.str();
    ASSERT_EQ(set.packs.size(), 1u);
    EXPECT_EQ(set.packs[0].name, "pack");
    EXPECT_EQ(os::toPath(set.packs[0].root), fs::weakly_canonical(m_root / "course" / "pack"))
        << "absolute, without the trailing slash";
    EXPECT_EQ(set.puzzles[0].pack, "");
    EXPECT_EQ(set.puzzles[0].key(), "01-alpha");
    EXPECT_EQ(set.puzzles[1].pack, "pack");
    EXPECT_EQ(set.puzzles[1].key(), "pack/01-alpha")
        << "a pack's puzzle never shares a draft with a built-in one";
    EXPECT_EQ(set.puzzles[2].packRoot, set.packs[0].root);
    // Names: the pack first, PACK/NAME for one pack, the built-in ones when no pack has the name.
    EXPECT_EQ((*set.find("alpha"))->pack, "pack");
    EXPECT_EQ((*set.find("1"))->pack, "pack");
    EXPECT_EQ((*set.find("pack/01-alpha"))->key(), "pack/01-alpha");
    EXPECT_EQ((*set.find("pack/2"))->slug, "beta");
    EXPECT_FALSE(set.find("other/alpha")) << "no pack is called other";
    // "All of them" means the pack's when a pack was given.
    ASSERT_EQ(set.inScope().size(), 2u);
    EXPECT_EQ(set.inScope()[0]->key(), "pack/01-alpha");
    PuzzleSet builtinOnly = loadPuzzleSet((m_root / "builtin").string());
    ASSERT_EQ(builtinOnly.inScope().size(), 1u);
    EXPECT_EQ((*builtinOnly.find("alpha"))->pack, "");
}

TEST_F(TempTree, TheBuiltInFolderGivenAsAPackAndAPackGivenTwiceLoadOnce) {
    writePuzzle("builtin/01-alpha", kToyToml);
    writePuzzle("a/pack/01-beta", kToyToml);
    writePuzzle("b/pack/01-gamma", kToyToml);
    std::string builtin = (m_root / "builtin").string();
    PuzzleSet set =
        loadPuzzleSet(builtin, {builtin + "/", (m_root / "a/pack").string(),
                                (m_root / "a/../a/pack").string(), (m_root / "b/pack").string()});
    EXPECT_TRUE(set.errors.empty());
    ASSERT_EQ(set.puzzles.size(), 3u);
    ASSERT_EQ(set.packs.size(), 2u);
    EXPECT_EQ(set.packs[1].name, "pack-2") << "two packs in folders of one name are told apart";
    EXPECT_EQ(set.puzzles[2].key(), "pack-2/01-gamma");
    ASSERT_EQ(set.warnings.size(), 1u);
    EXPECT_NE(
        set.warnings[0].message.find(
            "another pack is also called pack; this one's drafts and progress are kept as pack-2"),
        std::string::npos)
        << set.warnings[0].str();
}

TEST_F(TempTree, AMissingPackIsAnErrorNamingItsFolder) {
    writePuzzle("builtin/01-alpha", kToyToml);
    PuzzleSet set = loadPuzzleSet((m_root / "builtin").string(), {(m_root / "absent").string()});
    ASSERT_EQ(set.errors.size(), 1u);
    EXPECT_EQ(os::toPath(set.errors[0].where.file), fs::weakly_canonical(m_root / "absent"));
    EXPECT_TRUE(set.inScope().empty())
        << "the pack given has no puzzles, so a command about all of them has none";
}

TEST_F(TempTree, SuggestedCommandsReachAPacksPuzzleFromAShell) {
    writePuzzle("builtin/01-alpha", kToyToml);
    writePuzzle("my course/it's/01-beta", kToyToml);
    PuzzleSet set =
        loadPuzzleSet((m_root / "builtin").string(), {(m_root / "my course/it's").string()});
    ASSERT_EQ(set.puzzles.size(), 2u);
    EXPECT_EQ(set.puzzles[0].command("show"), "vkpuzzles show alpha");
    // The pack's folder as the shell reads it back (os::shellWord: quoted, since it holds a
    // space; tests/base/os_test.cpp), the folder it names being the pack's.
    ASSERT_EQ(set.packs.size(), 1u);
    EXPECT_TRUE(fs::equivalent(os::toPath(set.packs[0].root), m_root / "my course" / "it's"));
    EXPECT_EQ(set.puzzles[1].command("run", "--solution"),
              "vkpuzzles --puzzles " + os::shellWord(set.packs[0].root) + " run beta --solution");
    EXPECT_NE(os::shellWord(set.packs[0].root), set.packs[0].root);
}

TEST_F(TempTree, TheFilesStampChangesWhenAFileOfThePuzzleIsSaved) {
    writePuzzle("01-alpha", kToyToml);
    std::string dir = (m_root / "01-alpha").string();
    uint64_t before = puzzleFilesStamp(dir);
    EXPECT_EQ(puzzleFilesStamp(dir), before) << "nothing changed";
    write("01-alpha/puzzle.toml", std::string(kToyToml) + "\n# an author's edit\n"); // another size
    uint64_t edited = puzzleFilesStamp(dir);
    EXPECT_NE(edited, before);
    write("01-alpha/walkthrough.toml", "");
    EXPECT_NE(puzzleFilesStamp(dir), edited) << "a new file counts too";
}

} // namespace
} // namespace vkp
