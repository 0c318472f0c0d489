// `vkpuzzles watch`: the real binary follows a kernel file while this test edits it as a learner's
// editor would, and reads each verdict as it comes; its problem lines are read back with the
// regular expression an editor's problem matcher uses (VS Code's $gcc: FILE:LINE:COL: error: ...).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

namespace fs = std::filesystem;

// The watch command running, its output read line by line as it comes.
class Watch {
  public:
    explicit Watch(const std::string& args) {
        std::string cmd = "sh -c 'echo $$; exec " + test::binaryPath() + " watch " + args +
                          " --color never' 2>&1";
        m_pipe = popen(cmd.c_str(), "r");
        if (!m_pipe) return;
        setvbuf(m_pipe, nullptr, _IONBF, 0);
        char line[64];
        if (fgets(line, sizeof line, m_pipe)) m_pid = static_cast<pid_t>(std::stol(line));
    }
    ~Watch() {
        if (m_pid > 0) ::kill(m_pid, SIGINT); // Ctrl+C
        if (m_pipe) pclose(m_pipe);
    }
    bool running() const { return m_pipe && m_pid > 0; }
    // Lines until one contains `part` (true), or the output ends or the patience runs out.
    bool readUntil(const std::string& part) {
        auto end = std::chrono::steady_clock::now() + test::kPatience;
        char line[8192];
        pollfd ready{fileno(m_pipe), POLLIN, 0};
        while (std::chrono::steady_clock::now() < end) {
            int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            end - std::chrono::steady_clock::now())
                                            .count());
            if (::poll(&ready, 1, std::max(left, 0)) <= 0 || !fgets(line, sizeof line, m_pipe))
                return false;
            m_round += line;
            m_all += line;
            if (test::has(line, part)) return true;
        }
        return false;
    }
    // What came since the last call.
    std::string round() { return std::exchange(m_round, std::string()); }
    const std::string& all() const { return m_all; }

  private:
    FILE* m_pipe = nullptr;
    pid_t m_pid = -1;
    std::string m_round, m_all;
};

void write(const fs::path& file, const std::string& text) {
    fs::path tmp = file;
    tmp += ".saving";
    std::ofstream(tmp) << text; // saved as editors save: a new file renamed over the old one
    fs::rename(tmp, file);
}

std::string mapSolution() {
    std::ifstream in(test::puzzleDir() + "/01-map/solution.comp");
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// "N of N cases pass", whatever the puzzle's number of cases.
bool everyCasePasses(const std::string& text) {
    static const std::regex kAll(R"((?:^|\D)([1-9]\d*) of \1 cases pass)");
    return std::regex_search(text, kAll);
}

// "FILE:LINE:COL: error: MESSAGE" lines of `text`, as VS Code's $gcc problem matcher reads them.
std::vector<std::smatch> problemMatches(const std::string& text, std::vector<std::string>& keep) {
    static const std::regex kGcc(R"(^(.*?):(\d+):(\d*):?\s+(?:fatal\s+)?(warning|error):\s+(.*)$)");
    std::vector<std::smatch> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        keep.push_back(line);
    for (const std::string& line : keep) {
        std::smatch m;
        if (std::regex_match(line, m, kGcc)) out.push_back(m);
    }
    return out;
}

TEST(WatchCliTest, EachSaveIsCheckedAndProblemsAreLinesAnEditorJumpsTo) {
    fs::path dir = fs::temp_directory_path() / ("vkp-watch-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::path kernel = dir / "my-map.comp";
    std::string right = mapSolution();
    write(kernel, right);

    Watch w("map " + kernel.string());
    ASSERT_TRUE(w.running());
    ASSERT_TRUE(w.readUntil("watching")) << w.all();
    std::string first = w.round();
    EXPECT_TRUE(everyCasePasses(first)) << first;

    // A compile error: the line and column where glslang found it.
    std::string broken = right;
    broken.replace(broken.find("a[i] + 10.0"), 11, "a[i] + undeclared");
    write(kernel, broken);
    ASSERT_TRUE(w.readUntil("watching")) << w.all();
    std::string second = w.round();
    EXPECT_TRUE(test::has(second, "saved: checking again")) << second;
    std::vector<std::string> keep;
    auto matches = problemMatches(second, keep);
    ASSERT_FALSE(matches.empty()) << second;
    EXPECT_EQ(matches[0][1].str(), kernel.string());
    EXPECT_EQ(matches[0][2].str(), "17");
    EXPECT_EQ(matches[0][4].str(), "error");
    EXPECT_TRUE(test::has(matches[0][5].str(), "undeclared")) << matches[0][5].str();

    // A kernel that never ends its loop: the finding, on the loop's line, in every case.
    std::string endless = test::sourceDir() + "/tests/data/wrong/map-endless-loop.comp";
    std::ifstream in(endless);
    write(kernel, std::string(std::istreambuf_iterator<char>(in), {}));
    ASSERT_TRUE(w.readUntil("watching")) << w.all();
    std::string third = w.round();
    keep.clear();
    matches = problemMatches(third, keep);
    bool loopLine = false;
    for (const std::smatch& m : matches)
        loopLine = loopLine || (m[1].str() == kernel.string() && m[2].str() == "10" &&
                                m[4].str() == "error" && test::has(m[5].str(), "endless loop?") &&
                                test::has(m[5].str(), "cases 1, 2, 3"));
    EXPECT_TRUE(loopLine) << third;

    // Fixed again: every case passes, and no problem is left.
    write(kernel, right);
    ASSERT_TRUE(w.readUntil("watching")) << w.all();
    std::string fourth = w.round();
    EXPECT_TRUE(everyCasePasses(fourth)) << fourth;
    keep.clear();
    EXPECT_TRUE(problemMatches(fourth, keep).empty()) << fourth;
    fs::remove_all(dir);
}

TEST(WatchCliTest, WithoutAKernelFileItSaysWhatToName) {
    test::CliRun r = test::vkpuzzles("watch map --color never");
    EXPECT_EQ(r.exit, 2) << r.out;
    EXPECT_TRUE(test::has(r.out, "watch follows your kernel files: name them")) << r.out;
}

} // namespace
} // namespace vkp
