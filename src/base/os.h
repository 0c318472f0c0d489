// The operating system, behind one seam: what differs between Linux and Windows is here and in
// base/process.h, implemented once per system (os_posix.cpp, os_windows.cpp; CMake compiles one),
// so no other file branches on the system. Text is UTF-8 on both: on Windows every call goes
// through the wide-character API and converts.
#pragma once

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace vkp::os {

// A path from UTF-8 text and back. On Windows libstdc++ reads a narrow string in the C locale
// (byte by byte), so fs::path("café") would name "cafÃ©"; these read and write UTF-8 on both.
std::filesystem::path toPath(std::string_view utf8);
std::string pathText(const std::filesystem::path& path);

// A moment as a calendar date and time, in UTC or in this machine's time zone (thread-safe).
std::tm utcTime(std::time_t t);
std::tm localTime(std::time_t t);

// The command line as UTF-8 (on Windows argv is in the ANSI code page: read the wide one).
std::vector<std::string> arguments(int argc, char** argv);

// The running program's own file, "" when the system cannot tell.
std::string executablePath();
// A variable of this process's environment, "" when unset; all of them as NAME=VALUE.
std::string environmentVariable(const char* name);
std::vector<std::string> environmentEntries();
int processId();

// Where a user's applications keep data, and caches: $XDG_DATA_HOME or ~/.local/share, and
// $XDG_CACHE_HOME or ~/.cache; on Windows %APPDATA% and %LOCALAPPDATA%. "" when unknown.
std::string dataHome();
std::string cacheHome();
// The user's home folder ($HOME, %USERPROFILE%), "" when unknown.
std::string homeFolder();

// Files by descriptor, as the C library has them on both systems (read, write, close, fstat),
// opened by UTF-8 path. -1 on failure with errno set, as open(2) sets it.
int openForReading(const std::string& path); // never waits for a FIFO's writer
int openForWriting(const std::string& path); // created, or emptied
bool flushToDisk(int fd);
// Renames `from` over `to` in one step (a reader sees the old file or the new one); false with
// errno set.
bool replaceFile(const std::string& from, const std::string& to);
bool canWriteIn(const std::string& folder);

// Advisory whole-file locks, held through a descriptor (openForLocking) until it is closed.
int openForLocking(const std::string& path); // created if missing
// An exclusive lock: waits for it when `wait`, else false at once when another holds a lock.
bool lockExclusive(int fd, bool wait);
// A shared lock without waiting; an exclusive lock this descriptor holds becomes shared.
bool lockShared(int fd);

// Tests only: stops this process as a shell's job control or a debugger does (POSIX: SIGSTOP),
// so it cannot answer; where the system has no such stop, it waits forever instead.
void stopThisProcess();

// Memory for a large block (a benchmark's buffers in a frame): 2 MiB-aligned and, where the
// system can, backed by huge pages (first touches of fresh 4 KiB pages, one fault each, were most
// of a big frame's cost). Null when there is none; freed with freeHuge.
void* allocateHuge(size_t bytes);
void freeHuge(void* p) noexcept;

// A word as this system's shell reads it back, for the command lines the tool suggests (a pack's
// folder, an exported file): as is when it is plainly safe, else quoted: 'it'\''s' for a POSIX
// shell, "my course" for cmd and PowerShell (a Windows path holds no double quote).
std::string shellWord(const std::string& word);

// How to get a CPU Vulkan driver (lavapipe) on this system, as a clause of advice: "install
// mesa-vulkan-drivers for lavapipe, a CPU device" (Debian), or Windows' way.
std::string cpuVulkanDriverAdvice();

// Whether windows can be opened: a display to draw on (X11's $DISPLAY or Wayland's
// $WAYLAND_DISPLAY on Linux; always on Windows).
bool hasDesktop();

// The app's console. On Windows a console program started from Explorer (a double-click) gets a
// console window of its own: the app lets it go, and then tells the user what stops it from
// starting in a message box, where they see it. A console shared with a shell stays; elsewhere
// both do nothing (the message is on stderr already).
void releaseOwnConsole();
void tellUser(const std::string& message);

// Terminals. Colours need a terminal that reads escape sequences: on Windows this turns them on
// for the console and is false where it cannot.
enum class Stream { Out, Err };
bool isTerminal(Stream stream);
bool terminalColours(Stream stream);
int terminalColumns(Stream stream); // 0 when not a terminal or unknown
// Prepares this process's console for UTF-8 output (Windows: the console's code page).
void useUtf8Console();

} // namespace vkp::os
