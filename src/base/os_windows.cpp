// base/os.h on Windows: the wide-character API, with UTF-8 text on our side of it.
#include "base/os.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <io.h>
#include <malloc.h>
#include <mutex>
#include <set>
#include <sys/stat.h>

#include <windows.h>
// After windows.h, which it needs.
#include <shellapi.h>

#include "base/windows_text.h"

namespace fs = std::filesystem;

namespace vkp::os {

fs::path toPath(std::string_view utf8) {
    return fs::path(wideText(utf8));
}

std::string pathText(const fs::path& path) {
    return utf8Text(path.native());
}

std::tm utcTime(std::time_t t) {
    std::tm out{};
    gmtime_s(&out, &t);
    return out;
}

std::tm localTime(std::time_t t) {
    std::tm out{};
    localtime_s(&out, &t);
    return out;
}

std::vector<std::string> arguments(int argc, char** argv) {
    int count = 0;
    LPWSTR* wide = ::CommandLineToArgvW(::GetCommandLineW(), &count);
    if (!wide) return std::vector<std::string>(argv, argv + argc);
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i)
        out.push_back(utf8Text(wide[i]));
    ::LocalFree(wide);
    return out;
}

std::string executablePath() {
    std::wstring path(MAX_PATH, L'\0');
    for (;;) {
        DWORD n = ::GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
        if (n == 0) return "";
        if (n < path.size()) {
            path.resize(n);
            return utf8Text(path);
        }
        path.resize(path.size() * 2);
    }
}

std::string environmentVariable(const char* name) {
    std::wstring wname = wideText(name);
    DWORD n = ::GetEnvironmentVariableW(wname.c_str(), nullptr, 0);
    if (n == 0) return "";
    std::wstring value(n, L'\0');
    n = ::GetEnvironmentVariableW(wname.c_str(), value.data(), n);
    value.resize(n);
    return utf8Text(value);
}

std::vector<std::string> environmentEntries() {
    std::vector<std::string> out;
    LPWCH block = ::GetEnvironmentStringsW();
    if (!block) return out;
    for (const wchar_t* e = block; *e; e += std::wcslen(e) + 1)
        if (*e != L'=') // "=C:=C:\\..." entries are the shell's current folders, not variables
            out.push_back(utf8Text(e));
    ::FreeEnvironmentStringsW(block);
    return out;
}

int processId() {
    return static_cast<int>(::GetCurrentProcessId());
}

std::string homeFolder() {
    return environmentVariable("USERPROFILE");
}

std::string dataHome() {
    return environmentVariable("APPDATA");
}

std::string cacheHome() {
    return environmentVariable("LOCALAPPDATA");
}

namespace {

void setErrnoFromLastError() {
    switch (::GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
        errno = ENOENT;
        break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        errno = EACCES;
        break;
    case ERROR_DISK_FULL:
        errno = ENOSPC;
        break;
    default:
        errno = EIO;
    }
}

bool isFolder(const std::string& path) {
    DWORD a = ::GetFileAttributesW(wideText(path).c_str());
    return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY);
}

HANDLE handleOf(int fd) {
    return reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
}

std::mutex g_lockMutex;
std::set<int> g_exclusive; // descriptors holding an exclusive lock (lockShared turns it shared)

} // namespace

int openForReading(const std::string& path) {
    int fd = ::_wopen(wideText(path).c_str(), _O_RDONLY | _O_BINARY | _O_NOINHERIT);
    if (fd < 0 && errno == EACCES && isFolder(path)) errno = EISDIR; // Windows says "denied"
    return fd;
}

int openForWriting(const std::string& path) {
    return ::_wopen(wideText(path).c_str(),
                    _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY | _O_NOINHERIT,
                    _S_IREAD | _S_IWRITE);
}

bool flushToDisk(int fd) {
    return ::_commit(fd) == 0;
}

