// What a test needs to know of the system it runs on (tests may branch on it; the program does
// only in base/os and base/process).
#pragma once

#include <filesystem>
#include <string>

#ifdef _WIN32
#include <windows.h>
#endif

namespace vkp::test {

// A Windows test program running under Wine (CI proves the Windows build there), which differs
// from Windows in a few things a test can see: a crashed process's exit status, symbolic links.
inline bool underWine() {
#ifdef _WIN32
    HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
    return ntdll && ::GetProcAddress(ntdll, "wine_get_version");
#else
    return false;
#endif
}

// Whether the tests can make symbolic links here: POSIX systems can; Wine cannot, nor Windows
// outside developer mode. A test about links skips, saying why, where it cannot make one.
inline bool canMakeSymlinks() {
    static const bool can = [] {
        namespace fs = std::filesystem;
        std::error_code ec;
        fs::path link = fs::temp_directory_path(ec) / "vkp-symlink-probe";
        fs::remove(link, ec);
        fs::create_symlink("target", link, ec);
        bool made = !ec;
        fs::remove(link, ec);
        return made;
    }();
    return can;
}

inline constexpr const char* kNoSymlinks =
    "this system does not let the tests make symbolic links (Wine; Windows without developer mode)";

} // namespace vkp::test
