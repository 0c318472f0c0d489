#include "base/helper_process.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>

namespace vkp {
namespace {

std::string seconds(uint64_t ms) {
    if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
    return std::to_string(ms) + " ms";
}

std::map<std::string, HelperServe>& registry() {
    static std::map<std::string, HelperServe> helpers; // filled before main, read-only after
    return helpers;
}

// The helper's loop: a request in, its answer out, until the caller closes its end.
int serveForever(const HelperServe& serve, PipeEnd& requests, PipeEnd& answers) {
    uint32_t kind = 0;
    Bytes payload;
    while (readFrame(requests, kind, payload)) {
        Decoder d(payload);
        Encoder answer = serve(kind, d); // an exception ends the helper: the caller sees a crash
        if (!writeFrame(answers, kind, answer.bytes())) break;
    }
    return 0;
}

} // namespace

HelperRegistration::HelperRegistration(const char* name, HelperServe serve) {
    registry()[name] = std::move(serve);
}

std::optional<int> runHelperIfAsked(const std::vector<std::string>& arguments) {
    if (arguments.size() != 3 || arguments[1] != "--vkp-helper") return std::nullopt;
    auto found = registry().find(arguments[2]);
    if (found == registry().end()) return 64;
    ParentPipes pipes = inheritedPipes();
    int code = 70;
    try {
        code = serveForever(found->second, pipes.requests, pipes.answers);
    } catch (...) {
    }
    std::fflush(stderr);
    std::_Exit(code); // skip static destructors: a helper ends as the forked copy does
}

HelperProcess::HelperProcess(std::string name) : m_name(std::move(name)) {}

HelperProcess::~HelperProcess() {
    std::lock_guard lock(m_mutex);
    m_child.kill();
}

int HelperProcess::pid() const {
    std::lock_guard lock(m_mutex);
    return m_child.id();
}

int HelperProcess::restarts() const {
    std::lock_guard lock(m_mutex);
    return std::max(0, m_started - 1);
}

Status HelperProcess::start() {
    auto found = registry().find(m_name);
    if (found == registry().end())
        return Error{ErrorKind::Internal, "no helper process is registered as '" + m_name + "'"};
    const HelperServe& serve = found->second;
    auto body = [&serve](PipeEnd& requests, PipeEnd& answers) {
        return serveForever(serve, requests, answers);
    };
    if (auto s = m_child.startCopy(m_name, body); !s) return s;
    ++m_started;
    return okStatus();
}

Result<Bytes> HelperProcess::call(uint32_t kind, const Encoder& request, uint64_t timeoutMs) {
    std::lock_guard lock(m_mutex);
    if (m_child.id() < 0)
        if (auto s = start(); !s) return s.error();
    bool sent = writeFrame(m_child.requests(), kind, request.bytes());
    if (sent &&
        !m_child.answers().waitReadable(static_cast<int>(std::min<uint64_t>(timeoutMs, INT_MAX)))) {
        m_child.kill();
        return Error{ErrorKind::Timeout,
                     "it did not answer within " + seconds(timeoutMs) + " and was stopped"};
    }
    uint32_t got = 0;
    Bytes answer;
    bool read = sent && readFrame(m_child.answers(), got, answer);
    if (read && got == kind) return answer;
    // It closed its end: it is ending; a short wait for it tells how it ended.
    for (int i = 0; !read && i < 200 && !m_child.hasEnded(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    m_child.kill();
    return Error{ErrorKind::WorkerCrashed, m_child.endText()};
}

} // namespace vkp
