// base/process.h on Windows: CreateProcessW, named pipes, a job object.
// This process's ends of a child's pipes are overlapped, so that a wait has a deadline without
// polling; the child's ends are plain (it only reads and writes, one at a time). A child's ends
// are the only handles it inherits (PROC_THREAD_ATTRIBUTE_HANDLE_LIST), named to it in the
// variable VKPUZZLES_PIPES ("REQUESTS,ANSWERS").
#include "base/process.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cwchar>

#include <windows.h>

#include "base/os.h"
#include "base/windows_text.h"

namespace vkp {

using os::utf8Text;
using os::wideText;

struct PipeEnd::Native {
    HANDLE handle = INVALID_HANDLE_VALUE;
    bool overlapped = false; // this process's end of a child's pipe
    // An overlapped read of one byte that a wait started, and its byte once it came.
    OVERLAPPED io = {};
    HANDLE event = nullptr;
    bool pending = false;
    bool stashed = false;
    bool ended = false; // the other end closed (or the pipe broke): reads fail
    uint8_t byte = 0;
    ~Native() {
        if (pending) {
            DWORD got = 0;
            ::CancelIoEx(handle, &io);
            ::GetOverlappedResult(handle, &io, &got, TRUE);
        }
        if (handle != INVALID_HANDLE_VALUE) ::CloseHandle(handle);
        if (event) ::CloseHandle(event);
    }
};

namespace {

constexpr wchar_t kPipesVariable[] = L"VKPUZZLES_PIPES";
constexpr DWORD kPipeBuffer = 1u << 20;
constexpr DWORD kChunk = 1u << 24;            // the most one ReadFile or WriteFile moves
constexpr DWORD kKilledExitCode = 0x7650dead; // what kill() ends a child with

PipeEnd pipeEnd(HANDLE h, bool overlapped) {
    auto n = std::make_unique<PipeEnd::Native>();
    n->handle = h;
    n->overlapped = overlapped;
    if (overlapped) n->event = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
    return PipeEnd(std::move(n));
}

std::string lastErrorText() {
    wchar_t* text = nullptr;
    DWORD e = ::GetLastError();
    ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                         FORMAT_MESSAGE_IGNORE_INSERTS,
                     nullptr, e, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
    std::string out = text ? utf8Text(text) : "error " + std::to_string(e);
    if (text) ::LocalFree(text);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == '.'))
        out.pop_back();
    return out;
}

// One overlapped transfer, waited for to its end; the bytes it moved (0: the pipe ended).
DWORD transfer(PipeEnd::Native& n, void* data, DWORD bytes, bool write) {
    OVERLAPPED io = {};
    io.hEvent = n.event;
    ::ResetEvent(n.event);
    BOOL ok = write ? ::WriteFile(n.handle, data, bytes, nullptr, &io)
                    : ::ReadFile(n.handle, data, bytes, nullptr, &io);
    if (!ok && ::GetLastError() != ERROR_IO_PENDING) return 0;
    DWORD moved = 0;
    if (!::GetOverlappedResult(n.handle, &io, &moved, TRUE)) return 0;
    return moved;
}

// The pending one-byte read of a wait, waited for to its end.
void finishPending(PipeEnd::Native& n) {
    DWORD got = 0;
    if (::GetOverlappedResult(n.handle, &n.io, &got, TRUE) && got == 1)
        n.stashed = true;
    else
        n.ended = true;
    n.pending = false;
}

// A pipe to a child: this process's end overlapped, the child's end inheritable and plain.
// `childReads`: the child reads from it (requests), else writes into it (answers).
bool makePipe(bool childReads, HANDLE& ours, HANDLE& theirs) {
    static std::atomic<unsigned> counter{0};
    std::wstring name = L"\\\\.\\pipe\\vkpuzzles-" + std::to_wstring(::GetCurrentProcessId()) +
                        L"-" + std::to_wstring(counter++) + L"-" +
                        std::to_wstring(::GetTickCount64());
    DWORD access = (childReads ? PIPE_ACCESS_OUTBOUND : PIPE_ACCESS_INBOUND) |
                   FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE;
    ours = ::CreateNamedPipeW(name.c_str(), access,
                              PIPE_TYPE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS, 1,
                              kPipeBuffer, kPipeBuffer, 0, nullptr);
    if (ours == INVALID_HANDLE_VALUE) return false;
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, nullptr, TRUE};
    theirs = ::CreateFileW(name.c_str(), childReads ? GENERIC_READ : GENERIC_WRITE, 0, &inherit,
                           OPEN_EXISTING, 0, nullptr);
    if (theirs == INVALID_HANDLE_VALUE) {
        ::CloseHandle(ours);
        return false;
    }
    return true;
}

