// base/process.h on Linux (and any POSIX system): fork, exec, pipes, waitpid.
#include "base/process.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vkp {

struct PipeEnd::Native {
    int fd = -1;
};

namespace {

constexpr int kChildRequests = 3, kChildAnswers = 4; // a started child's ends of its pipes

PipeEnd pipeEnd(int fd) {
    auto n = std::make_unique<PipeEnd::Native>();
    n->fd = fd;
    return PipeEnd(std::move(n));
}

void closeRange(unsigned first, unsigned last) {
    if (first > last) return;
    if (::close_range(first, last, 0) == 0) return;
    long limit = std::min<long>(::sysconf(_SC_OPEN_MAX), 65536); // a kernel before 5.9
    for (long fd = first; fd < limit && fd <= static_cast<long>(last); ++fd)
        ::close(static_cast<int>(fd));
}

// A forked copy keeps only its two pipe ends and stderr: a copy of another pipe (the kernel
// worker's, another helper's) would keep that one from seeing its end of file when this process
// exits.
void keepOnly(int a, int b) {
    unsigned lo = static_cast<unsigned>(std::min(a, b)), hi = static_cast<unsigned>(std::max(a, b));
    closeRange(3, lo - 1);
    closeRange(lo + 1, hi - 1);
    closeRange(hi + 1, UINT_MAX);
    int null = ::open("/dev/null", O_RDWR);
    if (null < 0) return;
    ::dup2(null, STDIN_FILENO);
    ::dup2(null, STDOUT_FILENO); // glslang can print to stdout: not into a CLI's --json output
    if (null != a && null != b && null > STDERR_FILENO) ::close(null);
}

// A crash in a forked copy must end it (the caller reports how), not run the handlers it
// inherited: a sanitizer's or libFuzzer's would report the caller as crashed or write crash files.
void defaultSignals() {
    for (int s : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGPIPE, SIGINT,
                  SIGTERM, SIGALRM})
        std::signal(s, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// Writing to a child that just died must be an error, not a SIGPIPE that ends this process.
void ignoreBrokenPipes() {
    struct sigaction current = {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL)
        std::signal(SIGPIPE, SIG_IGN);
}

Error pipeError(const char* what) {
    return Error{ErrorKind::Io,
                 std::string("cannot create a pipe for ") + what + ": " + std::strerror(errno)};
}

} // namespace

PipeEnd::PipeEnd() = default;
PipeEnd::PipeEnd(std::unique_ptr<Native> native) : m_native(std::move(native)) {}
PipeEnd::~PipeEnd() {
    close();
}
PipeEnd::PipeEnd(PipeEnd&&) noexcept = default;
PipeEnd& PipeEnd::operator=(PipeEnd&& other) noexcept {
    if (this != &other) {
        close();
        m_native = std::move(other.m_native);
    }
    return *this;
}

bool PipeEnd::isOpen() const {
    return m_native && m_native->fd >= 0;
}

void PipeEnd::close() {
    if (isOpen()) ::close(m_native->fd);
    m_native.reset();
}

bool PipeEnd::writeAll(const void* data, size_t n) {
    if (!isOpen()) return false;
    auto* p = static_cast<const uint8_t*>(data);
    while (n > 0) {
        ssize_t k = ::write(m_native->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= static_cast<size_t>(k);
    }
    return true;
}

bool PipeEnd::readAll(void* data, size_t n) {
    if (!isOpen()) return false;
    auto* p = static_cast<uint8_t*>(data);
    while (n > 0) {
        ssize_t k = ::read(m_native->fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= static_cast<size_t>(k);
    }
    return true;
}

bool PipeEnd::waitReadable(int timeoutMs) {
    if (!isOpen()) return true; // a read fails at once
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        end - std::chrono::steady_clock::now())
                                        .count());
        pollfd p{m_native->fd, POLLIN, 0};
        int r = ::poll(&p, 1, std::max(left, 0));
        if (r > 0) return true;
        if (r == 0) return false;
        if (errno != EINTR) return false;
    }
}

ParentPipes inheritedPipes() {
    return {pipeEnd(kChildRequests), pipeEnd(kChildAnswers)};
}

struct ChildProcess::Native {
    int lastStatus = 0; // waitpid's status of the last child that ended
};

ChildProcess::ChildProcess() : m_native(std::make_unique<Native>()) {}

ChildProcess::~ChildProcess() {
    kill();
}

int ChildProcess::id() const {
    return m_id;
}
PipeEnd& ChildProcess::requests() {
    return m_requests;
}
PipeEnd& ChildProcess::answers() {
    return m_answers;
}

