#include "base/text_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include <sys/stat.h>
#include <unistd.h>

#include "base/os.h"

namespace vkp {
namespace {

Error openError(const std::string& path, int error) {
    switch (error) {
    case ENOENT:
        return Error{ErrorKind::Io, "no such file", {path}};
    case EISDIR: // Windows cannot open a folder as a file
        return Error{ErrorKind::Io, "this is a folder, not a file", {path}};
    case ELOOP:
        return Error{ErrorKind::Io,
                     "cannot read it: a symbolic link that leads back to itself (a loop)",
                     {path}};
    case EACCES:
        return Error{ErrorKind::Io, "cannot read it: permission denied", {path}};
    default:
        return Error{ErrorKind::Io, std::string("cannot read it: ") + std::strerror(error), {path}};
    }
}

// Only a regular file of at most the limit is read: a folder, a FIFO (would block) or a device
// such as /dev/zero (would never end) is refused before the first byte.
std::optional<Error> checkKind(const std::string& path, const struct stat& st,
                               const FileLimit& limit) {
    if (S_ISDIR(st.st_mode)) return Error{ErrorKind::Io, "this is a folder, not a file", {path}};
    if (!S_ISREG(st.st_mode))
        return Error{
            ErrorKind::Io,
            "this is not a regular file (a FIFO, a device or a socket); only plain files are read",
            {path}};
    if (uint64_t size = static_cast<uint64_t>(st.st_size); size > limit.bytes) {
        // Bytes where the rounded size would read as the limit itself ("1.0 MiB" over 1 MiB).
        std::string shown = sizeText(size);
        if (shown.rfind(sizeText(limit.bytes).substr(0, 1) + ".0 ", 0) == 0)
            shown = std::to_string(size) + " bytes";
        return Error{ErrorKind::Io,
                     "the file is " + shown + "; " + limit.what + " may be at most " +
                         sizeText(limit.bytes),
                     {path}};
    }
    return std::nullopt;
}

} // namespace

std::string sizeText(uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    char buf[32];
    double mib = static_cast<double>(bytes) / (1u << 20);
    if (mib >= 1)
        std::snprintf(buf, sizeof buf, mib == static_cast<uint64_t>(mib) ? "%.0f MiB" : "%.1f MiB",
                      mib);
    else
        std::snprintf(buf, sizeof buf, "%.0f KiB", static_cast<double>(bytes) / 1024);
    return buf;
}

Result<std::string> readTextFile(const std::string& path, const FileLimit& limit) {
    int fd = os::openForReading(path); // a FIFO opens without a writer; checkKind refuses it

    if (fd < 0) return openError(path, errno);
    struct stat st = {};
    if (::fstat(fd, &st) != 0) {
        int e = errno;
        ::close(fd);
        return openError(path, e);
    }
    if (auto bad = checkKind(path, st, limit)) {
        ::close(fd);
        return *bad;
    }
    std::string text;
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            ::close(fd);
            return openError(path, e);
        }
        if (n == 0) break;
        text.append(buf, static_cast<size_t>(n));
        if (text.size() > limit.bytes) { // it grew while being read
            ::close(fd);
            return Error{ErrorKind::Io,
                         std::string("the file is over ") + sizeText(limit.bytes) + ", the most " +
                             limit.what + " may be",
                         {path}};
        }
    }
    ::close(fd);
    // A UTF-8 byte order mark (Windows editors write one) is no text: shaderc would take it for
    // the first characters of the kernel and refuse its #version line.
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
    return text;
}

namespace fs = std::filesystem;

Status writeFileAtomically(const std::string& path, const std::string& text) {
    fs::path target = os::toPath(path);
    std::error_code ec;
    // create_directories would only say "File exists" when a folder on the way is a file.
    for (fs::path up = target.parent_path(); !up.empty() && up != up.parent_path();
         up = up.parent_path())
        if (fs::file_status st = fs::status(up, ec); fs::exists(st) && !fs::is_directory(st))
            return Error{ErrorKind::Io, "cannot write " + path + ": " + os::pathText(up) +
                                            " is a file, not a folder"};
    if (!target.parent_path().empty()) // "scores.csv": the current folder, which exists
        fs::create_directories(target.parent_path(), ec);
    if (ec)
        return Error{ErrorKind::Io,
                     "cannot create " + os::pathText(target.parent_path()) + ": " + ec.message()};
    std::string tmp = path + ".tmp-" + std::to_string(os::processId());
    int fd = os::openForWriting(tmp);
    if (fd < 0) return Error{ErrorKind::Io, "cannot write " + tmp + ": " + std::strerror(errno)};
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            std::string why = std::strerror(errno);
            ::close(fd);
            fs::remove(os::toPath(tmp), ec);
            return Error{ErrorKind::Io, "cannot write " + tmp + ": " + why};
        }
        done += static_cast<size_t>(n);
    }
    bool synced = os::flushToDisk(fd);
    ::close(fd);
    if (!synced || !os::replaceFile(tmp, path)) {
        std::string why = std::strerror(errno);
        fs::remove(os::toPath(tmp), ec);
        return Error{ErrorKind::Io, "cannot replace " + path + ": " + why};
    }
    return okStatus();
}

} // namespace vkp
