// The command line's table: the commands and the unit that runs each, the options each takes and
// the values they accept, and the help text that describes them. main parses argv with it and
// runCommand (cli/commands.h) dispatches through it; the app reads the parsed Args (base/args.h)
// without seeing this table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "base/args.h"
#include "base/result.h"

namespace vkp::cli {

struct CommandContext; // cli/command_context.h

// A row of the table of commands: a command's name and the unit that runs it
// (cli/command_units.h).
struct CommandSpec {
    const char* name;
    int (*run)(CommandContext&); // the process exit status
    bool loadsPuzzles = true;    // the puzzles are loaded before `run` (a failure ends the run)
    std::optional<size_t> takes; // the most words after the command (`show map`: 1), if it has one
};

// The command of that name in the table, null for a name that is none.
const CommandSpec* findCommand(const std::string& name);

// Parses argv; a Usage error for an unknown command or option, an option the command does not
// take, a missing value, or a number out of its range (all from one table in arguments.cpp).
Result<Args> parseArgs(int argc, char** argv);

const std::string& helpText();

} // namespace vkp::cli
