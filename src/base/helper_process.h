// A helper process for code that hostile input can crash, hang or overflow the stack of (glslang,
// SPIRV-Tools): a copy of this process that answers requests, so that such a failure costs a
// restart of the helper, never the caller. A helper is registered by name before main runs (a
// static HelperRegistration); on Linux the copy is forked (no exec: it serves tests and fuzzers
// as it serves the app), on Windows it is this program started again, and main hands it to
// runHelperIfAsked. It is started on the first request, kept warm, and started afresh after it
// died or hung.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/process.h"
#include "base/result.h"
#include "base/wire.h"

namespace vkp {

// Answers one request in the helper: its kind and payload -> the answer's payload.
using HelperServe = std::function<Encoder(uint32_t kind, Decoder& request)>;

// Registers a helper under `name`; define one as a static object beside its serve function.
struct HelperRegistration {
    HelperRegistration(const char* name, HelperServe serve);
};

// In main, before anything else: when this process was started to be a helper
// (`PROGRAM --vkp-helper NAME`, Windows), serves it and returns the exit code; else nothing.
std::optional<int> runHelperIfAsked(const std::vector<std::string>& arguments);

class HelperProcess {
  public:
    explicit HelperProcess(std::string name); // a registered helper's name
    ~HelperProcess();                         // kills and reaps the child
    HelperProcess(const HelperProcess&) = delete;
    HelperProcess& operator=(const HelperProcess&) = delete;

    // Sends a request and waits at most timeoutMs for the answer. A child that dies (a crash, a
    // stack overflow) is a WorkerCrashed error, one that does not answer in time is killed and is
    // a Timeout error; both messages say how it ended, and the next call starts a fresh child.
    // Thread-safe: calls are served one at a time.
    Result<Bytes> call(uint32_t kind, const Encoder& request, uint64_t timeoutMs);

    int pid() const;      // of the running child, -1 when none
    int restarts() const; // children started after the first

  private:
    Status start();

    std::string m_name;
    mutable std::mutex m_mutex;
    ChildProcess m_child;
    int m_started = 0;
};

} // namespace vkp
