// Issue 19: input a hostile user or a stranger's puzzle pack controls gives a clear message and
// the right exit code, never a crash (exit -1 here: killed by a signal), a hang or an abort.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace fs = std::filesystem;

namespace vkp {
namespace {

using test::CliRun;
using test::has;
using test::vkpuzzles;
using test::vkpuzzlesStdout;

class HostileInput : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir =
            fs::path("/tmp") / ("vkp-hostile-" + std::to_string(::getpid()) + "-" +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "pack");
    }
    void TearDown() override { fs::remove_all(m_dir); }
    std::string write(const std::string& rel, const std::string& text) {
        fs::create_directories((m_dir / rel).parent_path());
        std::ofstream(m_dir / rel, std::ios::binary) << text;
        return (m_dir / rel).string();
    }
    static std::string read(const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
    // A copy of puzzles/01-map in pack/FOLDER with `from` replaced by `to` in its puzzle.toml.
    void mapCopy(const std::string& folder, const std::string& from = "",
                 const std::string& to = "") {
        fs::path src = fs::path(test::puzzleDir()) / "01-map";
        fs::create_directories(m_dir / "pack" / folder);
        for (const char* f : {"starter.comp", "solution.comp"})
            fs::copy_file(src / f, m_dir / "pack" / folder / f);
        std::string toml = read((src / "puzzle.toml").string());
        if (!from.empty()) {
            ASSERT_NE(toml.find(from), std::string::npos) << from;
            toml.replace(toml.find(from), from.size(), to);
        }
        write("pack/" + folder + "/puzzle.toml", toml);
    }
    std::string pack() const { return "--puzzles " + (m_dir / "pack").string() + " "; }
    static std::string solution() { return read(test::puzzleDir() + "/01-map/solution.comp"); }
    fs::path m_dir;
};

// ---- item 3: deep and long expressions ----

TEST_F(HostileInput, DeepAndLongExpressionsAreALoadErrorNotAStackOverflow) {
    const std::string first = "workgroups = [\"ceil_div(N, WG)\"]"; // case 1's, at line 53
    mapCopy("01-deep", first,
            "workgroups = [\"" + std::string(50000, '(') + "N" + std::string(50000, ')') + "\"]");
    std::string chain = "N";
    for (int i = 0; i < 200000; ++i)
        chain += "+N";
    mapCopy("02-long", first, "workgroups = [\"" + chain + "\"]");
    mapCopy("03-zero", first, "workgroups = [\"N / 0\"]");
    mapCopy("04-fine");
    CliRun r = vkpuzzles(pack() + "list --color never");
    EXPECT_EQ(r.exit, 0) << r.out; // the good puzzle is listed, the others warned about
    EXPECT_TRUE(has(r.out, "01-deep/puzzle.toml:53:15: in the expression of 'workgroups' (\"(((("))
        << r.out;
    EXPECT_TRUE(has(r.out, "it nests deeper than 64 levels of parentheses and function calls"))
        << r.out;
    EXPECT_TRUE(has(r.out, "02-long/puzzle.toml:53:15:")) << r.out;
    EXPECT_TRUE(has(r.out, "it has more than 512 numbers, names and operators")) << r.out;
    EXPECT_TRUE(has(r.out, "03-zero/puzzle.toml:53:15: division by zero in the expression of "
                           "'workgroups' (\"N / 0\"), column 3"))
        << r.out;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        EXPECT_LT(line.size(), 400u)
            << "messages quote a hostile expression only in part: " << line;
    EXPECT_TRUE(has(r.out, " map ")) << "the good copy is listed: " << r.out;
}

// ---- item 4: JSON output with text that is not UTF-8 ----

TEST_F(HostileInput, JsonWithBytesThatAreNotUtf8IsValidJson) {
    std::string bad = write("u.comp", "#version 450\n\x80\n"); // printf '#version 450\n\x80\n'
    CliRun r = vkpuzzlesStdout("check map " + bad + " --json");
    EXPECT_EQ(r.exit, 1) << r.out; // does not compile: exit 1, not an abort
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j["compiled"].get<bool>());
    std::string passing = write("k\xff.comp", solution()); // a passing kernel whose name holds \xff
    CliRun p = vkpuzzlesStdout("check map '" + passing + "' --json");
    EXPECT_EQ(p.exit, 0) << p.out;
    nlohmann::json pj = nlohmann::json::parse(p.out);
    EXPECT_TRUE(pj["pass"].get<bool>());
    EXPECT_TRUE(has(pj["kernel"].get<std::string>(), "k\xEF\xBF\xBD.comp"))
        << "the byte became U+FFFD";
}

