// Reading a puzzle's [[schedule]] tables (trace/forced_schedule.h) and its [lookback] table
// (views/lookback.h): how workgroups wait for each other; and its [[search]] tables: the cases
// the check generates beside them. Internal to the loader.
#pragma once

#include "puzzle/puzzle.h"
#include "puzzle/toml_reader.h"

namespace vkp {

// After buffers and cases are read. Throws an Error at the offending line.
void parseSchedules(const Reader& r, const toml::table& root, Puzzle& p);
// After buffers, cases and constants are read. Throws an Error at the offending line.
void parseLookback(const Reader& r, const toml::table& root, Puzzle& p);
// The [[search]] tables (check/case_search.h), after the cases. Throws an Error at the
// offending line.
void parseSearches(const Reader& r, const toml::table& root, Puzzle& p);

} // namespace vkp