// The job every child joins: it ends them when this process ends (its handle is closed then),
// and a child that crashes ends at once instead of waiting in a system dialog.
HANDLE childJob() {
    static HANDLE job = [] {
        HANDLE j = ::CreateJobObjectW(nullptr, nullptr);
        if (!j) return j;
        JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {};
        limits.BasicLimitInformation.LimitFlags =
            JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
        ::SetInformationJobObject(j, JobObjectExtendedLimitInformation, &limits, sizeof limits);
        return j;
    }();
    return job;
}

// An argument as CommandLineToArgvW and the C runtime read it back.
std::wstring quoted(const std::wstring& arg) {
    if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
    std::wstring out = L"\"";
    size_t backslashes = 0;
    for (wchar_t c : arg) {
        if (c == L'\\') {
            ++backslashes;
            continue;
        }
        out.append(c == L'"' ? 2 * backslashes + 1 : backslashes, L'\\');
        backslashes = 0;
        out.push_back(c);
    }
    out.append(2 * backslashes, L'\\');
    out.push_back(L'"');
    return out;
}

HANDLE inheritableCopy(HANDLE h) {
    HANDLE copy = nullptr;
    if (!h || h == INVALID_HANDLE_VALUE) return nullptr;
    if (!::DuplicateHandle(::GetCurrentProcess(), h, ::GetCurrentProcess(), &copy, 0, TRUE,
                           DUPLICATE_SAME_ACCESS))
        return nullptr;
    return copy;
}

HANDLE nullDevice(bool write) {
    SECURITY_ATTRIBUTES inherit = {sizeof inherit, nullptr, TRUE};
    return ::CreateFileW(L"NUL", write ? GENERIC_WRITE : GENERIC_READ,
                         FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, OPEN_EXISTING, 0, nullptr);
}

const char* exceptionName(DWORD code) {
    switch (code) {
    case 0xC0000005:
        return "an access violation";
    case 0xC00000FD:
        return "a stack overflow";
    case 0xC0000094:
        return "an integer division by zero";
    case 0xC000001D:
        return "an illegal instruction";
    case 0xC0000409:
        return "a failed run-time check";
    case 0xC0000374:
        return "a corrupted heap";
    default:
        return "an exception";
    }
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
    return m_native && m_native->handle != INVALID_HANDLE_VALUE;
}

void PipeEnd::close() {
    m_native.reset();
}

bool PipeEnd::writeAll(const void* data, size_t bytes) {
    if (!isOpen()) return false;
    auto* p = static_cast<uint8_t*>(const_cast<void*>(data));
    while (bytes > 0) {
        DWORD n = static_cast<DWORD>(std::min<size_t>(bytes, kChunk)), moved = 0;
        if (m_native->overlapped)
            moved = transfer(*m_native, p, n, true);
        else if (!::WriteFile(m_native->handle, p, n, &moved, nullptr))
            moved = 0;
        if (moved == 0) return false;
        p += moved;
        bytes -= moved;
    }
    return true;
}

bool PipeEnd::readAll(void* data, size_t bytes) {
    if (!isOpen()) return false;
    Native& n = *m_native;
    auto* p = static_cast<uint8_t*>(data);
    if (n.pending) finishPending(n);
    if (n.stashed && bytes > 0) {
        *p++ = n.byte;
        --bytes;
        n.stashed = false;
    }
    while (bytes > 0) {
        if (n.ended) return false;
        DWORD want = static_cast<DWORD>(std::min<size_t>(bytes, kChunk)), moved = 0;
        if (n.overlapped)
            moved = transfer(n, p, want, false);
        else if (!::ReadFile(n.handle, p, want, &moved, nullptr))
            moved = 0;
        if (moved == 0) return false;
        p += moved;
        bytes -= moved;
    }
    return true;
}

