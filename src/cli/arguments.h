// The command line's table: the commands, the options each takes and the values they accept, and
// the help text that describes them. main parses argv with it; the app reads the parsed Args
// (base/args.h) without seeing this table.
#pragma once

#include "base/args.h"
#include "base/result.h"

namespace vkp::cli {

// Parses argv; a Usage error for an unknown command or option, an option the command does not
// take, a missing value, or a number out of its range (all from one table in arguments.cpp).
Result<Args> parseArgs(int argc, char** argv);

const std::string& helpText();

} // namespace vkp::cli
