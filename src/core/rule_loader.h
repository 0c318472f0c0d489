// Reading a puzzle's [limits] and [[rules]] (internal to the loader): numbers or expressions of
// the case, evaluated for every case when the file is read so a bad one fails at its line.
#pragma once

#include "core/puzzle.h"
#include "core/toml_reader.h"

namespace vkp {

// [limits]: global_reads and global_writes, each a number or an expression. After buffers,
// constants and cases are read. Throws LoadFailure.
void parseLimits(const Reader& r, const toml::table& root, Puzzle& p);
// [[rules]]: what the statement forbids, as checks on the trace. After the cases too.
void parseRules(const Reader& r, const toml::table& root, Puzzle& p);

} // namespace vkp