TEST_F(HostileInput, JsonListOfAPackWithAFolderNameThatIsNotUtf8) {
    mapCopy("01-m\xfe\xffp");
    CliRun r = vkpuzzlesStdout(pack() + "list --json");
    EXPECT_EQ(r.exit, 0) << r.out;
    nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_GE(j["puzzles"].size(), 2u) << "the built-in puzzles, then the pack's";
    EXPECT_EQ(j["puzzles"].back()["pack"], "pack");
    EXPECT_EQ(j["puzzles"].back()["folder"], "01-m\xEF\xBF\xBD\xEF\xBF\xBDp")
        << "each invalid byte became U+FFFD";
    CliRun show = vkpuzzlesStdout(pack() + "show 1 --json");
    EXPECT_EQ(show.exit, 0) << show.out;
    EXPECT_EQ(nlohmann::json::parse(show.out)["folder"], "01-m\xEF\xBF\xBD\xEF\xBF\xBDp");
}

// ---- item 5: numbers and options per command ----

TEST_F(HostileInput, NumbersOutOfRangeAreUsageErrors) {
    struct Row {
        const char* args;
        const char* message;
    } rows[] = {
        {"trace map --solution --thread 99999999999999999999",
         "--thread needs X, X,Y or X,Y,Z, whole numbers from 0 to 4294967295, not "
         "'99999999999999999999'"},
        {"trace map --solution --thread 1,2,3,4", "--thread needs X, X,Y or X,Y,Z"},
        {"trace map --solution --thread 1,", "--thread needs X, X,Y or X,Y,Z"},
        {"trace map --solution --thread -1", "--thread needs"},
        {"trace map --solution --thread 4294967295",
         "--thread needs a thread's global id inside the launch"},
        {"check map --solution --case 99999999999999999999",
         "--case needs a whole number from 1 to 1000000"},
        {"check map --solution --timeout 0",
         "--timeout needs a whole number from 1 to 3600, not '0'"},
        {"check map --solution --repeat=-3",
         "--repeat needs a whole number from 1 to 1000, not '-3'"},
        {"bench map --solution --reps 1e3",
         "--reps needs a whole number from 1 to 1000, not '1e3'"},
        {"walkthrough map --step 18446744073709551616", "--step needs a whole number"},
        {"list --color purple", "--color is auto, always or never, not 'purple'"},
        {"--frames 99999999999999999999", "--frames needs a whole number from 1 to 1000000"},
        {"--thread 99999999999", "--thread needs X, X,Y or X,Y,Z"},
        {"check map --solution --device 99999999999999999999",
         "no usable Vulkan device matches '99999999999999999999'"},
    };
    for (const Row& r : rows) {
        CliRun run = vkpuzzles(r.args);
        EXPECT_EQ(run.exit, 2) << r.args << "\n" << run.out;
        EXPECT_TRUE(has(run.out, r.message)) << r.args << "\n" << run.out;
    }
}

