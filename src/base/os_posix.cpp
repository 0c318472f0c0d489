// base/os.h on Linux (and any POSIX system).
#include "base/os.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

extern char** environ;

namespace fs = std::filesystem;

namespace vkp::os {

fs::path toPath(std::string_view utf8) {
    return fs::path(std::string(utf8));
}

std::string pathText(const fs::path& path) {
    return path.string();
}

std::tm utcTime(std::time_t t) {
    std::tm out{};
    gmtime_r(&t, &out);
    return out;
}

std::tm localTime(std::time_t t) {
    std::tm out{};
    localtime_r(&t, &out);
    return out;
}

std::vector<std::string> arguments(int argc, char** argv) {
    return std::vector<std::string>(argv, argv + argc);
}

std::string executablePath() {
    std::error_code ec;
    fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : p.string();
}

std::string environmentVariable(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

std::vector<std::string> environmentEntries() {
    std::vector<std::string> out;
    for (char** e = environ; *e; ++e)
        out.emplace_back(*e);
    return out;
}

int processId() {
    return static_cast<int>(::getpid());
}

std::string homeFolder() {
    return environmentVariable("HOME");
}

std::string dataHome() {
    std::string xdg = environmentVariable("XDG_DATA_HOME");
    if (!xdg.empty() && xdg[0] == '/') return xdg;
    std::string home = homeFolder();
    return (home.empty() ? std::string("/tmp") : home) + "/.local/share";
}

std::string cacheHome() {
    std::string xdg = environmentVariable("XDG_CACHE_HOME");
    if (!xdg.empty()) return xdg;
    std::string home = homeFolder();
    return home.empty() ? std::string() : home + "/.cache";
}

int openForReading(const std::string& path) {
    // O_NONBLOCK: opening a FIFO for reading must not wait for a writer (the caller refuses it).
    return ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

int openForWriting(const std::string& path) {
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

bool flushToDisk(int fd) {
    return ::fsync(fd) == 0;
}

bool replaceFile(const std::string& from, const std::string& to) {
    return std::rename(from.c_str(), to.c_str()) == 0;
}

bool canWriteIn(const std::string& folder) {
    return ::access(folder.c_str(), W_OK) == 0;
}

int openForLocking(const std::string& path) {
    return ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
}

bool lockExclusive(int fd, bool wait) {
    int r;
    while ((r = ::flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB))) != 0 && errno == EINTR) {
    }
    return r == 0;
}

bool lockShared(int fd) {
    return ::flock(fd, LOCK_SH | LOCK_NB) == 0;
}

void stopThisProcess() {
    ::raise(SIGSTOP);
}

namespace {
constexpr size_t kHugePage = 2u << 20;
} // namespace

void* allocateHuge(size_t bytes) {
    size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (p) ::madvise(p, rounded, MADV_HUGEPAGE); // best effort
    return p;
}

void freeHuge(void* p) noexcept {
    std::free(p);
}

std::string shellWord(const std::string& w) {
    bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char c) {
        return std::isalnum(c) || (c && std::strchr("/._-+:@%,=", c));
    });
    if (plain) return w;
    std::string out = "'";
    for (char c : w)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string cpuVulkanDriverAdvice() {
    return "install mesa-vulkan-drivers for lavapipe, a CPU device";
}

bool hasDesktop() {
    return !environmentVariable("DISPLAY").empty() ||
           !environmentVariable("WAYLAND_DISPLAY").empty();
}

void releaseOwnConsole() {}

void tellUser(const std::string&) {}

namespace {
int descriptor(Stream s) {
    return s == Stream::Out ? STDOUT_FILENO : STDERR_FILENO;
}
} // namespace

bool isTerminal(Stream stream) {
    return ::isatty(descriptor(stream)) != 0;
}

bool terminalColours(Stream stream) {
    return isTerminal(stream);
}

int terminalColumns(Stream stream) {
    winsize ws{};
    if (isTerminal(stream) && ::ioctl(descriptor(stream), TIOCGWINSZ, &ws) == 0) return ws.ws_col;
    return 0;
}

void useUtf8Console() {}

} // namespace vkp::os