Status ChildProcess::start(const std::string& program, const std::vector<std::string>& arguments,
                           const std::vector<std::string>& environment) {
    kill();
    ignoreBrokenPipes();
    int down[2], up[2];
    if (::pipe2(down, O_CLOEXEC) != 0) return pipeError(program.c_str());
    if (::pipe2(up, O_CLOEXEC) != 0) {
        ::close(down[0]);
        ::close(down[1]);
        return pipeError(program.c_str());
    }
    ::fcntl(down[1], F_SETPIPE_SZ, 1 << 20); // fewer, larger copies of big requests; best effort
    ::fcntl(up[1], F_SETPIPE_SZ, 1 << 20);
    std::vector<std::string> args = {program};
    args.insert(args.end(), arguments.begin(), arguments.end());
    std::vector<std::string> env = environment;
    std::vector<char*> argv, envp;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (std::string& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {down[0], down[1], up[0], up[1]})
            ::close(fd);
        return Error{ErrorKind::Io,
                     "cannot start " + program + " (fork failed: " + std::strerror(errno) + ")"};
    }
    if (pid == 0) {
        // Its requests on descriptor 3, its answers on 4; stdout and stderr are ours. Copied above
        // 4 first, so that dup2 never meets an end already there (it would neither move the other
        // end out of the way nor clear close-on-exec); the originals close at exec.
        int in = ::fcntl(down[0], F_DUPFD_CLOEXEC, kChildAnswers + 1);
        int out = ::fcntl(up[1], F_DUPFD_CLOEXEC, kChildAnswers + 1);
        ::dup2(in, kChildRequests);
        ::dup2(out, kChildAnswers);
        ::execve(program.c_str(), argv.data(), envp.data());
        _exit(127);
    }
    ::close(down[0]);
    ::close(up[1]);
    m_id = pid;
    m_requests = pipeEnd(down[1]);
    m_answers = pipeEnd(up[0]);
    return okStatus();
}

Status ChildProcess::startCopy(const std::string& name, const Body& body) {
    kill();
    ignoreBrokenPipes();
    int down[2], up[2];
    if (::pipe2(down, O_CLOEXEC) != 0) return pipeError(name.c_str());
    if (::pipe2(up, O_CLOEXEC) != 0) {
        ::close(down[0]);
        ::close(down[1]);
        return pipeError(name.c_str());
    }
    pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {down[0], down[1], up[0], up[1]})
            ::close(fd);
        return Error{ErrorKind::Io, "cannot start a helper process (fork failed: " +
                                        std::string(std::strerror(errno)) + ")"};
    }
    if (pid == 0) {
        defaultSignals();
        keepOnly(down[0], up[1]);
        PipeEnd requests = pipeEnd(down[0]), answers = pipeEnd(up[1]);
        int code = 70; // an exception escaped: the caller reports it as a crash
        try {
            code = body(requests, answers);
        } catch (...) {
        }
        _exit(code); // skip the caller's static destructors and atexit handlers
    }
    ::close(down[0]);
    ::close(up[1]);
    m_id = pid;
    m_requests = pipeEnd(down[1]);
    m_answers = pipeEnd(up[0]);
    return okStatus();
}

bool ChildProcess::hasEnded() {
    if (m_id < 0) return true;
    int status = 0;
    if (::waitpid(m_id, &status, WNOHANG) != m_id) return false;
    m_native->lastStatus = status;
    m_id = -1;
    return true;
}

bool ChildProcess::isStopped() const {
    if (m_id < 0) return false;
    // State T (stopped) or t (stopped under a debugger), from /proc/PID/stat.
    std::ifstream f("/proc/" + std::to_string(m_id) + "/stat");
    std::string stat;
    std::getline(f, stat);
    size_t close = stat.rfind(')'); // the command name may hold spaces and parentheses
    if (close == std::string::npos || close + 2 >= stat.size()) return false;
    return stat[close + 2] == 'T' || stat[close + 2] == 't';
}

void ChildProcess::kill() {
    if (m_id > 0) {
        ::kill(m_id, SIGKILL);
        int status = 0;
        while (::waitpid(m_id, &status, 0) < 0 && errno == EINTR) {
        }
        m_native->lastStatus = status;
    }
    m_requests.close();
    m_answers.close();
    m_id = -1;
}

std::string ChildProcess::endText() const {
    int s = m_native->lastStatus;
    if (WIFSIGNALED(s) && WTERMSIG(s) != SIGKILL)
        return "it was killed by signal " + std::to_string(WTERMSIG(s)) + " (" +
               strsignal(WTERMSIG(s)) + ")";
    if (WIFEXITED(s) && WEXITSTATUS(s) == 127) return "it could not be executed";
    if (WIFEXITED(s)) return "it exited with status " + std::to_string(WEXITSTATUS(s));
    return "it stopped answering";
}

void killProcess(int id) {
    if (id > 0) ::kill(id, SIGKILL);
}

} // namespace vkp
