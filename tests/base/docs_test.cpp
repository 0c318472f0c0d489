// The README and the pages under docs/ as a newcomer reads them (issue 56): every relative link
// leads to a file that exists and every #anchor to a heading of its page, the index
// (docs/README.md) lists every page, and the README stays short, with the two commands first and
// its first `vkpuzzles check` within a screen and a half.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace vkp {
namespace {

const fs::path kRoot(VKPUZZLES_SOURCE_DIR);

// The README's limits: under about 150 lines (160 allowed), and the first `vkpuzzles check`
// within the first 60 lines of the text wrapped at 100 columns.
constexpr size_t kReadmeMaxLines = 160;
constexpr size_t kWrapColumns = 100;
constexpr size_t kFirstCheckWithin = 60;

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.erase(std::remove(text.begin(), text.end(), '\r'), text.end());
    return text;
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

bool opensFence(const std::string& line) {
    size_t i = line.find_first_not_of(' ');
    return i != std::string::npos && i < 4 &&
           (line.compare(i, 3, "```") == 0 || line.compare(i, 3, "~~~") == 0);
}

// The text outside fenced code blocks; lines inside them are left empty, so that a `#` comment
// in a block is no heading and a `[x](y)` in one no link.
std::vector<std::string> proseLines(const std::string& text) {
    std::vector<std::string> out;
    bool inFence = false;
    for (const std::string& line : linesOf(text)) {
        if (opensFence(line)) {
            inFence = !inFence;
            out.emplace_back();
            continue;
        }
        out.push_back(inFence ? std::string() : line);
    }
    return out;
}

// GitHub's anchor for a heading: lower case, punctuation dropped (but '-' and '_'), each space a
// '-'. Bytes of UTF-8 characters are kept, as GitHub keeps letters (no heading here has other).
std::string anchorOf(const std::string& heading) {
    std::string out;
    for (unsigned char c : heading) {
        if (c >= 0x80 || c == '-' || c == '_')
            out += static_cast<char>(c);
        else if (std::isalnum(c))
            out += static_cast<char>(std::tolower(c));
        else if (c == ' ')
            out += '-';
    }
    return out;
}

// Every heading's anchor on a page; a heading met again gets -1, -2, ... as on GitHub.
std::set<std::string> anchorsIn(const std::string& text) {
    static const std::regex heading(R"(^#{1,6}\s+(.*?)\s*#*\s*$)");
    std::set<std::string> anchors;
    std::map<std::string, int> seen;
    std::smatch m;
    for (const std::string& line : proseLines(text)) {
        if (!std::regex_match(line, m, heading)) continue;
        std::string a = anchorOf(m[1]);
        int n = seen[a]++;
        anchors.insert(n == 0 ? a : a + "-" + std::to_string(n));
    }
    return anchors;
}

struct Link {
    int line = 0;
    std::string target;
};

// The links and images of a page's prose, `[text](target)` and `![alt](target)`, with the line
// each starts on; a link's text may run over lines. Code spans are no links.
std::vector<Link> linksIn(const std::string& text) {
    std::string prose;
    for (const std::string& line : proseLines(text))
        prose += line + "\n";
    // Blank out code spans, keeping the newlines for the line numbers.
    for (size_t open = prose.find('`'); open != std::string::npos; open = prose.find('`', open)) {
        size_t close = prose.find('`', open + 1);
        if (close == std::string::npos) break;
        for (size_t i = open; i <= close; ++i)
            if (prose[i] != '\n') prose[i] = ' ';
        open = close + 1;
    }
    static const std::regex link(R"(\[[^\]]*\]\(([^)\s]+)(\s+"[^"]*")?\))");
    std::vector<Link> links;
    for (auto it = std::sregex_iterator(prose.begin(), prose.end(), link);
         it != std::sregex_iterator(); ++it) {
        int line =
            1 + static_cast<int>(std::count(prose.begin(), prose.begin() + it->position(0), '\n'));
        links.push_back({line, (*it)[1]});
    }
    return links;
}

bool external(const std::string& target) {
    return target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0;
}

// What is wrong with the relative links of `page` (its text is `text`): each a line naming the
// page, the line and the link.
std::vector<std::string> brokenLinks(const fs::path& page, const std::string& text,
                                     size_t* checked = nullptr) {
    std::vector<std::string> problems;
    for (const Link& l : linksIn(text)) {
        if (external(l.target)) continue;
        if (checked) ++*checked;
        size_t hash = l.target.find('#');
        std::string path = l.target.substr(0, hash);
        std::string anchor = hash == std::string::npos ? "" : l.target.substr(hash + 1);
        std::string where =
            page.filename().string() + ":" + std::to_string(l.line) + ": " + l.target;
        fs::path file = path.empty() ? page : page.parent_path() / path;
        if (!path.empty() && !fs::exists(file)) {
            problems.push_back(where + ": no such file");
            continue;
        }
        if (anchor.empty() || file.extension() != ".md") continue;
        std::set<std::string> anchors = anchorsIn(path.empty() ? text : readAll(file));
        if (!anchors.count(anchor))
            problems.push_back(where + ": no heading #" + anchor + " in " +
                               file.filename().string());
    }
    return problems;
}

