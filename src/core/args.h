// Command-line parsing for vkpuzzles: a command, positionals and --options.
// It lives in core, not in main: main (src/main) parses argv and hands the Args to the app or to a
// command, and both app and cli read them (appOptionsFrom, the commands), but they sit below main
// and may not include it, nor each other. core is the one layer below both that has no
// dependencies of its own, and this is plain data and pure functions (no device, no files).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace vkp {

struct Args {
    std::string command;                       // "list", "check", ... ("" for none)
    std::vector<std::string> positionals;      // after the command
    std::map<std::string, std::string> values; // --name VALUE or --name=VALUE (the last one given)
    std::vector<std::string> flags;            // --name
    std::vector<std::pair<std::string, std::string>>
        repeated; // options that may be given again (--input), in order

    bool has(const std::string& flag) const;
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> all(const std::string& name) const; // every value of a repeated option
};

// Parses argv; a Usage error for an unknown command or option, an option the command does not
// take, a missing value, or a number out of its range (all from one table in args.cpp).
Result<Args> parseArgs(int argc, char** argv);

// "a, b and c": words joined by `separator`, the last two by `last`.
std::string joined(const std::vector<std::string>& words, const std::string& separator,
                   const std::string& last);

const char* helpText();

} // namespace vkp
