#include <gtest/gtest.h>

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

TEST(ArgsTest, HelpTextListsEveryCommand) {
    std::string help = helpText();
    for (const char* c : {"list", "show", "hint", "check", "run", "devices"})
        EXPECT_NE(help.find(std::string("vkpuzzles ") + c), std::string::npos) << c;
}

} // namespace
} // namespace vkp::cli
