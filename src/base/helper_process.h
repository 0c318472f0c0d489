// A helper process for code that hostile input can crash, hang or overflow the stack of (glslang,
// SPIRV-Tools): a forked child of this process that answers requests, so that such a failure
// costs a restart of the child, never the caller. Forked without exec, it needs no executable or
// hidden mode and serves tests and fuzzers as it serves the app; it is started on the first
// request, kept warm, and started afresh after it died or hung.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <sys/types.h>

#include "base/result.h"
#include "base/wire.h"

namespace vkp {

// A child process and the ends of the two pipes this process holds to it (a request pipe it writes,
// an answer pipe it reads).
struct ChildProcess {
    pid_t pid = -1;     // -1 when none runs
    int toChild = -1;   // the request pipe's write end
    int fromChild = -1; // the answer pipe's read end
    int lastStatus = 0; // waitpid status of the last child that ended
    void killAndReap(); // SIGKILL, wait for it, close both ends
};

class HelperProcess {
  public:
    // Answers one request in the child: its kind and payload -> the answer's payload.
    using Serve = std::function<Encoder(uint32_t kind, Decoder& request)>;

    explicit HelperProcess(Serve serve) : m_serve(std::move(serve)) {}
    ~HelperProcess(); // kills and reaps the child
    HelperProcess(const HelperProcess&) = delete;
    HelperProcess& operator=(const HelperProcess&) = delete;

    // Sends a request and waits at most timeoutMs for the answer. A child that dies (a crash, a
    // stack overflow) is a WorkerCrashed error, one that does not answer in time is killed and is
    // a Timeout error; both messages say how it ended, and the next call starts a fresh child.
    // Thread-safe: calls are served one at a time.
    Result<Bytes> call(uint32_t kind, const Encoder& request, uint64_t timeoutMs);

    pid_t pid() const;    // of the running child, -1 when none
    int restarts() const; // children started after the first

  private:
    Status start();
    void stop(); // kill and reap
    [[noreturn]] void serveForever(int in, int out);

    Serve m_serve;
    mutable std::mutex m_mutex;
    ChildProcess m_child;
    int m_started = 0;
};

// How a process ended, from its waitpid status: "it was killed by signal 11 (Segmentation fault)".
std::string processEndText(int waitStatus);

} // namespace vkp
