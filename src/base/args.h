// The parsed command line of vkpuzzles: a command, positionals and --options, as plain data.
// main (src/main) parses argv with the command line's table (cli/arguments.h) and hands the Args
// to the app or to a command; both app and cli read them (appOptionsFrom, the commands), and they
// may not include each other, so the struct lives in a layer below both.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

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

// "a, b and c": words joined by `separator`, the last two by `last`.
std::string joined(const std::vector<std::string>& words, const std::string& separator,
                   const std::string& last);

} // namespace vkp
