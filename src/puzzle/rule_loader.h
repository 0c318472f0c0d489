// Reading a puzzle's [limits] and [[rules]] (internal to the loader): numbers or expressions of
// the case, evaluated for every case when the file is read so a bad one fails at its line.
#pragma once

#include "puzzle/puzzle.h"
#include "puzzle/toml_reader.h"

namespace vkp {

// [limits]: global_reads, global_writes, divergent_requests, global_atomics_per_workgroup (each a
// number or an expression), bank_conflicts and global_efficiency (numbers). After buffers,
// constants and cases are read. Throws an Error.
void parseLimits(const Reader& r, const toml::table& root, Puzzle& p);
// [[rules]]: what the statement forbids, as checks on the trace. After the cases too.
void parseRules(const Reader& r, const toml::table& root, Puzzle& p);

} // namespace vkp