bool replaceFile(const std::string& from, const std::string& to) {
    if (::MoveFileExW(wideText(from).c_str(), wideText(to).c_str(),
                      MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return true;
    setErrnoFromLastError();
    return false;
}

bool canWriteIn(const std::string& folder) {
    // Access rights on Windows are lists, not bits: creating a file is the honest test.
    fs::path probe = toPath(folder) / (".vkpuzzles-write-test-" + std::to_string(processId()));
    HANDLE h = ::CreateFileW(probe.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                             FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    if (h == INVALID_HANDLE_VALUE) return false;
    ::CloseHandle(h);
    return true;
}

int openForLocking(const std::string& path) {
    return ::_wopen(wideText(path).c_str(), _O_RDWR | _O_CREAT | _O_BINARY | _O_NOINHERIT,
                    _S_IREAD | _S_IWRITE);
}

bool lockExclusive(int fd, bool wait) {
    OVERLAPPED at = {};
    DWORD flags = LOCKFILE_EXCLUSIVE_LOCK | (wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY);
    if (!::LockFileEx(handleOf(fd), flags, 0, MAXDWORD, MAXDWORD, &at)) return false;
    std::lock_guard lock(g_lockMutex);
    g_exclusive.insert(fd);
    return true;
}

bool lockShared(int fd) {
    OVERLAPPED at = {};
    if (!::LockFileEx(handleOf(fd), LOCKFILE_FAIL_IMMEDIATELY, 0, MAXDWORD, MAXDWORD, &at))
        return false;
    // Windows keeps both locks on the range; the first unlock removes the exclusive one.
    std::lock_guard lock(g_lockMutex);
    if (g_exclusive.erase(fd)) {
        OVERLAPPED again = {};
        ::UnlockFileEx(handleOf(fd), 0, MAXDWORD, MAXDWORD, &again);
    }
    return true;
}

void stopThisProcess() {
    for (;;)
        ::Sleep(INFINITE);
}

void* allocateHuge(size_t bytes) {
    return ::_aligned_malloc(bytes, 2u << 20); // large pages need a privilege users lack
}

void freeHuge(void* p) noexcept {
    ::_aligned_free(p);
}

std::string shellWord(const std::string& w) {
    bool plain = !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char c) {
        return std::isalnum(c) || (c && std::strchr("\\/._-+:@,=", c));
    });
    return plain ? w : "\"" + w + "\"";
}

std::string cpuVulkanDriverAdvice() {
    return "install a CPU Vulkan driver, such as Mesa's lavapipe built for Windows";
}

bool hasDesktop() {
    return true;
}

void releaseOwnConsole() {
    DWORD processes[2];
    if (::GetConsoleProcessList(processes, 2) == 1) ::FreeConsole(); // no shell shares it
}

void tellUser(const std::string& message) {
    if (::GetConsoleWindow()) return; // stderr reached a console
    ::MessageBoxW(nullptr, wideText(message).c_str(), L"vkpuzzles", MB_OK | MB_ICONERROR);
}

namespace {
HANDLE streamHandle(Stream s) {
    return ::GetStdHandle(s == Stream::Out ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
}
} // namespace

bool isTerminal(Stream stream) {
    DWORD mode = 0;
    return ::GetConsoleMode(streamHandle(stream), &mode) != 0;
}

bool terminalColours(Stream stream) {
    DWORD mode = 0;
    HANDLE h = streamHandle(stream);
    if (!::GetConsoleMode(h, &mode)) return false;
    return (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) ||
           ::SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
}

int terminalColumns(Stream stream) {
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (!::GetConsoleScreenBufferInfo(streamHandle(stream), &info)) return 0;
    return info.srWindow.Right - info.srWindow.Left + 1;
}

void useUtf8Console() {
    ::SetConsoleOutputCP(CP_UTF8);
    ::SetConsoleCP(CP_UTF8);
}

} // namespace vkp::os
