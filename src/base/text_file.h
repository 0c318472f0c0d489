// Reading text files that a learner or a stranger's puzzle pack controls (kernels, puzzle.toml,
// walkthroughs, drafts, progress, case files): regular files only, with a size limit, never
// blocking on a FIFO or a device and never throwing; and writing files whole or not at all.
// Every error names the path and says why.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"

namespace vkp {

// How large a file of one kind may be, and what to call it in the message.
struct FileLimit {
    uint64_t bytes;
    const char* what; // "a kernel file"
};

inline constexpr FileLimit kKernelFileLimit{1u << 20,
                                            "a kernel file"}; // 1 MiB: far past any kernel
inline constexpr FileLimit kPuzzleFileLimit{
    1u << 20, "a puzzle file"}; // puzzle.toml, walkthrough.toml, mutants.toml
inline constexpr FileLimit kStateFileLimit{16u << 20,
                                           "a saved state file"}; // drafts, progress, settings

// The whole file, less a UTF-8 byte order mark at its start, or an Io error (the path in `where`)
// saying why not: there is no such file, it is a folder, a FIFO, a device, a symbolic link loop,
// unreadable, or over the limit.
Result<std::string> readTextFile(const std::string& path,
                                 const FileLimit& limit = kKernelFileLimit);

// Writes `text` to a temporary file beside `path`, flushes it to disk and renames it over `path`,
// so a crash leaves either the old or the new file, never half of one. Creates missing folders.
Status writeFileAtomically(const std::string& path, const std::string& text);

// "1 MiB", "2.5 MiB", "700 bytes": a size for a message.
std::string sizeText(uint64_t bytes);

} // namespace vkp