bool PipeEnd::waitReadable(int timeoutMs) {
    if (!isOpen()) return true;
    Native& n = *m_native;
    if (n.stashed || n.ended) return true;
    if (!n.overlapped) { // a child's end: nothing waits on it but this poll
        for (ULONGLONG end = ::GetTickCount64() + static_cast<ULONGLONG>(timeoutMs);;) {
            DWORD available = 0;
            if (!::PeekNamedPipe(n.handle, nullptr, 0, nullptr, &available, nullptr) ||
                available > 0)
                return true;
            if (::GetTickCount64() >= end) return false;
            ::Sleep(1);
        }
    }
    if (!n.pending) {
        n.io = {};
        n.io.hEvent = n.event;
        ::ResetEvent(n.event);
        if (!::ReadFile(n.handle, &n.byte, 1, nullptr, &n.io) &&
            ::GetLastError() != ERROR_IO_PENDING) {
            n.ended = true;
            return true;
        }
        n.pending = true;
    }
    if (::WaitForSingleObject(n.event, static_cast<DWORD>(std::max(timeoutMs, 0))) != WAIT_OBJECT_0)
        return false; // the read stays under way: the next wait or read takes it up
    finishPending(n); // done: the event says so
    return true;
}

ParentPipes inheritedPipes() {
    // A child that crashes ends at once, without the system's "stopped working" dialog.
    ::SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
    std::string value = os::environmentVariable("VKPUZZLES_PIPES");
    ::SetEnvironmentVariableW(kPipesVariable, nullptr); // not for this child's own children
    unsigned long long in = 0, out = 0;
    if (std::sscanf(value.c_str(), "%llu,%llu", &in, &out) != 2) return {};
    return {pipeEnd(reinterpret_cast<HANDLE>(static_cast<uintptr_t>(in)), false),
            pipeEnd(reinterpret_cast<HANDLE>(static_cast<uintptr_t>(out)), false)};
}

struct ChildProcess::Native {
    HANDLE process = nullptr;
    DWORD lastExit = 0;
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

namespace {

// Starts a child; `quiet`: its stdin and stdout are the null device (a helper), else ours.
Status launch(const std::string& program, const std::vector<std::string>& arguments,
              const std::vector<std::string>& environment, bool quiet, HANDLE& process, int& id,
              PipeEnd& requests, PipeEnd& answers) {
    HANDLE oursIn, theirsIn, oursOut, theirsOut;
    if (!makePipe(true, oursIn, theirsIn))
        return Error{ErrorKind::Io, "cannot create a pipe for " + program + ": " + lastErrorText()};
    if (!makePipe(false, oursOut, theirsOut)) {
        ::CloseHandle(oursIn);
        ::CloseHandle(theirsIn);
        return Error{ErrorKind::Io, "cannot create a pipe for " + program + ": " + lastErrorText()};
    }
    HANDLE stdio[3] = {
        quiet ? nullDevice(false) : inheritableCopy(::GetStdHandle(STD_INPUT_HANDLE)),
        quiet ? nullDevice(true) : inheritableCopy(::GetStdHandle(STD_OUTPUT_HANDLE)),
        inheritableCopy(::GetStdHandle(STD_ERROR_HANDLE))};
    for (int i = 0; i < 3; ++i)
        if (!stdio[i] || stdio[i] == INVALID_HANDLE_VALUE) stdio[i] = nullDevice(i > 0);
    std::vector<HANDLE> inherited = {theirsIn, theirsOut, stdio[0], stdio[1], stdio[2]};

    std::wstring commandLine = quoted(wideText(program));
    for (const std::string& a : arguments)
        commandLine += L" " + quoted(wideText(a));
    std::wstring block;
    for (const std::string& e : environment)
        if (e.rfind("VKPUZZLES_PIPES=", 0) != 0) block += wideText(e) + L'\0';
    block += std::wstring(kPipesVariable) + L"=" +
             std::to_wstring(reinterpret_cast<uintptr_t>(theirsIn)) + L"," +
             std::to_wstring(reinterpret_cast<uintptr_t>(theirsOut)) + L'\0';
    block += L'\0';

    SIZE_T size = 0;
    ::InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
    std::vector<uint8_t> attributes(size);
    auto* list = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attributes.data());
    ::InitializeProcThreadAttributeList(list, 1, 0, &size);
    ::UpdateProcThreadAttribute(list, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited.data(),
                                inherited.size() * sizeof(HANDLE), nullptr, nullptr);
    STARTUPINFOEXW start = {};
    start.StartupInfo.cb = sizeof start;
    start.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    start.StartupInfo.hStdInput = stdio[0];
    start.StartupInfo.hStdOutput = stdio[1];
    start.StartupInfo.hStdError = stdio[2];
    start.lpAttributeList = list;
    PROCESS_INFORMATION info = {};
    // No console window of its own: a console program started from the app would open one.
    BOOL ok =
        ::CreateProcessW(wideText(program).c_str(), commandLine.data(), nullptr, nullptr, TRUE,
                         CREATE_SUSPENDED | CREATE_NO_WINDOW | CREATE_UNICODE_ENVIRONMENT |
                             EXTENDED_STARTUPINFO_PRESENT,
                         block.data(), nullptr, &start.StartupInfo, &info);
    std::string why = ok ? "" : lastErrorText();
    ::DeleteProcThreadAttributeList(list);
    for (HANDLE h : inherited)
        ::CloseHandle(h);
    if (!ok) {
        ::CloseHandle(oursIn);
        ::CloseHandle(oursOut);
        return Error{ErrorKind::Io, "cannot start " + program + ": " + why};
    }
    if (HANDLE job = childJob()) ::AssignProcessToJobObject(job, info.hProcess);
    ::ResumeThread(info.hThread);
    ::CloseHandle(info.hThread);
    process = info.hProcess;
    id = static_cast<int>(info.dwProcessId);
    requests = pipeEnd(oursIn, true);
    answers = pipeEnd(oursOut, true);
    return okStatus();
}

} // namespace

