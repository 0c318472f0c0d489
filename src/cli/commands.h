// The vkpuzzles commands; each returns the process exit status.
#pragma once

#include <iosfwd>

#include "base/args.h"

namespace vkp::cli {

inline constexpr int kExitPass = 0;  // every case passes
inline constexpr int kExitFail = 1;  // a case fails or the kernel does not compile
inline constexpr int kExitUsage = 2; // bad usage, bad puzzle file, no usable device

int runCommand(const Args& args, std::ostream& out, std::ostream& err);

} // namespace vkp::cli
