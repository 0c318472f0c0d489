#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "cli/arguments.h"

namespace vkp::cli {
namespace {

Result<Args> parse(std::vector<std::string> words) {
    std::vector<char*> argv = {const_cast<char*>("vkpuzzles")};
    for (std::string& w : words)
        argv.push_back(w.data());
    return parseArgs(static_cast<int>(argv.size()), argv.data());
}

TEST(ArgsTest, CommandPositionalsFlagsAndValues) {
    auto a = parse({"check", "map", "k.comp", "--case", "2", "--json", "--device=cpu"});
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->command, "check");
    EXPECT_EQ(a->positionals, (std::vector<std::string>{"map", "k.comp"}));
    EXPECT_EQ(a->value("case"), "2");
    EXPECT_EQ(a->value("device"), "cpu");
    EXPECT_TRUE(a->has("json"));
    EXPECT_FALSE(a->has("timing"));
}

TEST(ArgsTest, GradeTakesAFileAfterJsonWhereOtherCommandsTakeAFlag) {
    // The command may come after its options: --json FILE is grade's wherever it is written.
    auto a = parse({"--json", "class.json", "grade", "map", "class", "--csv=class.csv", "--all"});
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->command, "grade");
    EXPECT_EQ(a->value("json"), "class.json");
    EXPECT_FALSE(a->has("json"));
    EXPECT_EQ(a->value("csv"), "class.csv");
    EXPECT_TRUE(a->has("all"));
    EXPECT_EQ(a->positionals, (std::vector<std::string>{"map", "class"}));
    auto check = parse({"--json", "check", "map", "k.comp"});
    ASSERT_TRUE(check.ok()) << check.error().message;
    EXPECT_TRUE(check->has("json"));
    EXPECT_EQ(check->positionals, (std::vector<std::string>{"map", "k.comp"}));
    auto missing = parse({"grade", "map", "class", "--json"});
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("--json needs a value"), std::string::npos);
    auto wrong = parse({"check", "map", "--csv", "x.csv"});
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().message.find("it is for vkpuzzles grade"), std::string::npos)
        << wrong.error().message;
}

TEST(ArgsTest, ErrorsNameTheProblemAndPointAtHelp) {
    struct Row {
        std::vector<std::string> args;
        const char* message;
    } rows[] = {
        {{"explode"}, "unknown command 'explode'"},
        {{"list", "--frob"}, "unknown option '--frob'"},
        {{"list", "-x"}, "unknown option '-x'"},
        {{"check", "map", "--case"}, "--case needs a value"},
        {{"check", "--json=yes"}, "--json takes no value"},
    };
    for (const Row& r : rows) {
        auto a = parse(r.args);
        ASSERT_FALSE(a.ok()) << r.message;
        EXPECT_EQ(a.error().kind, ErrorKind::Usage);
        EXPECT_NE(a.error().message.find(r.message), std::string::npos) << a.error().message;
        EXPECT_NE(a.error().message.find("--help"), std::string::npos);
    }
}

// Issue 19, item 5: one table says which options each command takes and what values they hold.
TEST(ArgsTest, OptionsAreCheckedAgainstTheCommandAndTheirRange) {
    EXPECT_TRUE(parse({"--case", "2", "--thread", "1,2", "--theme", "light"}).ok()); // the app
    EXPECT_TRUE(parse({"trace", "map", "--solution", "--thread", "4294967295,0,7"}).ok());
    EXPECT_TRUE(parse({"--puzzles", "p", "list", "--json"}).ok())
        << "options may come before the command";
    struct Row {
        std::vector<std::string> args;
        const char* message;
    } rows[] = {
        {{"list", "--screenshot", "x", "--reps", "3"},
         "--screenshot is not an option of `vkpuzzles list`"}, // the first one written
        {{"--json", "list", "--theme", "dark"},
         "--theme is not an option of `vkpuzzles list`; it is for the desktop app (no command)"},
        {{"show", "map", "--theme", "purple"},
         "--theme is not an option of `vkpuzzles show`"}, // not "purple is not a theme"
        {{"--theme", "purple"}, "--theme is dark, light or high-contrast, not 'purple'"},
        {{"trace", "map", "--thread", "18446744073709551616"},
         "--thread needs X, X,Y or X,Y,Z, whole numbers from 0 to 4294967295"},
        {{"trace", "map", "--thread", "1,,2"}, "--thread needs X, X,Y or X,Y,Z"},
        {{"check", "map", "--case", "+1"},
         "--case needs a whole number from 1 to 1000000, not '+1'"},
        {{"check", "map", "--case", " 1"}, "--case needs a whole number"},
        {{"bench", "map", "--warmup", "60001"}, "--warmup needs a whole number from 0 to 60000"},
    };
    for (const Row& r : rows) {
        auto a = parse(r.args);
        ASSERT_FALSE(a.ok()) << r.message;
        EXPECT_EQ(a.error().kind, ErrorKind::Usage);
        EXPECT_NE(a.error().message.find(r.message), std::string::npos) << a.error().message;
    }
    EXPECT_TRUE(parse({"show", "map", "--theme", "purple", "--help"}).ok())
        << "--help wins over an option of another command";
}

