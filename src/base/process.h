// Child processes and the pipes to them: the operating system's part of the kernel worker and the
// helper processes, implemented once per system (process_posix.cpp, process_windows.cpp; CMake
// compiles one). A child gets two pipes: it reads requests from one and writes answers into the
// other. This process writes, waits for an answer with a deadline, stops a child that gives none,
// and says how a child ended. On Windows every child is in a job object that ends it when this
// process ends, however that happens.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"

namespace vkp {

// One end of a pipe: a file descriptor on POSIX, a handle on Windows. Closed when destroyed.
class PipeEnd {
  public:
    struct Native; // the system's own, defined by its implementation
    PipeEnd();
    explicit PipeEnd(std::unique_ptr<Native> native);
    ~PipeEnd();
    PipeEnd(PipeEnd&&) noexcept;
    PipeEnd& operator=(PipeEnd&&) noexcept;
    PipeEnd(const PipeEnd&) = delete;
    PipeEnd& operator=(const PipeEnd&) = delete;

    bool isOpen() const;
    // Blocking; false when the other end is closed (a write) or closes first (a read).
    bool writeAll(const void* data, size_t bytes);
    bool readAll(void* data, size_t bytes);
    // True as soon as a read would not wait (bytes came, or the other end closed); false when
    // timeoutMs pass first.
    bool waitReadable(int timeoutMs);
    void close();

  private:
    std::unique_ptr<Native> m_native;
};

// The pipes a child was started with, seen from the child.
struct ParentPipes {
    PipeEnd requests; // read
    PipeEnd answers;  // written
};
// In a child that ChildProcess::start started: its two pipes. Not open in any other process.
ParentPipes inheritedPipes();

class ChildProcess {
  public:
    // What a copy of this process runs (startCopy): its exit code.
    using Body = std::function<int(PipeEnd& requests, PipeEnd& answers)>;

    ChildProcess();
    ~ChildProcess(); // kills and reaps a child still running
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Starts `program` with `arguments` (those after its own name) and exactly `environment`
    // (NAME=VALUE entries), its pipes found with inheritedPipes(). Its stdout and stderr are ours.
    Status start(const std::string& program, const std::vector<std::string>& arguments,
                 const std::vector<std::string>& environment);
    // Starts a copy of this process that runs `body` and ends. POSIX forks (no exec: tests and
    // fuzzers are served as the app is); Windows starts this program again as
    // `PROGRAM --vkp-helper NAME`, whose main hands it to runHelperIfAsked (base/helper_process.h).
    // The copy's stdin and stdout are the null device (a library that prints must not write into
    // a command's output); a crash in it ends it without running this process's crash handlers.
    Status startCopy(const std::string& name, const Body& body);

    int id() const;         // the child's process id, -1 when none runs
    PipeEnd& requests();    // this process writes into it
    PipeEnd& answers();     // this process reads from it
    bool hasEnded();        // true, and reaped, when the child ended; never waits
    bool isStopped() const; // stopped (a signal, a debugger) and so unable to answer; POSIX only
    void kill(); // ends the child now, reaps it, closes both pipes; nothing when none runs
    // How the last child ended: "it was killed by signal 11 (Segmentation fault)", "it crashed
    // (a stack overflow, exception 0xC00000FD)", "it exited with status 3", "it stopped answering"
    // (this process ended it).
    std::string endText() const;

    struct Native;

  private:
    std::unique_ptr<Native> m_native;
    int m_id = -1;
    PipeEnd m_requests, m_answers;
};

// Ends the process `id` at once (safe from any thread; what ChildProcess::kill sends).
void killProcess(int id);

} // namespace vkp