TEST_F(HostileInput, OptionsThatDoNotBelongToTheCommandAreNamed) {
    struct Row {
        const char* args;
        const char* message;
    } rows[] = {
        {"list --screenshot x --reps 3", "--screenshot is not an option of `vkpuzzles list`; it is "
                                         "for the desktop app (no command)"},
        {"list --reps 3", "--reps is not an option of `vkpuzzles list`; it is for vkpuzzles bench"},
        {"show map --theme purple",
         "--theme is not an option of `vkpuzzles show`; it is for the desktop app (no command)"},
        {"show map --theme dark", "--theme is not an option of `vkpuzzles show`"},
        {"hint map --json", "--json is not an option of `vkpuzzles hint`"},
        {"trace map --solution --no-trace",
         "--no-trace is not an option of `vkpuzzles trace`; it is for vkpuzzles check, vkpuzzles "
         "run and vkpuzzles watch"},
        {"--reps 2", "--reps is not an option of the desktop app (no command); it is for vkpuzzles "
                     "bench"},
        {"devices --solution", "--solution is not an option of `vkpuzzles devices`"},
    };
    for (const Row& r : rows) {
        CliRun run = vkpuzzles(r.args);
        EXPECT_EQ(run.exit, 2) << r.args << "\n" << run.out;
        EXPECT_TRUE(has(run.out, r.message)) << r.args << "\n" << run.out;
        EXPECT_TRUE(has(run.out, "(see vkpuzzles --help)")) << r.args << "\n" << run.out;
    }
    // --help keeps working, with any command, and still explains the options.
    for (const char* args : {"--help", "show map --help", "list --theme dark --help", "help"}) {
        CliRun help = vkpuzzles(args);
        EXPECT_EQ(help.exit, 0) << args << "\n" << help.out;
        EXPECT_TRUE(has(help.out, "App options (no command):")) << args;
        EXPECT_TRUE(has(help.out, "--thread X[,Y,Z]  select this thread")) << args;
    }
}

// ---- items 2, 6 and 7: files read defensively ----

TEST_F(HostileInput, SymbolicLinkLoopInAPackIsAWarning) {
    mapCopy("01-map");
    fs::create_directory_symlink("03-self",
                                 m_dir / "pack" / "03-self"); // ln -s 03-self PACK/03-self
    CliRun r = vkpuzzles(pack() + "list --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "warning: " + (m_dir / "pack" / "03-self").string() +
                               ": cannot open this folder: Too many levels of symbolic links"))
        << r.out;
    EXPECT_TRUE(has(r.out, " map ")) << r.out;
}

TEST_F(HostileInput, PackFilesOutsideTheFolderAreRejectedAtLoad) {
    mapCopy("01-map");
    mapCopy("02-passwd", "title = \"Map\"",
            "title = \"Passwd\"\nstarter = \"../../../../../etc/passwd\"");
    mapCopy("03-shadow", "title = \"Map\"", "title = \"Shadow\"\nsolution = \"/etc/shadow\"");
    mapCopy("04-zero", "title = \"Map\"", "title = \"Zero\"\nsolution = \"/dev/zero\"");
    CliRun r = vkpuzzles(pack() + "list --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(r.out, "02-passwd/puzzle.toml:2:11: 'starter' names "
                           "\"../../../../../etc/passwd\", which is outside the puzzle's folder"))
        << r.out;
    EXPECT_TRUE(has(
        r.out, "03-shadow/puzzle.toml:2:12: 'solution' names \"/etc/shadow\", which is outside"))
        << r.out;
    EXPECT_TRUE(
        has(r.out, "04-zero/puzzle.toml:2:12: 'solution' names \"/dev/zero\", which is outside"))
        << r.out;
    EXPECT_FALSE(has(r.out, "root:")) << "no line of /etc/passwd is shown";
    CliRun check = vkpuzzles(pack() + "check zero --solution");
    EXPECT_EQ(check.exit, 2) << check.out; // the puzzle did not load: no hang on /dev/zero
    EXPECT_TRUE(has(check.out, "no puzzle named 'zero'")) << check.out;
}

