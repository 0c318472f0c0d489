#include <gtest/gtest.h>

#include "cli/args.h"

namespace vkp::cli {
namespace {

Result<Args> parse(std::vector<std::string> words) {
    std::vector<char*> argv = {const_cast<char*>("vkpuzzles")};
    for (std::string& w : words) argv.push_back(w.data());
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

TEST(ArgsTest, HelpTextListsEveryCommand) {
    std::string help = helpText();
    for (const char* c : {"list", "show", "hint", "check", "run", "devices"})
        EXPECT_NE(help.find(std::string("vkpuzzles ") + c), std::string::npos) << c;
}

} // namespace
} // namespace vkp::cli