Status ChildProcess::start(const std::string& program, const std::vector<std::string>& arguments,
                           const std::vector<std::string>& environment) {
    kill();
    return launch(program, arguments, environment, false, m_native->process, m_id, m_requests,
                  m_answers);
}

Status ChildProcess::startCopy(const std::string& name, const Body&) {
    kill();
    std::string self = os::executablePath();
    if (self.empty())
        return Error{ErrorKind::Io,
                     "cannot start a helper process: this program's path is unknown"};
    return launch(self, {"--vkp-helper", name}, os::environmentEntries(), true, m_native->process,
                  m_id, m_requests, m_answers);
}

bool ChildProcess::hasEnded() {
    if (!m_native->process) return true;
    if (::WaitForSingleObject(m_native->process, 0) != WAIT_OBJECT_0) return false;
    ::GetExitCodeProcess(m_native->process, &m_native->lastExit);
    ::CloseHandle(m_native->process);
    m_native->process = nullptr;
    m_id = -1;
    return true;
}

bool ChildProcess::isStopped() const {
    return false; // Windows has no stopping signal; a debugger's break is not told apart
}

void ChildProcess::kill() {
    if (m_native->process) {
        ::TerminateProcess(m_native->process, kKilledExitCode);
        ::WaitForSingleObject(m_native->process, INFINITE);
        ::GetExitCodeProcess(m_native->process, &m_native->lastExit);
        ::CloseHandle(m_native->process);
        m_native->process = nullptr;
    }
    m_requests.close();
    m_answers.close();
    m_id = -1;
}

std::string ChildProcess::endText() const {
    DWORD code = m_native->lastExit;
    if (code == kKilledExitCode) return "it stopped answering";
    if (code >= 0xC0000000) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08lX", static_cast<unsigned long>(code));
        return std::string("it crashed (") + exceptionName(code) + ", exception " + hex + ")";
    }
    return "it exited with status " + std::to_string(code);
}

void killProcess(int id) {
    if (id <= 0) return;
    HANDLE h = ::OpenProcess(PROCESS_TERMINATE, FALSE, static_cast<DWORD>(id));
    if (!h) return;
    ::TerminateProcess(h, kKilledExitCode);
    ::CloseHandle(h);
}

} // namespace vkp
