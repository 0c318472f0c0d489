// `vkpuzzles check` prints each case the moment it is decided: the real binary, its stdout read
// as it comes. Case 3 of the stuck puzzle runs for hours on any machine, so cases 1 and 2 can
// only be on the screen before the end if they were printed as they came. In process, so that
// killing the command ends the stuck dispatch too.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <poll.h>
#include <string>
#include <sys/wait.h>

#include "support/cli_run.h"
#include "support/test_env.h"

namespace vkp {
namespace {

TEST(CheckAsItGoes, CasesArePrintedBeforeTheCheckEnds) {
    std::string stuck = test::sourceDir() + "/tests/data/stuck";
    std::string cmd = "sh -c 'echo $$; exec " + test::binaryPath() + " check --puzzles " + stuck +
                      " stuck " + stuck +
                      "/01-stuck/stuck.comp --no-trace --timeout 3000 --in-process' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_TRUE(p);
    setvbuf(p, nullptr, _IONBF, 0); // every byte read from the pipe as it comes (poll below)
    char line[4096];
    ASSERT_TRUE(fgets(line, sizeof line, p));
    pid_t pid = static_cast<pid_t>(std::stol(line));
    std::string seen;
    bool case2 = false;
    // Printed only at the end, the lines would never come: give up after ten minutes.
    pollfd ready{fileno(p), POLLIN, 0};
    while (!case2 && ::poll(&ready, 1, 600000) > 0 && fgets(line, sizeof line, p)) {
        seen += line;
        case2 = test::has(line, "  case 2 ");
    }
    // Still running (case 3 has hours to go): the lines came while the check went on.
    bool running = ::waitpid(pid, nullptr, WNOHANG) == 0 || ::kill(pid, 0) == 0;
    ::kill(pid, SIGKILL);
    pclose(p);
    ASSERT_TRUE(case2) << seen;
    EXPECT_TRUE(running) << seen;
    EXPECT_TRUE(test::has(seen, "Stuck")) << "the heading comes first:\n" << seen;
    EXPECT_TRUE(test::has(seen, "  case 1 ")) << seen;
    EXPECT_LT(seen.find("  case 1 "), seen.find("  case 2 ")) << seen;
    EXPECT_FALSE(test::has(seen, "  case 3 ")) << seen;
    EXPECT_FALSE(test::has(seen, "cases pass")) << "the summary waits for every case:\n" << seen;
}

} // namespace
} // namespace vkp
