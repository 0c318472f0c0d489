#include "base/helper_process.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vkp {
namespace {

std::string seconds(uint64_t ms) {
    if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
    return std::to_string(ms) + " ms";
}

void closeRange(unsigned first, unsigned last) {
    if (first > last) return;
    if (::close_range(first, last, 0) == 0) return;
    long limit = std::min<long>(::sysconf(_SC_OPEN_MAX), 65536); // a kernel before 5.9
    for (long fd = first; fd < limit && fd <= static_cast<long>(last); ++fd)
        ::close(static_cast<int>(fd));
}

// The child keeps only its two pipe ends and stderr: a copy of another pipe (the kernel worker's,
// another helper's) would keep that one from seeing its end of file when this process exits.
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

// A crash in the child must end it (the caller reports how), not run the handlers it inherited:
// a sanitizer's or libFuzzer's would report the caller as crashed or write crash files.
void defaultSignals() {
    for (int s : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGPIPE, SIGINT,
                  SIGTERM, SIGALRM})
        std::signal(s, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

} // namespace

std::string processEndText(int s) {
    if (WIFSIGNALED(s) && WTERMSIG(s) != SIGKILL)
        return "it was killed by signal " + std::to_string(WTERMSIG(s)) + " (" +
               strsignal(WTERMSIG(s)) + ")";
    if (WIFEXITED(s) && WEXITSTATUS(s) == 127) return "it could not be executed";
    if (WIFEXITED(s)) return "it exited with status " + std::to_string(WEXITSTATUS(s));
    return "it stopped answering";
}

HelperProcess::~HelperProcess() {
    std::lock_guard lock(m_mutex);
    stop();
}

pid_t HelperProcess::pid() const {
    std::lock_guard lock(m_mutex);
    return m_child.pid;
}

int HelperProcess::restarts() const {
    std::lock_guard lock(m_mutex);
    return std::max(0, m_started - 1);
}

Status HelperProcess::start() {
    // Writing to a child that just died must be an error here, not a SIGPIPE that ends the caller.
    struct sigaction current = {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL)
        std::signal(SIGPIPE, SIG_IGN);
    int down[2], up[2];
    if (::pipe2(down, O_CLOEXEC) != 0)
        return Error{ErrorKind::Io, std::string("cannot create a pipe for a helper process: ") +
                                        std::strerror(errno)};
    if (::pipe2(up, O_CLOEXEC) != 0) {
        ::close(down[0]);
        ::close(down[1]);
        return Error{ErrorKind::Io, std::string("cannot create a pipe for a helper process: ") +
                                        std::strerror(errno)};
    }
    pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {down[0], down[1], up[0], up[1]})
            ::close(fd);
        return Error{ErrorKind::Io, std::string("cannot start a helper process (fork failed: ") +
                                        std::strerror(errno) + ")"};
    }
    if (pid == 0) {
        defaultSignals();
        keepOnly(down[0], up[1]);
        serveForever(down[0], up[1]);
    }
    ::close(down[0]);
    ::close(up[1]);
    m_child.pid = pid;
    m_child.toChild = down[1];
    m_child.fromChild = up[0];
    ++m_started;
    return okStatus();
}

void HelperProcess::serveForever(int in, int out) {
    uint32_t kind = 0;
    Bytes payload;
    while (readFrame(in, kind, payload)) {
        try {
            Decoder d(payload);
            Encoder answer = m_serve(kind, d);
            if (!writeFrame(out, kind, answer.bytes())) break;
        } catch (...) {
            _exit(70); // the caller reports it as a crash
        }
    }
    _exit(0); // the caller closed its end; skip the caller's static destructors and atexit handlers
}

void ChildProcess::killAndReap() {
    if (pid > 0) {
        ::kill(pid, SIGKILL);
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        lastStatus = status;
    }
    for (int* fd : {&toChild, &fromChild})
        if (*fd >= 0) {
            ::close(*fd);
            *fd = -1;
        }
    pid = -1;
}

void HelperProcess::stop() {
    m_child.killAndReap();
}

Result<Bytes> HelperProcess::call(uint32_t kind, const Encoder& request, uint64_t timeoutMs) {
    std::lock_guard lock(m_mutex);
    if (m_child.pid < 0)
        if (auto s = start(); !s) return s.error();
    bool sent = writeFrame(m_child.toChild, kind, request.bytes());
    if (sent && !waitReadable(m_child.fromChild,
                              static_cast<int>(std::min<uint64_t>(timeoutMs, INT_MAX)))) {
        stop();
        return Error{ErrorKind::Timeout,
                     "it did not answer within " + seconds(timeoutMs) + " and was stopped"};
    }
    uint32_t got = 0;
    Bytes answer;
    bool read = sent && readFrame(m_child.fromChild, got, answer);
    if (read && got == kind) return answer;
    // It closed its end: it is ending; a short wait for it tells how it ended.
    for (int i = 0; !read && m_child.pid > 0 && i < 200; ++i) {
        int status = 0;
        if (::waitpid(m_child.pid, &status, WNOHANG) == m_child.pid) {
            m_child.lastStatus = status;
            m_child.pid = -1;
            break;
        }
        ::usleep(10000);
    }
    stop();
    return Error{ErrorKind::WorkerCrashed, processEndText(m_child.lastStatus)};
}

} // namespace vkp