TEST_F(HostileInput, KernelPathsThatAreNotPlainFiles) {
    fs::create_directories(m_dir / "dir.comp");
    ASSERT_EQ(::mkfifo((m_dir / "fifo.comp").c_str(), 0644), 0);
    std::string big = write("big.comp", "#version 450\n" + std::string(2u << 20, ' '));
    struct Row {
        std::string path;
        std::string message;
    } rows[] = {
        {"/dev/zero", "cannot read the kernel file '/dev/zero': this is not a regular file (a "
                      "FIFO, a device or a socket)"},
        {(m_dir / "fifo.comp").string(), "this is not a regular file"},
        {(m_dir / "dir.comp").string(), "this is a folder, not a file"},
        {big, "the file is 2.0 MiB; a kernel file may be at most 1 MiB"},
        {(m_dir / "absent.comp").string(), "no such file"},
    };
    for (const Row& r : rows) {
        CliRun run = vkpuzzles("check map " + r.path);
        EXPECT_EQ(run.exit, 2) << r.path << "\n" << run.out;
        EXPECT_TRUE(has(run.out, r.message)) << r.path << "\n" << run.out;
        EXPECT_FALSE(has(run.out, "#version")) << "not reported as a missing #version: " << run.out;
    }
}

// ---- item 11: what reaches the terminal ----

TEST_F(HostileInput, ControlCharactersFromKernelsAndPuzzleFilesAreEscaped) {
    const char text[] =
        "#version 450\nvoid main() { \x1b]0;pwned\x07\x1b[2J\0\r x; }\n"; // OSC title, clear
                                                                          // screen, NUL, CR
    std::string k = write("esc.comp", std::string(text, sizeof text - 1));
    for (const char* color : {"never", "always"}) {
        CliRun r = vkpuzzles("check map " + k + " --color " + color);
        EXPECT_EQ(r.exit, 1) << r.out;
        EXPECT_FALSE(has(r.out, "\x1b]")) << "an OSC sequence reached the terminal";
        EXPECT_FALSE(has(r.out, "\x1b[2J")) << "a clear-screen reached the terminal";
        EXPECT_FALSE(has(r.out, std::string(1, '\0')));
        EXPECT_FALSE(has(r.out, "\r"));
        EXPECT_FALSE(has(r.out, "\x07"));
        EXPECT_TRUE(has(r.out, "\\x1b]0;pwned\\x07\\x1b[2J\\x00\\x0d")) << r.out;
        if (std::string(color) == "always") {
            EXPECT_TRUE(has(r.out, "\x1b[31;1m")) << "the CLI's own colours still pass";
        }
    }
    mapCopy("01-map", "title = \"Map\"", "title = \"Map\\u001b[2J\\u009b31m\\u0000\"");
    CliRun show = vkpuzzles(pack() + "list --color never");
    EXPECT_EQ(show.exit, 0) << show.out;
    EXPECT_TRUE(has(show.out, "Map\\x1b[2J\\xc2\\x9b31m\\x00")) << show.out;
    EXPECT_FALSE(has(show.out, "\x1b"));
}

TEST_F(HostileInput, DuplicateSlugsAndNumbersInAPackAreWarnedAbout) {
    mapCopy("01-map");
    mapCopy("01-other");
    mapCopy("05-map");
    CliRun r = vkpuzzles(pack() + "list --color never");
    EXPECT_EQ(r.exit, 0) << r.out;
    EXPECT_TRUE(has(
        r.out, "the folders 01-map and 05-map both have the slug 'map'; 'map' names 01-map only"))
        << r.out;
    EXPECT_TRUE(has(r.out, "the folders 01-map and 01-other both have the number 1")) << r.out;
    EXPECT_TRUE(has(r.out, "both have order = 1 in the 'classic' track")) << r.out;
    // A teacher's check says so too, and grading a class refuses a slug that names two puzzles.
    CliRun check = vkpuzzles("pack check " + (m_dir / "pack").string() +
                             " --no-mutants "
                             "--color never");
    EXPECT_TRUE(has(check.out, "warning: ")) << check.out;
    EXPECT_TRUE(has(check.out, "both have the slug 'map'")) << check.out;
    fs::create_directories(m_dir / "class/ann");
    std::ofstream(m_dir / "class/ann/map.comp") << solution();
    CliRun grade = vkpuzzles(pack() + "grade --all " + (m_dir / "class").string());
    EXPECT_EQ(grade.exit, 2) << grade.out;
    EXPECT_TRUE(has(grade.out, "two puzzles have the slug 'map' (01-map and 01-other)"))
        << grade.out;
}