std::vector<fs::path> docPages() {
    std::vector<fs::path> pages = {kRoot / "README.md"};
    for (const auto& e : fs::directory_iterator(kRoot / "docs"))
        if (e.is_regular_file() && e.path().extension() == ".md") pages.push_back(e.path());
    std::sort(pages.begin(), pages.end());
    return pages;
}

TEST(DocsTest, AnchorsAreGithubs) {
    EXPECT_EQ(anchorOf("The benchmark case: `bench_case`, `bench_n`, `bench_cols`"),
              "the-benchmark-case-bench_case-bench_n-bench_cols");
    EXPECT_EQ(anchorOf("How to add..."), "how-to-add");
    EXPECT_EQ(anchorOf("`[laps]`: the passes, again and again"), "laps-the-passes-again-and-again");
    std::set<std::string> anchors =
        anchorsIn("# Top\n## Notes\n```sh\n# not a heading\n```\n### Notes\n");
    EXPECT_EQ(anchors, (std::set<std::string>{"top", "notes", "notes-1"}));
}

// The checker itself: a missing file, a missing heading on the page and on another page are
// found, with their lines; links in code are not links.
TEST(DocsTest, ABrokenLinkIsFound) {
    const fs::path page = kRoot / "docs" / "made-up.md";
    const std::string text = "# Made up\n"
                             "See [the app](app.md), [nothing](no-such-page.md) and\n"
                             "[a heading that is not\nthere](#missing), [the top](#made-up),\n"
                             "[the app's window](app.md#the-window), [no such](app.md#nowhere).\n"
                             "`[in code](no-such-file.md)`\n"
                             "```\n[in a block](no-such-file.md)\n```\n"
                             "![a picture](../assets/app-matmul-debug.png) [web](https://x.org)\n";
    size_t checked = 0;
    std::vector<std::string> problems = brokenLinks(page, text, &checked);
    EXPECT_EQ(checked, 7u);
    ASSERT_EQ(problems.size(), 3u) << ::testing::PrintToString(problems);
    EXPECT_EQ(problems[0], "made-up.md:2: no-such-page.md: no such file");
    EXPECT_EQ(problems[1], "made-up.md:3: #missing: no heading #missing in made-up.md");
    EXPECT_EQ(problems[2], "made-up.md:5: app.md#nowhere: no heading #nowhere in app.md");
}

TEST(DocsTest, EveryRelativeLinkLeadsToAFileAndAHeading) {
    size_t checked = 0;
    for (const fs::path& page : docPages())
        for (const std::string& p : brokenLinks(page, readAll(page), &checked))
            ADD_FAILURE() << p;
    EXPECT_GE(checked, 50u) << "the README and docs/ link to each other";
}

TEST(DocsTest, TheIndexListsEveryPage) {
    std::set<std::string> listed;
    for (const Link& l : linksIn(readAll(kRoot / "docs" / "README.md")))
        listed.insert(l.target.substr(0, l.target.find('#')));
    for (const fs::path& page : docPages()) {
        if (page.parent_path().filename() != "docs" || page.filename() == "README.md") continue;
        EXPECT_TRUE(listed.count(page.filename().string()))
            << "docs/README.md does not say what " << page.filename() << " answers";
    }
    bool readmeLinksTheIndex = false;
    for (const Link& l : linksIn(readAll(kRoot / "README.md")))
        readmeLinksTheIndex |= l.target == "docs/README.md";
    EXPECT_TRUE(readmeLinksTheIndex);
}

// Rows a line takes at kWrapColumns columns (UTF-8 characters, not bytes).
size_t rowsOf(const std::string& line) {
    size_t chars = 0;
    for (unsigned char c : line)
        chars += (c & 0xC0) != 0x80;
    return std::max<size_t>(1, (chars + kWrapColumns - 1) / kWrapColumns);
}

TEST(DocsTest, TheReadmeIsShortAndStartsWithTheTwoCommands) {
    std::vector<std::string> lines = linesOf(readAll(kRoot / "README.md"));
    EXPECT_LT(lines.size(), kReadmeMaxLines) << "README.md: move the long sections to docs/";
    // The two commands CI runs (.ci/run) are the first code block.
    auto fence = std::find_if(lines.begin(), lines.end(), opensFence);
    ASSERT_TRUE(fence != lines.end() && fence + 2 < lines.end());
    EXPECT_EQ(fence[1].rfind("sudo ./build.sh run ", 0), 0u) << fence[1];
    EXPECT_EQ(fence[2].rfind("sudo ./build.sh test ", 0), 0u) << fence[2];
    size_t rows = 0;
    bool found = false;
    for (const std::string& line : lines) {
        rows += rowsOf(line);
        if (line.find("vkpuzzles check ") != std::string::npos) {
            found = true;
            break;
        }
    }
    ASSERT_TRUE(found) << "README.md has no `vkpuzzles check`";
    EXPECT_LE(rows, kFirstCheckWithin)
        << "a newcomer reaches the first `vkpuzzles check` only at row " << rows
        << " of the text wrapped at " << kWrapColumns << " columns";
}

} // namespace
} // namespace vkp
