// Ceilings on the size of the code's units, checked on the sources: no file under src/ past 700
// lines, no function past 100. A file or function that outgrows them holds more than one idea:
// split it by concept (docs/architecture.md, Style). Functions are found by their braces on the
// formatted text (.clang-format: namespaces not indented), which this scanner relies on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace vkp {
namespace {

constexpr size_t kMaxFileLines = 700;
constexpr size_t kMaxFunctionLines = 100;

std::vector<std::string> linesOf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::vector<fs::path> sourceFiles() {
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(VKPUZZLES_SOURCE_DIR) / "src")) {
        auto ext = e.path().extension();
        if (e.is_regular_file() && (ext == ".cpp" || ext == ".h")) out.push_back(e.path());
    }
    return out;
}

struct LongFunction {
    size_t firstLine = 0; // 1-based, the line of its opening brace
    size_t lines = 0;
};

// The functions longer than `limit` lines, by their braces: a brace opened outside any function,
// on a line that is no type (struct, class, enum, union), no initializer (`= {`, `{...}` on one
// line) and not a namespace, whose line or the two before it hold a parenthesis, opens a function
// body (free, member or lambda at namespace scope); it ends at its matching brace. String and
// character literals and line comments are left out first.
std::vector<LongFunction> longFunctions(const std::vector<std::string>& lines, size_t limit) {
    static const std::regex literals(R"("(\\.|[^"\\])*"|'(\\.|[^'\\])*'|//.*$)");
    static const std::regex type(R"(\b(struct|class|enum|union)\b)");
    static const std::regex init(R"(=\s*\{|\{[^}]*\})");
    enum class Kind { Function, Block, Other };
    std::vector<std::pair<Kind, size_t>> open; // kind, 0-based line
    std::vector<LongFunction> out;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string code = std::regex_replace(lines[i], literals, "");
        std::string trimmed = code.substr(std::min(code.size(), code.find_first_not_of(" \t")));
        if (trimmed.starts_with("namespace") || trimmed.starts_with("} // namespace") ||
            trimmed.starts_with("extern \"C\""))
            continue;
        for (char ch : code) {
            if (ch == '{') {
                bool inFunction = std::any_of(open.begin(), open.end(), [](const auto& o) {
                    return o.first == Kind::Function;
                });
                Kind kind = Kind::Other;
                if (inFunction) {
                    kind = Kind::Block;
                } else if (!std::regex_search(code, type) && !std::regex_search(code, init)) {
                    std::string head;
                    for (size_t k = i >= 2 ? i - 2 : 0; k <= i; ++k)
                        head += lines[k];
                    if (head.find('(') != std::string::npos || head.find(')') != std::string::npos)
                        kind = Kind::Function;
                }
                open.push_back({kind, i});
            } else if (ch == '}' && !open.empty()) {
                auto [kind, start] = open.back();
                open.pop_back();
                if (kind == Kind::Function && i - start + 1 > limit)
                    out.push_back({start + 1, i - start + 1});
            }
        }
    }
    return out;
}

TEST(SourceSize, TheScannerFindsALongFunctionAndPassesTypesAndShortOnes) {
    std::vector<std::string> lines = {"namespace vkp {",
                                      "struct Facts {",
                                      "    int a = 0;",
                                      "    void short_() {",
                                      "        a = 1;",
                                      "    }",
                                      "};",
                                      "int longOne(int x) {"};
    for (int k = 0; k < 5; ++k)
        lines.push_back("    x += \"}\"[0] == '}' ? 1 : 0; // }");
    lines.push_back("    if (x) {");
    lines.push_back("        return 1;");
    lines.push_back("    }");
    lines.push_back("    return x;");
    lines.push_back("}");
    lines.push_back("} // namespace vkp");
    auto found = longFunctions(lines, 10);
    ASSERT_EQ(found.size(), 1u); // longOne, 11 lines; short_ and the struct are not
    EXPECT_EQ(found[0].firstLine, 8u);
    EXPECT_EQ(found[0].lines, 11u);
    EXPECT_TRUE(longFunctions(lines, 11).empty());
}

TEST(SourceSize, NoSourceFileIsOver700Lines) {
    for (const fs::path& file : sourceFiles())
        EXPECT_LE(linesOf(file).size(), kMaxFileLines)
            << fs::relative(file, VKPUZZLES_SOURCE_DIR).string() << ": split it by concept";
}

TEST(SourceSize, NoFunctionIsOver100Lines) {
    for (const fs::path& file : sourceFiles())
        for (const LongFunction& f : longFunctions(linesOf(file), kMaxFunctionLines))
            ADD_FAILURE() << fs::relative(file, VKPUZZLES_SOURCE_DIR).string() << ":" << f.firstLine
                          << ": a function of " << f.lines
                          << " lines: split it into steps with names";
}

} // namespace
} // namespace vkp