TEST(ArgsTest, GradeTakesShardAndMergeAndTheHelpSaysSo) {
    auto shard = parse({"grade", "map", "class", "--shard", "2/5", "--json", "s2.json"});
    ASSERT_TRUE(shard.ok()) << shard.error().message;
    EXPECT_EQ(shard->value("shard"), "2/5");
    auto merge = parse({"grade", "--merge", "s1.json", "s2.json", "--html", "class.html"});
    ASSERT_TRUE(merge.ok()) << merge.error().message;
    EXPECT_TRUE(merge->has("merge"));
    EXPECT_EQ(merge->positionals, (std::vector<std::string>{"s1.json", "s2.json"}));
    EXPECT_EQ(merge->value("html"), "class.html");
    auto wrong = parse({"check", "map", "--shard", "1/2"});
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().message.find("it is for vkpuzzles grade"), std::string::npos);
    // The man page is made from this text (help2man): each option is listed with grade's.
    std::string help = helpText();
    for (const char* line : {"vkpuzzles grade ... --shard K/N --json F",
                             "vkpuzzles grade --merge F... [--csv F] [--json F] [--html F]",
                             "  --html FILE       grade: the class report",
                             "  --shard K/N       grade:", "  --merge           grade:"})
        EXPECT_NE(help.find(line), std::string::npos) << line;
}

TEST(ArgsTest, HelpTextListsEveryCommand) {
    std::string help = helpText();
    for (const char* c : {"list", "show", "hint", "check", "run", "devices"})
        EXPECT_NE(help.find(std::string("vkpuzzles ") + c), std::string::npos) << c;
}

// The results of one submission for the platforms students hand in on (docs/graders.md): grade
// takes a file for each, no other command does, and the help (so the man page) lists them.
TEST(ArgsTest, GradeWritesThePlatformsResultsAndTheHelpSaysSo) {
    auto a = parse({"grade", "map", "student", "--prairielearn", "pl.json", "--github-result",
                    "gh.json", "--gradescope", "gs.json"});
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->value("prairielearn"), "pl.json");
    EXPECT_EQ(a->value("github-result"), "gh.json");
    auto check = parse({"check", "map", "k.comp", "--prairielearn", "pl.json"});
    ASSERT_FALSE(check.ok());
    EXPECT_NE(check.error().message.find("it is for vkpuzzles grade"), std::string::npos)
        << check.error().message;
    auto bare = parse({"grade", "map", "student", "--github-result"});
    EXPECT_FALSE(bare.ok()) << "--github-result needs its file";
    std::string help = helpText();
    for (const char* line : {"[--prairielearn F] [--github-result F]", "  --prairielearn FILE\n",
                             "  --github-result FILE\n", "/usr/share/doc/vkpuzzles/classroom"})
        EXPECT_NE(help.find(line), std::string::npos) << line;
}

// The command lines the README gives: those of its ```sh blocks (a trailing # comment cut) and
// its code spans, each starting `vkpuzzles ` or `build/vkpuzzles `, as words.
std::vector<std::vector<std::string>> readmeCommandLines(const std::string& readme) {
    std::vector<std::string> found;
    auto take = [&](std::string line) {
        size_t start = line.find_first_not_of(' ');
        if (start == std::string::npos) return;
        line = line.substr(start);
        for (const char* prefix : {"build/vkpuzzles ", "vkpuzzles "})
            if (line.rfind(prefix, 0) == 0) {
                found.push_back(line.substr(std::string(prefix).size()));
                return;
            }
    };
    std::istringstream in(readme);
    bool inSh = false, inOther = false;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.rfind("```", 0) == 0) {
            if (inSh || inOther)
                inSh = inOther = false;
            else
                (line == "```sh" ? inSh : inOther) = true;
            continue;
        }
        if (inSh) {
            size_t comment = line.find(" #");
            take(line.substr(0, comment));
        } else if (!inOther) {
            for (size_t open = line.find('`'); open != std::string::npos;) {
                size_t close = line.find('`', open + 1);
                if (close == std::string::npos) break;
                take(line.substr(open + 1, close - open - 1));
                open = line.find('`', close + 1);
            }
        }
    }
    std::vector<std::vector<std::string>> lines;
    for (const std::string& f : found) {
        std::istringstream words(f);
        lines.emplace_back(std::istream_iterator<std::string>(words),
                           std::istream_iterator<std::string>());
    }
    return lines;
}

TEST(ArgsTest, ReadmeCommandLinesAreFound) {
    auto lines = readmeCommandLines("Run `vkpuzzles open FILE` or `.\\vkpuzzles.exe check x`.\n"
                                    "```sh\nbuild/vkpuzzles check map k.comp   # a comment\n"
                                    "                         # more comment\n```\n"
                                    "```\nvkpuzzles printed this\n```\n");
    EXPECT_EQ(lines, (std::vector<std::vector<std::string>>{{"open", "FILE"},
                                                            {"check", "map", "k.comp"}}));
}

// Issue 56: every command line the README gives is one the command line accepts, and its
// command and options are in --help (so in the man page, which help2man makes from it).
TEST(ArgsTest, EveryCommandTheReadmeGivesParsesAndIsInTheHelp) {
    std::ifstream in(std::string(VKPUZZLES_SOURCE_DIR) + "/README.md");
    std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto lines = readmeCommandLines(readme);
    EXPECT_GE(lines.size(), 10u) << "the README's first session gives commands";
    std::string help = helpText();
    bool check = false;
    for (const auto& words : lines) {
        std::string shown = "vkpuzzles";
        for (const std::string& w : words)
            shown += " " + w;
        auto a = parse(words);
        EXPECT_TRUE(a.ok()) << shown << ": " << (a.ok() ? "" : a.error().message);
        if (!a.ok()) continue;
        check |= a->command == "check";
        if (!a->command.empty())
            EXPECT_NE(help.find("vkpuzzles " + a->command + " "), std::string::npos)
                << shown << ": --help has no `vkpuzzles " << a->command << "`";
        for (const std::string& w : words)
            if (w.rfind("--", 0) == 0)
                EXPECT_NE(help.find(w.substr(0, w.find('='))), std::string::npos)
                    << shown << ": --help does not mention " << w;
    }
    EXPECT_TRUE(check) << "the README shows `vkpuzzles check`";
}

} // namespace
} // namespace vkp::cli