// Words a command does not take are named, not dropped; a hint count is a whole number from 1.
TEST_F(HostileInput, ExtraWordsAndNegativeCountsAreUsageErrors) {
    CliRun show = vkpuzzles("show map extra --color never");
    EXPECT_EQ(show.exit, 2) << show.out;
    EXPECT_TRUE(has(show.out, "`show` does not take extra")) << show.out;
    CliRun list = vkpuzzles("list one two --color never");
    EXPECT_EQ(list.exit, 2) << list.out;
    EXPECT_TRUE(has(list.out, "`list` does not take one and two")) << list.out;
    CliRun hint = vkpuzzles("hint map -1 --color never");
    EXPECT_EQ(hint.exit, 2) << hint.out;
    EXPECT_TRUE(has(hint.out, "a whole number from 1, not '-1'")) << hint.out;
    EXPECT_EQ(vkpuzzles("hint map 2 --color never").exit, 0);
}

// A shared array whose length a constant brings to 0 in some case (an off-by-one a learner
// makes: MAX_SUBGROUPS - 1 with one subgroup) crashed lavapipe's compiler, in the worker or in
// the CLI itself: it is an error that names the array, its line and the constants.
TEST_F(HostileInput, ASharedArrayOfNoElementsIsAnErrorNotACrash) {
    std::string kernel =
        test::sourceDir() + "/tests/data/algorithms/ballot-compact/zero-length-shared.comp";
    for (const char* where : {"", " --in-process", " --no-trace"}) {
        CliRun r = vkpuzzles("check ballot-compact " + kernel + " --case 6 --color never" + where);
        EXPECT_EQ(r.exit, 1) << where << r.out;
        EXPECT_TRUE(has(r.out, "case 6: the shared array 'subgroupCounts' (line 15) has no "
                               "elements: its length comes to 0 with WG = 4, MAX_SUBGROUPS = 1"))
            << where << r.out;
    }
    CliRun set = vkpuzzles("run ballot-compact --solution --set MAX_SUBGROUPS=0 --color never");
    EXPECT_EQ(set.exit, 1) << set.out;
    EXPECT_TRUE(has(set.out, "has no elements")) << set.out;
}

// --puzzles with an empty name, a missing folder or a file: a message about that folder, not
// about a skipped puzzle; the built-in puzzles still load.
TEST_F(HostileInput, APackThatIsNoFolderIsNamedAsSuch) {
    CliRun empty = vkpuzzles("--puzzles '' list --color never");
    EXPECT_EQ(empty.exit, 0) << empty.out;
    EXPECT_TRUE(has(empty.out, "--puzzles was given an empty folder name")) << empty.out;
    EXPECT_FALSE(has(empty.out, "another pack is also called")) << empty.out;
    CliRun missing = vkpuzzles("--puzzles /nonexistent-vkp-pack list --color never");
    EXPECT_TRUE(has(missing.out, "/nonexistent-vkp-pack: no such folder\n")) << missing.out;
    std::string file = m_dir.string() + "/a-file";
    std::ofstream(file) << "x";
    CliRun notFolder = vkpuzzles("--puzzles " + file + " list --color never");
    EXPECT_TRUE(has(notFolder.out, "a-file: not a folder")) << notFolder.out;
    EXPECT_FALSE(has(notFolder.out, "this puzzle is skipped")) << notFolder.out;
}

} // namespace
} // namespace vkp
