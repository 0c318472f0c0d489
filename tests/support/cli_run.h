// Running the vkpuzzles binary from a test: its exit status and what it printed.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>

namespace vkp::test {

struct CliRun {
    int exit = -1;
    std::string out; // stdout, and stderr unless it was dropped
};

// VKPUZZLES_BINARY (set by CTest) or the path the test was built with.
inline std::string binaryPath() {
    const char* bin = std::getenv("VKPUZZLES_BINARY");
    return bin ? bin : VKPUZZLES_BINARY_PATH;
}

// A shell command line: its exit status and its stdout (redirect stderr in `cmd` to keep it).
inline CliRun runCommand(const std::string& cmd) {
    CliRun r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
        r.out.append(buf.data(), n);
    int status = pclose(p);
    r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline CliRun vkpuzzles(const std::string& args, bool withStderr = true) {
    return runCommand(binaryPath() + " " + args + (withStderr ? " 2>&1" : " 2>/dev/null"));
}

inline CliRun vkpuzzlesStdout(const std::string& args) {
    return vkpuzzles(args, false);
}

inline bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace vkp::test
